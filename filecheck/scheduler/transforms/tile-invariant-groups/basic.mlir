// RUN: ktir-opt %s -p 'compute-group-extraction,tile-invariant-groups' | filecheck %s

/// Of two compute groups on a grid of 2, the one that reads no tile id (both tiles would copy
/// the same rows to the same place) runs on one tile: `ktdf.active_tiles = 1`, its grid kept.
/// The one whose rows depend on the tile id, and one that reads each tile's own scratchpad
/// (`ct_local` without ct_id), run on every tile.

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

// CHECK:       func.func @local_schedule_0() attributes {grid = [2 : i64], ktdf.active_tiles = 1 : i64}
// CHECK:       func.func @local_schedule_1(%{{.*}}: index) attributes {grid = [2 : i64]} {
// CHECK:       func.func @local_schedule_2(%{{.*}}: index) attributes {grid = [2 : i64]} {
func.func @groups(%B: index, %C: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %a = arith.constant 0 : index
  %x = arith.constant 512 : index
  %y = arith.constant 1024 : index
  %id = ktdp.get_compute_tile_id : index
  %row = arith.muli %id, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %xt = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %yt = ktdp.construct_access_tile %Y[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %v = ktdp.load %xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %v, %yt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  %Bv = ktdp.construct_memory_view %B, sizes: [8, 64], strides: [64, 1] {coordinate_set = #b, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  %w = ktdp.load %bt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %n = arith.negf %w : tensor<4x64xf16>
  ktdp.store %n, %bt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  %O = ktdp.construct_memory_view %a, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<ct_local>} : memref<4x64xf16>
  %ot = ktdp.construct_access_tile %O[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %u = ktdp.load %ot : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %u, %ct : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
