// Paged attention's score step on pages gathered through a block table: tile t reads page
// table[t] (4 slots x 16 features of an [8, 4, 16] cache), transposes it, widens it to f32
// and multiplies the tile's 2x16 queries by it (S = Q K^T, 2x4); then P V on the same page
// (P = S, a contraction over the 4 slots) accumulated into a computed init (the negated
// queries, as flash attention accumulates into acc * alpha).
// split-compute-chains gathers each page into a slot and materialises K^T (looked through
// the extf); generalize-contractions splits the computed init off the P V contraction.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
func.func @gathered_pages(%kp: index, %btp: index, %qp: index, %sp: index, %op: index)
    attributes {grid = [2]} {
  %t = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %kv = ktdp.construct_memory_view %kp, sizes: [8, 4, 16], strides: [64, 16, 1] {
    coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<8x4x16xf16>
  %btv = ktdp.construct_memory_view %btp, sizes: [2], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %qv = ktdp.construct_memory_view %qp, sizes: [2, 2, 16], strides: [32, 16, 1] {
    coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 15 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<2x2x16xf16>
  %sv = ktdp.construct_memory_view %sp, sizes: [2, 2, 4], strides: [8, 4, 1] {
    coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 3 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<2x2x4xf32>
  %ov = ktdp.construct_memory_view %op, sizes: [2, 2, 16], strides: [32, 16, 1] {
    coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 15 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<2x2x16xf32>
  %kt = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2)
      %kv[ind(%btv[%t + %d0]), (%d1), (%d2)] {
    variables_space_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0)>,
    variables_space_order = #id3} : memref<8x4x16xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x16xindex>
  %k3 = ktdp.load %kt : !ktdp.access_tile<1x4x16xindex> -> tensor<1x4x16xf16>
  %k2 = tensor.collapse_shape %k3 [[0, 1], [2]] : tensor<1x4x16xf16> into tensor<4x16xf16>
  %ke = tensor.empty() : tensor<16x4xf16>
  %kT = linalg.transpose ins(%k2 : tensor<4x16xf16>) outs(%ke : tensor<16x4xf16>) permutation = [1, 0]
  %k = arith.extf %kT : tensor<16x4xf16> to tensor<16x4xf32>
  %qt = ktdp.construct_access_tile %qv[%t, %c0, %c0] {
    access_tile_set = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 15 >= 0)>,
    access_tile_order = #id3} : memref<2x2x16xf16> -> !ktdp.access_tile<1x2x16xindex>
  %q3 = ktdp.load %qt : !ktdp.access_tile<1x2x16xindex> -> tensor<1x2x16xf16>
  %q2 = tensor.collapse_shape %q3 [[0, 1], [2]] : tensor<1x2x16xf16> into tensor<2x16xf16>
  %q = arith.extf %q2 : tensor<2x16xf16> to tensor<2x16xf32>
  %z = tensor.splat %zero : tensor<2x4xf32>
  %s = linalg.matmul ins(%q, %k : tensor<2x16xf32>, tensor<16x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
  %s3 = tensor.expand_shape %s [[0, 1], [2]] output_shape [1, 2, 4] : tensor<2x4xf32> into tensor<1x2x4xf32>
  %st = ktdp.construct_access_tile %sv[%t, %c0, %c0] {
    access_tile_set = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 3 >= 0)>,
    access_tile_order = #id3} : memref<2x2x4xf32> -> !ktdp.access_tile<1x2x4xindex>
  ktdp.store %s3, %st : tensor<1x2x4xf32>, !ktdp.access_tile<1x2x4xindex>
  %vf = arith.extf %k2 : tensor<4x16xf16> to tensor<4x16xf32>
  %init = arith.negf %q : tensor<2x16xf32>
  %pv = linalg.matmul ins(%s, %vf : tensor<2x4xf32>, tensor<4x16xf32>) outs(%init : tensor<2x16xf32>) -> tensor<2x16xf32>
  %pv3 = tensor.expand_shape %pv [[0, 1], [2]] output_shape [1, 2, 16] : tensor<2x16xf32> into tensor<1x2x16xf32>
  %ot = ktdp.construct_access_tile %ov[%t, %c0, %c0] {
    access_tile_set = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 15 >= 0)>,
    access_tile_order = #id3} : memref<2x2x16xf32> -> !ktdp.access_tile<1x2x16xindex>
  ktdp.store %pv3, %ot : tensor<1x2x16xf32>, !ktdp.access_tile<1x2x16xindex>
  return
}
}
