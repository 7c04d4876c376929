// RUN: ktir-opt %s --split-input-file -p elide-copy-stages | filecheck %s

/// A 4x256 copy on sample_device after stage-coarsening: DMA into an L1 block, the load unit
/// streams it to the SFU, which yields each vector unchanged, the store unit writes it to a
/// second L1 block, and the last DMA drains that. The three middle stages go: the drain reads
/// the first block, behind the first stage's token, and the FIFOs, the second block and the
/// inner tokens leave the private.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      %[[IN:.*]], %[[T0:.*]], %[[T1:.*]] = ktdf.private -> (memref<4x256xf16, "L1">, !ktdf.token, !ktdf.token) {
// CHECK-NEXT:        %[[BUF:.*]] = memref.alloc() : memref<4x256xf16, "L1">
// CHECK-NEXT:        %[[C0:.*]] = ktdf.create_token
// CHECK-NEXT:        %[[C1:.*]] = ktdf.create_token
// CHECK-NEXT:        ktdf.private_yield %[[BUF]], %[[C0]], %[[C1]]
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[T0]]) {
// CHECK:             ktdf.data_transfer from %Av_cast[{{.*}}] size [4, 256] to %[[IN]][0, 0] size [4, 256]
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T0]]) depends_out(%[[T1]]) {
// CHECK:             ktdf.data_transfer from %[[IN]][0, 0] size [4, 256] to %Bv_cast[{{.*}}] size [4, 256]
// CHECK:           } {applicable_units = ["MNISU"]}
// CHECK-NEXT:    }

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @copy(%A: index, %B: index) attributes {grid = [1 : i64]} {
      func.call @local_schedule_0(%A, %B) : (index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%A: index, %B: index) attributes {grid = [1 : i64]} {
      %Av = ktdp.construct_memory_view %A, sizes: [4, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x256xf16>
      %Av_cast = memref.memory_space_cast %Av : memref<4x256xf16> to memref<4x256xf16, "DDR">
      %Bv = ktdp.construct_memory_view %B, sizes: [4, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x256xf16>
      %Bv_cast = memref.memory_space_cast %Bv : memref<4x256xf16> to memref<4x256xf16, "DDR">
      %0 = arith.constant 0 : index
      %1 = arith.constant 4 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant 0 : index
      %4 = arith.constant 4 : index
      %5 = arith.constant 1 : index
      %6 = arith.constant 0 : index
      %7 = arith.constant 4 : index
      %8 = arith.constant 4 : index
      scf.for %v0_block = %6 to %7 step %8 {
        ktdf.pipeline {
          %9, %10, %11, %12, %13, %14, %15, %16, %17 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<4x256xf16, "L1">, memref<4x256xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
            %18 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            %19 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
            %buf_l1 = memref.alloc() : memref<4x256xf16, "L1">
            %buf_l1_1 = memref.alloc() : memref<4x256xf16, "L1">
            %20 = ktdf.create_token : !ktdf.token
            %21 = ktdf.create_token : !ktdf.token
            %22 = ktdf.create_token : !ktdf.token
            %23 = ktdf.create_token : !ktdf.token
            %24 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %18, %19, %buf_l1, %buf_l1_1, %20, %21, %22, %23, %24 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<4x256xf16, "L1">, memref<4x256xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%13) {
            %25 = arith.constant 0 : index
            ktdf.data_transfer from %Av_cast[%v0_block, %25 * 64] size [4, 256] to %11[0, 0] size [4, 256] : memref<4x256xf16, "DDR">, memref<4x256xf16, "L1">
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%13) depends_out(%14) {
            %26 = arith.constant 0 : index
            %27 = arith.constant 4 : index
            %28 = arith.constant 1 : index
            scf.for %v0_p = %26 to %27 step %28 {
              %29 = arith.constant 0 : index
              %30 = arith.constant 4 : index
              %31 = arith.constant 1 : index
              scf.for %v1_p = %29 to %30 step %31 {
                ktdf.data_transfer from %11[%v0_p, %v1_p * 64] size [1, 64] to %9 size [64] : memref<4x256xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              } {loop_type = #ktdf.loop_type<parallel_loop>}
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["L1LU"]}
          ktdf.stage depends_in(%14) depends_out(%15) {
            %32 = arith.constant 0 : index
            %33 = arith.constant 4 : index
            %34 = arith.constant 1 : index
            scf.for %v0_p_1 = %32 to %33 step %34 {
              %35 = arith.constant 0 : index
              %36 = arith.constant 4 : index
              %37 = arith.constant 1 : index
              scf.for %v1_p_1 = %35 to %36 step %37 {
                %38 = ktdf.read_from_fifo %9 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
                %39 = tensor.empty() : tensor<1x64xf16>
                %40 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%38 : tensor<1x64xf16>) outs(%39 : tensor<1x64xf16>) {
                ^bb0(%41: f16, %42: f16):
                  linalg.yield %41 : f16
                } -> tensor<1x64xf16>
                ktdf.write_to_fifo %40, %10 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
              } {loop_type = #ktdf.loop_type<parallel_loop>}
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["SFU"]}
          ktdf.stage depends_in(%15) depends_out(%16) {
            %43 = arith.constant 0 : index
            %44 = arith.constant 4 : index
            %45 = arith.constant 1 : index
            scf.for %v0_p_2 = %43 to %44 step %45 {
              %46 = arith.constant 0 : index
              %47 = arith.constant 4 : index
              %48 = arith.constant 1 : index
              scf.for %v1_p_2 = %46 to %47 step %48 {
                ktdf.data_transfer from %10 size [64] to %12[%v0_p_2, %v1_p_2 * 64] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<4x256xf16, "L1">
              } {loop_type = #ktdf.loop_type<parallel_loop>}
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["L1SU"]}
          ktdf.stage depends_in(%16) depends_out(%17) {
            %49 = arith.constant 0 : index
            ktdf.data_transfer from %12[0, 0] size [4, 256] to %Bv_cast[%v0_block, %49 * 64] size [4, 256] : memref<4x256xf16, "L1">, memref<4x256xf16, "DDR">
          } {applicable_units = ["MNISU"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}

// -----

/// The compute stage negates: not a copy, the pipeline keeps its five stages.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-COUNT-3: ktdf.stage
// CHECK:         arith.negf
// CHECK-COUNT-2: ktdf.stage
builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @negate(%A: index, %B: index) attributes {grid = [1 : i64]} {
      func.call @local_schedule_0(%A, %B) : (index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%A: index, %B: index) attributes {grid = [1 : i64]} {
      %Av = ktdp.construct_memory_view %A, sizes: [4, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x256xf16>
      %Av_cast = memref.memory_space_cast %Av : memref<4x256xf16> to memref<4x256xf16, "DDR">
      %Bv = ktdp.construct_memory_view %B, sizes: [4, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x256xf16>
      %Bv_cast = memref.memory_space_cast %Bv : memref<4x256xf16> to memref<4x256xf16, "DDR">
      %0 = arith.constant 0 : index
      %1 = arith.constant 4 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant 0 : index
      %4 = arith.constant 4 : index
      %5 = arith.constant 1 : index
      %6 = arith.constant 0 : index
      %7 = arith.constant 4 : index
      %8 = arith.constant 4 : index
      scf.for %v0_block = %6 to %7 step %8 {
        ktdf.pipeline {
          %9, %10, %11, %12, %13, %14, %15, %16, %17 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<4x256xf16, "L1">, memref<4x256xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
            %18 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            %19 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
            %buf_l1 = memref.alloc() : memref<4x256xf16, "L1">
            %buf_l1_1 = memref.alloc() : memref<4x256xf16, "L1">
            %20 = ktdf.create_token : !ktdf.token
            %21 = ktdf.create_token : !ktdf.token
            %22 = ktdf.create_token : !ktdf.token
            %23 = ktdf.create_token : !ktdf.token
            %24 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %18, %19, %buf_l1, %buf_l1_1, %20, %21, %22, %23, %24 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<4x256xf16, "L1">, memref<4x256xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%13) {
            %25 = arith.constant 0 : index
            ktdf.data_transfer from %Av_cast[%v0_block, %25 * 64] size [4, 256] to %11[0, 0] size [4, 256] : memref<4x256xf16, "DDR">, memref<4x256xf16, "L1">
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%13) depends_out(%14) {
            %26 = arith.constant 0 : index
            %27 = arith.constant 4 : index
            %28 = arith.constant 1 : index
            scf.for %v0_p = %26 to %27 step %28 {
              %29 = arith.constant 0 : index
              %30 = arith.constant 4 : index
              %31 = arith.constant 1 : index
              scf.for %v1_p = %29 to %30 step %31 {
                ktdf.data_transfer from %11[%v0_p, %v1_p * 64] size [1, 64] to %9 size [64] : memref<4x256xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              } {loop_type = #ktdf.loop_type<parallel_loop>}
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["L1LU"]}
          ktdf.stage depends_in(%14) depends_out(%15) {
            %32 = arith.constant 0 : index
            %33 = arith.constant 4 : index
            %34 = arith.constant 1 : index
            scf.for %v0_p_1 = %32 to %33 step %34 {
              %35 = arith.constant 0 : index
              %36 = arith.constant 4 : index
              %37 = arith.constant 1 : index
              scf.for %v1_p_1 = %35 to %36 step %37 {
                %38 = ktdf.read_from_fifo %9 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
                %39 = tensor.empty() : tensor<1x64xf16>
                %40 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%38 : tensor<1x64xf16>) outs(%39 : tensor<1x64xf16>) {
                ^bb0(%41: f16, %42: f16):
                  %n = arith.negf %41 : f16
                  linalg.yield %n : f16
                } -> tensor<1x64xf16>
                ktdf.write_to_fifo %40, %10 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
              } {loop_type = #ktdf.loop_type<parallel_loop>}
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["SFU"]}
          ktdf.stage depends_in(%15) depends_out(%16) {
            %43 = arith.constant 0 : index
            %44 = arith.constant 4 : index
            %45 = arith.constant 1 : index
            scf.for %v0_p_2 = %43 to %44 step %45 {
              %46 = arith.constant 0 : index
              %47 = arith.constant 4 : index
              %48 = arith.constant 1 : index
              scf.for %v1_p_2 = %46 to %47 step %48 {
                ktdf.data_transfer from %10 size [64] to %12[%v0_p_2, %v1_p_2 * 64] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<4x256xf16, "L1">
              } {loop_type = #ktdf.loop_type<parallel_loop>}
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["L1SU"]}
          ktdf.stage depends_in(%16) depends_out(%17) {
            %49 = arith.constant 0 : index
            ktdf.data_transfer from %12[0, 0] size [4, 256] to %Bv_cast[%v0_block, %49 * 64] size [4, 256] : memref<4x256xf16, "L1">, memref<4x256xf16, "DDR">
          } {applicable_units = ["MNISU"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
