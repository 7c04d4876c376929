// RUN: ktir-opt %s -p ktir-legality-check --split-input-file --verify-diagnostics | filecheck %s

/// ktir-legality-check stops at the first op outside what the scheduler lowers end to end and
/// says which op and why; one chunk per condition.

func.func @negative_iter_args(%x: f16) -> f16 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> (f16) {
    scf.yield %a : f16
  }
  return %r : f16
}
// CHECK: error: {{.*}}scf.for with loop-carried values (iter_args): not supported by the scheduler yet

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
  scf.for %i = %c0 to %t step %c1 {
  }
  return
}
// CHECK: error: {{.*}}loop bounds that depend on the compute tile id: not supported by the scheduler yet

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
