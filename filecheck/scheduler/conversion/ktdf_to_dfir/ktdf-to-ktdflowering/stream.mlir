// RUN: ktir compile %S/../../../transforms/double-buffering/stream.mlir -d spyre -q --disable double-buffering --stop-at ktdf-to-ktdflowering | filecheck %s

/// Buffers that a streaming DMA loop fills and a streaming load loop drains every step (the
/// contraction pipeline's k steps, one copy): the handshakes go inside the loops, "full"
/// after the DMA's step and before the reader's, "free" after the reader's step and before
/// the DMA's, counted over the instance loops and the steps (normalized to step 1: 0..3),
/// so that the DMA's first step does not wait and the reader's last step does not post (the
/// double-buffered case: transforms/double-buffering/stream.mlir).

// CHECK-LABEL: ktdf_lowering.execute_on %dma_in_1 {
// CHECK:         scf.for %[[K:.*]] = %[[K0:.*]] to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %[[K0]] : index
// CHECK-NEXT:      scf.if %[[FIRST]] {
// CHECK-NEXT:      } else {
// CHECK-NEXT:        ktdf_lowering.signal %dma_in_1, %lx_load_1 {applicable_units = ["DMA_IN"]}
// CHECK-NEXT:      }
// CHECK-NEXT:      ktdf.data_transfer
// CHECK-NEXT:      ktdf.data_transfer
// CHECK-NEXT:      ktdf_lowering.signal %dma_in_1, %lx_load_1 {applicable_units = ["DMA_IN"]}
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-LABEL: ktdf_lowering.execute_on %lx_load_1 {
// CHECK:         scf.for %[[K1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf_lowering.signal %dma_in_1, %lx_load_1 {applicable_units = ["LX_LOAD"]}
// CHECK-NEXT:      ktdf.data_transfer
// CHECK-NEXT:      ktdf.data_transfer
// CHECK-NEXT:      %[[KL:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[LAST:.*]] = arith.cmpi eq, %[[K1]], %[[KL]] : index
// CHECK-NEXT:      scf.if %[[LAST]] {
// CHECK-NEXT:      } else {
// CHECK-NEXT:        ktdf_lowering.signal %dma_in_1, %lx_load_1 {applicable_units = ["LX_LOAD"]}
// CHECK-NEXT:      }
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<reduction_loop>}
