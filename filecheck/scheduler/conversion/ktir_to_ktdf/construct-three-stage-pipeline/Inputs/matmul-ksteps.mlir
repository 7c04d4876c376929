// C = A . B, A 16x64, B 64x128, C 16x128, f16, on a grid of 2: tile t computes the 16 x 64 block
// of C at column 64t, walking K in 2 steps of 32 with an f16 accumulator carried by iter_args
// (unroll-carried-loops unrolls it: one contraction per k step in one compute group).
#a_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#c_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_ksteps(%A: index, %B: index, %C: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c64 : index
  %Av = ktdp.construct_memory_view %A, sizes: [16, 64], strides: [64, 1] {coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [64, 128], strides: [128, 1] {coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [16, 128], strides: [128, 1] {coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x64xf16>
  %acc = scf.for %k = %c0 to %c64 step %c32 iter_args(%part = %zero) -> (tensor<16x64xf16>) {
    %at = ktdp.construct_access_tile %Av[%c0, %k] {access_tile_order = #id, access_tile_set = #a_blk} : memref<16x64xf16> -> !ktdp.access_tile<16x32xindex>
    %bt = ktdp.construct_access_tile %Bv[%k, %col] {access_tile_order = #id, access_tile_set = #b_blk} : memref<64x128xf16> -> !ktdp.access_tile<32x64xindex>
    %a = ktdp.load %at : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
    %b = ktdp.load %bt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %e = tensor.empty() : tensor<16x64xf16>
    %p = linalg.matmul ins(%a, %b : tensor<16x32xf16>, tensor<32x64xf16>) outs(%e : tensor<16x64xf16>) -> tensor<16x64xf16>
    %next = arith.addf %part, %p : tensor<16x64xf16>
    scf.yield %next : tensor<16x64xf16>
  }
  %ct = ktdp.construct_access_tile %Cv[%c0, %col] {access_tile_order = #id, access_tile_set = #c_blk} : memref<16x128xf16> -> !ktdp.access_tile<16x64xindex>
  ktdp.store %acc, %ct : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
  return
}
