// RUN: ktir-opt %s -p ktir-to-ktdf,ktdf-schedule | filecheck %s

/// The scheduling group after the frontend (sample device, 2x2 grid): every pipeline is routed
/// through L1 (stages bound to MNILU, L1LU, SFU, L1SU, MNISU), coarsened to one 2x64 block
/// per tile (stage-coarsening: one DMA per block, one block per tile, so double-buffering has
/// nothing to overlap), the block's two rows are split over the two sub-cores
/// (parallelize-loops-across-instances: load, compute and store stages once per sub-core),
/// its two L1 buffers get element addresses 0 and 128 (stick-aligned), and the grid becomes
/// 1-D with the tile coordinates rebuilt from the linear id.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-SAME:    attributes {grid = [4 : i64]}
// CHECK:         %[[ID:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    %[[D0:.*]] = arith.constant 2 : index
// CHECK-NEXT:    arith.remui %[[ID]], %[[D0]] : index
// CHECK-NEXT:    arith.divui %[[ID]], %[[D0]] : index
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<2x64xf16, "L1">, memref<2x64xf16, "L1">,
// CHECK:           %[[A0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      builtin.unrealized_conversion_cast %[[A0]] : index to memref<2x64xf16, "L1">
// CHECK-NEXT:      %[[A1:.*]] = arith.constant 128 : index
// CHECK-NEXT:      builtin.unrealized_conversion_cast %[[A1]] : index to memref<2x64xf16, "L1">
// CHECK:         } {applicable_units = ["MNILU"]}
// CHECK:         } {applicable_units = ["L1LU"], instance = 0 : i64}
// CHECK:         } {applicable_units = ["SFU"], instance = 0 : i64}
// CHECK:         } {applicable_units = ["L1SU"], instance = 0 : i64}
// CHECK:         } {applicable_units = ["L1LU"], instance = 1 : i64}
// CHECK:         } {applicable_units = ["SFU"], instance = 1 : i64}
// CHECK:         } {applicable_units = ["L1SU"], instance = 1 : i64}
// CHECK:         } {applicable_units = ["MNISU"]}
// CHECK-NOT:     memref.alloc

ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @neg_blocks(%x: index, %y: index) attributes {grid = [2, 2]} {
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %tx, %ty = ktdp.get_compute_tile_id : index, index
  %row = arith.muli %tx, %c2 : index
  %col = arith.muli %ty, %c64 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %xt = ktdp.construct_access_tile %xv[%row, %col] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x128xf16> -> !ktdp.access_tile<2x64xindex>
  %yt = ktdp.construct_access_tile %yv[%row, %col] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x128xf16> -> !ktdp.access_tile<2x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %n = arith.negf %a : tensor<2x64xf16>
  ktdp.store %n, %yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
