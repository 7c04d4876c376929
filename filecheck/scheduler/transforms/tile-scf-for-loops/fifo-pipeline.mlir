// RUN: ktir-opt %s -p tile-scf-for-loops | filecheck %s

/// add_96x64 on stream_device after normalize-scf-for-loops: a pipeline streaming between
/// device memory (HBM) and FIFOs, one 32-element vector per instance, in a nest of 3 rows x
/// 2 vectors. stage-coarsening has nothing to block there (no scratchpad buffer), so the
/// nest is tiled: the transfers read the rows and vectors rebuilt from tile and point
/// indices.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[TS0:.*]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    %[[TS1:.*]] = ktdf.tiling.reserve_size
// CHECK:         scf.for %[[T0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           scf.for %[[T1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             scf.for %[[P0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          scf.for %[[P1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:            %[[V0:.*]] = ktdf.tiling.linearize_index [%[[T0]] : %[[TS0]]], [%[[P0]] : %{{.*}}] : index
// CHECK-NEXT:            %[[V1:.*]] = ktdf.tiling.linearize_index [%[[T1]] : %[[TS1]]], [%[[P1]] : %{{.*}}] : index
// CHECK-NEXT:            ktdf.pipeline {
// CHECK:                   ktdf.data_transfer from %Av_cast[%row0 + %[[V0]], %[[V1]] * 32] size [1, 32]
// CHECK-NEXT:              ktdf.data_transfer from %Bv_cast[%row0 + %[[V0]], %[[V1]] * 32] size [1, 32]
// CHECK:                   ktdf.data_transfer from %{{.*}} size [32] to %Cv_cast[%row0 + %[[V0]], %[[V1]] * 32] size [1, 32]

builtin.module {
  ktdf_arch.device @stream_device import("stream_device.mlir")
  builtin.module {
    func.func @add(%A: index, %B: index, %C: index) attributes {grid = [32 : i64]} {
      func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [32 : i64]} {
      %c3 = arith.constant 3 : index
      %id = ktdp.get_compute_tile_id : index
      %row0 = arith.muli %id, %c3 : index
      %Av = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 95) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
      %Av_cast = memref.memory_space_cast %Av : memref<96x64xf16> to memref<96x64xf16, "HBM">
      %Bv = ktdp.construct_memory_view %B, sizes: [96, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 95) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
      %Bv_cast = memref.memory_space_cast %Bv : memref<96x64xf16> to memref<96x64xf16, "HBM">
      %Cv = ktdp.construct_memory_view %C, sizes: [96, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 95) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
      %Cv_cast = memref.memory_space_cast %Cv : memref<96x64xf16> to memref<96x64xf16, "HBM">
      %0 = arith.constant 0 : index
      %1 = arith.constant 3 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant 0 : index
      %4 = arith.constant 2 : index
      %5 = arith.constant 1 : index
      scf.for %v0 = %0 to %1 step %2 {
        scf.for %v1 = %3 to %4 step %5 {
          ktdf.pipeline {
            %6, %7, %8, %9, %10, %11 = ktdf.private -> (!ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "VSU", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
              %12 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>
              %13 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>
              %14 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"VPU" -> "VSU", 32xf16>
              %15 = ktdf.create_token : !ktdf.token
              %16 = ktdf.create_token : !ktdf.token
              %17 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %12, %13, %14, %15, %16, %17 : !ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "VSU", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%9) {
              ktdf.data_transfer from %Av_cast[%row0 + %v0, %v1 * 32] size [1, 32] to %6 size [32] : memref<96x64xf16, "HBM">, !ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>
              ktdf.data_transfer from %Bv_cast[%row0 + %v0, %v1 * 32] size [1, 32] to %7 size [32] : memref<96x64xf16, "HBM">, !ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>
            } {applicable_units = ["VLU"]}
            ktdf.stage depends_in(%9) depends_out(%10) {
              %18 = ktdf.read_from_fifo %6 : <"VLU" -> "VPU", 32xf16> -> tensor<1x32xf16>
              %19 = ktdf.read_from_fifo %7 : <"VLU" -> "VPU", 32xf16> -> tensor<1x32xf16>
              %20 = tensor.empty() : tensor<1x32xf16>
              %21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%18, %19 : tensor<1x32xf16>, tensor<1x32xf16>) outs(%20 : tensor<1x32xf16>) {
              ^bb0(%22: f16, %23: f16, %24: f16):
                %25 = arith.addf %22, %23 : f16
                linalg.yield %25 : f16
              } -> tensor<1x32xf16>
              ktdf.write_to_fifo %21, %8 : tensor<1x32xf16>, <"VPU" -> "VSU", 32xf16>
            } {applicable_units = ["VPU"]}
            ktdf.stage depends_in(%10) depends_out(%11) {
              ktdf.data_transfer from %8 size [32] to %Cv_cast[%row0 + %v0, %v1 * 32] size [1, 32] : !ktdf.fifo.slot<"VPU" -> "VSU", 32xf16>, memref<96x64xf16, "HBM">
            } {applicable_units = ["VSU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
