// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// `ktdf_arch.*` attributes on ordinary ops (device binding, feature requirements) are checked
/// when any file is verified, not only when a device is loaded.
// CHECK-NOT: Traceback
// CHECK: negative-arch-attribute.mlir:[[# @LINE + 1]]:1: error: 'func.func' op 'ktdf_arch.features' intrinsic requires dictionary attribute
func.func @f() attributes {ktdf_arch.features = "a"} {
  return
}
