// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// A value used but never defined.
// CHECK-NOT: Traceback
// CHECK: negative-undefined-value.mlir:[[# @LINE + 2]]:3: error: use of undefined value '%row'
func.func @negative_undefined_value(%a: index) {
  %c = arith.addi %a, %row : index
  return
}
