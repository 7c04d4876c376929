// The right half of each row of a 4 x 128 fp16 matrix divided by its maximum, on 4 tiles (one
// row each). X and Y are seen through views of their right halves only: based at column 64,
// sizes [4, 64], with coordinate sets d1 in [64, 127] (the columns of the whole matrix), so
// tiles subscript columns 64.. as the whole matrix does (normalize-view-origins). The left
// half of Y is not written.
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - 64 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @right_half_max(%X: index, %Y: index) attributes {grid = [4]} {
  %c64 = arith.constant 64 : index
  %ninf = arith.constant 0xFC00 : f16
  %t = ktdp.get_compute_tile_id : index
  %X1 = arith.addi %X, %c64 : index
  %Y1 = arith.addi %Y, %c64 : index
  %Xv = ktdp.construct_memory_view %X1, sizes: [4, 64], strides: [128, 1] {coordinate_set = #half, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Yv = ktdp.construct_memory_view %Y1, sizes: [4, 64], strides: [128, 1] {coordinate_set = #half, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %xt = ktdp.construct_access_tile %Xv[%t, %c64] {access_tile_order = #id, access_tile_set = #row} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %m0 = tensor.splat %ninf : tensor<1xf16>
  %mx = linalg.reduce { arith.maximumf } ins(%x : tensor<1x64xf16>) outs(%m0 : tensor<1xf16>) dimensions = [1]
  %e = tensor.empty() : tensor<1x64xf16>
  %mb = linalg.broadcast ins(%mx : tensor<1xf16>) outs(%e : tensor<1x64xf16>) dimensions = [1]
  %y = arith.divf %x, %mb : tensor<1x64xf16>
  %yt = ktdp.construct_access_tile %Yv[%t, %c64] {access_tile_order = #id, access_tile_set = #row} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %y, %yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
