// FFN-SwiGLU on two cores, small: x 2x64; tile t holds the columns t·64.. of W_gate and W_up
// (64x128 each) and the rows t·64.. of W_down (128x64); its partial (silu(x·Wg_t) * x·Wu_t)·Wd_t
// (three contractions of one space, 2x64x64, the last reading the first two at its reduced
// dim) is flattened to 128 elements, summed across the tiles (inter_tile_produce / reduce),
// expanded back to 2x64, added to x, and tile 0 writes it.
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#shard = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
module {
  func.func @ffn_swiglu_2core(%x_ptr: index, %wg_ptr: index, %wu_ptr: index, %wd_ptr: index,
                              %out_ptr: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %pid = ktdp.get_compute_tile_id : index
    %f0 = arith.muli %pid, %c64 : index
    %xv = ktdp.construct_memory_view %x_ptr, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
    %ov = ktdp.construct_memory_view %out_ptr, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
    %wgv = ktdp.construct_memory_view %wg_ptr, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %wuv = ktdp.construct_memory_view %wu_ptr, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %wdv = ktdp.construct_memory_view %wd_ptr, sizes: [128, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #x, access_tile_order = #id}
        : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %wgt = ktdp.construct_access_tile %wgv[%c0, %f0] {access_tile_set = #shard, access_tile_order = #id}
        : memref<64x128xf16> -> !ktdp.access_tile<64x64xindex>
    %wg = ktdp.load %wgt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
    %wut = ktdp.construct_access_tile %wuv[%c0, %f0] {access_tile_set = #shard, access_tile_order = #id}
        : memref<64x128xf16> -> !ktdp.access_tile<64x64xindex>
    %wu = ktdp.load %wut : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
    %e0 = tensor.empty() : tensor<2x64xf16>
    %gate = linalg.matmul ins(%x, %wg : tensor<2x64xf16>, tensor<64x64xf16>)
        outs(%e0 : tensor<2x64xf16>) -> tensor<2x64xf16>
    %up = linalg.matmul ins(%x, %wu : tensor<2x64xf16>, tensor<64x64xf16>)
        outs(%e0 : tensor<2x64xf16>) -> tensor<2x64xf16>
    %neg = arith.negf %gate : tensor<2x64xf16>
    %ex = math.exp %neg : tensor<2x64xf16>
    %one = arith.constant dense<1.0> : tensor<2x64xf16>
    %den = arith.addf %one, %ex : tensor<2x64xf16>
    %sig = arith.divf %one, %den : tensor<2x64xf16>
    %silu = arith.mulf %gate, %sig : tensor<2x64xf16>
    %fused = arith.mulf %silu, %up : tensor<2x64xf16>
    %wdt = ktdp.construct_access_tile %wdv[%f0, %c0] {access_tile_set = #shard, access_tile_order = #id}
        : memref<128x64xf16> -> !ktdp.access_tile<64x64xindex>
    %wd = ktdp.load %wdt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
    %part = linalg.matmul ins(%fused, %wd : tensor<2x64xf16>, tensor<64x64xf16>)
        outs(%e0 : tensor<2x64xf16>) -> tensor<2x64xf16>
    %flat = tensor.collapse_shape %part [[0, 1]] : tensor<2x64xf16> into tensor<128xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all
        : tensor<128xf16> -> !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>>
    {
      ^bb0(%gid: index):
        ktdp.yield_partial %flat : tensor<128xf16>
    }
    %z = arith.constant 0.0 : f16
    %ie = tensor.empty() : tensor<128xf16>
    %ident = linalg.fill ins(%z : f16) outs(%ie : tensor<128xf16>) -> tensor<128xf16>
    %sum = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #all, identity(%ident : tensor<128xf16>)
        : !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16>
    {
      ^bb0(%l: tensor<128xf16>, %r: tensor<128xf16>):
        %e = tensor.empty() : tensor<128xf16>
        %s = linalg.add ins(%l, %r : tensor<128xf16>, tensor<128xf16>) outs(%e : tensor<128xf16>) -> tensor<128xf16>
        ktdp.yield_reduced %s : tensor<128xf16>
    }
    %back = tensor.expand_shape %sum [[0, 1]] output_shape [2, 64] : tensor<128xf16> into tensor<2x64xf16>
    %res = arith.addf %x, %back : tensor<2x64xf16>
    %w = arith.cmpi eq, %pid, %c0 : index
    scf.if %w {
      %ot = ktdp.construct_access_tile %ov[%c0, %c0] {access_tile_set = #x, access_tile_order = #id}
          : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
      ktdp.store %res, %ot : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    }
    return
  }
}
