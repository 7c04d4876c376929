// RUN: ktir-opt %s -p ktir-legality-check --split-input-file --verify-diagnostics | filecheck %s

/// ktir-legality-check stops at the first op outside what the scheduler lowers end to end and
/// says which op and why; one chunk per condition.

func.func @negative_iter_args_dynamic(%x: f16, %n: index) -> f16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (f16) {
    scf.yield %a : f16
  }
  return %r : f16
}
// CHECK: error: {{.*}}scf.for with loop-carried values (iter_args) is unrolled, but its trip count is not known at compile time (bind the scalar arguments its bounds read with --arg): not supported by the scheduler yet

// -----

func.func @negative_iter_args_long(%x: f16) -> f16 {
  %c0 = arith.constant 0 : index
  %c65 = arith.constant 65 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c65 step %c1 iter_args(%a = %x) -> (f16) {
    scf.yield %a : f16
  }
  return %r : f16
}
// CHECK: error: {{.*}}scf.for with loop-carried values (iter_args) is unrolled, but it has 65 iterations, more than the 64 unrolled: not supported by the scheduler yet

// -----

func.func @negative_iter_args_not_unrolled(%x: f16) -> f16 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> (f16) {
    scf.yield %a : f16
  }
  return %r : f16
}
// CHECK: error: {{.*}}scf.for with loop-carried values (iter_args): run unroll-carried-loops before this check (the pipeline does)

// -----

func.func @negative_while(%b: i1) {
  scf.while () : () -> () {
    scf.condition(%b)
  } do {
    scf.yield
  }
  return
}
// CHECK: error: {{.*}}scf.while loops: not supported by the scheduler yet

// -----

func.func @negative_tile_dependent_loop() attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = ktdp.get_compute_tile_id : index
  %r = scf.for %i = %c0 to %t step %c1 iter_args(%a = %c0) -> (index) {
    scf.yield %i : index
  }
  return
}
// CHECK: error: {{.*}}loop bounds that depend on the compute tile id: the trip count differs between tiles (tile 0: 0, tile 1: 1), and the host runs loops once for all tiles: the largest count could run on every tile with the extra iterations masked off, but it carries values (iter_args), which the extra iterations would change: not supported by the scheduler yet

// -----

func.func @negative_tile_dependent_loop_not_normalized() attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = ktdp.get_compute_tile_id : index
  scf.for %i = %c0 to %t step %c1 {
  }
  return
}
// CHECK: error: {{.*}}loop bounds that depend on the compute tile id: the trip count differs between tiles (tile 0: 0, tile 1: 1); run normalize-tile-loops before this check (the pipeline does): it runs the largest count on every tile

// -----

func.func @negative_tile_loop_argument(%n: index) attributes {grid = [4]} {
  %c1 = arith.constant 1 : index
  %t = ktdp.get_compute_tile_id : index
  scf.for %i = %t to %n step %c1 {
  }
  return
}
// CHECK: error: {{.*}}loop bounds that depend on the compute tile id: they depend on more than the tile id and constants (scalar arguments can be bound with --arg): not supported by the scheduler yet

// -----

func.func @negative_tile_dependent_if() attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
  }
  return
}
// CHECK: error: {{.*}}control flow that depends on the compute tile id: not supported by the scheduler yet
