// x[4, 256] . W[256, 1024] on 4 tiles, tile t computing the 256 columns [256 t, 256 t + 256):
// one k step (no K loop), so every step's blocks are resident in an instance.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#w_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#w_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @xw(%X: index, %W: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c256 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x256xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [256, 1024], strides: [1024, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<256x1024xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 1024], strides: [1024, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<4x1024xf16>
  %xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_order = #id, access_tile_set = #x_set} : memref<4x256xf16> -> !ktdp.access_tile<4x256xindex>
  %wt = ktdp.construct_access_tile %Wv[%c0, %col] {access_tile_order = #id, access_tile_set = #w_blk} : memref<256x1024xf16> -> !ktdp.access_tile<256x256xindex>
  %yt = ktdp.construct_access_tile %Yv[%c0, %col] {access_tile_order = #id, access_tile_set = #x_set} : memref<4x1024xf16> -> !ktdp.access_tile<4x256xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<4x256xindex> -> tensor<4x256xf16>
  %w = ktdp.load %wt : !ktdp.access_tile<256x256xindex> -> tensor<256x256xf16>
  %init = tensor.empty() : tensor<4x256xf16>
  %y = linalg.matmul ins(%x, %w : tensor<4x256xf16>, tensor<256x256xf16>) outs(%init : tensor<4x256xf16>) -> tensor<4x256xf16>
  ktdp.store %y, %yt : tensor<4x256xf16>, !ktdp.access_tile<4x256xindex>
  return
}
