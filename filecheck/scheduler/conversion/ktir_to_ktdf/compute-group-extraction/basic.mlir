// RUN: ktir-opt %s -p compute-group-extraction | filecheck %s

/// A kernel whose single store depends on two loads becomes one compute group: the kernel
/// keeps its signature and calls @local_schedule_0, which holds the whole slice (index math,
/// views, tiles, loads, compute, store) in its own module and keeps the grid.

#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#slab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK:       builtin.module {
// CHECK-LABEL:   func.func @add(
// CHECK-SAME:      %[[A:[^:]*]]: index, %[[B:[^:]*]]: index, %[[C:[^:]*]]: index) attributes {grid = [32 : i64]}
// CHECK-NEXT:      func.call @local_schedule_0(%[[A]], %[[B]], %[[C]]) : (index, index, index) -> ()
// CHECK-NEXT:      func.return
// CHECK:         func.func private @local_schedule_0(index, index, index) -> ()
// CHECK:       builtin.module @local_schedule_0 {
// CHECK-LABEL:   func.func @local_schedule_0(
// CHECK-SAME:      %[[GA:[^:]*]]: index, %[[GB:[^:]*]]: index, %[[GC:[^:]*]]: index) attributes {grid = [32 : i64]}
// CHECK:           %[[ID:.*]] = ktdp.get_compute_tile_id : index
// CHECK:           %[[AV:.*]] = ktdp.construct_memory_view %[[GA]]
// CHECK:           %[[LA:.*]] = ktdp.load
// CHECK:           %[[LB:.*]] = ktdp.load
// CHECK:           %[[S:.*]] = linalg.add ins(%[[LA]], %[[LB]] : {{.*}})
// CHECK:           ktdp.store %[[S]]
// CHECK-NEXT:      func.return
func.func @add(%A: index, %B: index, %C: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c3 : index
  %Av = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [96, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [96, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %At = ktdp.construct_access_tile %Av[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  %e = tensor.empty() : tensor<3x64xf16>
  %c = linalg.add ins(%a, %b : tensor<3x64xf16>, tensor<3x64xf16>) outs(%e : tensor<3x64xf16>) -> tensor<3x64xf16>
  ktdp.store %c, %Ct : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
  return
}
