// RUN: ktir-opt %s -p normalize-scf-for-loops --split-input-file | filecheck %s

/// The Inductor-style add (one 1 x 256 row per host iteration) on 4 tiles after path-expansion:
/// the vector loop `0 to 256 step 64` counts vectors, `0 to 4 step 1`, and the subscripts of
/// its DMAs carry the vector length (`%v1 * 64`); the single-row loop is already 0..1 by 1
/// and stays. The new bounds sit with the old ones, outside the nest, so the nest stays
/// perfect; nothing else reads the index, so no recompute is left in the body.

// CHECK-LABEL: func.func @local_schedule_0(%A
// CHECK:         %[[C4:[0-9]+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[V0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[V1:.*]] = %{{.*}} to %[[C4]] step %[[C1]] {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               ktdf.data_transfer from %Av_cast[%i + %[[V0]], %[[V1]] * 64] size [1, 64] to
// CHECK-NEXT:          ktdf.data_transfer from %Bv_cast[%i + %[[V0]], %[[V1]] * 64] size [1, 64] to
// CHECK:               ktdf.data_transfer from %{{.*}}[0, 0] size [1, 64] to %Cv_cast[%i + %[[V0]], %[[V1]] * 64] size [1, 64]

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @add(%A: index, %B: index, %C: index) attributes {grid = [4 : i64]} {
      %0 = arith.constant 0 : index
      %1 = arith.constant 64 : index
      %2 = arith.constant 1 : index
      scf.for %k = %0 to %1 step %2 {
        func.call @local_schedule_0(%A, %B, %C, %k) : (index, index, index, index) -> ()
      }
      func.return
    }
    func.func private @local_schedule_0(index, index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index, %k: index) attributes {grid = [4 : i64]} {
      %step = arith.constant 4 : index
      %t = ktdp.get_compute_tile_id : index
      %Av = ktdp.construct_memory_view %A, sizes: [256, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x256xf16>
      %Av_cast = memref.memory_space_cast %Av : memref<256x256xf16> to memref<256x256xf16, "DDR">
      %Bv = ktdp.construct_memory_view %B, sizes: [256, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x256xf16>
      %Bv_cast = memref.memory_space_cast %Bv : memref<256x256xf16> to memref<256x256xf16, "DDR">
      %Cv = ktdp.construct_memory_view %C, sizes: [256, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x256xf16>
      %Cv_cast = memref.memory_space_cast %Cv : memref<256x256xf16> to memref<256x256xf16, "DDR">
      %0 = arith.muli %k, %step : index
      %i = arith.addi %t, %0 : index
      %1 = arith.constant 0 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant 1 : index
      %4 = arith.constant 0 : index
      %5 = arith.constant 256 : index
      %6 = arith.constant 64 : index
      scf.for %v0 = %1 to %2 step %3 {
        scf.for %v1 = %4 to %5 step %6 {
          ktdf.pipeline {
            %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
              %18 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              %19 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              %20 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
              %buf_l1 = memref.alloc() : memref<1x64xf16, "L1">
              %buf_l1_1 = memref.alloc() : memref<1x64xf16, "L1">
              %buf_l1_2 = memref.alloc() : memref<1x64xf16, "L1">
              %21 = ktdf.create_token : !ktdf.token
              %22 = ktdf.create_token : !ktdf.token
              %23 = ktdf.create_token : !ktdf.token
              %24 = ktdf.create_token : !ktdf.token
              %25 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %18, %19, %20, %buf_l1, %buf_l1_1, %buf_l1_2, %21, %22, %23, %24, %25 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%13) {
              ktdf.data_transfer from %Av_cast[%i + %v0, %v1] size [1, 64] to %10[0, 0] size [1, 64] : memref<256x256xf16, "DDR">, memref<1x64xf16, "L1">
              ktdf.data_transfer from %Bv_cast[%i + %v0, %v1] size [1, 64] to %11[0, 0] size [1, 64] : memref<256x256xf16, "DDR">, memref<1x64xf16, "L1">
            } {applicable_units = ["MNILU"]}
            ktdf.stage depends_in(%13) depends_out(%14) {
              ktdf.data_transfer from %10[0, 0] size [1, 64] to %7 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              ktdf.data_transfer from %11[0, 0] size [1, 64] to %8 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%14) depends_out(%15) {
              %26 = ktdf.read_from_fifo %7 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
              %27 = ktdf.read_from_fifo %8 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
              %28 = tensor.empty() : tensor<1x64xf16>
              %29 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%26, %27 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%28 : tensor<1x64xf16>) {
              ^bb0(%30: f16, %31: f16, %32: f16):
                %33 = arith.addf %30, %31 : f16
                linalg.yield %33 : f16
              } -> tensor<1x64xf16>
              ktdf.write_to_fifo %29, %9 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%15) depends_out(%16) {
              ktdf.data_transfer from %9 size [64] to %12[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
            } {applicable_units = ["L1SU"]}
            ktdf.stage depends_in(%16) depends_out(%17) {
              ktdf.data_transfer from %12[0, 0] size [1, 64] to %Cv_cast[%i + %v0, %v1] size [1, 64] : memref<1x64xf16, "L1">, memref<256x256xf16, "DDR">
            } {applicable_units = ["MNISU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}

// -----

/// A loop whose index arithmetic reads: the `addi` reads it recomputed from the iteration
/// number (`2 + %k * 3`), the loop runs ceil((11 - 2) / 3) = 3 times; the subscript that reads
/// the `addi` is not the index and stays as it is.

// CHECK-LABEL: func.func @arith_use(
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK:         scf.for %[[K:.*]] = %[[C0]] to %[[C3]] step %[[C1]] {
// CHECK-NEXT:      %[[S:.*]] = arith.muli %[[K]], %[[STEP:.*]] : index
// CHECK-NEXT:      %[[I:.*]] = arith.addi %[[LB:.*]], %[[S]] : index
// CHECK-NEXT:      %[[X:.*]] = arith.addi %[[I]], %[[I]] : index
// CHECK-NEXT:      ktdf.data_transfer from %src[%[[X]]] size [1] to %dst[0] size [1]

func.func @arith_use(%src: memref<32xf16, "DDR">, %dst: memref<1xf16, "L1">) {
  %lb = arith.constant 2 : index
  %ub = arith.constant 11 : index
  %step = arith.constant 3 : index
  scf.for %i = %lb to %ub step %step {
    %x = arith.addi %i, %i : index
    ktdf.data_transfer from %src[%x] size [1] to %dst[0] size [1] : memref<32xf16, "DDR">, memref<1xf16, "L1">
  }
  func.return
}

// -----

/// Left alone: a lower bound that is not a constant (its trip count is known only at run
/// time), a loop already from 0 by 1, and a host loop (it calls a group: sink-host-loops
/// moves it into the group as it is).

// CHECK-LABEL: func.func @dynamic(
// CHECK:         scf.for %{{.*}} = %n to %{{.*}} step %{{.*}} {
// CHECK:         scf.for %{{.*}} = %{{.*}} to %n step %{{.*}} {
// CHECK:         scf.for %[[I:.*]] = %c2 to %c16 step %c4 {
// CHECK-NEXT:      func.call @body(%[[I]]) : (index) -> ()

func.func @dynamic(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %n to %c16 step %c4 {
    func.call @body(%i) : (index) -> ()
  }
  scf.for %j = %c0 to %n step %c1 {
    func.call @body(%j) : (index) -> ()
  }
  %c2 = arith.constant 2 : index
  scf.for %h = %c2 to %c16 step %c4 {
    func.call @body(%h) : (index) -> ()
  }
  func.return
}
func.func private @body(index) -> ()
