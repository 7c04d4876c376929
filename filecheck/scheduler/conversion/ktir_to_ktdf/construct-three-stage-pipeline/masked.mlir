// RUN: ktir-opt %s -p compute-group-extraction,construct-three-stage-pipeline | filecheck %s

/// Which transfers are masked: those of a tile that is not provably inside its view (the
/// last of 8 tiles of 4 rows over 28 rows) carry the view's coordinate set as `source_mask`
/// (the load) and `dest_mask` (the store); a tile at a host loop index the host bounds (0 to
/// 7, 4 rows of 32) is proven inside and moves unmasked; a view of dynamic size masks with
/// its size as the set's symbol.

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows28 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 27 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows32 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#dyn = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.data_transfer from %{{.*}} size [1, 64] to %{{.*}} size [64] source_mask affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 27) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)> :
// CHECK:         ktdf.data_transfer from %{{.*}} size [64] to %{{.*}} size [1, 64] dest_mask affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 27) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)> :

// CHECK-LABEL: func.func @local_schedule_1(
// CHECK-NOT:     _mask
// CHECK:         func.return

// CHECK-LABEL: func.func @local_schedule_2(
// CHECK-SAME:    %{{[^:]*}}: index, %[[M:[^:]*]]: index)
// CHECK:         ktdf.data_transfer {{.*}} source_mask affine_set<(d0, d1)[s0] : {{.*}}> mask_symbols(%[[M]]) :
// CHECK:         ktdf.data_transfer {{.*}} dest_mask affine_set<(d0, d1)[s0] : {{.*}}> mask_symbols(%[[M]]) :
module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  func.func @partial_tile(%A: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %t = ktdp.get_compute_tile_id : index
    %r = arith.muli %t, %c4 : index
    %v = ktdp.construct_memory_view %A, sizes: [28, 64], strides: [64, 1] {coordinate_set = #rows28, memory_space = #ktdp.memory_space<global>} : memref<28x64xf16>
    %x = ktdp.construct_access_tile %v[%r, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<28x64xf16> -> !ktdp.access_tile<4x64xindex>
    %d = ktdp.load %x : <4x64xindex> -> tensor<4x64xf16>
    %e = arith.addf %d, %d : tensor<4x64xf16>
    ktdp.store %e, %x : tensor<4x64xf16>, <4x64xindex>
    return
  }
  func.func @host_loop(%A: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %v = ktdp.construct_memory_view %A, sizes: [32, 64], strides: [64, 1] {coordinate_set = #rows32, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    scf.for %i = %c0 to %c8 step %c1 {
      %r = arith.muli %i, %c4 : index
      %x = ktdp.construct_access_tile %v[%r, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<32x64xf16> -> !ktdp.access_tile<4x64xindex>
      %d = ktdp.load %x : <4x64xindex> -> tensor<4x64xf16>
      %e = arith.addf %d, %d : tensor<4x64xf16>
      ktdp.store %e, %x : tensor<4x64xf16>, <4x64xindex>
    }
    return
  }
  func.func @dynamic_rows(%A: index, %M: index) {
    %c0 = arith.constant 0 : index
    %v = ktdp.construct_memory_view %A, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #dyn, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
    %x = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?x64xf16> -> !ktdp.access_tile<4x64xindex>
    %d = ktdp.load %x : <4x64xindex> -> tensor<4x64xf16>
    %e = arith.addf %d, %d : tensor<4x64xf16>
    ktdp.store %e, %x : tensor<4x64xf16>, <4x64xindex>
    return
  }
}
