// C = A . B, A 16x64, B 64x32, C 16x32, f16, one tile. k is walked in two chunks of 32 by an
// scf.for carrying the f16 result (each chunk's product rounded, then added in f16): two
// reductions per instance, each with Mt partial vectors of 32 f32. The 2 KiB of registers
// hold 16 such vectors, so an instance covers Mt = 8 rows: each B row loaded serves 8 rows
// (B crosses from device memory twice, not 16 times).
#a_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#c_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_rows(%A: index, %B: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %Av = ktdp.construct_memory_view %A, sizes: [16, 64], strides: [64, 1] {coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [64, 32], strides: [32, 1] {coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [16, 32], strides: [32, 1] {coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x32xf16>
  %acc = scf.for %k = %c0 to %c64 step %c32 iter_args(%part = %zero) -> (tensor<16x32xf16>) {
    %at = ktdp.construct_access_tile %Av[%c0, %k] {access_tile_order = #id, access_tile_set = #a_blk} : memref<16x64xf16> -> !ktdp.access_tile<16x32xindex>
    %bt = ktdp.construct_access_tile %Bv[%k, %c0] {access_tile_order = #id, access_tile_set = #b_blk} : memref<64x32xf16> -> !ktdp.access_tile<32x32xindex>
    %a = ktdp.load %at : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
    %b = ktdp.load %bt : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
    %init = tensor.empty() : tensor<16x32xf16>
    %p = linalg.matmul ins(%a, %b : tensor<16x32xf16>, tensor<32x32xf16>) outs(%init : tensor<16x32xf16>) -> tensor<16x32xf16>
    %next = arith.addf %part, %p : tensor<16x32xf16>
    scf.yield %next : tensor<16x32xf16>
  }
  %ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_order = #id, access_tile_set = #c_all} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
  ktdp.store %acc, %ct : tensor<16x32xf16>, !ktdp.access_tile<16x32xindex>
  return
}
