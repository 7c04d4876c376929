// A 32x2 tile transposed to 2x32: the vector covers both dims (2x32) unless one dim alone
// is vectorised (1x32, each vector one column of the loaded tile).
module {
func.func @transpose_32x2(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [32, 2], strides: [2, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 1 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x2xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 1 >= 0)>} : memref<32x2xf16> -> !ktdp.access_tile<32x2xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<32x2xindex> -> tensor<32x2xf16>
  %e = tensor.empty() : tensor<2x32xf16>
  %b = linalg.transpose ins(%a : tensor<32x2xf16>) outs(%e : tensor<2x32xf16>) permutation = [1, 0]
  %yv = ktdp.construct_memory_view %y, sizes: [2, 32], strides: [32, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
  ktdp.store %b, %yt : tensor<2x32xf16>, !ktdp.access_tile<2x32xindex>
  func.return
}
}
