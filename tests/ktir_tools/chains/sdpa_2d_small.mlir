// Attention, small: out = softmax((Q·K^T) * 0.25) · V; Q, K, V, out 16x32 f16 (K^T by
// linalg.transpose). Q·K^T (space 16x32x16), the row max and sum (16x16) and P·V (16x16x32)
// are three spaces: a transpose group (K^T), then three compute groups, chained through
// scratchpad slots (split-compute-chains).
#id = affine_map<(d0, d1) -> (d0, d1)>
#m = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
module {
  func.func @sdpa_small(%q_ptr: index, %k_ptr: index, %v_ptr: index, %o_ptr: index)
      attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f16
    %scale = arith.constant 2.5e-01 : f16
    %ninf = arith.constant 0xFC00 : f16
    %qv = ktdp.construct_memory_view %q_ptr, sizes: [16, 32], strides: [32, 1] {
      coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
    %kv = ktdp.construct_memory_view %k_ptr, sizes: [16, 32], strides: [32, 1] {
      coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
    %vv = ktdp.construct_memory_view %v_ptr, sizes: [16, 32], strides: [32, 1] {
      coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
    %ov = ktdp.construct_memory_view %o_ptr, sizes: [16, 32], strides: [32, 1] {
      coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
    %qt = ktdp.construct_access_tile %qv[%c0, %c0] {access_tile_set = #m, access_tile_order = #id}
        : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
    %q = ktdp.load %qt : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
    %kt = ktdp.construct_access_tile %kv[%c0, %c0] {access_tile_set = #m, access_tile_order = #id}
        : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
    %k = ktdp.load %kt : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
    %kte = tensor.empty() : tensor<32x16xf16>
    %k_t = linalg.transpose ins(%k : tensor<16x32xf16>) outs(%kte : tensor<32x16xf16>)
        permutation = [1, 0]
    %qke = tensor.empty() : tensor<16x16xf16>
    %qk = linalg.matmul ins(%q, %k_t : tensor<16x32xf16>, tensor<32x16xf16>)
        outs(%qke : tensor<16x16xf16>) -> tensor<16x16xf16>
    %ss = tensor.splat %scale : tensor<16x16xf16>
    %qks = arith.mulf %qk, %ss : tensor<16x16xf16>
    %me = tensor.empty() : tensor<16xf16>
    %mi = linalg.fill ins(%ninf : f16) outs(%me : tensor<16xf16>) -> tensor<16xf16>
    %m = linalg.reduce { arith.maximumf } ins(%qks : tensor<16x16xf16>) outs(%mi : tensor<16xf16>)
        dimensions = [1]
    %mbe = tensor.empty() : tensor<16x16xf16>
    %mb = linalg.broadcast ins(%m : tensor<16xf16>) outs(%mbe : tensor<16x16xf16>) dimensions = [1]
    %sh = arith.subf %qks, %mb : tensor<16x16xf16>
    %p = math.exp %sh : tensor<16x16xf16>
    %le = tensor.empty() : tensor<16xf16>
    %li = linalg.fill ins(%zero : f16) outs(%le : tensor<16xf16>) -> tensor<16xf16>
    %l = linalg.reduce { arith.addf } ins(%p : tensor<16x16xf16>) outs(%li : tensor<16xf16>)
        dimensions = [1]
    %lbe = tensor.empty() : tensor<16x16xf16>
    %lb = linalg.broadcast ins(%l : tensor<16xf16>) outs(%lbe : tensor<16x16xf16>) dimensions = [1]
    %pn = arith.divf %p, %lb : tensor<16x16xf16>
    %vt = ktdp.construct_access_tile %vv[%c0, %c0] {access_tile_set = #m, access_tile_order = #id}
        : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
    %v = ktdp.load %vt : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
    %ae = tensor.empty() : tensor<16x32xf16>
    %az = linalg.fill ins(%zero : f16) outs(%ae : tensor<16x32xf16>) -> tensor<16x32xf16>
    %acc = linalg.matmul ins(%pn, %v : tensor<16x16xf16>, tensor<16x32xf16>)
        outs(%az : tensor<16x32xf16>) -> tensor<16x32xf16>
    %ot = ktdp.construct_access_tile %ov[%c0, %c0] {access_tile_set = #m, access_tile_order = #id}
        : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
    ktdp.store %acc, %ot : tensor<16x32xf16>, !ktdp.access_tile<16x32xindex>
    return
  }
}
