// An all-reduce over 4 tiles in which tile 3 skips its turn: tiles 0-2 wait for tile 3's
// partial forever, which the interpreter reports as a deadlock.
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#one = affine_set<(g) : (g == 0)>
func.func @allreduce(%X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant dense<0.000000e+00> : tensor<1x16xf32>
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x16xf32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x16xf32>
  %xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x16xf32> -> !ktdp.access_tile<1x16xindex>
  %yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x16xf32> -> !ktdp.access_tile<1x16xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf32>
  %skip = arith.cmpi eq, %t, %c3 : index
  scf.if %skip {
  } else {
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all -> !ktdp.tile_future<(tensor<1x16xf32>), groups = #one> {
    ^bb0(%g: index):
      ktdp.yield_partial %x : tensor<1x16xf32>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity(%zero : tensor<1x16xf32>) : !ktdp.tile_future<(tensor<1x16xf32>), groups = #one> -> tensor<1x16xf32> {
    ^bb0(%l: tensor<1x16xf32>, %r: tensor<1x16xf32>):
      %a = arith.addf %l, %r : tensor<1x16xf32>
      ktdp.yield_reduced %a : tensor<1x16xf32>
    }
    ktdp.store %s, %yt : tensor<1x16xf32>, !ktdp.access_tile<1x16xindex>
  }
  return
}
