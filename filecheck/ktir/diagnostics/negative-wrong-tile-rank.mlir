// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// A 2-D access tile whose type has rank 1.
// CHECK-NOT: Traceback
// CHECK: negative-wrong-tile-rank.mlir:[[# @LINE + 4]]:3: error: 'ktdp.construct_access_tile' op result rank 1 must equal the access_tile_set dims (2)
// CHECK-NEXT: %t = ktdp.construct_access_tile
// CHECK-NEXT: ^
func.func @negative_wrong_tile_rank(%v: memref<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<2048xindex>
  return
}
