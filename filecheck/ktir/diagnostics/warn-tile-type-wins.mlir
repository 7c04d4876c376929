// RUN: ktir-opt %s 2>&1 >/dev/null | filecheck %s --check-prefix=WARN
// RUN: ktir-opt %s 2>/dev/null | filecheck %s
/// Upstream writes access tiles whose type is smaller than their set (ktir-mlir-frontend's and
/// the RFC's tensor-extract-slice: 1x64 over two rows) or static over an extent bounded by a
/// symbol (basic-runtime-arg: 32x64 over d0 < s0). The type's shape wins: the set gets the
/// box's bound, counted from where the set starts, and the parser warns at the type.

// WARN: warn-tile-type-wins.mlir:[[# @LINE + 5]]:27: warning: result shape 1x64 is smaller than the extents 2x64 of the access_tile_set under its order map; the type's shape wins (the tile is the set's points within that box, from where the set starts)
// CHECK-LABEL: func.func @smaller_type
// CHECK: ktdp.construct_access_tile %{{.*}}[%{{.*}}, %{{.*}}] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : ((d0 + -2) >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0, ((d0 * -1) + 2) >= 0)>} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
func.func @smaller_type(%v: memref<8x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 - 2 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>}
    : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
  return
}

// WARN: warn-tile-type-wins.mlir:[[# @LINE + 5]]:27: warning: result shape 32x64 is static where the extent of the access_tile_set under its order map (?x64) depends on a symbol; the type's shape wins (the tile is the set's points within that box, from where the set starts)
// CHECK-LABEL: func.func @static_over_symbol
// CHECK: access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, (((d0 * -1) + s0) + -1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0, ((d0 * -1) + 31) >= 0)>} : memref<?x64xf16> -> !ktdp.access_tile<32x64xindex>
func.func @static_over_symbol(%v: memref<?x64xf16>, %i: index, %n: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] symbols(%n) {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>}
    : memref<?x64xf16> -> !ktdp.access_tile<32x64xindex>
  return
}
