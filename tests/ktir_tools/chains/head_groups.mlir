// Paged attention's query tile: 2 tokens x 4 heads x 16 features of a [4, 8, 16] tensor,
// rows 128 elements apart within a token and 8 heads apart across tokens, so the 8 rows
// of the collapsed 8x16 tile are not one strided run (split-compute-chains stores the tile
// into a slot and loads it back 8x16). Each row is scaled by its sum (a reduction over the
// collapsed rows); the result is expanded back to 2x4x16 and stored into the same place
// of the output (through a slot again), the sums into a [4, 8] tensor as 2x4. Tile p of
// the grid takes tokens 2p, 2p+1 and heads 4..7.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#q = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#t = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#st = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
module {
func.func @head_groups(%qp: index, %op: index, %sp: index) attributes {grid = [2]} {
  %p = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %row = arith.muli %p, %c2 : index
  %qv = ktdp.construct_memory_view %qp, sizes: [4, 8, 16], strides: [128, 16, 1] {
    coordinate_set = #q, memory_space = #ktdp.memory_space<global>} : memref<4x8x16xf16>
  %ov = ktdp.construct_memory_view %op, sizes: [4, 8, 16], strides: [128, 16, 1] {
    coordinate_set = #q, memory_space = #ktdp.memory_space<global>} : memref<4x8x16xf16>
  %sv = ktdp.construct_memory_view %sp, sizes: [4, 8], strides: [8, 1] {
    coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<4x8xf32>
  %qt = ktdp.construct_access_tile %qv[%row, %c4, %c0] {access_tile_set = #t,
      access_tile_order = #id3} : memref<4x8x16xf16> -> !ktdp.access_tile<2x4x16xindex>
  %q3 = ktdp.load %qt : !ktdp.access_tile<2x4x16xindex> -> tensor<2x4x16xf16>
  %q2 = tensor.collapse_shape %q3 [[0, 1], [2]] : tensor<2x4x16xf16> into tensor<8x16xf16>
  %q = arith.extf %q2 : tensor<8x16xf16> to tensor<8x16xf32>
  %e = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce { arith.addf } ins(%q : tensor<8x16xf32>) outs(%z : tensor<8xf32>) dimensions = [1]
  %ee = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0)>, #id2],
      iterator_types = ["parallel", "parallel"]}
      ins(%q, %sum : tensor<8x16xf32>, tensor<8xf32>) outs(%ee : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %y16 = arith.truncf %y : tensor<8x16xf32> to tensor<8x16xf16>
  %y3 = tensor.expand_shape %y16 [[0, 1], [2]] output_shape [2, 4, 16]
      : tensor<8x16xf16> into tensor<2x4x16xf16>
  %ot = ktdp.construct_access_tile %ov[%row, %c4, %c0] {access_tile_set = #t,
      access_tile_order = #id3} : memref<4x8x16xf16> -> !ktdp.access_tile<2x4x16xindex>
  ktdp.store %y3, %ot : tensor<2x4x16xf16>, !ktdp.access_tile<2x4x16xindex>
  %s2 = tensor.expand_shape %sum [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %stile = ktdp.construct_access_tile %sv[%row, %c4] {access_tile_set = #st,
      access_tile_order = #id2} : memref<4x8xf32> -> !ktdp.access_tile<2x4xindex>
  ktdp.store %s2, %stile : tensor<2x4xf32>, !ktdp.access_tile<2x4xindex>
  return
}
}
