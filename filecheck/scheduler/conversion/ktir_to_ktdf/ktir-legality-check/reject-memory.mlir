// RUN: ktir-opt %s -p ktir-legality-check --split-input-file --verify-diagnostics | filecheck %s

/// ktir-legality-check stops at the first op outside what the scheduler lowers end to end and
/// says which op and why; one chunk per condition. (A distributed view nothing reads is dead
/// code, which compute-group-extraction drops: accept-masked.mlir.)

func.func @negative_distributed_view(%A: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %v = ktdp.construct_memory_view %A, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %d = ktdp.construct_distributed_memory_view (%v, %v : memref<32x64xf16>, memref<32x64xf16>) : memref<64x64xf16>
  %x = ktdp.construct_access_tile %d[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
  %l = ktdp.load %x : <4x64xindex> -> tensor<4x64xf16>
  ktdp.store %l, %x : tensor<4x64xf16>, <4x64xindex>
  return
}
// CHECK: error: {{.*}}'ktdp.construct_distributed_memory_view' op distributed memory views other than loads of an element-wise store (split-distributed-views splits those per piece): not supported by the scheduler yet

// -----

func.func @negative_indirect_order(%A: index, %I: index) {
  %v = ktdp.construct_memory_view %A, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %i = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%a, %b) %v[ind(%i[%a]), (%b)] {variables_space_order = affine_map<(d0, d1) -> (d1, d0)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16>, memref<4xi32> -> !ktdp.access_tile<64x4xindex>
  return
}
// CHECK: error: {{.*}}'ktdp.construct_indirect_access_tile' op variables_space_order other than the identity: not supported by the scheduler yet

// -----

func.func @negative_mask_not_a_box(%A: index) {
  %v = ktdp.construct_memory_view %A, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0, d0 - d1 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  return
}
// CHECK: error: {{.*}}a coordinate_set that is not a box (each constraint bounding one dimension) as the mask of its accesses: not supported by the scheduler yet

// -----

func.func @negative_mask_offset(%A: index) {
  %v = ktdp.construct_memory_view %A, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  return
}
// CHECK: error: {{.*}}a coordinate_set whose dimension 0 does not start at 0 (d0 >= 0), which normalize-view-origins did not move (it moves views that only access tiles read, from a constant origin; not a part of a distributed view, nor a lower bound with symbols): not supported by the scheduler yet

// -----

func.func @negative_mask_overflow(%A: index) {
  %v = ktdp.construct_memory_view %A, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 99 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  return
}
// CHECK: error: {{.*}}a coordinate_set that does not keep dimension 1 inside the view (no bound d1 <= 63; coordinates beyond the view's shape are a view overflow, not masked)

// -----

func.func @negative_mask_other_symbol(%A: index, %m: index, %n: index) {
  %v = ktdp.construct_memory_view %A, sizes: [%m, %n], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s1 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
  return
}
// CHECK: error: {{.*}}a coordinate_set that does not keep dimension 0 inside the view (no bound d0 <= s0 - 1; coordinates beyond the view's shape are a view overflow, not masked)

// -----

func.func @negative_legacy_space(%A: index) {
  %v = ktdp.construct_memory_view %A, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.spyre_memory_space<unspecified>} : memref<32x64xf16>
  return
}
// CHECK: error: {{.*}}memory space 'unspecified' is not decided; use #ktdp.memory_space<global> or <ct_local>

// -----

func.func @negative_dynamic_strides(%A: index, %n: index) {
  %v = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [%n, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16, strided<[?, 1]>>
  return
}
// CHECK: error: {{.*}}views with dynamic strides: not supported by the scheduler yet

// -----

func.func @negative_dynamic_tile(%A: index, %n: index) {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %A, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %x = ktdp.construct_access_tile %v[%c0, %c0] symbols(%n) {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<?x64xindex>
  return
}
// CHECK: error: {{.*}}access tiles of dynamic shape: not supported by the scheduler yet
