// RUN: ktir-opt %s -p path-expansion | filecheck %s

/// A gather through two index views (`%T[ind(%I[i]), ind(%J[i]), (d)]`) on the sample device:
/// the MNILU stages both indices side by side into one L1 buffer of two i32 (index j at [j]),
/// and the gather reads them there (`ind(%idx[0]), ind(%idx[1])`): consecutive elements of one
/// buffer, which the indirect DMA reads as one index memref.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[IC:.*]] = memref.memory_space_cast %{{.*}} to memref<4xi32, "DDR">
// CHECK:         %[[JC:.*]] = memref.memory_space_cast %{{.*}} to memref<4xi32, "DDR">
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      %[[S:[^,]*]], %[[O:[^,]*]], %[[IDX:[^,]*]], %[[BUF:[^,]*]], %[[BOUT:[^,]*]], %[[T0:[^,]*]], %[[T1:[^,]*]], %[[T2:[^,]*]], %[[T3:[^,]*]], %[[T4:[^ ]*]] = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<2xi32, "L1">,
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[T0]]) {
// CHECK-NEXT:        ktdf.data_transfer from %[[IC]][%[[V0:.*]]] size [1] to %[[IDX]][0] size [1] : memref<4xi32, "DDR">, memref<2xi32, "L1">
// CHECK-NEXT:        ktdf.data_transfer from %[[JC]][%[[V0]]] size [1] to %[[IDX]][1] size [1] : memref<4xi32, "DDR">, memref<2xi32, "L1">
// CHECK-NEXT:        ktdf.ind_data_transfer from %{{.*}}[ind(%[[IDX]][0]), ind(%[[IDX]][1]), (%{{.*}})] size [1, 1, 64] to %[[BUF]][0, 0, 0] size [1, 1, 64]
// CHECK-NEXT:      } {applicable_units = ["MNILU"]}

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @two(%T: index, %I: index, %J: index, %O: index) attributes {grid = [1 : i64]} {
      func.call @local_schedule_0(%T, %I, %J, %O) : (index, index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%T: index, %I: index, %J: index, %O: index) attributes {grid = [1 : i64]} {
      %Tv = ktdp.construct_memory_view %T, sizes: [4, 4, 64], strides: [256, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 3) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x4x64xf16>
      %Tv_cast = memref.memory_space_cast %Tv : memref<4x4x64xf16> to memref<4x4x64xf16, "DDR">
      %Iv = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
      %Iv_cast = memref.memory_space_cast %Iv : memref<4xi32> to memref<4xi32, "DDR">
      %Jv = ktdp.construct_memory_view %J, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
      %Jv_cast = memref.memory_space_cast %Jv : memref<4xi32> to memref<4xi32, "DDR">
      %Ov = ktdp.construct_memory_view %O, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %Ov_cast = memref.memory_space_cast %Ov : memref<4x64xf16> to memref<4x64xf16, "DDR">
      %0 = arith.constant 0 : index
      %1 = arith.constant 4 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant 0 : index
      %4 = arith.constant 64 : index
      %5 = arith.constant 64 : index
      scf.for %v0 = %0 to %1 step %2 {
        scf.for %v1 = %3 to %4 step %5 {
          ktdf.pipeline {
            %6, %7, %8, %9, %10 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
              %11 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
              %12 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
              %13 = ktdf.create_token : !ktdf.token
              %14 = ktdf.create_token : !ktdf.token
              %15 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %11, %12, %13, %14, %15 : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%8) {
              ktdf.ind_data_transfer from %Tv_cast[ind(%Iv_cast[%v0]), ind(%Jv_cast[%v0]), (%v1)] size [1, 1, 64] to %6 size [64] : memref<4x4x64xf16, "DDR">, memref<4xi32, "DDR">, memref<4xi32, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
            }
            ktdf.stage depends_in(%8) depends_out(%9) {
              %16 = ktdf.read_from_fifo %6 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
              %17 = tensor.empty() : tensor<1x64xf16>
              %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<1x64xf16>) outs(%17 : tensor<1x64xf16>) {
              ^bb0(%19: f16, %20: f16):
                linalg.yield %19 : f16
              } -> tensor<1x64xf16>
              ktdf.write_to_fifo %18, %7 : tensor<1x64xf16>, <"SFU" -> "DDR", 64xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%9) depends_out(%10) {
              ktdf.data_transfer from %7 size [64] to %Ov_cast[%v0, %v1] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<4x64xf16, "DDR">
            }
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
