// RUN: ktir-opt %s -p normalize-tile-loops | filecheck %s
// RUN: ktir-opt %s -p normalize-tile-loops,ktir-legality-check --split-input-file --verify-diagnostics | filecheck %s --check-prefix=WHY

/// A loop whose trip count differs between tiles is left alone when an extra iteration could
/// change something: it carries a value, a store of it may land inside its view, or its body
/// holds an op with effects of its own. The legality check then says which.

// CHECK-LABEL: func.func @negative_store_inside
// CHECK:         scf.for %{{.*}} = %[[ID:.*]] to %{{.*}} step %{{.*}} {
/// The store goes to row %row - 4: in the extra iteration (row 10 or 11) that is row 6 or 7.
func.func @negative_store_inside(%X: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %id = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %X, sizes: [10, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<10x64xf16>
  scf.for %row = %id to %c10 step %c4 {
    %xt = ktdp.construct_access_tile %xv[%row, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<10x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %prev = arith.subi %row, %c4 : index
    %yt = ktdp.construct_access_tile %xv[%prev, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<10x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %x, %yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
// WHY: error: {{.*}}the trip count differs between tiles (tile 0: 3, tile 2: 2), and the host runs loops once for all tiles: the largest count could run on every tile with the extra iterations masked off, but the store at line 22 is not proven to write outside its view in those iterations

// -----

// CHECK-LABEL: func.func @negative_carried
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
func.func @negative_carried() -> index attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %id = ktdp.get_compute_tile_id : index
  %n = scf.for %row = %id to %c10 step %c4 iter_args(%a = %c0) -> (index) {
    %b = arith.addi %a, %row : index
    scf.yield %b : index
  }
  return %n : index
}
// WHY: error: {{.*}}but it carries values (iter_args), which the extra iterations would change

// -----

// CHECK-LABEL: func.func @negative_effects
// CHECK:         scf.for %{{.*}} = %[[ID:.*]] to %{{.*}} step %{{.*}} {
func.func @negative_effects(%b: memref<4xf16>, %v: f16) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %id = ktdp.get_compute_tile_id : index
  scf.for %row = %id to %c10 step %c4 {
    memref.store %v, %b[%c0] : memref<4xf16>
  }
  return
}
// WHY: error: {{.*}}but its body holds 'memref.store', whose effects the extra iterations would repeat
