// RUN: ktir compile %s -d spyre -q --stop-at double-buffering | filecheck %s

/// The same reduction pipeline on 32 tiles, two rows a tile: each core's share of the DDR
/// bandwidth is 4 B/cycle, a row's DMA 1,024 cycles against 276 of compute. The second row's
/// DMA would overlap the first row's passes (276 cycles) but the prefetch costs a row's DMA
/// at the start (the tile served last also waits for every tile's second row): the pipeline
/// keeps one copy of each buffer and its handshakes.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.pipeline {
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     modulo
// CHECK:         func.return

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rowscale(%X: index, %Y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %cg = arith.constant 32 : index
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
