// RUN: ktir-opt %s -p ktdflowering-to-dfir | filecheck %s

/// In the MNISU's program the scatter is an asynchronous `agen.composite_indirect_load_and_store`
/// after the handshakes with the MNILU (which staged the index) and the L1SU (which landed
/// the vector): the index buffer is its `indirect_dst`, the indirect dimension of the direct
/// destination coordinate is 0 and named by `indirect_dst_dims` (the index read at run time
/// replaces it); the source is the L1 vector, read directly.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%[[MNISU:[^)]*]]) : {
// CHECK:           %[[O:.*]] = dataflow.get_logical_memory_view %{{.*}} : index, index, memref<8x64xf16>
// CHECK:           %[[I:.*]] = dataflow.get_logical_memory_view %{{.*}} : index, index, memref<1xi32>
// CHECK:           %[[B:.*]] = dataflow.get_logical_memory_view %{{.*}} : index, index, memref<1x64xf16>
// CHECK:           dataflow.sync_recv
// CHECK:           dataflow.sync_recv
// CHECK-NEXT:      agen.composite_indirect_load_and_store direct_src:%[[B]][0, 0] indirect_dst:%[[I]][0] direct_dst:%[[O]][0, %{{.*}}]
// CHECK-NEXT:       time_symbols(), load_iv(%{{.*}}:vector<64xf16>)
// CHECK-NEXT:       {indirect_dst_dims = array<i64: 0>, {{.*}}store_indirect_time_addr_map = affine_map<(d0) -> (0)>, {{.*}}}
// CHECK-NEXT:      {
// CHECK-NEXT:        agen.yield
// CHECK-NEXT:      } : memref<1x64xf16>, memref<1xi32>, memref<8x64xf16>

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
      %tile = ktdp.get_compute_tile_id : index
      %0 = arith.constant 0 : index
      %mnilu = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      %mnilu_of_tile = uniform.def_immutable_mapping([%0 -> %mnilu]):index
      %mnilu_1 = uniform.query_map(map:%mnilu_of_tile, key:%tile) : index
      %l1lu = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
      %l1lu_of_tile = uniform.def_immutable_mapping([%0 -> %l1lu]):index
      %l1lu_1 = uniform.query_map(map:%l1lu_of_tile, key:%tile) : index
      %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      %sfu_of_tile = uniform.def_immutable_mapping([%0 -> %sfu]):index
      %sfu_1 = uniform.query_map(map:%sfu_of_tile, key:%tile) : index
      %l1su = dataflow.get_unit {core = 0 : i32, name = "C0-L1SU", type = "L1SU"} : index
      %l1su_of_tile = uniform.def_immutable_mapping([%0 -> %l1su]):index
      %l1su_1 = uniform.query_map(map:%l1su_of_tile, key:%tile) : index
      %mnisu = dataflow.get_unit {core = 0 : i32, name = "C0-MNISU", type = "MNISU"} : index
      %mnisu_of_tile = uniform.def_immutable_mapping([%0 -> %mnisu]):index
      %mnisu_1 = uniform.query_map(map:%mnisu_of_tile, key:%tile) : index
      %ddr = dataflow.get_unit {name = "DDR", type = "DDR"} : index
      %l1 = dataflow.get_unit {core = 0 : i32, name = "C0-L1", type = "L1"} : index
      %l1_of_tile = uniform.def_immutable_mapping([%0 -> %l1]):index
      %l1_1 = uniform.query_map(map:%l1_of_tile, key:%tile) : index
      %x = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %x_cast = memref.memory_space_cast %x : memref<4x64xf16> to memref<4x64xf16, "DDR">
      %i = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
      %i_cast = memref.memory_space_cast %i : memref<4xi32> to memref<4xi32, "DDR">
      %o = ktdp.construct_memory_view %O, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
      %o_cast = memref.memory_space_cast %o : memref<8x64xf16> to memref<8x64xf16, "DDR">
      %1 = arith.constant 0 : index
      %2 = arith.constant 4 : index
      %3 = arith.constant 1 : index
      %4 = arith.constant 0 : index
      %5 = arith.constant 0 : index
      %6 = arith.constant 1 : index
      %7 = arith.constant 1 : index
      %8 = arith.constant 64 : index
      scf.for %v0 = %1 to %2 step %3 {
        scf.for %k = %5 to %6 step %7 {
          %9 = arith.muli %k, %8 : index
          %v1 = arith.addi %4, %9 : index
          ktdf_lowering.execute_on %mnilu_1, %l1lu_1, %sfu_1, %l1su_1, %mnisu_1 {
            %10 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            %11 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
            %12 = arith.constant 0 : index
            %buf_l1 = builtin.unrealized_conversion_cast %12 : index to memref<1x64xf16, "L1">
            %13 = arith.constant 32 : index
            %idx_l1 = builtin.unrealized_conversion_cast %13 : index to memref<1xi32, "L1">
            %14 = arith.constant 128 : index
            %buf_l1_1 = builtin.unrealized_conversion_cast %14 : index to memref<1x64xf16, "L1">
            %15 = ktdf.create_token : !ktdf.token
            %16 = ktdf.create_token : !ktdf.token
            %17 = ktdf.create_token : !ktdf.token
            %18 = ktdf.create_token : !ktdf.token
            %19 = ktdf.create_token : !ktdf.token
            ktdf_lowering.execute_on %mnilu_1 {
              %20 = arith.cmpi eq, %v0, %1 : index
              scf.if %20 {
              } else {
                ktdf_lowering.signal %mnilu_1, %mnisu_1 {applicable_units = ["MNILU"]}
              }
              %21 = arith.cmpi eq, %v0, %1 : index
              scf.if %21 {
              } else {
                ktdf_lowering.signal %mnilu_1, %l1lu_1 {applicable_units = ["MNILU"]}
              }
              ktdf.data_transfer from %x_cast[%v0, %k * 64] size [1, 64] to %buf_l1[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<1x64xf16, "L1">
              ktdf.data_transfer from %i_cast[%v0] size [1] to %idx_l1[0] size [1] : memref<4xi32, "DDR">, memref<1xi32, "L1">
              ktdf_lowering.signal %mnilu_1, %l1lu_1 {applicable_units = ["MNILU"]}
              ktdf_lowering.signal %mnilu_1, %mnisu_1 {applicable_units = ["MNILU"]}
            } {applicable_units = ["MNILU"]}
            ktdf_lowering.execute_on %l1lu_1 {
              ktdf_lowering.signal %mnilu_1, %l1lu_1 {applicable_units = ["L1LU"]}
              ktdf.data_transfer from %buf_l1[0, 0] size [1, 64] to %10 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              %22 = arith.constant 3 : index
              %23 = arith.cmpi eq, %v0, %22 : index
              scf.if %23 {
              } else {
                ktdf_lowering.signal %mnilu_1, %l1lu_1 {applicable_units = ["L1LU"]}
              }
            } {applicable_units = ["L1LU"]}
            ktdf_lowering.execute_on %sfu_1 {
              %24 = ktdf.read_from_fifo %10 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
              %25 = tensor.empty() : tensor<1x64xf16>
              %26 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%24 : tensor<1x64xf16>) outs(%25 : tensor<1x64xf16>) {
              ^bb0(%27: f16, %28: f16):
                linalg.yield %27 : f16
              } -> tensor<1x64xf16>
              ktdf.write_to_fifo %26, %11 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
            } {applicable_units = ["SFU"]}
            ktdf_lowering.execute_on %l1su_1 {
              %29 = arith.cmpi eq, %v0, %1 : index
              scf.if %29 {
              } else {
                ktdf_lowering.signal %l1su_1, %mnisu_1 {applicable_units = ["L1SU"]}
              }
              ktdf.data_transfer from %11 size [64] to %buf_l1_1[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
              ktdf_lowering.signal %l1su_1, %mnisu_1 {applicable_units = ["L1SU"]}
            } {applicable_units = ["L1SU"]}
            ktdf_lowering.execute_on %mnisu_1 {
              ktdf_lowering.signal %mnilu_1, %mnisu_1 {applicable_units = ["MNISU"]}
              ktdf_lowering.signal %l1su_1, %mnisu_1 {applicable_units = ["MNISU"]}
              ktdf.ind_data_transfer from %buf_l1_1[0, 0] size [1, 64] to %o_cast[ind(%idx_l1[0]), (%v1)] size [1, 64] : memref<1x64xf16, "L1">, memref<1xi32, "L1">, memref<8x64xf16, "DDR">
              %30 = arith.constant 3 : index
              %31 = arith.cmpi eq, %v0, %30 : index
              scf.if %31 {
              } else {
                ktdf_lowering.signal %mnilu_1, %mnisu_1 {applicable_units = ["MNISU"]}
              }
              %32 = arith.constant 3 : index
              %33 = arith.cmpi eq, %v0, %32 : index
              scf.if %33 {
              } else {
                ktdf_lowering.signal %l1su_1, %mnisu_1 {applicable_units = ["MNISU"]}
              }
            } {applicable_units = ["MNISU"]}
          } {applicable_units = ["MNILU", "L1LU", "SFU", "L1SU", "MNISU"]}
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}

