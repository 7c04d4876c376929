// RUN: ktir-opt %s -p normalize-tile-loops | filecheck %s
// RUN: ktir-opt %s -p normalize-tile-loops,normalize-tile-loops | filecheck %s

/// Rows t, t + 4, t + 8 of a 10-row matrix on 4 tiles: tiles 0 and 1 run 3 iterations, tiles
/// 2 and 3 run 2. The loop runs 3 on every tile: in the extra iteration of tiles 2 and 3 the
/// row (10, 11) lies outside both views, so its store is masked off and its load reads 0.
/// The store need not be in the loop's own block (here in an inner loop over columns).

// CHECK-LABEL: func.func @rows
// CHECK:         %[[ID:.*]] = ktdp.get_compute_tile_id : index
// CHECK:         %[[LO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[K:.*]] = %[[LO]] to %[[HI]] step %[[ONE]] {
// CHECK-NEXT:      %[[S:.*]] = arith.muli %[[K]], %{{.*}} : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.addi %[[ID]], %[[S]] : index
// CHECK:           ktdp.construct_access_tile %{{.*}}[%[[ROW]], %{{.*}}]
func.func @rows(%X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %id = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %X, sizes: [10, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<10x128xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [10, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<10x128xf16>
  scf.for %row = %id to %c10 step %c4 {
    scf.for %col = %c0 to %c128 step %c64 {
      %xt = ktdp.construct_access_tile %xv[%row, %col] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<10x128xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %y = math.exp %x : tensor<1x64xf16>
      %yt = ktdp.construct_access_tile %yv[%row, %col] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<10x128xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %y, %yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    }
  }
  return
}

// CHECK-LABEL: func.func @dynamic_rows
// CHECK:         %[[HI:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[HI]] step %[[ONE]] {
/// A view of %m rows (a masked view, its size a constant once bound): 100 rows on 32 tiles.
func.func @dynamic_rows(%X: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %m = arith.constant 100 : index
  %id = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %X, sizes: [%m, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  scf.for %row = %id to %m step %c32 {
    %xt = ktdp.construct_access_tile %xv[%row, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    ktdp.store %x, %xt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
