// matmul_ksteps.mlir walking K backwards: the step at k reads A and B at 32 - k (the second
// half of K first), so the steps are not kc apart in the order they are added: the
// contraction pipeline keeps every step's blocks resident instead of streaming them, and
// the f16 sums keep the kernel's order.
#a_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#c_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_backwards(%A: index, %B: index, %C: index) attributes {grid = [2]} {
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
    %kr = arith.subi %c32, %k : index
    %at = ktdp.construct_access_tile %Av[%c0, %kr] {access_tile_order = #id, access_tile_set = #a_blk} : memref<16x64xf16> -> !ktdp.access_tile<16x32xindex>
    %bt = ktdp.construct_access_tile %Bv[%kr, %col] {access_tile_order = #id, access_tile_set = #b_blk} : memref<64x128xf16> -> !ktdp.access_tile<32x64xindex>
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
