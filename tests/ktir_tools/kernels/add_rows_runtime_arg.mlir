// C = A + B over M x 64 f16 rows, M a runtime_arg (a multiple of 64, at most 1024): tile t of
// 16 adds rows [64 t, 64 t + 64); the views' coordinate sets end at row M, so the tiles past it
// are masked (their loads read nothing, their stores write nothing). Compiled once, launched
// with any M the runtime_arg allows.
#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_rows(%A: index, %B: index, %C: index, %M_arg: !ktdp.runtime_arg<index, granularity=64, upperbound=1024>) attributes {grid = [16]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %M = ktdp.runtime_arg_extract value from %M_arg : <index, granularity=64, upperbound=1024> -> index
  %t = ktdp.get_compute_tile_id : index
  %r = arith.muli %t, %c64 : index
  %Av = ktdp.construct_memory_view %A, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %At = ktdp.construct_access_tile %Av[%r, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?x64xf16> -> !ktdp.access_tile<64x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%r, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?x64xf16> -> !ktdp.access_tile<64x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%r, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?x64xf16> -> !ktdp.access_tile<64x64xindex>
  %a = ktdp.load %At : <64x64xindex> -> tensor<64x64xf16>
  %b = ktdp.load %Bt : <64x64xindex> -> tensor<64x64xf16>
  %c = arith.addf %a, %b : tensor<64x64xf16>
  ktdp.store %c, %Ct : tensor<64x64xf16>, <64x64xindex>
  return
}
