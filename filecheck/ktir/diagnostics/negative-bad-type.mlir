// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// A memref of an element type that does not exist.
// CHECK-NOT: Traceback
// CHECK: negative-bad-type.mlir:[[# @LINE + 1]]:44: error: Expected shape type.
func.func @negative_bad_type(%a: memref<32xfoo>) {
  return
}
