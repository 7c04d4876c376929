// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// An integer literal that does not fit its type: the caret is under the literal.
// CHECK-NOT: Traceback
// CHECK: negative-huge-literal.mlir:[[# @LINE + 4]]:23: error: Integer value 99999999999999999999999 is out of range for type i32
// CHECK-NEXT: %c = arith.constant 99999999999999999999999 : i32
// CHECK-NEXT: {{^ +}}^^^^^^^^^^^^^^^^^^^^^^^{{$}}
func.func @negative_huge_literal() {
  %c = arith.constant 99999999999999999999999 : i32
  return
}
