// C = A . B, A 2x32, B 32x64, C 2x64, f16, on a grid of 2: tile t computes the 32 columns at 32t.
// Small enough to emulate in a second.
#a_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_tiny(%A: index, %B: index, %C: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c32 : index
  %Av = ktdp.construct_memory_view %A, sizes: [2, 32], strides: [32, 1] {coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [32, 64], strides: [64, 1] {coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [2, 64], strides: [64, 1] {coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %at = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_order = #id, access_tile_set = #a_all} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
  %bt = ktdp.construct_access_tile %Bv[%c0, %col] {access_tile_order = #id, access_tile_set = #b_blk} : memref<32x64xf16> -> !ktdp.access_tile<32x32xindex>
  %a = ktdp.load %at : !ktdp.access_tile<2x32xindex> -> tensor<2x32xf16>
  %b = ktdp.load %bt : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
  %zero = arith.constant dense<0.000000e+00> : tensor<2x32xf16>
  %c = linalg.matmul ins(%a, %b : tensor<2x32xf16>, tensor<32x32xf16>) outs(%zero : tensor<2x32xf16>) -> tensor<2x32xf16>
  %ct = ktdp.construct_access_tile %Cv[%c0, %col] {access_tile_order = #id, access_tile_set = #c_blk} : memref<2x64xf16> -> !ktdp.access_tile<2x32xindex>
  ktdp.store %c, %ct : tensor<2x32xf16>, !ktdp.access_tile<2x32xindex>
  return
}
