// RUN: ktir-opt %s --split-input-file -p path-expansion | filecheck %s

/// The same negation pipeline routed on the other two shipped devices (the sample device is in
/// basic.mlir). Spyre stages through its scratchpad like the sample: DDR -> DMA_IN -> LX ->
/// LX_LOAD -> PE -> LX_STORE -> LX -> DMA_OUT -> DDR, with two LX buffers. The stream device has
/// no DMA: its load/store units read and write HBM directly (HBM -> VLU -> VPU -> VSU -> HBM),
/// so only the FIFO endpoints change and no buffer is allocated.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[S:[^,]*]], %[[R:[^,]*]], %[[BIN:[^,]*]], %[[BOUT:[^,]*]], %{{.*}} = ktdf.private -> (!ktdf.fifo.slot<"LX_LOAD" -> "PE", 64xf16>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 64xf16>, memref<1x64xf16, "LX">, memref<1x64xf16, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:         ktdf.stage depends_in(none)
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}} to %[[BIN]][0, 0] size [1, 64] : memref<2x64xf16, "DDR">, memref<1x64xf16, "LX">
// CHECK-NEXT:    } {applicable_units = ["DMA_IN"]}
// CHECK-NEXT:    ktdf.stage
// CHECK-NEXT:      ktdf.data_transfer from %[[BIN]][0, 0] size [1, 64] to %[[S]] size [64]
// CHECK-NEXT:    } {applicable_units = ["LX_LOAD"]}
// CHECK:         } {applicable_units = ["PE"]}
// CHECK-NEXT:    ktdf.stage
// CHECK-NEXT:      ktdf.data_transfer from %[[R]] size [64] to %[[BOUT]][0, 0] size [1, 64]
// CHECK-NEXT:    } {applicable_units = ["LX_STORE"]}
// CHECK-NEXT:    ktdf.stage
// CHECK-NEXT:      ktdf.data_transfer from %[[BOUT]][0, 0] size [1, 64] to %{{.*}} : memref<1x64xf16, "LX">, memref<2x64xf16, "DDR">
// CHECK-NEXT:    } {applicable_units = ["DMA_OUT"]}
// CHECK-NEXT:  }
module {
  ktdf_arch.device @spyre import("spyre.mlir")
  module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index) attributes {grid = [2]} {
      %tid = ktdp.get_compute_tile_id : index
      %xv = ktdp.construct_memory_view %x, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
      %xc = memref.memory_space_cast %xv : memref<2x64xf16> to memref<2x64xf16, "DDR">
      %yv = ktdp.construct_memory_view %y, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
      %yc = memref.memory_space_cast %yv : memref<2x64xf16> to memref<2x64xf16, "DDR">
      %c0 = arith.constant 0 : index
      ktdf.pipeline {
        %s, %r, %t0, %t1, %t2 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "PE", 64xf16>, !ktdf.fifo.slot<"PE" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %s0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "PE", 64xf16>
          %r0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "DDR", 64xf16>
          %k0 = ktdf.create_token : !ktdf.token
          %k1 = ktdf.create_token : !ktdf.token
          %k2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %s0, %r0, %k0, %k1, %k2 : !ktdf.fifo.slot<"DDR" -> "PE", 64xf16>, !ktdf.fifo.slot<"PE" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t0) {
          ktdf.data_transfer from %xc[%tid, %c0] size [1, 64] to %s size [64] : memref<2x64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "PE", 64xf16>
        }
        ktdf.stage depends_in(%t0) depends_out(%t1) {
          %a = ktdf.read_from_fifo %s : <"DDR" -> "PE", 64xf16> -> tensor<1x64xf16>
          %e = tensor.empty() : tensor<1x64xf16>
          %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
          ^bb0(%p: f16, %o: f16):
            %m = arith.negf %p : f16
            linalg.yield %m : f16
          } -> tensor<1x64xf16>
          ktdf.write_to_fifo %n, %r : tensor<1x64xf16>, <"PE" -> "DDR", 64xf16>
        } {applicable_units = ["PE"]}
        ktdf.stage depends_in(%t1) depends_out(%t2) {
          ktdf.data_transfer from %r size [64] to %yc[%tid, %c0] size [1, 64] : !ktdf.fifo.slot<"PE" -> "DDR", 64xf16>, memref<2x64xf16, "DDR">
        }
      }
      func.return
    }
  }
}

// -----

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[S:[^,]*]], %[[R:[^,]*]], %{{.*}} = ktdf.private -> (!ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "VSU", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK-NOT:     memref.alloc
// CHECK:         ktdf.stage depends_in(none)
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}} size [1, 32] to %[[S]] size [32] : memref<2x64xf16, "HBM">, !ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>
// CHECK-NEXT:    } {applicable_units = ["VLU"]}
// CHECK:         } {applicable_units = ["VPU"]}
// CHECK-NEXT:    ktdf.stage
// CHECK-NEXT:      ktdf.data_transfer from %[[R]] size [32] to %{{.*}} size [1, 32] : !ktdf.fifo.slot<"VPU" -> "VSU", 32xf16>, memref<2x64xf16, "HBM">
// CHECK-NEXT:    } {applicable_units = ["VSU"]}
// CHECK-NEXT:  }
module {
  ktdf_arch.device @stream_device import("stream_device.mlir")
  module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index) attributes {grid = [2]} {
      %tid = ktdp.get_compute_tile_id : index
      %xv = ktdp.construct_memory_view %x, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
      %xc = memref.memory_space_cast %xv : memref<2x64xf16> to memref<2x64xf16, "HBM">
      %yv = ktdp.construct_memory_view %y, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
      %yc = memref.memory_space_cast %yv : memref<2x64xf16> to memref<2x64xf16, "HBM">
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      scf.for %j = %c0 to %c64 step %c32 {
        ktdf.pipeline {
          %s, %r, %t0, %t1, %t2 = ktdf.private -> (!ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
            %s0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>
            %r0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>
            %k0 = ktdf.create_token : !ktdf.token
            %k1 = ktdf.create_token : !ktdf.token
            %k2 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %s0, %r0, %k0, %k1, %k2 : !ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%t0) {
            ktdf.data_transfer from %xc[%tid, %j] size [1, 32] to %s size [32] : memref<2x64xf16, "HBM">, !ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>
          }
          ktdf.stage depends_in(%t0) depends_out(%t1) {
            %a = ktdf.read_from_fifo %s : <"HBM" -> "VPU", 32xf16> -> tensor<1x32xf16>
            %e = tensor.empty() : tensor<1x32xf16>
            %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x32xf16>) outs(%e : tensor<1x32xf16>) {
            ^bb0(%p: f16, %o: f16):
              %m = arith.negf %p : f16
              linalg.yield %m : f16
            } -> tensor<1x32xf16>
            ktdf.write_to_fifo %n, %r : tensor<1x32xf16>, <"VPU" -> "HBM", 32xf16>
          } {applicable_units = ["VPU"]}
          ktdf.stage depends_in(%t1) depends_out(%t2) {
            ktdf.data_transfer from %r size [32] to %yc[%tid, %j] size [1, 32] : !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>, memref<2x64xf16, "HBM">
          }
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
