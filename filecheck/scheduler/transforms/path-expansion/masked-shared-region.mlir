// RUN: ktir-opt %s -p path-expansion | filecheck %s

/// The three loads of shared-region.mlir, masked (columns past 99 read the padding 0): the two
/// with the same mask share one L1 buffer, which the first hop fills through the mask; the
/// third has another mask, so other padding, and brings its own copy of the row.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.stage depends_in(none) depends_out(%{{.*}}) {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%{{.*}}, %{{.*}}] size [1, 128] to %[[ROW:.*]][0, 0] size [1, 128] source_mask affine_set<{{.*}}99) >= 0)> : memref<2x128xf16, "DDR">, memref<1x128xf16, "L1">
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%{{.*}}, %{{.*}}] size [1, 128] to %[[ROW2:.*]][0, 0] size [1, 128] source_mask affine_set<{{.*}}63) >= 0)> : memref<2x128xf16, "DDR">, memref<1x128xf16, "L1">
// CHECK-NEXT:    } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage
// CHECK-COUNT-2:   ktdf.data_transfer from %[[ROW]][0, 0] size [1, 128] to %{{.*}} size [128] : memref<1x128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
// CHECK-NEXT:      ktdf.data_transfer from %[[ROW2]][0, 0] size [1, 128] to %{{.*}} size [128] : memref<1x128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
// CHECK-NEXT:    } {applicable_units = ["L1LU"]}

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
            %6, %7, %8, %9, %10, %11, %12 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 128xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
              %13 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>
              %14 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>
              %15 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>
              %16 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "DDR", 128xf16>
              %17 = ktdf.create_token : !ktdf.token
              %18 = ktdf.create_token : !ktdf.token
              %19 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %13, %14, %15, %16, %17, %18, %19 : !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 128xf16>, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%10) {
              ktdf.data_transfer from %Xv_cast[%v0, %v1] size [1, 128] to %6 size [128] source_mask affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 99 >= 0)> : memref<2x128xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>
              ktdf.data_transfer from %Xv_cast[%v0, %v1] size [1, 128] to %7 size [128] source_mask affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 99 >= 0)> : memref<2x128xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>
              ktdf.data_transfer from %Xv_cast[%v0, %v1] size [1, 128] to %8 size [128] source_mask affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)> : memref<2x128xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>
            }
            ktdf.stage depends_in(%10) depends_out(%11) {
              %20 = ktdf.read_from_fifo %6 : <"DDR" -> "SFU", 128xf16> -> tensor<1x128xf16>
              %21 = arith.constant 0xfc00 : f16
              %22 = tensor.empty() : tensor<1xf16>
              %23 = linalg.fill ins(%21 : f16) outs(%22 : tensor<1xf16>) -> tensor<1xf16>
              %24 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%20 : tensor<1x128xf16>) outs(%23 : tensor<1xf16>) {
              ^bb0(%25: f16, %26: f16):
                %27 = arith.maximumf %25, %26 : f16
                linalg.yield %27 : f16
              } -> tensor<1xf16>
              %28 = ktdf.read_from_fifo %7 : <"DDR" -> "SFU", 128xf16> -> tensor<1x128xf16>
              %29 = arith.constant 0.000000e+00 : f16
              %30 = tensor.empty() : tensor<1xf16>
              %31 = linalg.fill ins(%29 : f16) outs(%30 : tensor<1xf16>) -> tensor<1xf16>
              %32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%28, %24 : tensor<1x128xf16>, tensor<1xf16>) outs(%31 : tensor<1xf16>) {
              ^bb0(%33: f16, %34: f16, %35: f16):
                %36 = arith.subf %33, %34 : f16
                %37 = math.exp %36 : f16
                %38 = arith.addf %37, %35 : f16
                linalg.yield %38 : f16
              } -> tensor<1xf16>
              %39 = ktdf.read_from_fifo %8 : <"DDR" -> "SFU", 128xf16> -> tensor<1x128xf16>
              %40 = tensor.empty() : tensor<1x128xf16>
              %41 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%39, %24, %32 : tensor<1x128xf16>, tensor<1xf16>, tensor<1xf16>) outs(%40 : tensor<1x128xf16>) {
              ^bb0(%42: f16, %43: f16, %44: f16, %45: f16):
                %46 = arith.subf %42, %43 : f16
                %47 = math.exp %46 : f16
                %48 = arith.divf %47, %44 : f16
                linalg.yield %48 : f16
              } -> tensor<1x128xf16>
              ktdf.write_to_fifo %41, %9 : tensor<1x128xf16>, <"SFU" -> "DDR", 128xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%11) depends_out(%12) {
              ktdf.data_transfer from %9 size [128] to %Yv_cast[%v0, %v1] size [1, 128] : !ktdf.fifo.slot<"SFU" -> "DDR", 128xf16>, memref<2x128xf16, "DDR">
            }
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
