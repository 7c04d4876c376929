// RUN: ktir-opt %s -p ktir-legality-check | filecheck %s

/// Masked accesses pass unchanged (construct-three-stage-pipeline masks their transfers): a
/// tile that leaves its static view (the last of 8 tiles of 4 rows over 28 rows), a tile at
/// an offset the check cannot bound, a view of a dynamic size read through a runtime
/// argument (and an unused distributed view of it: dead code), and a static view whose
/// coordinate set covers part of its shape.

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows28 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 27 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#dyn = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part = affine_set<(d0, d1) : (d0 >= 0, -d0 + 27 >= 0, d1 >= 0, -d1 + 39 >= 0)>

// CHECK-LABEL: func.func @partial_tile(
// CHECK:         ktdp.construct_access_tile
// CHECK:         ktdp.store
func.func @partial_tile(%A: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = ktdp.get_compute_tile_id : index
  %r = arith.muli %t, %c4 : index
  %v = ktdp.construct_memory_view %A, sizes: [28, 64], strides: [64, 1] {coordinate_set = #rows28, memory_space = #ktdp.memory_space<global>} : memref<28x64xf16>
  %x = ktdp.construct_access_tile %v[%r, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<28x64xf16> -> !ktdp.access_tile<4x64xindex>
  %d = ktdp.load %x : <4x64xindex> -> tensor<4x64xf16>
  ktdp.store %d, %x : tensor<4x64xf16>, <4x64xindex>
  return
}

// CHECK-LABEL: func.func @unknown_offset(
// CHECK:         ktdp.store
func.func @unknown_offset(%A: index, %off: index) {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %A, sizes: [28, 64], strides: [64, 1] {coordinate_set = #rows28, memory_space = #ktdp.memory_space<global>} : memref<28x64xf16>
  %x = ktdp.construct_access_tile %v[%off, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<28x64xf16> -> !ktdp.access_tile<4x64xindex>
  %d = ktdp.load %x : <4x64xindex> -> tensor<4x64xf16>
  ktdp.store %d, %x : tensor<4x64xf16>, <4x64xindex>
  return
}

// CHECK-LABEL: func.func @runtime_rows(
// CHECK:         ktdp.runtime_arg_extract value
// CHECK:         ktdp.store
func.func @runtime_rows(%M_arg: !ktdp.runtime_arg<index, granularity=4, upperbound=64>, %A: index) {
  %c0 = arith.constant 0 : index
  %M = ktdp.runtime_arg_extract value from %M_arg : <index, granularity=4, upperbound=64> -> index
  %v = ktdp.construct_memory_view %A, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #dyn, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %unused = ktdp.construct_distributed_memory_view (%v, %v : memref<?x64xf16>, memref<?x64xf16>) : memref<?x64xf16>
  %x = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?x64xf16> -> !ktdp.access_tile<4x64xindex>
  %d = ktdp.load %x : <4x64xindex> -> tensor<4x64xf16>
  ktdp.store %d, %x : tensor<4x64xf16>, <4x64xindex>
  return
}

// CHECK-LABEL: func.func @part_of_a_view(
// CHECK:         ktdp.store
func.func @part_of_a_view(%A: index, %off: index) {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %A, sizes: [28, 64], strides: [64, 1] {coordinate_set = #part, memory_space = #ktdp.memory_space<global>} : memref<28x64xf16>
  %x = ktdp.construct_access_tile %v[%off, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<28x64xf16> -> !ktdp.access_tile<4x64xindex>
  %d = ktdp.load %x : <4x64xindex> -> tensor<4x64xf16>
  ktdp.store %d, %x : tensor<4x64xf16>, <4x64xindex>
  return
}
