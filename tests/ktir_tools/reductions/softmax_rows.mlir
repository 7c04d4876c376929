#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @softmax(%X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.000000e+00 : f16
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 1024], strides: [1024, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x1024xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 1024], strides: [1024, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x1024xf16>
  %xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x1024xf16> -> !ktdp.access_tile<1x1024xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
  %m0 = tensor.splat %ninf : tensor<1xf16>
  %mx = linalg.reduce ins(%x : tensor<1x1024xf16>) outs(%m0 : tensor<1xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %r = arith.maximumf %in, %acc : f16
      linalg.yield %r : f16
    }
  %e = tensor.empty() : tensor<1x1024xf16>
  %mb = linalg.broadcast ins(%mx : tensor<1xf16>) outs(%e : tensor<1x1024xf16>) dimensions = [1]
  %d = arith.subf %x, %mb : tensor<1x1024xf16>
  %ex = math.exp %d : tensor<1x1024xf16>
  %s0 = tensor.splat %zero : tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%ex : tensor<1x1024xf16>) outs(%s0 : tensor<1xf16>) dimensions = [1]
  %sb = linalg.broadcast ins(%sum : tensor<1xf16>) outs(%e : tensor<1x1024xf16>) dimensions = [1]
  %y = arith.divf %ex, %sb : tensor<1x1024xf16>
  %yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x1024xf16> -> !ktdp.access_tile<1x1024xindex>
  ktdp.store %y, %yt : tensor<1x1024xf16>, !ktdp.access_tile<1x1024xindex>
  return
}
