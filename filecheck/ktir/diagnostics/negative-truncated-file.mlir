// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// A file cut off in the middle of a function: located error at the end, exit 1.
// CHECK-NOT: Traceback
// CHECK: negative-truncated-file.mlir:[[# @LINE + 3]]:1: error: unexpected end of input
func.func @negative_truncated(%a: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
