// RUN: ktir-opt %s -p broadcast-promotion | filecheck %s
// RUN: ktir-opt %s -p broadcast-promotion,ktdf-to-ktdflowering | filecheck %s --check-prefix=SIG

/// A pipeline runs once per row %k (4 rows; the inner loop %v runs once, as frontends leave
/// such loops): its DMA stage loads row %k of X and the row of W, which is the same for
/// every %k. The W load moves into a sibling pipeline before the row loop, together with
/// the view it reads (defined in the loop) and the lower bound standing for %v; it lands in
/// a buffer of its own, which the load unit reads in every row; the private loses W's old
/// buffer. Lowered (@rows), the load unit already waits for the DMA unit every row (for
/// X), and that DMA's signal comes after the hoisted one on the same unit: no extra signal.
/// In @rows_alone the pipeline loads nothing else (its DMA stage is left empty), so the
/// sibling's DMA posts a one-way signal and the load unit waits for it in the first row.

// CHECK-LABEL: func.func @rows(
// CHECK:         %[[WV:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [1, 64]
// CHECK-NEXT:    %[[WC:.*]] = memref.memory_space_cast %[[WV]] : memref<1x64xf16> to memref<1x64xf16, "DDR">
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc() : memref<1x64xf16, "L1">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %[[WC]][%[[Z]], 0] size [1, 64] to %[[BUF]][0, 0] size [1, 64]
// CHECK-NEXT:      } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:       memory_view %{{.*}}, sizes: [1, 64]
// CHECK:           scf.for %[[V:.*]] = %[[Z]] to
// CHECK:             ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token)
// CHECK:             ktdf.stage
// CHECK-NEXT:          ktdf.data_transfer from %{{.*}}[%[[K]] + %[[V]], 0] size [1, 64] to
// CHECK-NEXT:        } {applicable_units = ["MNILU"]}
// CHECK:               ktdf.data_transfer from %[[BUF]][0, 0] size [1, 64] to
// CHECK-LABEL: func.func @rows_alone(
// CHECK:             ktdf.stage depends_in(none) depends_out(%{{.*}}) {
// CHECK-NEXT:        } {applicable_units = ["MNILU"]}

// SIG-LABEL: func.func @rows(
// SIG:         ktdf_lowering.execute_on %[[DMA:[a-z0-9_]+]] {
// SIG-NEXT:      ktdf_lowering.execute_on %[[DMA]] {
// SIG-NEXT:        ktdf.data_transfer
// SIG-NEXT:      } {applicable_units = ["MNILU"]}
// SIG-NOT:     sync =
// SIG-LABEL: func.func @rows_alone(
// SIG:         ktdf_lowering.execute_on %[[DMA:[a-z0-9_]+]] {
// SIG-NEXT:      ktdf_lowering.execute_on %[[DMA]] {
// SIG-NEXT:        ktdf.data_transfer
// SIG-NEXT:        ktdf_lowering.signal %[[DMA]], %[[LU:[a-z0-9_]+]] {applicable_units = ["MNILU"], sync = "send"}
// SIG:         scf.for %[[K:.*]] = %[[C0:.*]] to
// SIG:           ktdf_lowering.execute_on %[[LU]] {
// SIG-NEXT:        %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %[[C0]] : index
// SIG-NEXT:        scf.if %[[FIRST]] {
// SIG-NEXT:          ktdf_lowering.signal %[[DMA]], %[[LU]] {applicable_units = ["L1LU"], sync = "recv"}
// SIG-NEXT:        } else {
// SIG-NEXT:        }
// SIG-NEXT:        ktdf.data_transfer from %{{.*}}[0, 0] size [1, 64] to

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module @local_schedule_0 {
    func.func @rows(%X: index, %W: index) attributes {grid = [1 : i64]} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
        %Xc = memref.memory_space_cast %Xv : memref<4x64xf16> to memref<4x64xf16, "DDR">
        %Wv = ktdp.construct_memory_view %W, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
        %Wc = memref.memory_space_cast %Wv : memref<1x64xf16> to memref<1x64xf16, "DDR">
        %z = arith.constant 0 : index
        scf.for %v = %z to %c1 step %c1 {
          ktdf.pipeline {
            %s0, %s1, %bx, %bw, %t0, %t1 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token) {
              %f0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              %a = memref.alloc() : memref<1x64xf16, "L1">
              %b = memref.alloc() : memref<1x64xf16, "L1">
              %x0 = ktdf.create_token : !ktdf.token
              %x1 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %f0, %f1, %a, %b, %x0, %x1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%t0) {
              ktdf.data_transfer from %Xc[%k + %v, 0] size [1, 64] to %bx[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<1x64xf16, "L1">
              ktdf.data_transfer from %Wc[%v, 0] size [1, 64] to %bw[0, 0] size [1, 64] : memref<1x64xf16, "DDR">, memref<1x64xf16, "L1">
            } {applicable_units = ["MNILU"]}
            ktdf.stage depends_in(%t0) depends_out(%t1) {
              ktdf.data_transfer from %bx[0, 0] size [1, 64] to %s0 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              ktdf.data_transfer from %bw[0, 0] size [1, 64] to %s1 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            } {applicable_units = ["L1LU"]}
          }
        }
      }
      func.return
    }
    func.func @rows_alone(%X: index, %W: index) attributes {grid = [1 : i64]} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
        %Xc = memref.memory_space_cast %Xv : memref<4x64xf16> to memref<4x64xf16, "DDR">
        %Wv = ktdp.construct_memory_view %W, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
        %Wc = memref.memory_space_cast %Wv : memref<1x64xf16> to memref<1x64xf16, "DDR">
        %z = arith.constant 0 : index
        scf.for %v = %z to %c1 step %c1 {
          ktdf.pipeline {
            %s0, %s1, %bx, %bw, %t0, %t1 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token) {
              %f0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              %a = memref.alloc() : memref<1x64xf16, "L1">
              %b = memref.alloc() : memref<1x64xf16, "L1">
              %x0 = ktdf.create_token : !ktdf.token
              %x1 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %f0, %f1, %a, %b, %x0, %x1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%t0) {
              ktdf.data_transfer from %Wc[%v, 0] size [1, 64] to %bw[0, 0] size [1, 64] : memref<1x64xf16, "DDR">, memref<1x64xf16, "L1">
            } {applicable_units = ["MNILU"]}
            ktdf.stage depends_in(%t0) depends_out(%t1) {
              ktdf.data_transfer from %bw[0, 0] size [1, 64] to %s1 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            } {applicable_units = ["L1LU"]}
          }
        }
      }
      func.return
    }
  }
}
