// Row scatter-add  Out[Ids[i], :] = X[i, :] + Y[i, :]  for 64 rows of 64 fp16 features into a
// 100-row table, on one tile. The rows are stored through one indirect access tile: its
// dimension 0 is read from the i32 index view Ids at the row's position, its dimension 1 is
// the feature (direct). Rows scattered to the same table row: the last in row order wins.
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scatter_add(%X: index, %Y: index, %Ids: index, %Out: index) {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Iv = ktdp.construct_memory_view %Ids, sizes: [64], strides: [1] {coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
  %Ov = ktdp.construct_memory_view %Out, sizes: [100, 64], strides: [64, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
  %xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_order = #id, access_tile_set = #mat} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_order = #id, access_tile_set = #mat} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %y = ktdp.load %yt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %e = tensor.empty() : tensor<64x64xf16>
  %sum = linalg.add ins(%x, %y : tensor<64x64xf16>, tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
  %st = ktdp.construct_indirect_access_tile intermediate_variables(%i, %d) %Ov[ind(%Iv[%i]), (%d)] {variables_space_order = #id, variables_space_set = #mat} : memref<100x64xf16>, memref<64xi32> -> !ktdp.access_tile<64x64xindex>
  ktdp.store %sum, %st : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
  return
}
