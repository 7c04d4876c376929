// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// A tile type larger than its set stays an error (unlike a smaller one, warn-tile-type-wins):
/// nothing says where the extra rows lie, so executing it would be ambiguous.
// CHECK-NOT: Traceback
// CHECK-NOT: warning
// CHECK: negative-tile-type-larger.mlir:[[# @LINE + 4]]:3: error: 'ktdp.construct_access_tile' op result shape 4x64 does not match the extents 2x64 of the access_tile_set under its order map: ambiguous, the set does not say where the extra positions lie
// CHECK-NEXT: %t = ktdp.construct_access_tile
// CHECK-NEXT: ^
func.func @negative_tile_type_larger(%v: memref<8x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  return
}
