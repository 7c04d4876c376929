// Row softmax  Y[i, :] = exp(X[i, :] - max_j X[i, j]) / sum_j exp(X[i, j] - max_j X[i, j])
// of an M x 1024 fp16 matrix over 32 compute tiles. M is a kernel argument; tile t takes rows
// t, t + 32, t + 64, ... One row is one 1x1024 access tile; the row maximum and the sum of
// exponentials are linalg.reduce ops, broadcast back over the row with linalg.broadcast.
// Run: ktir run examples/kernels/softmax.mlir -d spyre --arg M=100   (or -d sample_device)
//   M binds at compile time; for M not a multiple of 32 the row loop runs ceil(M / 32) times
//   on every tile, the rows past M masked off (normalize-tile-loops). Matches bit for bit.
#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @softmax(%X: index, %Y: index, %M: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.000000e+00 : f16
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [%M, 1024], strides: [1024, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x1024xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [%M, 1024], strides: [1024, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x1024xf16>
  scf.for %i = %t to %M step %c32 {
    %xt = ktdp.construct_access_tile %Xv[%i, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<?x1024xf16> -> !ktdp.access_tile<1x1024xindex>
    %x = ktdp.load %xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
    %m0 = tensor.splat %ninf : tensor<1xf16>
    %mx = linalg.reduce ins(%x : tensor<1x1024xf16>) outs(%m0 : tensor<1xf16>) dimensions = [1]
      (%in: f16, %acc: f16) {
        %r = arith.maximumf %in, %acc : f16
        linalg.yield %r : f16
      }
    %e = tensor.empty() : tensor<1x1024xf16>
    %mb = linalg.broadcast ins(%mx : tensor<1xf16>) outs(%e : tensor<1x1024xf16>) dimensions = [1]
    %d = arith.subf %x, %mb : tensor<1x1024xf16>
    %ex = math.exp %d : tensor<1x1024xf16>
    %s0 = tensor.splat %zero : tensor<1xf16>
    %sum = linalg.reduce ins(%ex : tensor<1x1024xf16>) outs(%s0 : tensor<1xf16>) dimensions = [1]
      (%in: f16, %acc: f16) {
        %r = arith.addf %in, %acc : f16
        linalg.yield %r : f16
      }
    %sb = linalg.broadcast ins(%sum : tensor<1xf16>) outs(%e : tensor<1x1024xf16>) dimensions = [1]
    %y = arith.divf %ex, %sb : tensor<1x1024xf16>
    %yt = ktdp.construct_access_tile %Yv[%i, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<?x1024xf16> -> !ktdp.access_tile<1x1024xindex>
    ktdp.store %y, %yt : tensor<1x1024xf16>, !ktdp.access_tile<1x1024xindex>
  }
  return
}
