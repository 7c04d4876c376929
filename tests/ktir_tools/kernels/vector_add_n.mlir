// out = x + y over n f32 elements, n an i32 scalar known only at launch (at most 1024): one
// tile loads a 1024-element access tile of each view; the views' coordinate sets end at
// element n, so the elements past it are masked.
#upto_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @vector_add_n(%x: index, %y: index, %out: index, %n: i32) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %ni = arith.index_cast %n : i32 to index
  %xv = ktdp.construct_memory_view %x, sizes: [%ni], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [%ni], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %ov = ktdp.construct_memory_view %out, sizes: [%ni], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %xt = ktdp.construct_access_tile %xv[%c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?xf32> -> !ktdp.access_tile<1024xindex>
  %yt = ktdp.construct_access_tile %yv[%c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?xf32> -> !ktdp.access_tile<1024xindex>
  %ot = ktdp.construct_access_tile %ov[%c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?xf32> -> !ktdp.access_tile<1024xindex>
  %a = ktdp.load %xt : <1024xindex> -> tensor<1024xf32>
  %b = ktdp.load %yt : <1024xindex> -> tensor<1024xf32>
  %s = arith.addf %a, %b : tensor<1024xf32>
  ktdp.store %s, %ot : tensor<1024xf32>, <1024xindex>
  return
}
