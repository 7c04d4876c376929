// Each tile copies the 4x64 view in tile 1's scratchpad (ct_id = 1, at element 4096) to its
// own rows of B: tile 0 reads it over the ring, tile 1 from its own scratchpad.
#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>
func.func @remote(%B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %a0 = arith.constant 4096 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c4 : index
  %X = ktdp.construct_memory_view %a0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [8, 64], strides: [64, 1] {coordinate_set = #b, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %xt = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %x, %bt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
