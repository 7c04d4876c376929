// y = x * c[:, 0]: each row of x scaled by its own value of c (a column broadcast along the
// vector), 8 rows of 128 fp16 per tile; scalar-broadcast-legalization splats c on the load unit.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_scale(%X: index, %C: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %t = ktdp.get_compute_tile_id : index
  %r0 = arith.muli %t, %c8 : index
  %xv = ktdp.construct_memory_view %X, sizes: [16, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %cv = ktdp.construct_memory_view %C, sizes: [16, 1], strides: [1, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 == 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x1xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [16, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %xt = ktdp.construct_access_tile %xv[%r0, %c0] {access_tile_order = #id, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>} : memref<16x128xf16> -> !ktdp.access_tile<8x128xindex>
  %ct = ktdp.construct_access_tile %cv[%r0, %c0] {access_tile_order = #id, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 == 0)>} : memref<16x1xf16> -> !ktdp.access_tile<8x1xindex>
  %yt = ktdp.construct_access_tile %yv[%r0, %c0] {access_tile_order = #id, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>} : memref<16x128xf16> -> !ktdp.access_tile<8x128xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %c = ktdp.load %ct : !ktdp.access_tile<8x1xindex> -> tensor<8x1xf16>
  %e = tensor.empty() : tensor<8x128xf16>
  %y = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0, 0)>, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %c : tensor<8x128xf16>, tensor<8x1xf16>) outs(%e : tensor<8x128xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.mulf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<8x128xf16>
  ktdp.store %y, %yt : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
  return
}
