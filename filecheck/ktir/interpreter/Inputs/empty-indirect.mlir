#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#vars = affine_set<(d0, d1)[n] : (d0 >= 0, -d0 + n - 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%X: index, %P: index, %Y: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 4], strides: [4, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x4xf32>
  %Pv = ktdp.construct_memory_view %P, sizes: [4], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<4xindex>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 4], strides: [4, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x4xf32>
  %src = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %Xv[ind(%Pv[%i]), (%j)] symbols(%n) {variables_space_order = #id, variables_space_set = #vars} : memref<8x4xf32>, memref<4xindex> -> !ktdp.access_tile<?x4xindex>
  %x = ktdp.load %src : !ktdp.access_tile<?x4xindex> -> tensor<?x4xf32>
  %dst = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %Yv[ind(%Pv[%i]), (%j)] symbols(%n) {variables_space_order = #id, variables_space_set = #vars} : memref<8x4xf32>, memref<4xindex> -> !ktdp.access_tile<?x4xindex>
  ktdp.store %x, %dst : tensor<?x4xf32>, !ktdp.access_tile<?x4xindex>
  return
}
