// RUN: ktir-opt %s -p stage-coarsening | filecheck %s

/// A 128x256 fp16 add on two tiles of the sample device after path-expansion: each instance
/// of the pipeline moved one 64-element vector. The cost model picks blocks of 32 rows (2
/// blocks per tile, 2 x 3 buffers of 16 KiB each fit half the 1 MiB L1; MNILU keeps one
/// transfer in flight, so the A and B loads pay their latency one after the other, once per
/// block: 1,493 cycles with blocks of 16, 1,357 with 32): the row loop steps by
/// 32, the DMAs move [32, 256] boxes into [32, 256] buffers, and the L1LU / SFU / L1SU stages
/// walk the block's vectors themselves, the buffers addressed at the vector's offset.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[STEP:.*]] = arith.constant 32 : index
// CHECK-NEXT:    scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %[[STEP]] {
// CHECK:           %{{.*}}, %{{.*}}, %{{.*}}, %[[A:.*]], %[[BB:.*]], %[[C:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = ktdf.private -> ({{.*}}, memref<32x256xf16, "L1">, memref<32x256xf16, "L1">, memref<32x256xf16, "L1">,
// CHECK:           ktdf.data_transfer from %Av_cast[%row0 + %[[B]], %{{.*}}] size [32, 256] to %[[A]][0, 0] size [32, 256]
// CHECK-NEXT:      ktdf.data_transfer from %Bv_cast[%row0 + %[[B]], %{{.*}}] size [32, 256] to %[[BB]][0, 0] size [32, 256]
// CHECK-NEXT:    } {applicable_units = ["MNILU"]}
// CHECK:           scf.for %[[P0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             scf.for %[[P1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          ktdf.data_transfer from %[[A]][%[[P0]], %[[P1]]] size [1, 64] to %{{.*}} size [64]
// CHECK-NEXT:          ktdf.data_transfer from %[[BB]][%[[P0]], %[[P1]]] size [1, 64] to %{{.*}} size [64]
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK:             ktdf.read_from_fifo
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK:           scf.for %[[Q0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             scf.for %[[Q1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          ktdf.data_transfer from %{{.*}} size [64] to %[[C]][%[[Q0]], %[[Q1]]] size [1, 64]
// CHECK:         } {applicable_units = ["L1SU"]}
// CHECK:           ktdf.data_transfer from %[[C]][0, 0] size [32, 256] to %Cv_cast[%row0 + %[[B]], %{{.*}}] size [32, 256]
// CHECK-NEXT:    } {applicable_units = ["MNISU"]}

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @add(%A: index, %B: index, %C: index) attributes {grid = [2 : i64]} {
      func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [2 : i64]} {
      %c8 = arith.constant 64 : index
      %id = ktdp.get_compute_tile_id : index
      %row0 = arith.muli %id, %c8 : index
      %Av = ktdp.construct_memory_view %A, sizes: [128, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
      %Av_cast = memref.memory_space_cast %Av : memref<128x256xf16> to memref<128x256xf16, "DDR">
      %Bv = ktdp.construct_memory_view %B, sizes: [128, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
      %Bv_cast = memref.memory_space_cast %Bv : memref<128x256xf16> to memref<128x256xf16, "DDR">
      %Cv = ktdp.construct_memory_view %C, sizes: [128, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
      %Cv_cast = memref.memory_space_cast %Cv : memref<128x256xf16> to memref<128x256xf16, "DDR">
      %0 = arith.constant 0 : index
      %1 = arith.constant 64 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant 0 : index
      %4 = arith.constant 256 : index
      %5 = arith.constant 64 : index
      scf.for %v0 = %0 to %1 step %2 {
        scf.for %v1 = %3 to %4 step %5 {
          ktdf.pipeline {
            %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
              %17 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              %18 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              %19 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
              %buf_l1 = memref.alloc() : memref<1x64xf16, "L1">
              %buf_l1_1 = memref.alloc() : memref<1x64xf16, "L1">
              %buf_l1_2 = memref.alloc() : memref<1x64xf16, "L1">
              %20 = ktdf.create_token : !ktdf.token
              %21 = ktdf.create_token : !ktdf.token
              %22 = ktdf.create_token : !ktdf.token
              %23 = ktdf.create_token : !ktdf.token
              %24 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %17, %18, %19, %buf_l1, %buf_l1_1, %buf_l1_2, %20, %21, %22, %23, %24 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%12) {
              ktdf.data_transfer from %Av_cast[%row0 + %v0, %v1] size [1, 64] to %9[0, 0] size [1, 64] : memref<128x256xf16, "DDR">, memref<1x64xf16, "L1">
              ktdf.data_transfer from %Bv_cast[%row0 + %v0, %v1] size [1, 64] to %10[0, 0] size [1, 64] : memref<128x256xf16, "DDR">, memref<1x64xf16, "L1">
            } {applicable_units = ["MNILU"]}
            ktdf.stage depends_in(%12) depends_out(%13) {
              ktdf.data_transfer from %9[0, 0] size [1, 64] to %6 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              ktdf.data_transfer from %10[0, 0] size [1, 64] to %7 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%13) depends_out(%14) {
              %25 = ktdf.read_from_fifo %6 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
              %26 = ktdf.read_from_fifo %7 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
              %27 = tensor.empty() : tensor<1x64xf16>
              %28 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%25, %26 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%27 : tensor<1x64xf16>) {
              ^bb0(%29: f16, %30: f16, %31: f16):
                %32 = arith.addf %29, %30 : f16
                linalg.yield %32 : f16
              } -> tensor<1x64xf16>
              ktdf.write_to_fifo %28, %8 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%14) depends_out(%15) {
              ktdf.data_transfer from %8 size [64] to %11[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
            } {applicable_units = ["L1SU"]}
            ktdf.stage depends_in(%15) depends_out(%16) {
              ktdf.data_transfer from %11[0, 0] size [1, 64] to %Cv_cast[%row0 + %v0, %v1] size [1, 64] : memref<1x64xf16, "L1">, memref<128x256xf16, "DDR">
            } {applicable_units = ["MNISU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
