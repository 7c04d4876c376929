// RUN: ktir-opt %s -p broadcast-promotion | filecheck %s

/// Loads that stay where they are: one that reads the row of the loop index (@negative_row_index);
/// one whose source the loop writes (@negative_after_store: a DMA in the loop stores into W,
/// so each row must reload it); and one hoistable only past loops that run once
/// (@negative_runs_once: nothing would be saved).

// CHECK-LABEL: func.func @negative_row_index(
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    scf.for %[[K:.*]] = %{{.*}} to
// CHECK:           ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token)
// CHECK:           ktdf.data_transfer from %{{.*}}[%[[K]], 0] size [1, 64] to

// CHECK-LABEL: func.func @negative_after_store(
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    scf.for
// CHECK:           ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token)

// CHECK-LABEL: func.func @negative_runs_once(
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    scf.for
// CHECK:           ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token)

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module @local_schedule_0 {
    func.func @negative_row_index(%X: index, %W: index) attributes {grid = [1 : i64]} {
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
              ktdf.data_transfer from %Wc[%k, 0] size [1, 64] to %bw[0, 0] size [1, 64] : memref<1x64xf16, "DDR">, memref<1x64xf16, "L1">
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
    func.func @negative_after_store(%X: index, %W: index) attributes {grid = [1 : i64]} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
        %Xc = memref.memory_space_cast %Xv : memref<4x64xf16> to memref<4x64xf16, "DDR">
        %Wv = ktdp.construct_memory_view %W, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
        %Wc = memref.memory_space_cast %Wv : memref<1x64xf16> to memref<1x64xf16, "DDR">
        %z = arith.constant 0 : index
        ktdf.pipeline {
          ktdf.stage depends_in(none) depends_out(none) {
            ktdf.data_transfer from %Xc[%k, 0] size [1, 64] to %Wc[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<1x64xf16, "DDR">
          } {applicable_units = ["MNILU"]}
        }
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
    func.func @negative_runs_once(%X: index, %W: index) attributes {grid = [1 : i64]} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 1 : index
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
  }
}
