// RUN: ktir-opt %s -p ktdflowering-to-dfir | filecheck %s

/// On stream_device the VLU gathers straight into the VPU's FIFO: the gather becomes an
/// `agen.indirect_vector_load` reading the index from the index view in HBM (`indirect_dims`
/// names the direct dimension the index replaces, 0 in the map) and a `dataflow.send` to the
/// VPU.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%{{.*}}) : {
// CHECK:           %[[VPU:.*]] = uniform.query_map(map:%vpu_of_tile, key:%{{.*}}) : index
// CHECK:           %[[T:.*]] = dataflow.get_logical_memory_view %{{.*}} : index, index, memref<8x64xf16>
// CHECK:           %[[I:.*]] = dataflow.get_logical_memory_view %{{.*}} : index, index, memref<4xi32>
// CHECK:           scf.for %[[V0:[^ ]*]] =
// CHECK:               %[[V1:.*]] = arith.addi
// CHECK-NEXT:          %[[X:.*]] = agen.indirect_vector_load indirect:%[[I]][%[[V0]]] direct:%[[T]][0, %[[V1]]] {indirect_dims = array<i64: 0>, {{.*}}} : memref<4xi32>, memref<8x64xf16>, vector<32xf16>
// CHECK-NEXT:          dataflow.send %[[VPU]], %[[X]] : vector<32xf16>
// CHECK-NOT:       ktdf.ind_data_transfer

builtin.module {
  ktdf_arch.device @stream_device import("stream_device.mlir")
  builtin.module {
    func.func @gather(%T: index, %I: index, %O: index) attributes {grid = [1 : i64]} {
      func.call @local_schedule_0(%T, %I, %O) : (index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%T: index, %I: index, %O: index) attributes {grid = [1 : i64]} {
      %tile = ktdp.get_compute_tile_id : index
      %0 = arith.constant 0 : index
      %vlu = dataflow.get_unit {core = 0 : i32, name = "C0-VLU", type = "VLU"} : index
      %vlu_of_tile = uniform.def_immutable_mapping([%0 -> %vlu]):index
      %vlu_1 = uniform.query_map(map:%vlu_of_tile, key:%tile) : index
      %vpu = dataflow.get_unit {core = 0 : i32, name = "C0-VPU", type = "VPU"} : index
      %vpu_of_tile = uniform.def_immutable_mapping([%0 -> %vpu]):index
      %vpu_1 = uniform.query_map(map:%vpu_of_tile, key:%tile) : index
      %vsu = dataflow.get_unit {core = 0 : i32, name = "C0-VSU", type = "VSU"} : index
      %vsu_of_tile = uniform.def_immutable_mapping([%0 -> %vsu]):index
      %vsu_1 = uniform.query_map(map:%vsu_of_tile, key:%tile) : index
      %hbm = dataflow.get_unit {name = "HBM", type = "HBM"} : index
      %Tv = ktdp.construct_memory_view %T, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
      %Tv_cast = memref.memory_space_cast %Tv : memref<8x64xf16> to memref<8x64xf16, "HBM">
      %Iv = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
      %Iv_cast = memref.memory_space_cast %Iv : memref<4xi32> to memref<4xi32, "HBM">
      %Ov = ktdp.construct_memory_view %O, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %Ov_cast = memref.memory_space_cast %Ov : memref<4x64xf16> to memref<4x64xf16, "HBM">
      %1 = arith.constant 0 : index
      %2 = arith.constant 4 : index
      %3 = arith.constant 1 : index
      %4 = arith.constant 0 : index
      %5 = arith.constant 0 : index
      %6 = arith.constant 2 : index
      %7 = arith.constant 1 : index
      %8 = arith.constant 32 : index
      scf.for %v0 = %1 to %2 step %3 {
        scf.for %k = %5 to %6 step %7 {
          %9 = arith.muli %k, %8 : index
          %v1 = arith.addi %4, %9 : index
          ktdf_lowering.execute_on %vlu_1, %vpu_1, %vsu_1 {
            %10 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>
            %11 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"VPU" -> "VSU", 32xf16>
            %12 = ktdf.create_token : !ktdf.token
            %13 = ktdf.create_token : !ktdf.token
            %14 = ktdf.create_token : !ktdf.token
            ktdf_lowering.execute_on %vlu_1 {
              ktdf.ind_data_transfer from %Tv_cast[ind(%Iv_cast[%v0]), (%v1)] size [1, 32] to %10 size [32] : memref<8x64xf16, "HBM">, memref<4xi32, "HBM">, !ktdf.fifo.slot<"VLU" -> "VPU", 32xf16>
            } {applicable_units = ["VLU"]}
            ktdf_lowering.execute_on %vpu_1 {
              %15 = ktdf.read_from_fifo %10 : <"VLU" -> "VPU", 32xf16> -> tensor<1x32xf16>
              %16 = tensor.empty() : tensor<1x32xf16>
              %17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%15 : tensor<1x32xf16>) outs(%16 : tensor<1x32xf16>) {
              ^bb0(%18: f16, %19: f16):
                linalg.yield %18 : f16
              } -> tensor<1x32xf16>
              ktdf.write_to_fifo %17, %11 : tensor<1x32xf16>, <"VPU" -> "VSU", 32xf16>
            } {applicable_units = ["VPU"]}
            ktdf_lowering.execute_on %vsu_1 {
              ktdf.data_transfer from %11 size [32] to %Ov_cast[%v0, %k * 32] size [1, 32] : !ktdf.fifo.slot<"VPU" -> "VSU", 32xf16>, memref<4x64xf16, "HBM">
            } {applicable_units = ["VSU"]}
          } {applicable_units = ["VLU", "VPU", "VSU"]}
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
