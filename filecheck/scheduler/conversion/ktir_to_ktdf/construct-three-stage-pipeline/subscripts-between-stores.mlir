// RUN: ktir-opt %s -p construct-three-stage-pipeline | filecheck %s

/// A group whose second store's subscript is computed after its first store (what
/// unroll-carried-loops leaves of a loop reading a tile loaded before it, as ktir-cpu's
/// rope_fwd_4x2 does): the pipeline goes before the last store, where every subscript its
/// transfers read is defined, so the output verifies.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-SAME:    %[[X:[^:]*]]: index, %[[Z:[^:]*]]: index)
// CHECK:         %[[ROW0:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:         %[[XC:.*]] = memref.memory_space_cast %{{.*}} : memref<4x64xf16> to memref<4x64xf16, "DDR">
// CHECK:         %[[ZC:.*]] = memref.memory_space_cast %{{.*}} : memref<4x64xf16> to memref<4x64xf16, "DDR">
// CHECK:         %[[ROW1:.*]] = arith.addi %[[ROW0]], %{{.*}} : index
// CHECK:         ktdf.pipeline {
// CHECK:           ktdf.data_transfer from %[[XC]][%[[ROW0]] + %{{.*}}, %{{.*}}] size [1, 64]
// CHECK:           ktdf.data_transfer from %{{.*}} size [64] to %[[ZC]][%[[ROW0]] + %{{.*}}, %{{.*}}] size [1, 64]
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}} size [64] to %[[ZC]][%[[ROW1]] + %{{.*}}, %{{.*}}] size [1, 64]
// CHECK-NOT:     ktdp.store
// CHECK:         func.return

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @twice(%x: index, %z: index) attributes {grid = [2]} {
      func.call @local_schedule_0(%x, %z) : (index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %z: index) attributes {grid = [2]} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %tid = ktdp.get_compute_tile_id : index
      %row0 = arith.muli %tid, %c2 : index
      %xv = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %xt = ktdp.construct_access_tile %xv[%row0, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %s = linalg.add ins(%a, %a : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
      %zv = ktdp.construct_memory_view %z, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %zt0 = ktdp.construct_access_tile %zv[%row0, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %s, %zt0 : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
      %row1 = arith.addi %row0, %c1 : index
      %zt1 = ktdp.construct_access_tile %zv[%row1, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %a, %zt1 : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
      func.return
    }
  }
}
