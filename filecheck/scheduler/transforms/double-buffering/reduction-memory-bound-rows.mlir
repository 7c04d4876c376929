// RUN: ktir compile %s -d spyre -q --stop-at double-buffering | filecheck %s

/// reduction-memory-bound.mlir's rows, eight a tile (256 rows on 32 tiles): an instance's DMA
/// is 1,024 cycles at the core's 4 B/cycle of the DDR, its compute 164 by the pass's model.
/// The seven rows after the first overlap their DMA with the previous row's passes, 7 x 164 =
/// 1,148 cycles in all, more than the one row's DMA the prefetch costs at the start (the tile
/// served last also waits for every tile's second row): two copies of the row buffers. (Five
/// rows a tile, 4 x 164 = 656 < 1,024, keep one copy.)

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           ktdf.pipeline modulo(size : 2) {
// CHECK:             %[[PH:.*]] = ktdf.buffer_phase(%[[K]], %{{.*}}, %{{.*}}) {num_phases = 2 : i64} : index
// CHECK-NEXT:        %[[IN:.*]] = ktdf.select_memref %[[PH]][%{{.*}}, %{{.*}}] : memref<1x1024xf16, "LX">
// CHECK-NEXT:        %[[OUT:.*]] = ktdf.select_memref %[[PH]][%{{.*}}, %{{.*}}] : memref<1x1024xf16, "LX">
// CHECK:             ktdf.private_yield {{.*}}%[[IN]], %[[OUT]]

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rowscale(%X: index, %Y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %cg = arith.constant 32 : index
  %zero = arith.constant 0.000000e+00 : f16
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [256, 1024], strides: [1024, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<256x1024xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [256, 1024], strides: [1024, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<256x1024xf16>
  scf.for %i = %t to %c256 step %cg {
    %xt = ktdp.construct_access_tile %Xv[%i, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<256x1024xf16> -> !ktdp.access_tile<1x1024xindex>
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
    %yt = ktdp.construct_access_tile %Yv[%i, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<256x1024xf16> -> !ktdp.access_tile<1x1024xindex>
    ktdp.store %y, %yt : tensor<1x1024xf16>, !ktdp.access_tile<1x1024xindex>
  }
  return
}
