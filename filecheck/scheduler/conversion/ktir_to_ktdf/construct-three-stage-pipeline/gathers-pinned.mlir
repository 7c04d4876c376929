// RUN: ktir-opt %s -p construct-three-stage-pipeline | filecheck %s

/// A tile of 2 gathered rows of 32 f16 would be one 2x32 vector of the SFU's 64 lanes, but
/// the index depends on the row: the vector stays 1 along it (1x32), so each transfer gathers
/// one row through one index; the row loop steps by 1.

#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         scf.for %[[V0:.*]] = %{{.*}} to %{{.*}} step %[[ONE]] {
// CHECK:           ktdf.ind_data_transfer from %{{.*}}[ind(%{{.*}}[%[[V0]]]), (%{{.*}})] size [1, 32] to %{{.*}} size [32] : memref<10x32xf16, "DDR">, memref<2xi32, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 32xf16>

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%T: index, %I: index, %O: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %Tv = ktdp.construct_memory_view %T, sizes: [10, 32], strides: [32, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<10x32xf16>
      %Iv = ktdp.construct_memory_view %I, sizes: [2], strides: [1] {coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
      %Ov = ktdp.construct_memory_view %O, sizes: [2, 32], strides: [32, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
      %g = ktdp.construct_indirect_access_tile intermediate_variables(%i, %d) %Tv[ind(%Iv[%i]), (%d)] {variables_space_order = #id, variables_space_set = #rows} : memref<10x32xf16>, memref<2xi32> -> !ktdp.access_tile<2x32xindex>
      %x = ktdp.load %g : !ktdp.access_tile<2x32xindex> -> tensor<2x32xf16>
      %ot = ktdp.construct_access_tile %Ov[%c0, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
      ktdp.store %x, %ot : tensor<2x32xf16>, !ktdp.access_tile<2x32xindex>
      func.return
    }
  }
}
