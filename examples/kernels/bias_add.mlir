// Y = X + b: a 128x256 fp16 activation plus a bias row broadcast over its rows, on 16 tiles.
// Each tile handles 8 rows [8*id, 8*id + 8); every tile reads the whole 1x256 bias and
// broadcasts it with a linalg.generic whose input map drops the row (d0, d1) -> (0, d1).
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#brow = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#xall = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#ball = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (0, d1)>
func.func @bias_add(%X: index, %b: index, %Y: index) attributes {grid = [16]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c8 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [128, 256], strides: [256, 1] {coordinate_set = #xall, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [1, 256], strides: [256, 1] {coordinate_set = #ball, memory_space = #ktdp.memory_space<global>} : memref<1x256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [128, 256], strides: [256, 1] {coordinate_set = #xall, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row0, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<128x256xf16> -> !ktdp.access_tile<8x256xindex>
  %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_order = #id, access_tile_set = #brow} : memref<1x256xf16> -> !ktdp.access_tile<1x256xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row0, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<128x256xf16> -> !ktdp.access_tile<8x256xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<8x256xindex> -> tensor<8x256xf16>
  %brow = ktdp.load %bt : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
  %e0 = tensor.empty() : tensor<8x256xf16>
  %bb = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel"]} ins(%brow : tensor<1x256xf16>) outs(%e0 : tensor<8x256xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<8x256xf16>
  %e1 = tensor.empty() : tensor<8x256xf16>
  %y = linalg.add ins(%x, %bb : tensor<8x256xf16>, tensor<8x256xf16>) outs(%e1 : tensor<8x256xf16>) -> tensor<8x256xf16>
  ktdp.store %y, %Yt : tensor<8x256xf16>, !ktdp.access_tile<8x256xindex>
  return
}
