// FFN with SwiGLU, small: out = x + (silu(x·Wg) * (x·Wu))·Wd; x 2x32, Wg/Wu 32x64, Wd 64x32.
// Two contractions of different spaces (2x32x64, then 2x64x32) and a residual add: three
// compute groups chained through scratchpad slots (split-compute-chains).
#id = affine_map<(d0, d1) -> (d0, d1)>
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#w = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#wd = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
module {
  func.func @ffn_swiglu_small(%x_ptr: index, %wg_ptr: index, %wu_ptr: index, %wd_ptr: index,
                              %out_ptr: index) attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %xv = ktdp.construct_memory_view %x_ptr, sizes: [2, 32], strides: [32, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
    %wgv = ktdp.construct_memory_view %wg_ptr, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #w, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %wuv = ktdp.construct_memory_view %wu_ptr, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #w, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %wdv = ktdp.construct_memory_view %wd_ptr, sizes: [64, 32], strides: [32, 1] {
      coordinate_set = #wd, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
    %ov = ktdp.construct_memory_view %out_ptr, sizes: [2, 32], strides: [32, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
    %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #x, access_tile_order = #id}
        : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
    %x = ktdp.load %xt : !ktdp.access_tile<2x32xindex> -> tensor<2x32xf16>
    %wgt = ktdp.construct_access_tile %wgv[%c0, %c0] {access_tile_set = #w, access_tile_order = #id}
        : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %wg = ktdp.load %wgt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %wut = ktdp.construct_access_tile %wuv[%c0, %c0] {access_tile_set = #w, access_tile_order = #id}
        : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %wu = ktdp.load %wut : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %e0 = tensor.empty() : tensor<2x64xf16>
    %gate = linalg.matmul ins(%x, %wg : tensor<2x32xf16>, tensor<32x64xf16>)
        outs(%e0 : tensor<2x64xf16>) -> tensor<2x64xf16>
    %e1 = tensor.empty() : tensor<2x64xf16>
    %up = linalg.matmul ins(%x, %wu : tensor<2x32xf16>, tensor<32x64xf16>)
        outs(%e1 : tensor<2x64xf16>) -> tensor<2x64xf16>
    %neg = arith.negf %gate : tensor<2x64xf16>
    %ex = math.exp %neg : tensor<2x64xf16>
    %one = arith.constant dense<1.0> : tensor<2x64xf16>
    %den = arith.addf %one, %ex : tensor<2x64xf16>
    %sig = arith.divf %one, %den : tensor<2x64xf16>
    %silu = arith.mulf %gate, %sig : tensor<2x64xf16>
    %fused = arith.mulf %silu, %up : tensor<2x64xf16>
    %wdt = ktdp.construct_access_tile %wdv[%c0, %c0] {access_tile_set = #wd, access_tile_order = #id}
        : memref<64x32xf16> -> !ktdp.access_tile<64x32xindex>
    %wd = ktdp.load %wdt : !ktdp.access_tile<64x32xindex> -> tensor<64x32xf16>
    %e2 = tensor.empty() : tensor<2x32xf16>
    %down = linalg.matmul ins(%fused, %wd : tensor<2x64xf16>, tensor<64x32xf16>)
        outs(%e2 : tensor<2x32xf16>) -> tensor<2x32xf16>
    %res = arith.addf %x, %down : tensor<2x32xf16>
    %ot = ktdp.construct_access_tile %ov[%c0, %c0] {access_tile_set = #x, access_tile_order = #id}
        : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
    ktdp.store %res, %ot : tensor<2x32xf16>, !ktdp.access_tile<2x32xindex>
    return
  }
}
