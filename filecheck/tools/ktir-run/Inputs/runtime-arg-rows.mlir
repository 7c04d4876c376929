// B = A + A over M x 64 f16 rows, M a runtime_arg (a multiple of 4, at most 10, so at most 8):
// tile t of 2 doubles rows [4 t, 4 t + 4), the rows at M and beyond masked.
#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @double_rows(%A: index, %B: index, %M_arg: !ktdp.runtime_arg<index, granularity=4, upperbound=10>) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %M = ktdp.runtime_arg_extract value from %M_arg : <index, granularity=4, upperbound=10> -> index
  %t = ktdp.get_compute_tile_id : index
  %r = arith.muli %t, %c4 : index
  %Av = ktdp.construct_memory_view %A, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %At = ktdp.construct_access_tile %Av[%r, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%r, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?x64xf16> -> !ktdp.access_tile<4x64xindex>
  %a = ktdp.load %At : <4x64xindex> -> tensor<4x64xf16>
  %b = arith.addf %a, %a : tensor<4x64xf16>
  ktdp.store %b, %Bt : tensor<4x64xf16>, <4x64xindex>
  return
}
