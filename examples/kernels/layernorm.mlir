// Layer norm over the last axis of an M x N fp16 matrix X (N a multiple of 1024):
//   mean_i = sum_j X[i, j] / N      var_i = sum_j (X[i, j] - mean_i)^2 / N
//   rstd_i = 1 / sqrt(var_i + eps)  Y[i, j] = (X[i, j] - mean_i) * rstd_i * W[j] + B[j]
// Statistics are fp32 (Mean and Rstd are fp32 vectors of M). 32 tiles take rows round-robin;
// each row is read in blocks of 1024 columns: two scf.for loops carry fp32 partial sums
// (iter_args), the third normalises each block with a linalg.generic that broadcasts W and B
// over the row and reads mean and rstd from outside its body.
// Run: ktir run examples/kernels/layernorm.mlir -d spyre --arg M=100 --arg N=2048 --arg eps=1e-5
//        --rtol 1e-3 --atol 1e-5   (or -d sample_device)
//   M, N and eps bind at compile time (N also fixes the views' strides). The f32 row sums
//   accumulate in another order than the reference's (README, numerics): Mean and Rstd agree
//   within an f32 ulp or two, Y within one f16 ulp.
#rows = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#vec = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#wblk = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @layernorm(%X: index, %W: index, %B: index, %Y: index, %Mean: index, %Rstd: index, %M: index, %N: index, %eps: f32) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant dense<0.000000e+00> : tensor<1x1024xf32>
  %z1 = arith.constant dense<0.000000e+00> : tensor<1xf32>
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [%M, %N], strides: [%N, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [%M, %N], strides: [%N, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [%N], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [%N], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  %Mv = ktdp.construct_memory_view %Mean, sizes: [%M], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %Rv = ktdp.construct_memory_view %Rstd, sizes: [%M], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %Ni = arith.index_cast %N : index to i64
  %Nf = arith.sitofp %Ni : i64 to f32
  scf.for %i = %t to %M step %c32 {
    %sum = scf.for %j = %c0 to %N step %c1024 iter_args(%acc = %zero) -> (tensor<1x1024xf32>) {
      %xt = ktdp.construct_access_tile %Xv[%i, %j] {access_tile_order = #id2, access_tile_set = #blk} : memref<?x?xf16> -> !ktdp.access_tile<1x1024xindex>
      %x = ktdp.load %xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
      %xf = arith.extf %x : tensor<1x1024xf16> to tensor<1x1024xf32>
      %a = arith.addf %acc, %xf : tensor<1x1024xf32>
      scf.yield %a : tensor<1x1024xf32>
    }
    %tot = linalg.reduce ins(%sum : tensor<1x1024xf32>) outs(%z1 : tensor<1xf32>) dimensions = [1]
      (%in: f32, %a: f32) {
        %r = arith.addf %in, %a : f32
        linalg.yield %r : f32
      }
    %tots = tensor.extract %tot[%c0] : tensor<1xf32>
    %mean = arith.divf %tots, %Nf : f32
    %meanb = tensor.splat %mean : tensor<1x1024xf32>
    %sq = scf.for %j = %c0 to %N step %c1024 iter_args(%acc = %zero) -> (tensor<1x1024xf32>) {
      %xt = ktdp.construct_access_tile %Xv[%i, %j] {access_tile_order = #id2, access_tile_set = #blk} : memref<?x?xf16> -> !ktdp.access_tile<1x1024xindex>
      %x = ktdp.load %xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
      %xf = arith.extf %x : tensor<1x1024xf16> to tensor<1x1024xf32>
      %d = arith.subf %xf, %meanb : tensor<1x1024xf32>
      %d2 = arith.mulf %d, %d : tensor<1x1024xf32>
      %a = arith.addf %acc, %d2 : tensor<1x1024xf32>
      scf.yield %a : tensor<1x1024xf32>
    }
    %vt = linalg.reduce ins(%sq : tensor<1x1024xf32>) outs(%z1 : tensor<1xf32>) dimensions = [1]
      (%in: f32, %a: f32) {
        %r = arith.addf %in, %a : f32
        linalg.yield %r : f32
      }
    %vts = tensor.extract %vt[%c0] : tensor<1xf32>
    %var = arith.divf %vts, %Nf : f32
    %ve = arith.addf %var, %eps : f32
    %rstd = math.rsqrt %ve : f32
    %mt = ktdp.construct_access_tile %Mv[%i] {access_tile_order = #id1, access_tile_set = #one} : memref<?xf32> -> !ktdp.access_tile<1xindex>
    %rt = ktdp.construct_access_tile %Rv[%i] {access_tile_order = #id1, access_tile_set = #one} : memref<?xf32> -> !ktdp.access_tile<1xindex>
    %mtn = tensor.from_elements %mean : tensor<1xf32>
    %rtn = tensor.from_elements %rstd : tensor<1xf32>
    ktdp.store %mtn, %mt : tensor<1xf32>, !ktdp.access_tile<1xindex>
    ktdp.store %rtn, %rt : tensor<1xf32>, !ktdp.access_tile<1xindex>
    scf.for %j = %c0 to %N step %c1024 {
      %xt = ktdp.construct_access_tile %Xv[%i, %j] {access_tile_order = #id2, access_tile_set = #blk} : memref<?x?xf16> -> !ktdp.access_tile<1x1024xindex>
      %wt = ktdp.construct_access_tile %Wv[%j] {access_tile_order = #id1, access_tile_set = #wblk} : memref<?xf16> -> !ktdp.access_tile<1024xindex>
      %bt = ktdp.construct_access_tile %Bv[%j] {access_tile_order = #id1, access_tile_set = #wblk} : memref<?xf16> -> !ktdp.access_tile<1024xindex>
      %x = ktdp.load %xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
      %w = ktdp.load %wt : !ktdp.access_tile<1024xindex> -> tensor<1024xf16>
      %b = ktdp.load %bt : !ktdp.access_tile<1024xindex> -> tensor<1024xf16>
      %e = tensor.empty() : tensor<1x1024xf16>
      %y = linalg.generic {indexing_maps = [#id2, #col, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %w, %b : tensor<1x1024xf16>, tensor<1024xf16>, tensor<1024xf16>) outs(%e : tensor<1x1024xf16>) {
      ^bb0(%xv: f16, %wv: f16, %bv: f16, %o: f16):
        %xf = arith.extf %xv : f16 to f32
        %d = arith.subf %xf, %mean : f32
        %n = arith.mulf %d, %rstd : f32
        %wf = arith.extf %wv : f16 to f32
        %bf = arith.extf %bv : f16 to f32
        %s = arith.mulf %n, %wf : f32
        %o2 = arith.addf %s, %bf : f32
        %r = arith.truncf %o2 : f32 to f16
        linalg.yield %r : f16
      } -> tensor<1x1024xf16>
      %yt = ktdp.construct_access_tile %Yv[%i, %j] {access_tile_order = #id2, access_tile_set = #blk} : memref<?x?xf16> -> !ktdp.access_tile<1x1024xindex>
      ktdp.store %y, %yt : tensor<1x1024xf16>, !ktdp.access_tile<1x1024xindex>
    }
  }
  return
}
