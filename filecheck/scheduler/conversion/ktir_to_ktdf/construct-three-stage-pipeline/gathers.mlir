// RUN: ktir-opt %s -p construct-three-stage-pipeline | filecheck %s

/// A load through an indirect access tile becomes one `ktdf.ind_data_transfer` per vector:
/// the tile's intermediate variables follow the parallel loops (row `%i` is `%v0`, feature
/// `%d` is `%v1`), the indirect dimension reads the index view at the row's position (one
/// index per vector: size 1 there), the direct dimension is the vector's 64 lanes. The index
/// view is cast to device memory like the base; the store is a plain transfer.

#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[FIRST:.*]] = arith.muli
// CHECK:         %[[TC:.*]] = memref.memory_space_cast %{{.*}} : memref<100x64xf16> to memref<100x64xf16, "DDR">
// CHECK:         %[[IC:.*]] = memref.memory_space_cast %{{.*}} : memref<64xi32> to memref<64xi32, "DDR">
// CHECK:         scf.for %[[V0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[V1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          %[[S:[^,]*]], %[[O:[^,]*]], %[[T0:[^,]*]], %[[T1:[^,]*]], %[[T2:[^ ]*]] = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>,
// CHECK:                 ktdf.stage depends_in(none) depends_out(%[[T0]]) {
// CHECK-NEXT:            ktdf.ind_data_transfer from %[[TC]][ind(%[[IC]][%[[FIRST]] + %[[V0]]]), (%[[V1]])] size [1, 64] to %[[S]] size [64] : memref<100x64xf16, "DDR">, memref<64xi32, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
// CHECK-NEXT:          }{{$}}
// CHECK:                 ktdf.data_transfer from %[[O]] size [64] to %{{.*}}[%[[FIRST]] + %[[V0]], %[[V1]]] size [1, 64]

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @gather(%T: index, %I: index, %O: index) attributes {grid = [4]} {
      func.call @local_schedule_0(%T, %I, %O) : (index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%T: index, %I: index, %O: index) attributes {grid = [4]} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %t = ktdp.get_compute_tile_id : index
      %first = arith.muli %t, %c16 : index
      %Tv = ktdp.construct_memory_view %T, sizes: [100, 64], strides: [64, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
      %Iv = ktdp.construct_memory_view %I, sizes: [64], strides: [1] {coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
      %Ov = ktdp.construct_memory_view %O, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %g = ktdp.construct_indirect_access_tile intermediate_variables(%i, %d) %Tv[ind(%Iv[%first + %i]), (%d)] {variables_space_order = #id, variables_space_set = #vars} : memref<100x64xf16>, memref<64xi32> -> !ktdp.access_tile<16x64xindex>
      %rows = ktdp.load %g : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
      %ot = ktdp.construct_access_tile %Ov[%first, %c0] {access_tile_order = #id, access_tile_set = #vars} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
      ktdp.store %rows, %ot : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
      func.return
    }
  }
}
