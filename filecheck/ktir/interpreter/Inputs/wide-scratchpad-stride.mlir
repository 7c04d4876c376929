// A 64x64 fp16 tensor X stays resident in the scratchpads of 4 compute tiles: tile k holds
// rows [16k, 16k + 16) at element address %X of its own scratchpad (ct_local, ct_id = k).
// One distributed view joins the four parts. Tile t reads the slab of its right neighbour
// (t + 1) mod 4 through that view, a remote scratchpad read, adds rows [16t, 16t + 16) of B
// from device memory and writes them to C:  C[16t + i, j] = X[16((t + 1) mod 4) + i, j] + B[16t + i, j].
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 16 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 48 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#slab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @distributed_rotate(%X: index, %B: index, %C: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %t = ktdp.get_compute_tile_id : index
  %X0 = ktdp.construct_memory_view %X, sizes: [16, 64], strides: [9223372036854775807, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x64xf16>
  %X1 = ktdp.construct_memory_view %X, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x64xf16>
  %X2 = ktdp.construct_memory_view %X, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<16x64xf16>
  %X3 = ktdp.construct_memory_view %X, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<16x64xf16>
  %Xd = ktdp.construct_distributed_memory_view (%X0, %X1, %X2, %X3 : memref<16x64xf16>, memref<16x64xf16>, memref<16x64xf16>, memref<16x64xf16>) : memref<64x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [64, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [64, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %t1 = arith.addi %t, %c1 : index
  %nb = arith.remui %t1, %c4 : index
  %xrow = arith.muli %nb, %c16 : index
  %row = arith.muli %t, %c16 : index
  %Xt = ktdp.construct_access_tile %Xd[%xrow, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
  %e = tensor.empty() : tensor<16x64xf16>
  %c = linalg.add ins(%x, %b : tensor<16x64xf16>, tensor<16x64xf16>) outs(%e : tensor<16x64xf16>) -> tensor<16x64xf16>
  ktdp.store %c, %Ct : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
  return
}
