// examples/kernels/gather_add.mlir with a table whose coordinate set is empty in dimension 0
// (rows 4110 to 99): the seeded Ids have no range to be drawn from (fuzz case, seed 1).
#table = affine_set<(d0, d1) : (d0 >= 4110, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather_add(%Table: index, %Ids: index, %Pos: index, %Out: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %t = ktdp.get_compute_tile_id : index
  %first = arith.muli %t, %c16 : index
  %Tv = ktdp.construct_memory_view %Table, sizes: [100, 64], strides: [64, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
  %Iv = ktdp.construct_memory_view %Ids, sizes: [64], strides: [1] {coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
  %Pv = ktdp.construct_memory_view %Pos, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Ov = ktdp.construct_memory_view %Out, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %gt = ktdp.construct_indirect_access_tile intermediate_variables(%i, %d) %Tv[ind(%Iv[%first + %i]), (%d)] {variables_space_order = #id, variables_space_set = #vars} : memref<100x64xf16>, memref<64xi32> -> !ktdp.access_tile<16x64xindex>
  %pt = ktdp.construct_access_tile %Pv[%first, %c0] {access_tile_order = #id, access_tile_set = #vars} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
  %rows = ktdp.load %gt : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
  %pos = ktdp.load %pt : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
  %e = tensor.empty() : tensor<16x64xf16>
  %sum = linalg.add ins(%rows, %pos : tensor<16x64xf16>, tensor<16x64xf16>) outs(%e : tensor<16x64xf16>) -> tensor<16x64xf16>
  %ot = ktdp.construct_access_tile %Ov[%first, %c0] {access_tile_order = #id, access_tile_set = #vars} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
  ktdp.store %sum, %ot : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
  return
}
