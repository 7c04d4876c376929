// RUN: ktir-opt %s -p reduction-loop-exposure | filecheck %s

/// The routed row softmax of construct-three-stage-pipeline/reductions.mlir (2x128 fp16 on the
/// sample device, one row per instance). Each pass's generic becomes a loop over the row's
/// vectors of the types each pass reads and writes (64 f16 lanes, the sum too: its f32
/// partials span two f32 vectors, not 32-lane steps that would run each f16 op on half a
/// vector): the maximum folds into f16 partials starting from -inf, the sum of exponentials
/// into f32 partials starting from 0 (each f16 exponential widened), each followed by the fold of the
/// partial vector's lanes with the init (a reduction iterator over one vector) and, for the
/// sum, one rounding to f16; the normalisation writes a vector per step. The L1LU streams the
/// row from the one L1 copy once per pass in the same steps, the L1SU drains per vector; the
/// DMA stages still move whole rows.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.data_transfer from %{{.*}}[%{{.*}}, %{{.*}}] size [1, 128] to %[[ROW:.*]][0, 0] size [1, 128] : memref<2x128xf16, "DDR">, memref<1x128xf16, "L1">
// CHECK-NEXT:  } {applicable_units = ["MNILU"]}
// CHECK:         scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf.data_transfer from %[[ROW]][0, %[[K0]]] size [1, 64] to %{{.*}} size [64] : memref<1x128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         scf.for %[[K1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf.data_transfer from %[[ROW]][0, %[[K1]]] size [1, 64] to %{{.*}} size [64] : memref<1x128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         scf.for %[[K2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf.data_transfer from %[[ROW]][0, %[[K2]]] size [1, 64] to %{{.*}} size [64] : memref<1x128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:       } {applicable_units = ["L1LU"]}
// CHECK:         %[[NINF:.*]] = arith.constant 0xfc00 : f16
// CHECK:         %[[P0:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%{{.*}} : tensor<1x64xf16>) -> tensor<1x64xf16>
// CHECK:         %[[MAXP:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[P0]]) -> (tensor<1x64xf16>) {
// CHECK-NEXT:      %[[V:.*]] = ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:      %[[STEP:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[V]] : tensor<1x64xf16>) outs(%[[ACC]] : tensor<1x64xf16>) {
// CHECK:             arith.maximumf
// CHECK:           scf.yield %[[STEP]] : tensor<1x64xf16>
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[NINF]] : f16) outs(%{{.*}} : tensor<1xf16>) -> tensor<1xf16>
// CHECK-NEXT:    %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[MAXP]] : tensor<1x64xf16>) outs(%[[INIT]] : tensor<1xf16>) {
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x64xf32>) -> tensor<1x64xf32>
// CHECK:         %[[SUMP:.*]] = scf.for {{.*}} iter_args(%[[SACC:.*]] = %[[Z]]) -> (tensor<1x64xf32>) {
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %[[MAX]] : tensor<1x64xf16>, tensor<1xf16>) outs(%[[SACC]] : tensor<1x64xf32>) {
// CHECK:               math.exp
// CHECK-NEXT:          arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:          arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:         %[[S32:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[SUMP]] : tensor<1x64xf32>) outs(%{{.*}} : tensor<1xf32>) {
// CHECK:         %[[S16:.*]] = linalg.generic {{.*}} ins(%[[S32]] : tensor<1xf32>) outs(%{{.*}} : tensor<1xf16>) {
// CHECK-NEXT:      ^{{.*}}(%[[W:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT:        arith.truncf %[[W]] : f32 to f16
// CHECK:         scf.for
// CHECK-NEXT:      ktdf.read_from_fifo
// CHECK:           %[[Y:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MAX]], %[[S16]] : tensor<1x64xf16>, tensor<1xf16>, tensor<1xf16>)
// CHECK:           ktdf.write_to_fifo %[[Y]], %{{.*}} : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:  } {applicable_units = ["SFU"]}
// CHECK:         scf.for %[[O:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}} size [64] to %{{.*}}[0, %[[O]]] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x128xf16, "L1">
// CHECK:         ktdf.data_transfer from %{{.*}}[0, 0] size [1, 128] to %{{.*}}[%{{.*}}, %{{.*}}] size [1, 128] : memref<1x128xf16, "L1">, memref<2x128xf16, "DDR">

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @softmax(%X: index, %Y: index) attributes {grid = [1 : i64]} {
      func.call @local_schedule_0(%X, %Y) : (index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%X: index, %Y: index) attributes {grid = [1 : i64]} {
      %Xv = ktdp.construct_memory_view %X, sizes: [2, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x128xf16>
      %Xv_cast = memref.memory_space_cast %Xv : memref<2x128xf16> to memref<2x128xf16, "DDR">
      %Yv = ktdp.construct_memory_view %Y, sizes: [2, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x128xf16>
      %Yv_cast = memref.memory_space_cast %Yv : memref<2x128xf16> to memref<2x128xf16, "DDR">
      %0 = arith.constant 0 : index
      %1 = arith.constant 2 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant 0 : index
      %4 = arith.constant 128 : index
      %5 = arith.constant 128 : index
      scf.for %v0 = %0 to %1 step %2 {
        scf.for %v1 = %3 to %4 step %5 {
          ktdf.pipeline {
            %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 128xf16>, memref<1x128xf16, "L1">, memref<1x128xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
              %17 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
              %18 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
              %19 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
              %20 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 128xf16>
              %buf_l1 = memref.alloc() : memref<1x128xf16, "L1">
              %buf_l1_1 = memref.alloc() : memref<1x128xf16, "L1">
              %21 = ktdf.create_token : !ktdf.token
              %22 = ktdf.create_token : !ktdf.token
              %23 = ktdf.create_token : !ktdf.token
              %24 = ktdf.create_token : !ktdf.token
              %25 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %17, %18, %19, %20, %buf_l1, %buf_l1_1, %21, %22, %23, %24, %25 : !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 128xf16>, memref<1x128xf16, "L1">, memref<1x128xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%12) {
              ktdf.data_transfer from %Xv_cast[%v0, %v1] size [1, 128] to %10[0, 0] size [1, 128] : memref<2x128xf16, "DDR">, memref<1x128xf16, "L1">
            } {applicable_units = ["MNILU"]}
            ktdf.stage depends_in(%12) depends_out(%13) {
              ktdf.data_transfer from %10[0, 0] size [1, 128] to %6 size [128] : memref<1x128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
              ktdf.data_transfer from %10[0, 0] size [1, 128] to %7 size [128] : memref<1x128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
              ktdf.data_transfer from %10[0, 0] size [1, 128] to %8 size [128] : memref<1x128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%13) depends_out(%14) {
              %26 = ktdf.read_from_fifo %6 : <"L1LU" -> "SFU", 128xf16> -> tensor<1x128xf16>
              %27 = arith.constant 0xfc00 : f16
              %28 = tensor.empty() : tensor<1xf16>
              %29 = linalg.fill ins(%27 : f16) outs(%28 : tensor<1xf16>) -> tensor<1xf16>
              %30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%26 : tensor<1x128xf16>) outs(%29 : tensor<1xf16>) {
              ^bb0(%31: f16, %32: f16):
                %33 = arith.maximumf %31, %32 : f16
                linalg.yield %33 : f16
              } -> tensor<1xf16>
              %34 = ktdf.read_from_fifo %7 : <"L1LU" -> "SFU", 128xf16> -> tensor<1x128xf16>
              %35 = arith.constant 0.000000e+00 : f16
              %36 = tensor.empty() : tensor<1xf16>
              %37 = linalg.fill ins(%35 : f16) outs(%36 : tensor<1xf16>) -> tensor<1xf16>
              %38 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%34, %30 : tensor<1x128xf16>, tensor<1xf16>) outs(%37 : tensor<1xf16>) {
              ^bb0(%39: f16, %40: f16, %41: f16):
                %42 = arith.subf %39, %40 : f16
                %43 = math.exp %42 : f16
                %44 = arith.addf %43, %41 : f16
                linalg.yield %44 : f16
              } -> tensor<1xf16>
              %45 = ktdf.read_from_fifo %8 : <"L1LU" -> "SFU", 128xf16> -> tensor<1x128xf16>
              %46 = tensor.empty() : tensor<1x128xf16>
              %47 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%45, %30, %38 : tensor<1x128xf16>, tensor<1xf16>, tensor<1xf16>) outs(%46 : tensor<1x128xf16>) {
              ^bb0(%48: f16, %49: f16, %50: f16, %51: f16):
                %52 = arith.subf %48, %49 : f16
                %53 = math.exp %52 : f16
                %54 = arith.divf %53, %50 : f16
                linalg.yield %54 : f16
              } -> tensor<1x128xf16>
              ktdf.write_to_fifo %47, %9 : tensor<1x128xf16>, <"SFU" -> "L1SU", 128xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%14) depends_out(%15) {
              ktdf.data_transfer from %9 size [128] to %11[0, 0] size [1, 128] : !ktdf.fifo.slot<"SFU" -> "L1SU", 128xf16>, memref<1x128xf16, "L1">
            } {applicable_units = ["L1SU"]}
            ktdf.stage depends_in(%15) depends_out(%16) {
              ktdf.data_transfer from %11[0, 0] size [1, 128] to %Yv_cast[%v0, %v1] size [1, 128] : memref<1x128xf16, "L1">, memref<2x128xf16, "DDR">
            } {applicable_units = ["MNISU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
