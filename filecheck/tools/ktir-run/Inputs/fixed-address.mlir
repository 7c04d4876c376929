// An RFC-style kernel: no arguments, its tensors at constant element addresses of global
// memory; each of the 4 tiles adds its 2 rows of A and B into C.
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @fixed() attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %a = arith.constant 1024 : index
  %b = arith.constant 2048 : index
  %c = arith.constant 4096 : index
  %t = ktdp.get_compute_tile_id : index
  %r = arith.muli %t, %c2 : index
  %A_view = ktdp.construct_memory_view %a, sizes: [8, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %B_view = ktdp.construct_memory_view %b, sizes: [8, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %C_view = ktdp.construct_memory_view %c, sizes: [8, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %ta = ktdp.construct_access_tile %A_view[%r, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
  %tb = ktdp.construct_access_tile %B_view[%r, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
  %tc = ktdp.construct_access_tile %C_view[%r, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %y = ktdp.load %tb : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %s = arith.addf %x, %y : tensor<2x64xf16>
  ktdp.store %s, %tc : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
