// RUN: ktir-opt %s -p compute-group-extraction | filecheck %s

/// Plain copies that read no tile id share a launch when they copy one shape (their
/// transfers overlap); a copy of another shape is a group of its own, since a group has one
/// iteration space (the pieces of a split distributed view are copies of different shapes).

#s4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#s2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL:   func.func @copies(
// CHECK-SAME:      %[[A:[^:]*]]: index, %[[B:[^:]*]]: index, %[[C:[^:]*]]: index, %[[D:[^:]*]]: index, %[[E:[^:]*]]: index, %[[F:[^:]*]]: index)
// CHECK-NEXT:      func.call @local_schedule_1(%[[E]], %[[F]])
// CHECK-NEXT:      func.call @local_schedule_0(%[[A]], %[[B]], %[[C]], %[[D]])
// CHECK-NEXT:      func.return
// CHECK-LABEL:   func.func @local_schedule_0(
// CHECK-COUNT-2:   ktdp.store %{{.*}}, %{{.*}} : tensor<4x64xf16>
// CHECK-NOT:       ktdp.store
// CHECK:           func.return
// CHECK-LABEL:   func.func @local_schedule_1(
// CHECK:           ktdp.store %{{.*}}, %{{.*}} : tensor<2x64xf16>
// CHECK-NOT:       ktdp.store
// CHECK:           func.return
func.func @copies(%A: index, %B: index, %C: index, %D: index, %E: index, %F: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %av = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s4, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %bv = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s4, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %cv = ktdp.construct_memory_view %C, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s4, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %dv = ktdp.construct_memory_view %D, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s4, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ev = ktdp.construct_memory_view %E, sizes: [2, 64], strides: [64, 1] {coordinate_set = #s2, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %fv = ktdp.construct_memory_view %F, sizes: [2, 64], strides: [64, 1] {coordinate_set = #s2, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_order = #id, access_tile_set = #s4} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_order = #id, access_tile_set = #s4} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_order = #id, access_tile_set = #s4} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %dt = ktdp.construct_access_tile %dv[%c0, %c0] {access_tile_order = #id, access_tile_set = #s4} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %et = ktdp.construct_access_tile %ev[%c0, %c0] {access_tile_order = #id, access_tile_set = #s2} : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
  %ft = ktdp.construct_access_tile %fv[%c0, %c0] {access_tile_order = #id, access_tile_set = #s2} : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
  %a = ktdp.load %at : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %a, %bt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  %e = ktdp.load %et : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  ktdp.store %e, %ft : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  %c = ktdp.load %ct : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %c, %dt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
