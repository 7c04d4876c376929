// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// An access tile without its access_tile_order.
// CHECK-NOT: Traceback
// CHECK: negative-missing-attribute.mlir:[[# @LINE + 2]]:35: error: ktdp.construct_access_tile needs a 'access_tile_order' attribute
func.func @negative_missing_attribute(%v: memref<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  return
}
