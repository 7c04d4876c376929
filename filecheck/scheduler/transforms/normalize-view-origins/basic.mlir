// RUN: ktir-opt %s -p normalize-view-origins | filecheck %s
// RUN: ktir-opt %s -p normalize-view-origins,normalize-view-origins | filecheck %s

/// The right half of a 4x128 matrix as its own view: columns 64..127, based at column 64.
/// Its set moves to start at column 0 and its tiles subtract 64 from their column subscript;
/// the row, already from 0, stays. A view from 0 is left alone.

// CHECK-LABEL: func.func @right_half
// CHECK:         %[[V:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [4, 64], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>
// CHECK:         ktdp.construct_access_tile %[[V]][%[[R:.*]], %[[C:.*]] - 64]
// CHECK:         ktdp.construct_access_tile %[[W:.*]][%[[R]], %[[C]]]
func.func @right_half(%X: index, %r: index, %c: index) {
  %c64 = arith.constant 64 : index
  %X1 = arith.addi %X, %c64 : index
  %v = ktdp.construct_memory_view %X1, sizes: [4, 64], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - 64 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t = ktdp.construct_access_tile %v[%r, %c] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<1x32xindex>
  %w = ktdp.construct_memory_view %X, sizes: [4, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %u = ktdp.construct_access_tile %w[%r, %c] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>} : memref<4x128xf16> -> !ktdp.access_tile<1x32xindex>
  return
}
