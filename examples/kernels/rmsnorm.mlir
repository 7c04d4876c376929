// RMS norm  Y[i, j] = X[i, j] * W[j] / sqrt(sum_j X[i, j]^2 / 256 + eps)  of a 16 x 256 fp16
// matrix on 4 tiles; tile t normalises rows [4t, 4t + 4) as one 4x256 access tile. The sum
// of squares is a linalg.generic with a reduction loop into an fp32 accumulator; the inverse
// root and the scaling are all-parallel generics that broadcast per-row and per-column operands.
// Run: ktir run examples/kernels/rmsnorm.mlir -d spyre --arg eps=1e-5 --rtol 1e-3
//   (or -d sample_device); eps binds at compile time. One element of Y is one f16 ulp off
//   (the sum of squares accumulates in another order; README, numerics).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @rmsnorm(%X: index, %W: index, %Y: index, %eps: f32) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 2.560000e+02 : f32
  %t = ktdp.get_compute_tile_id : index
  %r0 = arith.muli %t, %c4 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 256], strides: [256, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [256], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [16, 256], strides: [256, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %xt = ktdp.construct_access_tile %Xv[%r0, %c0] {access_tile_order = #id2, access_tile_set = #blk} : memref<16x256xf16> -> !ktdp.access_tile<4x256xindex>
  %wt = ktdp.construct_access_tile %Wv[%c0] {access_tile_order = #id1, access_tile_set = #vec} : memref<256xf16> -> !ktdp.access_tile<256xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<4x256xindex> -> tensor<4x256xf16>
  %w = ktdp.load %wt : !ktdp.access_tile<256xindex> -> tensor<256xf16>
  %z = arith.constant dense<0.000000e+00> : tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x256xf16>) outs(%z : tensor<4xf32>) {
  ^bb0(%v: f16, %acc: f32):
    %f = arith.extf %v : f16 to f32
    %q = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %q : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %inv = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%ss : tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    %p = arith.addf %m, %eps : f32
    %q = math.rsqrt %p : f32
    linalg.yield %q : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x256xf16>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %inv, %w : tensor<4x256xf16>, tensor<4xf32>, tensor<256xf16>) outs(%e : tensor<4x256xf16>) {
  ^bb0(%v: f16, %r: f32, %wv: f16, %o: f16):
    %f = arith.extf %v : f16 to f32
    %g = arith.mulf %f, %r : f32
    %wf = arith.extf %wv : f16 to f32
    %h = arith.mulf %g, %wf : f32
    %h16 = arith.truncf %h : f32 to f16
    linalg.yield %h16 : f16
  } -> tensor<4x256xf16>
  %yt = ktdp.construct_access_tile %Yv[%r0, %c0] {access_tile_order = #id2, access_tile_set = #blk} : memref<16x256xf16> -> !ktdp.access_tile<4x256xindex>
  ktdp.store %y, %yt : tensor<4x256xf16>, !ktdp.access_tile<4x256xindex>
  return
}
