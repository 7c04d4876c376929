// RUN: ktir compile %s -d spyre -q --stop-at double-buffering | filecheck %s

/// A reduction pipeline (per row: the sum of squares, then the row scaled by it) on two
/// tiles of spyre: each core's share of the DDR bandwidth is 64 B/cycle, a row's DMA (2 KiB in,
/// 2 KiB out) about 64 cycles, its compute (32 dependent vector steps of the sum, 16 of the
/// scaling) a few hundred: compute-bound, so its row buffers get two copies and the rows'
/// pipelines rotate through them.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           ktdf.pipeline modulo(size : 2) {
// CHECK:             %[[PH:.*]] = ktdf.buffer_phase(%[[K]], %{{.*}}, %{{.*}}) {num_phases = 2 : i64} : index
// CHECK-NEXT:        %[[IN:.*]] = ktdf.select_memref %[[PH]][%{{.*}}, %{{.*}}] : memref<1x1024xf16, "LX">
// CHECK-NEXT:        %[[OUT:.*]] = ktdf.select_memref %[[PH]][%{{.*}}, %{{.*}}] : memref<1x1024xf16, "LX">
// CHECK:             ktdf.private_yield {{.*}}%[[IN]], %[[OUT]]

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rowscale(%X: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %cg = arith.constant 2 : index
  %zero = arith.constant 0.000000e+00 : f16
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  scf.for %i = %t to %c64 step %cg {
    %xt = ktdp.construct_access_tile %Xv[%i, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<64x1024xf16> -> !ktdp.access_tile<1x1024xindex>
    %x = ktdp.load %xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
    %sq = arith.mulf %x, %x : tensor<1x1024xf16>
    %s0 = tensor.splat %zero : tensor<1xf16>
    %s = linalg.reduce ins(%sq : tensor<1x1024xf16>) outs(%s0 : tensor<1xf16>) dimensions = [1]
      (%in: f16, %acc: f16) {
        %r = arith.addf %in, %acc : f16
        linalg.yield %r : f16
      }
    %e = tensor.empty() : tensor<1x1024xf16>
    %sb = linalg.broadcast ins(%s : tensor<1xf16>) outs(%e : tensor<1x1024xf16>) dimensions = [1]
    %y = arith.mulf %x, %sb : tensor<1x1024xf16>
    %yt = ktdp.construct_access_tile %Yv[%i, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<64x1024xf16> -> !ktdp.access_tile<1x1024xindex>
    ktdp.store %y, %yt : tensor<1x1024xf16>, !ktdp.access_tile<1x1024xindex>
  }
  return
}
