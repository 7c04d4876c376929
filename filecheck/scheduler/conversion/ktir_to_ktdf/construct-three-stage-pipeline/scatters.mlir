// RUN: ktir-opt %s -p construct-three-stage-pipeline | filecheck %s

/// A store through an indirect access tile becomes one `ktdf.ind_data_transfer` per vector
/// from the compute unit's FIFO: the tile's intermediate variables follow the parallel loops
/// (row `%r` is `%v0`, feature `%d` is `%v1`), the destination's indirect dimension reads the
/// index view at the row's position (one index per vector: size 1 there), its direct
/// dimension takes the vector's 64 lanes. The index view is cast to device memory like the
/// base; the load is a plain transfer.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[IC:.*]] = memref.memory_space_cast %{{.*}} : memref<4xi32> to memref<4xi32, "DDR">
// CHECK:         %[[OC:.*]] = memref.memory_space_cast %{{.*}} : memref<8x64xf16> to memref<8x64xf16, "DDR">
// CHECK:         scf.for %[[V0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[V1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          %[[S:[^,]*]], %[[O:[^,]*]], %[[T0:[^,]*]], %[[T1:[^,]*]], %[[T2:[^ ]*]] = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>,
// CHECK:                 ktdf.data_transfer from %{{.*}}[%[[V0]], %[[V1]]] size [1, 64] to %[[S]] size [64]
// CHECK:                 ktdf.stage depends_in(%[[T1]]) depends_out(%[[T2]]) {
// CHECK-NEXT:            ktdf.ind_data_transfer from %[[O]] size [64] to %[[OC]][ind(%[[IC]][%[[V0]]]), (%[[V1]])] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<4xi32, "DDR">, memref<8x64xf16, "DDR">
// CHECK-NEXT:          }{{$}}

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
      %c0 = arith.constant 0 : index
      %x = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %i = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
      %o = ktdp.construct_memory_view %O, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
      %xt = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
      %v = ktdp.load %xt : <4x64xindex> -> tensor<4x64xf16>
      %st = ktdp.construct_indirect_access_tile intermediate_variables(%r, %d) %o[ind(%i[%r]), (%d)] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>} : memref<8x64xf16>, memref<4xi32> -> !ktdp.access_tile<4x64xindex>
      ktdp.store %v, %st : tensor<4x64xf16>, <4x64xindex>
      func.return
    }
  }
}
