// RUN: ktir-opt %s --split-input-file -p single-tile-branches | filecheck %s

/// A store only tiles with `tile id mod 2 == 0` do (grid [4]: tiles 0 and 2) becomes one copy
/// per such tile, the tile id the constant and the tile's own scratchpad that tile's (ct_id);
/// the slice outside the branch is cloned per copy, the originals stay for the other tiles.

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @even_tiles_write(
// CHECK-SAME:      %[[O:.*]]: index)
// CHECK-NOT:     scf.if
// CHECK:         %[[T0:t]] = arith.constant 0 : index
// CHECK:         %[[L0:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [1, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK:         %[[X0:.*]] = ktdp.load
// CHECK:         ktdp.construct_access_tile %{{.*}}[%[[T0]], %{{.*}}]
// CHECK:         ktdp.store %[[X0]]
// CHECK:         %[[T2:t_1]] = arith.constant 2 : index
// CHECK:         ktdp.construct_memory_view %{{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 2>}
// CHECK:         %[[X2:.*]] = ktdp.load
// CHECK:         ktdp.construct_access_tile %{{.*}}[%[[T2]], %{{.*}}]
// CHECK:         ktdp.store %[[X2]]
// CHECK-NOT:     ktdp.store
// CHECK:         func.return
func.func @even_tiles_write(%Out: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %Lv = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %lt = ktdp.construct_access_tile %Lv[%c0, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %lt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %Ov = ktdp.construct_memory_view %Out, sizes: [4, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %lane = arith.remui %t, %c2 : index
  %w = arith.cmpi eq, %lane, %c0 : index
  scf.if %w {
    %ot = ktdp.construct_access_tile %Ov[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %x, %ot : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}

// -----

/// A branch not decided by the tile id alone stays (for the legality check to judge).

// CHECK-LABEL: func.func @not_on_the_tile_id(
// CHECK:         scf.if
func.func @not_on_the_tile_id(%n: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %w = arith.cmpi eq, %t, %n : index
  scf.if %w {
  }
  return
}
