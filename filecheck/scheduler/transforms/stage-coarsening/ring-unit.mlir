// RUN: ktir-opt %s -p stage-coarsening | filecheck %s

/// The first reduction group of the example allreduce on spyre (8 tiles; tile 0 sums the
/// partials of tiles 0-3): its RING unit gathers the four partials of each 32-element
/// vector and scatters the sums back, its load, compute and store units stream them. The
/// gather and the scatter run on one unit, so they take turns: the busiest unit is the ring,
/// at two round trips (hops to the farthest tile included) per block. One block of the
/// whole 256-element row (one gather, one scatter per partial) beats two of 128 (1,344 ->
/// 1,128 cycles for the example); counted as two stages apart, each half a block's bytes,
/// the model chose the two.

// CHECK-LABEL: func.func @local_schedule_1()
// CHECK:         scf.for %[[B:v1_block]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf.pipeline {
// CHECK:             ktdf.stage depends_in(none) depends_out(%[[T:.*]]) {
// CHECK-NEXT:          ktdf.data_transfer from %partial0_of_tile0_cast[%{{.*}}, %[[B]] * 32] size [1, 256] to %{{.*}}[0, 0] size [1, 256]
// CHECK:             } {applicable_units = ["RING"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[T]])
// CHECK:               scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:            ktdf.data_transfer from %{{.*}}[0, %[[P]] * 32] size [1, 32] to
// CHECK:             } {applicable_units = ["LX_LOAD"]}
// CHECK:               ktdf.data_transfer from %{{.*}}[0, 0] size [1, 256] to %result0_slot_cast[%{{.*}}, %[[B]] * 32] size [1, 256]
// CHECK:             } {applicable_units = ["RING"]}
// CHECK-NEXT:      }
// CHECK-NEXT:    }

builtin.module {
  ktdf_arch.device @spyre import("spyre.mlir")
  builtin.module @local_schedule_1 {
    func.func @local_schedule_1() attributes {grid = [8 : i64], ktdf.active_tiles = 1 : i64} {
      %0 = arith.constant 0 : index
      %partial0_of_tile0 = ktdp.construct_memory_view %0, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x256xf32>
      %partial0_of_tile0_cast = memref.memory_space_cast %partial0_of_tile0 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %1 = arith.constant 0 : index
      %partial0_of_tile1 = ktdp.construct_memory_view %1, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x256xf32>
      %partial0_of_tile1_cast = memref.memory_space_cast %partial0_of_tile1 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %2 = arith.constant 0 : index
      %partial0_of_tile2 = ktdp.construct_memory_view %2, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<1x256xf32>
      %partial0_of_tile2_cast = memref.memory_space_cast %partial0_of_tile2 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %3 = arith.constant 0 : index
      %partial0_of_tile3 = ktdp.construct_memory_view %3, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<1x256xf32>
      %partial0_of_tile3_cast = memref.memory_space_cast %partial0_of_tile3 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %4 = arith.constant 256 : index
      %result0_slot = ktdp.construct_memory_view %4, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x256xf32>
      %result0_slot_cast = memref.memory_space_cast %result0_slot : memref<1x256xf32> to memref<1x256xf32, "LX">
      %5 = arith.constant 256 : index
      %result0_slot_1 = ktdp.construct_memory_view %5, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x256xf32>
      %result0_slot_cast_1 = memref.memory_space_cast %result0_slot_1 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %6 = arith.constant 256 : index
      %result0_slot_2 = ktdp.construct_memory_view %6, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<1x256xf32>
      %result0_slot_cast_2 = memref.memory_space_cast %result0_slot_2 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %7 = arith.constant 256 : index
      %result0_slot_3 = ktdp.construct_memory_view %7, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<1x256xf32>
      %result0_slot_cast_3 = memref.memory_space_cast %result0_slot_3 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %8 = arith.constant 0 : index
      %9 = arith.constant 1 : index
      %10 = arith.constant 1 : index
      %11 = arith.constant 0 : index
      %12 = arith.constant 8 : index
      %13 = arith.constant 1 : index
      scf.for %v0 = %8 to %9 step %10 {
        scf.for %v1 = %11 to %12 step %13 {
          ktdf.pipeline {
            %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34 = ktdf.private -> (!ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
              %35 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              %36 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              %37 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              %38 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              %39 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>
              %40 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>
              %41 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>
              %42 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>
              %buf_lx = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_1 = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_2 = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_3 = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_4 = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_5 = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_6 = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_7 = memref.alloc() : memref<1x32xf32, "LX">
              %43 = ktdf.create_token : !ktdf.token
              %44 = ktdf.create_token : !ktdf.token
              %45 = ktdf.create_token : !ktdf.token
              %46 = ktdf.create_token : !ktdf.token
              %47 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %35, %36, %37, %38, %39, %40, %41, %42, %buf_lx, %buf_lx_1, %buf_lx_2, %buf_lx_3, %buf_lx_4, %buf_lx_5, %buf_lx_6, %buf_lx_7, %43, %44, %45, %46, %47 : !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%30) {
              ktdf.data_transfer from %partial0_of_tile0_cast[%v0, %v1 * 32] size [1, 32] to %22[0, 0] size [1, 32] : memref<1x256xf32, "LX">, memref<1x32xf32, "LX">
              ktdf.data_transfer from %partial0_of_tile1_cast[%v0, %v1 * 32] size [1, 32] to %23[0, 0] size [1, 32] : memref<1x256xf32, "LX">, memref<1x32xf32, "LX">
              ktdf.data_transfer from %partial0_of_tile2_cast[%v0, %v1 * 32] size [1, 32] to %24[0, 0] size [1, 32] : memref<1x256xf32, "LX">, memref<1x32xf32, "LX">
              ktdf.data_transfer from %partial0_of_tile3_cast[%v0, %v1 * 32] size [1, 32] to %25[0, 0] size [1, 32] : memref<1x256xf32, "LX">, memref<1x32xf32, "LX">
            } {applicable_units = ["RING"]}
            ktdf.stage depends_in(%30) depends_out(%31) {
              ktdf.data_transfer from %22[0, 0] size [1, 32] to %14 size [32] : memref<1x32xf32, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              ktdf.data_transfer from %23[0, 0] size [1, 32] to %15 size [32] : memref<1x32xf32, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              ktdf.data_transfer from %24[0, 0] size [1, 32] to %16 size [32] : memref<1x32xf32, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              ktdf.data_transfer from %25[0, 0] size [1, 32] to %17 size [32] : memref<1x32xf32, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
            } {applicable_units = ["LX_LOAD"]}
            ktdf.stage depends_in(%31) depends_out(%32) {
              %48 = ktdf.read_from_fifo %14 : <"LX_LOAD" -> "PE", 32xf32> -> tensor<1x32xf32>
              %49 = ktdf.read_from_fifo %15 : <"LX_LOAD" -> "PE", 32xf32> -> tensor<1x32xf32>
              %50 = ktdf.read_from_fifo %16 : <"LX_LOAD" -> "PE", 32xf32> -> tensor<1x32xf32>
              %51 = ktdf.read_from_fifo %17 : <"LX_LOAD" -> "PE", 32xf32> -> tensor<1x32xf32>
              %52 = tensor.empty() : tensor<1x32xf32>
              %53 = tensor.empty() : tensor<1x32xf32>
              %54 = tensor.empty() : tensor<1x32xf32>
              %55 = tensor.empty() : tensor<1x32xf32>
              %56, %57, %58, %59 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%48, %49, %50, %51 : tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>) outs(%52, %53, %54, %55 : tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>) {
              ^bb0(%60: f32, %61: f32, %62: f32, %63: f32, %64: f32, %65: f32, %66: f32, %67: f32):
                %68 = arith.constant 0.000000e+00 : f32
                %69 = arith.addf %68, %60 : f32
                %70 = arith.addf %69, %61 : f32
                %71 = arith.addf %70, %62 : f32
                %72 = arith.addf %71, %63 : f32
                linalg.yield %72, %72, %72, %72 : f32, f32, f32, f32
              } -> (tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>)
              ktdf.write_to_fifo %56, %18 : tensor<1x32xf32>, <"PE" -> "LX_STORE", 32xf32>
              ktdf.write_to_fifo %57, %19 : tensor<1x32xf32>, <"PE" -> "LX_STORE", 32xf32>
              ktdf.write_to_fifo %58, %20 : tensor<1x32xf32>, <"PE" -> "LX_STORE", 32xf32>
              ktdf.write_to_fifo %59, %21 : tensor<1x32xf32>, <"PE" -> "LX_STORE", 32xf32>
            } {applicable_units = ["PE"]}
            ktdf.stage depends_in(%32) depends_out(%33) {
              ktdf.data_transfer from %18 size [32] to %26[0, 0] size [1, 32] : !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">
              ktdf.data_transfer from %19 size [32] to %27[0, 0] size [1, 32] : !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">
              ktdf.data_transfer from %20 size [32] to %28[0, 0] size [1, 32] : !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">
              ktdf.data_transfer from %21 size [32] to %29[0, 0] size [1, 32] : !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">
            } {applicable_units = ["LX_STORE"]}
            ktdf.stage depends_in(%33) depends_out(%34) {
              ktdf.data_transfer from %26[0, 0] size [1, 32] to %result0_slot_cast[%v0, %v1 * 32] size [1, 32] : memref<1x32xf32, "LX">, memref<1x256xf32, "LX">
              ktdf.data_transfer from %27[0, 0] size [1, 32] to %result0_slot_cast_1[%v0, %v1 * 32] size [1, 32] : memref<1x32xf32, "LX">, memref<1x256xf32, "LX">
              ktdf.data_transfer from %28[0, 0] size [1, 32] to %result0_slot_cast_2[%v0, %v1 * 32] size [1, 32] : memref<1x32xf32, "LX">, memref<1x256xf32, "LX">
              ktdf.data_transfer from %29[0, 0] size [1, 32] to %result0_slot_cast_3[%v0, %v1 * 32] size [1, 32] : memref<1x32xf32, "LX">, memref<1x256xf32, "LX">
            } {applicable_units = ["RING"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
  builtin.module @local_schedule_2 {
    func.func @local_schedule_2() attributes {grid = [8 : i64], ktdf.active_tiles = 1 : i64} {
      %0 = arith.constant 0 : index
      %partial0_of_tile4 = ktdp.construct_memory_view %0, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 4>} : memref<1x256xf32>
      %partial0_of_tile4_cast = memref.memory_space_cast %partial0_of_tile4 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %1 = arith.constant 0 : index
      %partial0_of_tile5 = ktdp.construct_memory_view %1, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 5>} : memref<1x256xf32>
      %partial0_of_tile5_cast = memref.memory_space_cast %partial0_of_tile5 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %2 = arith.constant 0 : index
      %partial0_of_tile6 = ktdp.construct_memory_view %2, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 6>} : memref<1x256xf32>
      %partial0_of_tile6_cast = memref.memory_space_cast %partial0_of_tile6 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %3 = arith.constant 0 : index
      %partial0_of_tile7 = ktdp.construct_memory_view %3, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 7>} : memref<1x256xf32>
      %partial0_of_tile7_cast = memref.memory_space_cast %partial0_of_tile7 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %4 = arith.constant 256 : index
      %result0_slot = ktdp.construct_memory_view %4, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 4>} : memref<1x256xf32>
      %result0_slot_cast = memref.memory_space_cast %result0_slot : memref<1x256xf32> to memref<1x256xf32, "LX">
      %5 = arith.constant 256 : index
      %result0_slot_1 = ktdp.construct_memory_view %5, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 5>} : memref<1x256xf32>
      %result0_slot_cast_1 = memref.memory_space_cast %result0_slot_1 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %6 = arith.constant 256 : index
      %result0_slot_2 = ktdp.construct_memory_view %6, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 6>} : memref<1x256xf32>
      %result0_slot_cast_2 = memref.memory_space_cast %result0_slot_2 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %7 = arith.constant 256 : index
      %result0_slot_3 = ktdp.construct_memory_view %7, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 7>} : memref<1x256xf32>
      %result0_slot_cast_3 = memref.memory_space_cast %result0_slot_3 : memref<1x256xf32> to memref<1x256xf32, "LX">
      %8 = arith.constant 0 : index
      %9 = arith.constant 1 : index
      %10 = arith.constant 1 : index
      %11 = arith.constant 0 : index
      %12 = arith.constant 8 : index
      %13 = arith.constant 1 : index
      scf.for %v0 = %8 to %9 step %10 {
        scf.for %v1 = %11 to %12 step %13 {
          ktdf.pipeline {
            %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34 = ktdf.private -> (!ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
              %35 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              %36 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              %37 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              %38 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              %39 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>
              %40 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>
              %41 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>
              %42 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>
              %buf_lx = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_1 = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_2 = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_3 = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_4 = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_5 = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_6 = memref.alloc() : memref<1x32xf32, "LX">
              %buf_lx_7 = memref.alloc() : memref<1x32xf32, "LX">
              %43 = ktdf.create_token : !ktdf.token
              %44 = ktdf.create_token : !ktdf.token
              %45 = ktdf.create_token : !ktdf.token
              %46 = ktdf.create_token : !ktdf.token
              %47 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %35, %36, %37, %38, %39, %40, %41, %42, %buf_lx, %buf_lx_1, %buf_lx_2, %buf_lx_3, %buf_lx_4, %buf_lx_5, %buf_lx_6, %buf_lx_7, %43, %44, %45, %46, %47 : !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, memref<1x32xf32, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%30) {
              ktdf.data_transfer from %partial0_of_tile4_cast[%v0, %v1 * 32] size [1, 32] to %22[0, 0] size [1, 32] : memref<1x256xf32, "LX">, memref<1x32xf32, "LX">
              ktdf.data_transfer from %partial0_of_tile5_cast[%v0, %v1 * 32] size [1, 32] to %23[0, 0] size [1, 32] : memref<1x256xf32, "LX">, memref<1x32xf32, "LX">
              ktdf.data_transfer from %partial0_of_tile6_cast[%v0, %v1 * 32] size [1, 32] to %24[0, 0] size [1, 32] : memref<1x256xf32, "LX">, memref<1x32xf32, "LX">
              ktdf.data_transfer from %partial0_of_tile7_cast[%v0, %v1 * 32] size [1, 32] to %25[0, 0] size [1, 32] : memref<1x256xf32, "LX">, memref<1x32xf32, "LX">
            } {applicable_units = ["RING"]}
            ktdf.stage depends_in(%30) depends_out(%31) {
              ktdf.data_transfer from %22[0, 0] size [1, 32] to %14 size [32] : memref<1x32xf32, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              ktdf.data_transfer from %23[0, 0] size [1, 32] to %15 size [32] : memref<1x32xf32, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              ktdf.data_transfer from %24[0, 0] size [1, 32] to %16 size [32] : memref<1x32xf32, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              ktdf.data_transfer from %25[0, 0] size [1, 32] to %17 size [32] : memref<1x32xf32, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
            } {applicable_units = ["LX_LOAD"]}
            ktdf.stage depends_in(%31) depends_out(%32) {
              %48 = ktdf.read_from_fifo %14 : <"LX_LOAD" -> "PE", 32xf32> -> tensor<1x32xf32>
              %49 = ktdf.read_from_fifo %15 : <"LX_LOAD" -> "PE", 32xf32> -> tensor<1x32xf32>
              %50 = ktdf.read_from_fifo %16 : <"LX_LOAD" -> "PE", 32xf32> -> tensor<1x32xf32>
              %51 = ktdf.read_from_fifo %17 : <"LX_LOAD" -> "PE", 32xf32> -> tensor<1x32xf32>
              %52 = tensor.empty() : tensor<1x32xf32>
              %53 = tensor.empty() : tensor<1x32xf32>
              %54 = tensor.empty() : tensor<1x32xf32>
              %55 = tensor.empty() : tensor<1x32xf32>
              %56, %57, %58, %59 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%48, %49, %50, %51 : tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>) outs(%52, %53, %54, %55 : tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>) {
              ^bb0(%60: f32, %61: f32, %62: f32, %63: f32, %64: f32, %65: f32, %66: f32, %67: f32):
                %68 = arith.constant 0.000000e+00 : f32
                %69 = arith.addf %68, %60 : f32
                %70 = arith.addf %69, %61 : f32
                %71 = arith.addf %70, %62 : f32
                %72 = arith.addf %71, %63 : f32
                linalg.yield %72, %72, %72, %72 : f32, f32, f32, f32
              } -> (tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>)
              ktdf.write_to_fifo %56, %18 : tensor<1x32xf32>, <"PE" -> "LX_STORE", 32xf32>
              ktdf.write_to_fifo %57, %19 : tensor<1x32xf32>, <"PE" -> "LX_STORE", 32xf32>
              ktdf.write_to_fifo %58, %20 : tensor<1x32xf32>, <"PE" -> "LX_STORE", 32xf32>
              ktdf.write_to_fifo %59, %21 : tensor<1x32xf32>, <"PE" -> "LX_STORE", 32xf32>
            } {applicable_units = ["PE"]}
            ktdf.stage depends_in(%32) depends_out(%33) {
              ktdf.data_transfer from %18 size [32] to %26[0, 0] size [1, 32] : !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">
              ktdf.data_transfer from %19 size [32] to %27[0, 0] size [1, 32] : !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">
              ktdf.data_transfer from %20 size [32] to %28[0, 0] size [1, 32] : !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">
              ktdf.data_transfer from %21 size [32] to %29[0, 0] size [1, 32] : !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">
            } {applicable_units = ["LX_STORE"]}
            ktdf.stage depends_in(%33) depends_out(%34) {
              ktdf.data_transfer from %26[0, 0] size [1, 32] to %result0_slot_cast[%v0, %v1 * 32] size [1, 32] : memref<1x32xf32, "LX">, memref<1x256xf32, "LX">
              ktdf.data_transfer from %27[0, 0] size [1, 32] to %result0_slot_cast_1[%v0, %v1 * 32] size [1, 32] : memref<1x32xf32, "LX">, memref<1x256xf32, "LX">
              ktdf.data_transfer from %28[0, 0] size [1, 32] to %result0_slot_cast_2[%v0, %v1 * 32] size [1, 32] : memref<1x32xf32, "LX">, memref<1x256xf32, "LX">
              ktdf.data_transfer from %29[0, 0] size [1, 32] to %result0_slot_cast_3[%v0, %v1 * 32] size [1, 32] : memref<1x32xf32, "LX">, memref<1x256xf32, "LX">
            } {applicable_units = ["RING"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
  builtin.module @local_schedule_3 {
    func.func @local_schedule_3(%Out: index) attributes {grid = [8 : i64]} {
      %t = ktdp.get_compute_tile_id : index
      %Ov = ktdp.construct_memory_view %Out, sizes: [8, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x256xf32>
      %Ov_cast = memref.memory_space_cast %Ov : memref<8x256xf32> to memref<8x256xf32, "DDR">
      %0 = arith.constant 256 : index
      %result0_slot = ktdp.construct_memory_view %0, sizes: [1, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<1x256xf32>
      %result0_slot_cast = memref.memory_space_cast %result0_slot : memref<1x256xf32> to memref<1x256xf32, "LX">
      %1 = arith.constant 0 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant 1 : index
      %4 = arith.constant 0 : index
      %5 = arith.constant 8 : index
      %6 = arith.constant 1 : index
      scf.for %v0 = %1 to %2 step %3 {
        scf.for %v1 = %4 to %5 step %6 {
          ktdf.pipeline {
            %7, %8, %9, %10, %11, %12, %13 = ktdf.private -> (!ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
              %14 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
              %15 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>
              %buf_lx = memref.alloc() : memref<1x32xf32, "LX">
              %16 = ktdf.create_token : !ktdf.token
              %17 = ktdf.create_token : !ktdf.token
              %18 = ktdf.create_token : !ktdf.token
              %19 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %14, %15, %buf_lx, %16, %17, %18, %19 : !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%10) {
              ktdf.data_transfer from %result0_slot_cast[%v0, %v1 * 32] size [1, 32] to %7 size [32] : memref<1x256xf32, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 32xf32>
            } {applicable_units = ["LX_LOAD"]}
            ktdf.stage depends_in(%10) depends_out(%11) {
              %20 = ktdf.read_from_fifo %7 : <"LX_LOAD" -> "PE", 32xf32> -> tensor<1x32xf32>
              %21 = tensor.empty() : tensor<1x32xf32>
              %22 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%20 : tensor<1x32xf32>) outs(%21 : tensor<1x32xf32>) {
              ^bb0(%23: f32, %24: f32):
                linalg.yield %23 : f32
              } -> tensor<1x32xf32>
              ktdf.write_to_fifo %22, %8 : tensor<1x32xf32>, <"PE" -> "LX_STORE", 32xf32>
            } {applicable_units = ["PE"]}
            ktdf.stage depends_in(%11) depends_out(%12) {
              ktdf.data_transfer from %8 size [32] to %9[0, 0] size [1, 32] : !ktdf.fifo.slot<"PE" -> "LX_STORE", 32xf32>, memref<1x32xf32, "LX">
            } {applicable_units = ["LX_STORE"]}
            ktdf.stage depends_in(%12) depends_out(%13) {
              ktdf.data_transfer from %9[0, 0] size [1, 32] to %Ov_cast[%t + %v0, %v1 * 32] size [1, 32] : memref<1x32xf32, "LX">, memref<8x256xf32, "DDR">
            } {applicable_units = ["DMA_OUT"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
