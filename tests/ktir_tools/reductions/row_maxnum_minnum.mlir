// Row maximum and minimum ignoring NaN (maxnumf / minnumf) of 4 x 256 fp16: the lane
// partials start from -inf / +inf, so reduction-loop-exposure tests only the contribution for
// NaN. The test feeds NaNs (scattered, and a whole row of them: the result is the init).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#v = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @rowmaxnum(%X: index, %MX: index, %MN: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x256xf16>
  %MXv = ktdp.construct_memory_view %MX, sizes: [4], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %MNv = ktdp.construct_memory_view %MN, sizes: [4], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_order = #id, access_tile_set = #all} : memref<4x256xf16> -> !ktdp.access_tile<4x256xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<4x256xindex> -> tensor<4x256xf16>
  %ninf = arith.constant 0xFC00 : f16
  %pinf = arith.constant 0x7C00 : f16
  %m0 = tensor.splat %ninf : tensor<4xf16>
  %n0 = tensor.splat %pinf : tensor<4xf16>
  %m = linalg.reduce { arith.maxnumf } ins(%x : tensor<4x256xf16>) outs(%m0 : tensor<4xf16>) dimensions = [1]
  %n = linalg.reduce { arith.minnumf } ins(%x : tensor<4x256xf16>) outs(%n0 : tensor<4xf16>) dimensions = [1]
  %mt = ktdp.construct_access_tile %MXv[%c0] {access_tile_order = #id1, access_tile_set = #v} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %nt = ktdp.construct_access_tile %MNv[%c0] {access_tile_order = #id1, access_tile_set = #v} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  ktdp.store %m, %mt : tensor<4xf16>, !ktdp.access_tile<4xindex>
  ktdp.store %n, %nt : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}
