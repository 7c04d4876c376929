// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// An op no dialect defines.
// CHECK-NOT: Traceback
// CHECK: negative-unknown-op.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: Operation ktdp.frobnicate is not registered
// CHECK-NEXT: %t = ktdp.frobnicate %a : index
func.func @negative_unknown_op(%a: index) {
  %t = ktdp.frobnicate %a : index
  return
}
