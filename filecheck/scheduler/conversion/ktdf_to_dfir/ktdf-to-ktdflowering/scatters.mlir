// RUN: ktir-opt %s -p ktdf-to-ktdflowering | filecheck %s

/// A scatter's index is a buffer like any other: the MNILU stages it into L1 and the MNISU
/// reads it when it scatters, so the two handshake (the MNILU signals after staging, the
/// MNISU waits before scattering), and across iterations the MNISU releases it after the
/// scatter, which the MNILU waits for before staging the next index (the release skipped in the
/// last iteration, the wait in the first).

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf_lowering.execute_on %[[MNILU:[^ ]*]] {
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:      } else {
// CHECK-NEXT:        ktdf_lowering.signal %[[MNILU]], %[[MNISU:[^ ]*]] {applicable_units = ["MNILU"]}
// CHECK:           ktdf.data_transfer from %{{.*}} to %[[IDX:[^\[]*]][0] size [1] : memref<4xi32, "DDR">, memref<1xi32, "L1">
// CHECK:           ktdf_lowering.signal %[[MNILU]], %[[MNISU]] {applicable_units = ["MNILU"]}
// CHECK-NEXT:    } {applicable_units = ["MNILU"]}
// CHECK:         ktdf_lowering.execute_on %[[MNISU]] {
// CHECK-NEXT:      ktdf_lowering.signal %[[MNILU]], %[[MNISU]] {applicable_units = ["MNISU"]}
// CHECK-NEXT:      ktdf_lowering.signal %[[L1SU:[^ ]*]], %[[MNISU]] {applicable_units = ["MNISU"]}
// CHECK-NEXT:      ktdf.ind_data_transfer from %{{.*}}[0, 0] size [1, 64] to %{{.*}}[ind(%[[IDX]][0]), (%{{.*}})] size [1, 64]
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:      } else {
// CHECK-NEXT:        ktdf_lowering.signal %[[MNILU]], %[[MNISU]] {applicable_units = ["MNISU"]}

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
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
      %x_cast = memref.memory_space_cast %x : memref<4x64xf16> to memref<4x64xf16, "DDR">
      %i = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
      %i_cast = memref.memory_space_cast %i : memref<4xi32> to memref<4xi32, "DDR">
      %o = ktdp.construct_memory_view %O, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
      %o_cast = memref.memory_space_cast %o : memref<8x64xf16> to memref<8x64xf16, "DDR">
      %0 = arith.constant 0 : index
      %1 = arith.constant 4 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant 0 : index
      %4 = arith.constant 0 : index
      %5 = arith.constant 1 : index
      %6 = arith.constant 1 : index
      %7 = arith.constant 64 : index
      scf.for %v0 = %0 to %1 step %2 {
        scf.for %k = %4 to %5 step %6 {
          %8 = arith.muli %k, %7 : index
          %v1 = arith.addi %3, %8 : index
          ktdf.pipeline {
            %9, %10, %11, %12, %13, %14, %15, %16, %17, %18 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, memref<1xi32, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
              %19 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              %20 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
              %21 = arith.constant 0 : index
              %buf_l1 = builtin.unrealized_conversion_cast %21 : index to memref<1x64xf16, "L1">
              %22 = arith.constant 32 : index
              %idx_l1 = builtin.unrealized_conversion_cast %22 : index to memref<1xi32, "L1">
              %23 = arith.constant 128 : index
              %buf_l1_1 = builtin.unrealized_conversion_cast %23 : index to memref<1x64xf16, "L1">
              %24 = ktdf.create_token : !ktdf.token
              %25 = ktdf.create_token : !ktdf.token
              %26 = ktdf.create_token : !ktdf.token
              %27 = ktdf.create_token : !ktdf.token
              %28 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %19, %20, %buf_l1, %idx_l1, %buf_l1_1, %24, %25, %26, %27, %28 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, memref<1xi32, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%14) {
              ktdf.data_transfer from %x_cast[%v0, %k * 64] size [1, 64] to %11[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<1x64xf16, "L1">
              ktdf.data_transfer from %i_cast[%v0] size [1] to %12[0] size [1] : memref<4xi32, "DDR">, memref<1xi32, "L1">
            } {applicable_units = ["MNILU"]}
            ktdf.stage depends_in(%14) depends_out(%15) {
              ktdf.data_transfer from %11[0, 0] size [1, 64] to %9 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%15) depends_out(%16) {
              %29 = ktdf.read_from_fifo %9 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
              %30 = tensor.empty() : tensor<1x64xf16>
              %31 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%29 : tensor<1x64xf16>) outs(%30 : tensor<1x64xf16>) {
              ^bb0(%32: f16, %33: f16):
                linalg.yield %32 : f16
              } -> tensor<1x64xf16>
              ktdf.write_to_fifo %31, %10 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%16) depends_out(%17) {
              ktdf.data_transfer from %10 size [64] to %13[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
            } {applicable_units = ["L1SU"]}
            ktdf.stage depends_in(%17) depends_out(%18) {
              ktdf.ind_data_transfer from %13[0, 0] size [1, 64] to %o_cast[ind(%12[0]), (%v1)] size [1, 64] : memref<1x64xf16, "L1">, memref<1xi32, "L1">, memref<8x64xf16, "DDR">
            } {applicable_units = ["MNISU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
