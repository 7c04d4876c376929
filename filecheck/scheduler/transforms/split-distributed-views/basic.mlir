// RUN: ktir-opt %s -p split-distributed-views | filecheck %s

/// A 8x64 tensor in three pieces: rows 0..3 in device memory, 4..5 in tile 0's scratchpad
/// (column-major), 6..7 in tile 1's. `C = A + B` over all 8 rows becomes one computation per
/// piece: the load from the piece re-based to coordinate 0, B and C on the matching rows of
/// their own tiles (subscripts moved by the piece's first row). The distributed view, its
/// tile and the whole-tile load are gone.

#g = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#l0 = affine_set<(d0, d1) : (d0 >= 4, -d0 + 5 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#l1 = affine_set<(d0, d1) : (d0 >= 6, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @three_pieces(
// CHECK-SAME:      %[[B:.*]]: index, %[[C:.*]]: index)
// CHECK-NOT:     construct_distributed_memory_view
// CHECK:         %[[BV:.*]] = ktdp.construct_memory_view %[[B]]
// CHECK:         %[[CV:.*]] = ktdp.construct_memory_view %[[C]]
// CHECK:         %[[G:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>}
// CHECK-NEXT:    %[[GT:.*]] = ktdp.construct_access_tile %[[G]][0, 0] {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK-NEXT:    %[[GA:.*]] = ktdp.load %[[GT]] : <4x64xindex> -> tensor<4x64xf16>
// CHECK-NEXT:    %[[GBT:.*]] = ktdp.construct_access_tile %[[BV]][%{{.*}}, %{{.*}}] {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK-NEXT:    %[[GB:.*]] = ktdp.load %[[GBT]] : <4x64xindex> -> tensor<4x64xf16>
// CHECK-NEXT:    %[[GS:.*]] = arith.addf %[[GA]], %[[GB]] : tensor<4x64xf16>
// CHECK-NEXT:    %[[GCT:.*]] = ktdp.construct_access_tile %[[CV]][%{{.*}}, %{{.*}}] {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK-NEXT:    ktdp.store %[[GS]], %[[GCT]] : tensor<4x64xf16>, <4x64xindex>
// CHECK-NEXT:    %[[L0:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [2, 64], strides: [1, 2] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK-NEXT:    ktdp.construct_access_tile %[[L0]][0, 0] {{.*}} -> !ktdp.access_tile<2x64xindex>
// CHECK:         ktdp.construct_access_tile %[[BV]][%{{.*}} + 4, %{{.*}}] {{.*}} -> !ktdp.access_tile<2x64xindex>
// CHECK:         arith.addf %{{.*}}, %{{.*}} : tensor<2x64xf16>
// CHECK-NEXT:    %[[L0C:.*]] = ktdp.construct_access_tile %[[CV]][%{{.*}} + 4, %{{.*}}] {{.*}} -> !ktdp.access_tile<2x64xindex>
// CHECK-NEXT:    ktdp.store %{{.*}}, %[[L0C]] : tensor<2x64xf16>, <2x64xindex>
// CHECK-NEXT:    %[[L1:.*]] = ktdp.construct_memory_view {{.*}} memory_space = #ktdp.memory_space<ct_local, ct_id = 1>}
// CHECK:         ktdp.construct_access_tile %[[CV]][%{{.*}} + 6, %{{.*}}] {{.*}} -> !ktdp.access_tile<2x64xindex>
// CHECK-NEXT:    ktdp.store
// CHECK-NEXT:    func.return
func.func @three_pieces(%B: index, %C: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %ag = arith.constant 0 : index
  %al = arith.constant 1024 : index
  %vg = ktdp.construct_memory_view %ag, sizes: [4, 64], strides: [64, 1] {coordinate_set = #g, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %v0 = ktdp.construct_memory_view %al, sizes: [2, 64], strides: [1, 2] {coordinate_set = #l0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<2x64xf16>
  %v1 = ktdp.construct_memory_view %al, sizes: [2, 64], strides: [64, 1] {coordinate_set = #l1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<2x64xf16>
  %A = ktdp.construct_distributed_memory_view (%vg, %v0, %v1 : memref<4x64xf16>, memref<2x64xf16>, memref<2x64xf16>) : memref<8x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %at = ktdp.construct_access_tile %A[%c0, %c0] {access_tile_order = #o, access_tile_set = #all} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_order = #o, access_tile_set = #all} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_order = #o, access_tile_set = #all} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %a = ktdp.load %at : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %b = ktdp.load %bt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %s = arith.addf %a, %b : tensor<8x64xf16>
  ktdp.store %s, %ct : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}
