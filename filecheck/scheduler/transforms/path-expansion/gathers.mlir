// RUN: ktir-opt %s -p path-expansion | filecheck %s

/// A gather on the sample device (DDR -> MNILU -> L1 -> L1LU -> SFU): the MNILU first stages
/// the one index the vector needs from the index view into an L1 buffer of one element (a
/// plain transfer), then gathers the row it names from DDR into L1 (the indirect subscript now
/// reads the L1 buffer at 0); the L1LU feeds the FIFO from there as for any load.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[TC:.*]] = memref.memory_space_cast %{{.*}} to memref<100x64xf16, "DDR">
// CHECK:         %[[IC:.*]] = memref.memory_space_cast %{{.*}} to memref<64xi32, "DDR">
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      %[[S:[^,]*]], %[[O:[^,]*]], %[[IDX:[^,]*]], %[[BUF:[^,]*]], %[[BOUT:[^,]*]], %[[T0:[^,]*]], %[[T1:[^,]*]], %[[T2:[^,]*]], %[[T3:[^,]*]], %[[T4:[^ ]*]] = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1xi32, "L1">, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">,
// CHECK:             %{{.*}} = memref.alloc() : memref<1xi32, "L1">
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[T0]]) {
// CHECK-NEXT:        ktdf.data_transfer from %[[IC]][%[[FIRST:.*]] + %[[V0:.*]]] size [1] to %[[IDX]][0] size [1] : memref<64xi32, "DDR">, memref<1xi32, "L1">
// CHECK-NEXT:        ktdf.ind_data_transfer from %[[TC]][ind(%[[IDX]][0]), (%[[V1:.*]])] size [1, 64] to %[[BUF]][0, 0] size [1, 64] : memref<100x64xf16, "DDR">, memref<1xi32, "L1">, memref<1x64xf16, "L1">
// CHECK-NEXT:      } {applicable_units = ["MNILU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T0]]) depends_out(%[[T1]]) {
// CHECK-NEXT:        ktdf.data_transfer from %[[BUF]][0, 0] size [1, 64] to %[[S]] size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:      } {applicable_units = ["L1LU"]}

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
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
      %Tv_cast = memref.memory_space_cast %Tv : memref<100x64xf16> to memref<100x64xf16, "DDR">
      %Iv = ktdp.construct_memory_view %I, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
      %Iv_cast = memref.memory_space_cast %Iv : memref<64xi32> to memref<64xi32, "DDR">
      %Ov = ktdp.construct_memory_view %O, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %Ov_cast = memref.memory_space_cast %Ov : memref<64x64xf16> to memref<64x64xf16, "DDR">
      %0 = arith.constant 0 : index
      %1 = arith.constant 16 : index
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
              ktdf.ind_data_transfer from %Tv_cast[ind(%Iv_cast[%first + %v0]), (%v1)] size [1, 64] to %6 size [64] : memref<100x64xf16, "DDR">, memref<64xi32, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
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
              ktdf.data_transfer from %7 size [64] to %Ov_cast[%first + %v0, %v1] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<64x64xf16, "DDR">
            }
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}

