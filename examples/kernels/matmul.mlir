// C = A . B for fp16 A (64 x K), B (K x 8192), C (64 x 8192) on a 2 x 16 grid of tiles.
// Tile (x, y) computes the 32 x 512 block of C at rows 32x, columns 512y. The K dimension is
// walked in steps of 128 by an scf.for whose iter_args carry the fp16 accumulator block;
// linalg.matmul adds each 32x128 . 128x512 product into it. K is a kernel argument.
#a_all = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#b_all = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#c_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul(%A: index, %B: index, %C: index, %K: index) attributes {grid = [2, 16]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %x, %y = ktdp.get_compute_tile_id : index, index
  %Av = ktdp.construct_memory_view %A, sizes: [64, %K], strides: [%K, 1] {coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [%K, 8192], strides: [8192, 1] {coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<?x8192xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf16>
  %row = arith.muli %x, %c32 : index
  %col = arith.muli %y, %c512 : index
  %zero = arith.constant dense<0.000000e+00> : tensor<32x512xf16>
  %acc = scf.for %k = %c0 to %K step %c128 iter_args(%part = %zero) -> (tensor<32x512xf16>) {
    %at = ktdp.construct_access_tile %Av[%row, %k] {access_tile_order = #id, access_tile_set = #a_blk} : memref<64x?xf16> -> !ktdp.access_tile<32x128xindex>
    %bt = ktdp.construct_access_tile %Bv[%k, %col] {access_tile_order = #id, access_tile_set = #b_blk} : memref<?x8192xf16> -> !ktdp.access_tile<128x512xindex>
    %a = ktdp.load %at : !ktdp.access_tile<32x128xindex> -> tensor<32x128xf16>
    %b = ktdp.load %bt : !ktdp.access_tile<128x512xindex> -> tensor<128x512xf16>
    %next = linalg.matmul ins(%a, %b : tensor<32x128xf16>, tensor<128x512xf16>) outs(%part : tensor<32x512xf16>) -> tensor<32x512xf16>
    scf.yield %next : tensor<32x512xf16>
  }
  %ct = ktdp.construct_access_tile %Cv[%row, %col] {access_tile_order = #id, access_tile_set = #c_blk} : memref<64x8192xf16> -> !ktdp.access_tile<32x512xindex>
  ktdp.store %acc, %ct : tensor<32x512xf16>, !ktdp.access_tile<32x512xindex>
  return
}
