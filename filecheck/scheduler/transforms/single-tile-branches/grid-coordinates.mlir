// RUN: ktir-opt %s -p single-tile-branches | filecheck %s

/// A branch on one coordinate of a per-dimension tile id (grid [2, 3], `%y == 0`): linear
/// tiles 0 and 1 take it (the first dimension fastest, ktir.md D2), each copy with its
/// coordinates as constants (x = 0, then x = 1; y = 0 is used by nothing else and goes) and its scratchpad (ct_id 0, then 1); the
/// originals stay for the other tiles.

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @first_row_writes(
// CHECK-NOT:     scf.if
// CHECK:         %[[X0:x]] = arith.constant 0 : index
// CHECK:         ktdp.construct_memory_view %{{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK:         %[[V0:.*]] = ktdp.load
// CHECK:         ktdp.construct_access_tile %{{.*}}[%[[X0]], %{{.*}}]
// CHECK:         ktdp.store %[[V0]]
// CHECK:         %[[X1:x_1]] = arith.constant 1 : index
// CHECK:         ktdp.construct_memory_view %{{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 1>}
// CHECK:         %[[V1:.*]] = ktdp.load
// CHECK:         ktdp.construct_access_tile %{{.*}}[%[[X1]], %{{.*}}]
// CHECK:         ktdp.store %[[V1]]
// CHECK-NOT:     ktdp.store
// CHECK-NOT:     ktdp.get_compute_tile_id
// CHECK:         func.return
func.func @first_row_writes(%Out: index) attributes {grid = [2, 3]} {
  %c0 = arith.constant 0 : index
  %x, %y = ktdp.get_compute_tile_id : index, index
  %Lv = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %lt = ktdp.construct_access_tile %Lv[%c0, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %lt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %Ov = ktdp.construct_memory_view %Out, sizes: [2, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %w = arith.cmpi eq, %y, %c0 : index
  scf.if %w {
    %ot = ktdp.construct_access_tile %Ov[%x, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %v, %ot : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
