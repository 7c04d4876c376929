// RUN: ktir-opt %s -p unroll-carried-loops | filecheck %s

/// A loop without iter_args whose body tiles a distributed view at the loop index is
/// unrolled: each iteration's tile is at constant coordinates, so split-distributed-views
/// knows which pieces it meets. A loop tiling an ordinary view at its index stays.

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 >= 4, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @rows(
// CHECK:         %[[R0:row[^ ]*]] = arith.constant 0 : index
// CHECK:         ktdp.construct_access_tile %{{.*}}[%[[R0]], %{{.*}}]
// CHECK:         %[[R1:row[^ ]*]] = arith.constant 4 : index
// CHECK:         ktdp.construct_access_tile %{{.*}}[%[[R1]], %{{.*}}]
// CHECK:         scf.for
// CHECK-NOT:     scf.for
func.func @rows(%A: index, %B: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %v0 = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %v1 = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %d = ktdp.construct_distributed_memory_view (%v0, %v1 : memref<4x64xf16>, memref<4x64xf16>) : memref<8x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  scf.for %row = %c0 to %c8 step %c4 {
    %dt = ktdp.construct_access_tile %d[%row, %c0] {access_tile_order = #o, access_tile_set = #t} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
    %ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_order = #o, access_tile_set = #t} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
    %x = ktdp.load %dt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    ktdp.store %x, %ct : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  }
  scf.for %row = %c0 to %c8 step %c4 {
    %at = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_order = #o, access_tile_set = #t} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
    %y = ktdp.load %at : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    ktdp.store %y, %at : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  }
  return
}
