// inter_tile_consume with a dependency set: 4 tiles, one group; tile c receives the partial
// of tile 3 - c (2 x X's row, unchanged) and writes it to row c of Out.
#m = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#groups = affine_set<(g) : (g == 0)>
#mirror = affine_set<(p)[c] : (p + c - 3 == 0)>
func.func @mirror(%X: index, %Out: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Ov = ktdp.construct_memory_view %Out, sizes: [4, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all -> !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> {
  ^bb0(%gid: index):
    %d = arith.addf %x, %x : tensor<1x64xf16>
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  %y = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all, producer_dependency_per_consumer = #mirror : !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> -> tensor<1x64xf16>
  %ot = ktdp.construct_access_tile %Ov[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %y, %ot : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
