// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// An affine set that names a dimension it does not declare.
// CHECK-NOT: Traceback
// CHECK: negative-bad-affine-set.mlir:[[# @LINE + 1]]:51: error: Identifier not in space d1
#set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0)>
func.func @negative_bad_affine_set(%a: index) {
  return
}
