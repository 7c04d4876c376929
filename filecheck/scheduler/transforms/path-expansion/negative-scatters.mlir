// RUN: ktir-opt %s -p path-expansion --verify-diagnostics | filecheck %s

/// On stream_device a store goes VPU -> VSU -> HBM: no memory lies before the storing unit
/// to stage the scatter's index in, and the VSU does not read HBM. Refused at the transfer.

// CHECK: error: {{.*}}'ktdf.ind_data_transfer' op a scatter on the route VPU -> VSU -> HBM of device @stream_device, which has no memory to stage its indices in before the unit that stores: not supported by the scheduler yet

builtin.module {
  ktdf_arch.device @stream_device import("stream_device.mlir")
  builtin.module {
    func.func @scatter(%X: index, %I: index, %O: index) {
      func.call @local_schedule_0(%X, %I, %O) : (index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%X: index, %I: index, %O: index) {
      %x = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %x_cast = memref.memory_space_cast %x : memref<4x64xf16> to memref<4x64xf16, "HBM">
      %i = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
      %i_cast = memref.memory_space_cast %i : memref<4xi32> to memref<4xi32, "HBM">
      %o = ktdp.construct_memory_view %O, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
      %o_cast = memref.memory_space_cast %o : memref<8x64xf16> to memref<8x64xf16, "HBM">
      %0 = arith.constant 0 : index
      %1 = arith.constant 4 : index
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
              ktdf.data_transfer from %x_cast[%v0, %v1] size [1, 32] to %6 size [32] : memref<4x64xf16, "HBM">, !ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>
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
              ktdf.ind_data_transfer from %7 size [32] to %o_cast[ind(%i_cast[%v0]), (%v1)] size [1, 32] : !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>, memref<4xi32, "HBM">, memref<8x64xf16, "HBM">
            }
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
