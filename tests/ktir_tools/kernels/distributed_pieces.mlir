// C = A + B over 8x64, A in three pieces: rows 0..3 in device memory, 4..5 in tile 0's
// scratchpad (column-major), 6..7 in tile 1's (test_cross_core.py).

#g = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#l0 = affine_set<(d0, d1) : (d0 >= 4, -d0 + 5 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#l1 = affine_set<(d0, d1) : (d0 >= 6, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

func.func @three_pieces(%B: index, %C: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %ag = arith.constant 0 : index
  %al = arith.constant 1024 : index
  %vg = ktdp.construct_memory_view %ag, sizes: [4, 64], strides: [64, 1] {coordinate_set = #g, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %v0 = ktdp.construct_memory_view %al, sizes: [2, 64], strides: [1, 2] {coordinate_set = #l0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<2x64xf16>
  %v1 = ktdp.construct_memory_view %al, sizes: [2, 64], strides: [64, 1] {coordinate_set = #l1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<2x64xf16>
  %A = ktdp.construct_distributed_memory_view (%vg, %v0, %v1 : memref<4x64xf16>, memref<2x64xf16>, memref<2x64xf16>) : memref<8x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %at = ktdp.construct_access_tile %A[%c0, %c0] {access_tile_order = #o, access_tile_set = #all} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_order = #o, access_tile_set = #all} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_order = #o, access_tile_set = #all} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %a = ktdp.load %at : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %b = ktdp.load %bt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %s = arith.addf %a, %b : tensor<8x64xf16>
  ktdp.store %s, %ct : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}
