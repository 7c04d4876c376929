// RUN: ktir-opt %s -p normalize-view-origins | filecheck %s

/// A view that is a part of a distributed view keeps its coordinates: they say which part
/// holds a point. (The legality check refuses distributed views.)

// CHECK-LABEL: func.func @negative_part
// CHECK:         ktdp.construct_memory_view %{{.*}} {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, (d1 + -64) >= 0, ((d1 * -1) + 127) >= 0)>
func.func @negative_part(%X: index) {
  %c64 = arith.constant 64 : index
  %X1 = arith.addi %X, %c64 : index
  %p0 = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %p1 = ktdp.construct_memory_view %X1, sizes: [4, 64], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - 64 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %d = ktdp.construct_distributed_memory_view (%p0, %p1 : memref<4x64xf16>, memref<4x64xf16>) : memref<4x128xf16>
  return
}
