// RUN: ktir-opt %s -p path-expansion | filecheck %s

/// On a device whose load unit feeds the compute unit straight from device memory
/// (stream_device: HBM -> VLU -> VPU) there is no memory on the route to stage the index in:
/// the VLU gathers into the FIFO and reads the index where it lies (the index view in HBM);
/// the slot now starts at the VLU.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[TC:.*]] = memref.memory_space_cast %{{.*}} to memref<100x64xf16, "HBM">
// CHECK:         %[[IC:.*]] = memref.memory_space_cast %{{.*}} to memref<64xi32, "HBM">
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      %[[S:[^,]*]], %[[O:[^,]*]], %[[T0:[^,]*]], %[[T1:[^,]*]], %[[T2:[^ ]*]] = ktdf.private -> (!ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "VSU", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-NOT:         memref.alloc
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[T0]]) {
// CHECK-NEXT:        ktdf.ind_data_transfer from %[[TC]][ind(%[[IC]][%{{.*}} + %{{.*}}]), (%{{.*}})] size [1, 32] to %[[S]] size [32] : memref<100x64xf16, "HBM">, memref<64xi32, "HBM">, !ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>
// CHECK-NEXT:      } {applicable_units = ["VLU"]}

builtin.module {
  ktdf_arch.device @stream_device import("stream_device.mlir")
  builtin.module {
    func.func @gather(%T: index, %I: index, %O: index) attributes {grid = [4 : i64]} {
      func.call @local_schedule_0(%T, %I, %O) : (index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%T: index, %I: index, %O: index) attributes {grid = [4 : i64]} {
      %c16 = arith.constant 16 : index
      %t = ktdp.get_compute_tile_id : index
      %first = arith.muli %t, %c16 : index
      %Tv = ktdp.construct_memory_view %T, sizes: [100, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 99) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
      %Tv_cast = memref.memory_space_cast %Tv : memref<100x64xf16> to memref<100x64xf16, "HBM">
      %Iv = ktdp.construct_memory_view %I, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
      %Iv_cast = memref.memory_space_cast %Iv : memref<64xi32> to memref<64xi32, "HBM">
      %Ov = ktdp.construct_memory_view %O, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %Ov_cast = memref.memory_space_cast %Ov : memref<64x64xf16> to memref<64x64xf16, "HBM">
      %0 = arith.constant 0 : index
      %1 = arith.constant 16 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant 0 : index
      %4 = arith.constant 64 : index
      %5 = arith.constant 32 : index
      scf.for %v0 = %0 to %1 step %2 {
        scf.for %v1 = %3 to %4 step %5 {
          ktdf.pipeline {
            %6, %7, %8, %9, %10 = ktdf.private -> (!ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
              %11 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>
              %12 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>
              %13 = ktdf.create_token : !ktdf.token
              %14 = ktdf.create_token : !ktdf.token
              %15 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %11, %12, %13, %14, %15 : !ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%8) {
              ktdf.ind_data_transfer from %Tv_cast[ind(%Iv_cast[%first + %v0]), (%v1)] size [1, 32] to %6 size [32] : memref<100x64xf16, "HBM">, memref<64xi32, "HBM">, !ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>
            }
            ktdf.stage depends_in(%8) depends_out(%9) {
              %16 = ktdf.read_from_fifo %6 : <"HBM" -> "VPU", 32xf16> -> tensor<1x32xf16>
              %17 = tensor.empty() : tensor<1x32xf16>
              %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<1x32xf16>) outs(%17 : tensor<1x32xf16>) {
              ^bb0(%19: f16, %20: f16):
                linalg.yield %19 : f16
              } -> tensor<1x32xf16>
              ktdf.write_to_fifo %18, %7 : tensor<1x32xf16>, <"VPU" -> "HBM", 32xf16>
            } {applicable_units = ["VPU"]}
            ktdf.stage depends_in(%9) depends_out(%10) {
              ktdf.data_transfer from %7 size [32] to %Ov_cast[%first + %v0, %v1] size [1, 32] : !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>, memref<64x64xf16, "HBM">
            }
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}

