// RUN: ktir-opt %s -p scalar-broadcast-legalization | filecheck %s
// RUN: ktir-opt %s -p scalar-broadcast-legalization,scalar-broadcast-legalization | filecheck %s

/// A row scale y = x * c[:, 0] on spyre after path-expansion: each vector of x meets its row's
/// one value of c, sent over the FIFO as a single element and repeated across the lanes by the
/// compute op (`(d0, d1) -> (d0, 0)`). The pass widens that FIFO slot to a vector, makes the
/// load unit's transfer a splat, and gives the compute op the vector with the output's map;
/// x's transfer is not a broadcast and stays as it is. Run twice, it changes nothing more.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[X:[0-9]+]], %[[C:[0-9]+]], %{{.*}} = ktdf.private -> (!ktdf.fifo.slot<"LX_LOAD" -> "PE", 64xf16>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 64xf16>,
// CHECK:           ktdf.data_transfer from %{{.*}}[0, 0] size [1, 64] to %[[X]] size [64] : memref<1x64xf16, "LX">
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[0, 0] size [1, 1] to %[[C]] size [64] {transfer_mode = "splat"} : memref<1x1xf16, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 64xf16>
// CHECK:           %[[XV:.*]] = ktdf.read_from_fifo %[[X]] : <"LX_LOAD" -> "PE", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:      %[[CV:.*]] = ktdf.read_from_fifo %[[C]] : <"LX_LOAD" -> "PE", 64xf16> -> tensor<1x64xf16>
// CHECK:           linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%[[XV]], %[[CV]] : tensor<1x64xf16>, tensor<1x64xf16>)
// CHECK-NOT:     1xf16>

builtin.module {
  ktdf_arch.device @spyre import("spyre.mlir")
  builtin.module {
    func.func @row_bias(%X: index, %C: index, %Y: index) attributes {grid = [2 : i64]} {
      func.call @local_schedule_0(%X, %C, %Y) : (index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%X: index, %C: index, %Y: index) attributes {grid = [2 : i64]} {
      %c8 = arith.constant 8 : index
      %t = ktdp.get_compute_tile_id : index
      %r0 = arith.muli %t, %c8 : index
      %xv = ktdp.construct_memory_view %X, sizes: [16, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 15) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
      %xv_cast = memref.memory_space_cast %xv : memref<16x128xf16> to memref<16x128xf16, "DDR">
      %cv = ktdp.construct_memory_view %C, sizes: [16, 1], strides: [1, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 15) >= 0, d1 == 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x1xf16>
      %cv_cast = memref.memory_space_cast %cv : memref<16x1xf16> to memref<16x1xf16, "DDR">
      %yv = ktdp.construct_memory_view %Y, sizes: [16, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 15) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
      %yv_cast = memref.memory_space_cast %yv : memref<16x128xf16> to memref<16x128xf16, "DDR">
      %0 = arith.constant 0 : index
      %1 = arith.constant 8 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant 0 : index
      %4 = arith.constant 128 : index
      %5 = arith.constant 64 : index
      scf.for %v0 = %0 to %1 step %2 {
        scf.for %v1 = %3 to %4 step %5 {
          ktdf.pipeline {
            %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16 = ktdf.private -> (!ktdf.fifo.slot<"LX_LOAD" -> "PE", 64xf16>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 1xf16>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 64xf16>, memref<1x64xf16, "LX">, memref<1x1xf16, "LX">, memref<1x64xf16, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
              %17 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LX_LOAD" -> "PE", 64xf16>
              %18 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LX_LOAD" -> "PE", 1xf16>
              %19 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "LX_STORE", 64xf16>
              %buf_lx = memref.alloc() : memref<1x64xf16, "LX">
              %buf_lx_1 = memref.alloc() : memref<1x1xf16, "LX">
              %buf_lx_2 = memref.alloc() : memref<1x64xf16, "LX">
              %20 = ktdf.create_token : !ktdf.token
              %21 = ktdf.create_token : !ktdf.token
              %22 = ktdf.create_token : !ktdf.token
              %23 = ktdf.create_token : !ktdf.token
              %24 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %17, %18, %19, %buf_lx, %buf_lx_1, %buf_lx_2, %20, %21, %22, %23, %24 : !ktdf.fifo.slot<"LX_LOAD" -> "PE", 64xf16>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 1xf16>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 64xf16>, memref<1x64xf16, "LX">, memref<1x1xf16, "LX">, memref<1x64xf16, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%12) {
              ktdf.data_transfer from %xv_cast[%r0 + %v0, %v1] size [1, 64] to %9[0, 0] size [1, 64] : memref<16x128xf16, "DDR">, memref<1x64xf16, "LX">
              ktdf.data_transfer from %cv_cast[%r0 + %v0, 0] size [1, 1] to %10[0, 0] size [1, 1] : memref<16x1xf16, "DDR">, memref<1x1xf16, "LX">
            } {applicable_units = ["DMA_IN"]}
            ktdf.stage depends_in(%12) depends_out(%13) {
              ktdf.data_transfer from %9[0, 0] size [1, 64] to %6 size [64] : memref<1x64xf16, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 64xf16>
              ktdf.data_transfer from %10[0, 0] size [1, 1] to %7 size [1] : memref<1x1xf16, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 1xf16>
            } {applicable_units = ["LX_LOAD"]}
            ktdf.stage depends_in(%13) depends_out(%14) {
              %25 = ktdf.read_from_fifo %6 : <"LX_LOAD" -> "PE", 64xf16> -> tensor<1x64xf16>
              %26 = ktdf.read_from_fifo %7 : <"LX_LOAD" -> "PE", 1xf16> -> tensor<1x1xf16>
              %27 = tensor.empty() : tensor<1x64xf16>
              %28 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%25, %26 : tensor<1x64xf16>, tensor<1x1xf16>) outs(%27 : tensor<1x64xf16>) {
              ^bb0(%29: f16, %30: f16, %31: f16):
                %32 = arith.mulf %29, %30 : f16
                linalg.yield %32 : f16
              } -> tensor<1x64xf16>
              ktdf.write_to_fifo %28, %8 : tensor<1x64xf16>, <"PE" -> "LX_STORE", 64xf16>
            } {applicable_units = ["PE"]}
            ktdf.stage depends_in(%14) depends_out(%15) {
              ktdf.data_transfer from %8 size [64] to %11[0, 0] size [1, 64] : !ktdf.fifo.slot<"PE" -> "LX_STORE", 64xf16>, memref<1x64xf16, "LX">
            } {applicable_units = ["LX_STORE"]}
            ktdf.stage depends_in(%15) depends_out(%16) {
              ktdf.data_transfer from %11[0, 0] size [1, 64] to %yv_cast[%r0 + %v0, %v1] size [1, 64] : memref<1x64xf16, "LX">, memref<16x128xf16, "DDR">
            } {applicable_units = ["DMA_OUT"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
