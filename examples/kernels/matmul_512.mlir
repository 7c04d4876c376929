// C = A . B for fp16 A, B, C of 512 x 512 on a 4 x 8 grid of tiles (32 cores): tile (x, y)
// computes the 128 x 64 block of C at rows 128x, columns 64y, walking K in steps of 128 by an
// scf.for whose iter_args carry the fp16 accumulator block (linalg.matmul adds each
// 128x128 . 128x64 product into it). The grid is the squarest split of C over 32 tiles: each
// tile reads K x (128 + 64) elements of A and B, the least for 8192 outputs (bench/schedule.py).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_512(%A: index, %B: index, %C: index) attributes {grid = [4, 8]} {
  %c0 = arith.constant 0 : index
  %ck = arith.constant 128 : index
  %cK = arith.constant 512 : index
  %cm = arith.constant 128 : index
  %cn = arith.constant 64 : index
  %x, %y = ktdp.get_compute_tile_id : index, index
  %Av = ktdp.construct_memory_view %A, sizes: [512, 512], strides: [512, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<512x512xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [512, 512], strides: [512, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<512x512xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [512, 512], strides: [512, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<512x512xf16>
  %row = arith.muli %x, %cm : index
  %col = arith.muli %y, %cn : index
  %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf16>
  %acc = scf.for %k = %c0 to %cK step %ck iter_args(%part = %zero) -> (tensor<128x64xf16>) {
    %at = ktdp.construct_access_tile %Av[%row, %k] {access_tile_order = #id, access_tile_set = #a_blk} : memref<512x512xf16> -> !ktdp.access_tile<128x128xindex>
    %bt = ktdp.construct_access_tile %Bv[%k, %col] {access_tile_order = #id, access_tile_set = #b_blk} : memref<512x512xf16> -> !ktdp.access_tile<128x64xindex>
    %a = ktdp.load %at : !ktdp.access_tile<128x128xindex> -> tensor<128x128xf16>
    %b = ktdp.load %bt : !ktdp.access_tile<128x64xindex> -> tensor<128x64xf16>
    %next = linalg.matmul ins(%a, %b : tensor<128x128xf16>, tensor<128x64xf16>) outs(%part : tensor<128x64xf16>) -> tensor<128x64xf16>
    scf.yield %next : tensor<128x64xf16>
  }
  %ct = ktdp.construct_access_tile %Cv[%row, %col] {access_tile_order = #id, access_tile_set = #c_blk} : memref<512x512xf16> -> !ktdp.access_tile<128x64xindex>
  ktdp.store %acc, %ct : tensor<128x64xf16>, !ktdp.access_tile<128x64xindex>
  return
}
