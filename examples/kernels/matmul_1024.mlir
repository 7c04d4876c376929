// C = A . B for fp16 A, B, C of 1024 x 1024 on a 4 x 8 grid of tiles (32 cores): tile (x, y)
// computes the 256 x 128 block of C at rows 256x, columns 128y, walking K in steps of 128 by an
// scf.for whose iter_args carry the fp16 accumulator block (linalg.matmul adds each
// 256x128 . 128x128 product into it). The grid is the squarest split of C over 32 tiles: each
// tile reads K x (256 + 128) elements of A and B, the least for 32768 outputs (bench/schedule.py).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_1024(%A: index, %B: index, %C: index) attributes {grid = [4, 8]} {
  %c0 = arith.constant 0 : index
  %ck = arith.constant 128 : index
  %cK = arith.constant 1024 : index
  %cm = arith.constant 256 : index
  %cn = arith.constant 128 : index
  %x, %y = ktdp.get_compute_tile_id : index, index
  %Av = ktdp.construct_memory_view %A, sizes: [1024, 1024], strides: [1024, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [1024, 1024], strides: [1024, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [1024, 1024], strides: [1024, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
  %row = arith.muli %x, %cm : index
  %col = arith.muli %y, %cn : index
  %zero = arith.constant dense<0.000000e+00> : tensor<256x128xf16>
  %acc = scf.for %k = %c0 to %cK step %ck iter_args(%part = %zero) -> (tensor<256x128xf16>) {
    %at = ktdp.construct_access_tile %Av[%row, %k] {access_tile_order = #id, access_tile_set = #a_blk} : memref<1024x1024xf16> -> !ktdp.access_tile<256x128xindex>
    %bt = ktdp.construct_access_tile %Bv[%k, %col] {access_tile_order = #id, access_tile_set = #b_blk} : memref<1024x1024xf16> -> !ktdp.access_tile<128x128xindex>
    %a = ktdp.load %at : !ktdp.access_tile<256x128xindex> -> tensor<256x128xf16>
    %b = ktdp.load %bt : !ktdp.access_tile<128x128xindex> -> tensor<128x128xf16>
    %next = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x128xf16>) outs(%part : tensor<256x128xf16>) -> tensor<256x128xf16>
    scf.yield %next : tensor<256x128xf16>
  }
  %ct = ktdp.construct_access_tile %Cv[%row, %col] {access_tile_order = #id, access_tile_set = #c_blk} : memref<1024x1024xf16> -> !ktdp.access_tile<256x128xindex>
  ktdp.store %acc, %ct : tensor<256x128xf16>, !ktdp.access_tile<256x128xindex>
  return
}
