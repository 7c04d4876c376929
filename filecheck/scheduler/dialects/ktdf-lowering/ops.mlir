// RUN: ktir-opt %s | ktir-opt | filecheck %s
// RUN: KTIR_GENERIC_ROUNDTRIP | filecheck %s
// RUN: ktir-opt %s -p canonicalize,cse,dce | filecheck %s --check-prefix=KEPT

/// ktdf_lowering.execute_on and ktdf_lowering.signal round-trip (operands without
/// parentheses, attributes after the region) and are never erased as dead: unknown effects.

// CHECK-LABEL: func.func @lowered(
// CHECK-SAME:    %[[U0:.*]]: index, %[[U1:.*]]: index)
// CHECK-NEXT:    ktdf_lowering.execute_on %[[U0]], %[[U1]] {
// CHECK-NEXT:      ktdf_lowering.execute_on %[[U1]] {
// CHECK-NEXT:        %{{.*}} = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      } {applicable_units = ["SFU"]}
// CHECK-NEXT:      ktdf_lowering.signal %[[U0]], %[[U1]]
// CHECK-NEXT:      ktdf_lowering.signal %[[U1]] {applicable_units = ["L1LU", "SFU"]}
// CHECK-NEXT:    }
// CHECK-NEXT:    ktdf_lowering.execute_on {
// CHECK-NEXT:    } {applicable_units = ["MNILU"], stage = 3 : i64}
// CHECK-NEXT:    ktdf_lowering.signal {applicable_units = ["MNILU"]}
// CHECK-NEXT:    func.return
// KEPT-LABEL:  func.func @lowered(
// KEPT-COUNT-2: ktdf_lowering.execute_on
// KEPT-COUNT-2: ktdf_lowering.signal
// KEPT:         ktdf_lowering.execute_on
// KEPT:         ktdf_lowering.signal
func.func @lowered(%u0: index, %u1: index) {
  ktdf_lowering.execute_on %u0, %u1 {
    ktdf_lowering.execute_on %u1 {
      %c = arith.constant 1.0 : f32
    } {applicable_units = ["SFU"]}
    ktdf_lowering.signal %u0, %u1
    ktdf_lowering.signal %u1 {applicable_units = ["L1LU", "SFU"]}
  }
  ktdf_lowering.execute_on {
  } {applicable_units = ["MNILU"], stage = 3 : i64}
  ktdf_lowering.signal {applicable_units = ["MNILU"]}
  return
}
