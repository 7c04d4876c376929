// Paged gather (the access pattern of paged attention's KV cache): a cache of 16 pages of
// 8 tokens x 64 features, a block table Idx[b, p] naming the page of logical page p of batch b,
// and an output holding 32 tokens per batch contiguously. Tile b (grid of 4) gathers
//   Out[b, t, d] = Cache[Idx[b, t floordiv 8], t mod 8, d]      for t < 32, d < 64
// with one indirect access tile; the page number is loaded from Idx, the rest is affine.
#cache = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#out = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#vars = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @paged_gather(%Cache: index, %Idx: index, %Out: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %b = ktdp.get_compute_tile_id : index
  %cache = ktdp.construct_memory_view %Cache, sizes: [16, 8, 64], strides: [512, 64, 1] {coordinate_set = #cache, memory_space = #ktdp.memory_space<global>} : memref<16x8x64xf16>
  %table = ktdp.construct_memory_view %Idx, sizes: [4, 4], strides: [4, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<4x4xi32>
  %out = ktdp.construct_memory_view %Out, sizes: [4, 32, 64], strides: [2048, 64, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<4x32x64xf16>
  %src = ktdp.construct_indirect_access_tile intermediate_variables(%z, %t, %d) %cache[ind(%table[%b + %z, %t floordiv 8]), (%t mod 8), (%d)] {variables_space_order = #id3, variables_space_set = #vars} : memref<16x8x64xf16>, memref<4x4xi32> -> !ktdp.access_tile<1x32x64xindex>
  %dst = ktdp.construct_access_tile %out[%b, %c0, %c0] {access_tile_order = #id3, access_tile_set = #vars} : memref<4x32x64xf16> -> !ktdp.access_tile<1x32x64xindex>
  %x = ktdp.load %src : !ktdp.access_tile<1x32x64xindex> -> tensor<1x32x64xf16>
  ktdp.store %x, %dst : tensor<1x32x64xf16>, !ktdp.access_tile<1x32x64xindex>
  return
}
