// RUN: ktir-opt %s --split-input-file -p split-distributed-views --verify-diagnostics | filecheck %s

/// What stays refused, with the reason: a distributed tile whose coordinates are not constants
/// nor known on each tile (a loop index: each iteration would meet other pieces), and a tile
/// the pieces do not cover.

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 >= 4, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

func.func @negative_loop_coordinates(%B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %row = %c0 to %c8 step %c4 {
  %v0 = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x64xf16>
  %v1 = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x64xf16>
  %d = ktdp.construct_distributed_memory_view (%v0, %v1 : memref<4x64xf16>, memref<4x64xf16>) : memref<8x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %dt = ktdp.construct_access_tile %d[%row, %c0] {access_tile_order = #o, access_tile_set = #t} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  %bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_order = #o, access_tile_set = #t} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %dt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %x, %bt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  }
  return
}
// CHECK: error: {{.*}}'ktdp.construct_access_tile' op a tile over a distributed view at coordinates that are not constants (they may differ between tiles): not supported by the scheduler yet

// -----

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 >= 4, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

func.func @negative_hole(%B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %v0 = ktdp.construct_memory_view %c0, sizes: [2, 64], strides: [64, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<2x64xf16>
  %v1 = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x64xf16>
  %d = ktdp.construct_distributed_memory_view (%v0, %v1 : memref<2x64xf16>, memref<4x64xf16>) : memref<8x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %dt = ktdp.construct_access_tile %d[%c0, %c0] {access_tile_order = #o, access_tile_set = #t} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  %bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_order = #o, access_tile_set = #t} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %dt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %x, %bt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
// CHECK: error: {{.*}}'ktdp.construct_access_tile' op a tile over a distributed view that its pieces do not cover (128 of 256 elements): not supported by the scheduler yet

// -----

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 >= 4, -d0 + 7 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

func.func @negative_unbounded_piece(%B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %v0 = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x64xf16>
  %v1 = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x64xf16>
  %d = ktdp.construct_distributed_memory_view (%v0, %v1 : memref<4x64xf16>, memref<4x64xf16>) : memref<8x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %dt = ktdp.construct_access_tile %d[%c4, %c0] {access_tile_order = #o, access_tile_set = #t} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  %bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_order = #o, access_tile_set = #t} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %dt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %x, %bt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
// CHECK: error: {{.*}}'ktdp.construct_memory_view' op a piece of a distributed view whose coordinate_set is unbounded (dimension d1 of {{.*}} has no finite bound): the pieces must be boxes
