// RUN: ktir compile %S/../double-buffering/stream.mlir -d spyre -q --stop-at path-expansion | filecheck %s

/// A load stage that streams (the contraction pipeline's k loop around one step's A and B
/// loads into FIFOs): each hop gets a loop of its own over the same steps, on its unit (the
/// DMA lands the step's blocks in scratchpad buffers of one step's box, the load unit feeds
/// the FIFOs from there), the loop's bound constants cloned into each stage.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[SA:.*]], %[[SB:.*]], %{{.*}}, %[[BA:.*]], %[[BB:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = ktdf.private
// CHECK:           %[[BUFA:.*]] = memref.alloc() : memref<16x32xf16, "LX">
// CHECK-NEXT:      %[[BUFB:.*]] = memref.alloc() : memref<32x64xf16, "LX">
// CHECK:         ktdf.stage depends_in(none)
// CHECK-NEXT:      %[[L0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[L1:.*]] = arith.constant 128 : index
// CHECK-NEXT:      %[[L2:.*]] = arith.constant 32 : index
// CHECK-NEXT:      scf.for %[[K:.*]] = %[[L0]] to %[[L1]] step %[[L2]] {
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[%{{.*}}, %[[K]]] size [16, 32] to %[[BA]][0, 0] size [16, 32] : memref<16x128xf16, "DDR">, memref<16x32xf16, "LX">
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[%[[K]], %{{.*}}] size [32, 64] to %[[BB]][0, 0] size [32, 64] : memref<128x64xf16, "DDR">, memref<32x64xf16, "LX">
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NEXT:    } {applicable_units = ["DMA_IN"]}
// CHECK-NEXT:    ktdf.stage
// CHECK-NEXT:      %[[M0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[M1:.*]] = arith.constant 128 : index
// CHECK-NEXT:      %[[M2:.*]] = arith.constant 32 : index
// CHECK-NEXT:      scf.for %{{.*}} = %[[M0]] to %[[M1]] step %[[M2]] {
// CHECK-NEXT:        ktdf.data_transfer from %[[BA]][0, 0] size [16, 32] to %[[SA]] size [512] : memref<16x32xf16, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 512xf16>
// CHECK-NEXT:        ktdf.data_transfer from %[[BB]][0, 0] size [32, 64] to %[[SB]] size [2048] : memref<32x64xf16, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 2048xf16>
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NEXT:    } {applicable_units = ["LX_LOAD"]}
