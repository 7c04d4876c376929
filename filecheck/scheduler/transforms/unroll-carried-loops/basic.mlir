// RUN: ktir-opt %s --allow-unregistered-dialect -p unroll-carried-loops | filecheck %s
// RUN: ktir-opt %s --allow-unregistered-dialect -p unroll-carried-loops,unroll-carried-loops | filecheck %s

/// A loop with iter_args and a constant trip count becomes its iterations in line, each
/// reading the values the previous one yielded; the loop's results are the last ones. An
/// inner loop bounded by the outer index unrolls once the outer one has (i = 0: no
/// iteration, i = 1: one). A loop without a known trip count is left alone.

// CHECK-LABEL: func.func @nested
// CHECK-SAME:    (%[[X:.*]]: f32)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[I0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A0:.*]] = arith.addf %[[X]], %[[X]] : f32
// CHECK-NEXT:    %[[I1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[J0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[M0:.*]] = arith.mulf %[[A0]], %[[A0]] : f32
// CHECK-NEXT:    %[[A1:.*]] = arith.addf %[[M0]], %[[M0]] : f32
// CHECK-NEXT:    "test.op"(%[[A1]]) : (f32) -> ()
// CHECK-NOT:     scf.for
func.func @nested(%x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %x) -> (f32) {
    %m = scf.for %j = %c0 to %i step %c1 iter_args(%b = %a) -> (f32) {
      %p = arith.mulf %b, %b : f32
      scf.yield %p : f32
    }
    %s = arith.addf %m, %m : f32
    scf.yield %s : f32
  }
  "test.op"(%r) : (f32) -> ()
  return
}

// CHECK-LABEL: func.func @left_alone
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
func.func @left_alone(%x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (f32) {
    scf.yield %a : f32
  }
  "test.op"(%r) : (f32) -> ()
  return
}
