// RUN: ktir compile %s -d spyre -q --stop-at double-buffering | filecheck %s
// RUN: ktir run %s -d spyre 2>/dev/null | filecheck %s --check-prefix=EMU

/// A row loop over 100 rows on 32 tiles runs four iterations on every tile, the fourth row
/// masked off past row 99 (normalize-tile-loops): the transfers carry their masks, and the
/// row buffers still get two copies (masked.py's element-wise DMA addresses the selected
/// copy like the whole one). The emulated result matches the reference bit for bit.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           ktdf.pipeline modulo(size : 2) {
// CHECK:             %[[PH:.*]] = ktdf.buffer_phase(%[[K]]{{.*}}) {num_phases = 2 : i64} : index
// CHECK-NEXT:        %[[IN:.*]] = ktdf.select_memref %[[PH]][%{{.*}}, %{{.*}}] : memref<1x64xf16, "LX">
// CHECK:             ktdf.private_yield {{.*}}%[[IN]]
// CHECK:           ktdf.data_transfer from %{{.*}} size [1, 64] to %{{.*}}[0, 0] size [1, 64] source_mask

// EMU: check      Y 100x64 float16: matches the reference (bitwise
// EMU: PASS

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows(%X: index, %Y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100 : index
  %c32 = arith.constant 32 : index
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [100, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [100, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
  scf.for %i = %t to %c100 step %c32 {
    %xt = ktdp.construct_access_tile %Xv[%i, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<100x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %y = arith.addf %x, %x : tensor<1x64xf16>
    %yt = ktdp.construct_access_tile %Yv[%i, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<100x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %y, %yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
