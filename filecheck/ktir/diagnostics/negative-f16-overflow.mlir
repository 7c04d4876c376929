// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// 1.0e5 does not fit in f16 (max 65504); xDSL raises OverflowError, we report it.
// CHECK-NOT: Traceback
// CHECK: negative-f16-overflow.mlir:[[# @LINE + 2]]:23: error: literal out of range
func.func @negative_f16_overflow() {
  %c = arith.constant 1.0e5 : f16
  return
}
