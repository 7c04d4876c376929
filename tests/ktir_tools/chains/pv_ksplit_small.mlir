// Split-K matmul, small: C[1, 64] = A[1, 512] · B[512, 64] on grid [2, 4]: tile (x, y) computes
// the 32 columns x·32.. of the partial over k in y·128 .. y·128+127, the partials of one x are
// summed across y by inter_tile_produce / inter_tile_reduce, and the tiles with y == 0 write
// (a branch on one coordinate of the tile id, single-tile-branches).
#red = affine_set<(i)[g] : ((i - g) mod 2 == 0, i - g >= 0, -i + g + 6 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @pv_ksplit_small(%a_ptr: index, %b_ptr: index, %c_ptr: index)
      attributes {grid = [2, 4]} {
    %x, %y = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %av = ktdp.construct_memory_view %a_ptr, sizes: [1, 512], strides: [512, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 511 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<1x512xf16>
    %bv = ktdp.construct_memory_view %b_ptr, sizes: [512, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<512x64xf16>
    %cv = ktdp.construct_memory_view %c_ptr, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
    %kb = arith.constant 128 : index
    %k0 = arith.muli %y, %kb : index
    %nb = arith.constant 32 : index
    %n0 = arith.muli %x, %nb : index
    %at = ktdp.construct_access_tile %av[%c0, %k0] {
      access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>,
      access_tile_order = #id} : memref<1x512xf16> -> !ktdp.access_tile<1x128xindex>
    %bt = ktdp.construct_access_tile %bv[%k0, %n0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
      access_tile_order = #id} : memref<512x64xf16> -> !ktdp.access_tile<128x32xindex>
    %a = ktdp.load %at : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
    %b = ktdp.load %bt : !ktdp.access_tile<128x32xindex> -> tensor<128x32xf16>
    %init = arith.constant dense<0.0> : tensor<1x32xf16>
    %p = linalg.matmul ins(%a, %b : tensor<1x128xf16>, tensor<128x32xf16>)
        outs(%init : tensor<1x32xf16>) -> tensor<1x32xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #red
        : tensor<1x32xf16> -> !ktdp.tile_future<tensor<1x32xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>>
    {
      ^bb0(%gid: index):
        ktdp.yield_partial %p : tensor<1x32xf16>
    }
    %zero = arith.constant 0.0 : f16
    %ie = tensor.empty() : tensor<1x32xf16>
    %ident = linalg.fill ins(%zero : f16) outs(%ie : tensor<1x32xf16>) -> tensor<1x32xf16>
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #red, identity(%ident : tensor<1x32xf16>)
        : !ktdp.tile_future<tensor<1x32xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x32xf16>
    {
      ^bb0(%l: tensor<1x32xf16>, %r: tensor<1x32xf16>):
        %e = tensor.empty() : tensor<1x32xf16>
        %sum = linalg.add ins(%l, %r : tensor<1x32xf16>, tensor<1x32xf16>) outs(%e : tensor<1x32xf16>) -> tensor<1x32xf16>
        ktdp.yield_reduced %sum : tensor<1x32xf16>
    }
    %ct = ktdp.construct_access_tile %cv[%c0, %n0] {
      access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>,
      access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x32xindex>
    %w = arith.cmpi eq, %y, %c0 : index
    scf.if %w {
      ktdp.store %s, %ct : tensor<1x32xf16>, !ktdp.access_tile<1x32xindex>
    }
    return
  }
}
