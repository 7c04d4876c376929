// Y[m, k] = X[I[m, k], k]: an index per element. The vector stays 1 along both dims the
// index depends on, so each transfer gathers one element (correct, not fast).
#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @per_lane(%X: index, %I: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %x = ktdp.construct_memory_view %X, sizes: [8, 16], strides: [16, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %i = ktdp.construct_memory_view %I, sizes: [8, 16], strides: [16, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<8x16xi32>
  %y = ktdp.construct_memory_view %Y, sizes: [8, 16], strides: [16, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %x[ind(%i[%m, %k]), (%k)] {variables_space_order = #id, variables_space_set = #s} : memref<8x16xf16>, memref<8x16xi32> -> !ktdp.access_tile<8x16xindex>
  %v = ktdp.load %g : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %yt = ktdp.construct_access_tile %y[%c0, %c0] {access_tile_order = #id, access_tile_set = #s} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  ktdp.store %v, %yt : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
  return
}
