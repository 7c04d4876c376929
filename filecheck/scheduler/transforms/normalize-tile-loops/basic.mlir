// RUN: ktir-opt %s --allow-unregistered-dialect -p normalize-tile-loops | filecheck %s
// RUN: ktir-opt %s --allow-unregistered-dialect -p normalize-tile-loops,normalize-tile-loops | filecheck %s

/// A loop over rows [%pid * 3, %pid * 3 + 3) runs 3 times on every tile: it counts 0..3 and
/// its index is recomputed from the count in the body. A loop whose trip count differs
/// between tiles and that carries a value (masked-tail.mlir: when it may run the largest
/// count), or whose bounds do not depend on the tile, is left alone.

// CHECK-LABEL: func.func @strided
// CHECK:         %[[START:.*]] = arith.muli %{{.*}}, %[[C3:.*]] : index
// CHECK:         %[[STEP:.*]] = arith.constant 2 : index
// CHECK:         %[[LO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[K:.*]] = %[[LO]] to %[[HI]] step %[[ONE]] {
// CHECK-NEXT:      %[[S:.*]] = arith.muli %[[K]], %[[STEP]] : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.addi %[[START]], %[[S]] : index
// CHECK-NEXT:      "test.op"(%[[ROW]]) : (index) -> ()
func.func @strided() attributes {grid = [4]} {
  %c3 = arith.constant 3 : index
  %id = ktdp.get_compute_tile_id : index
  %start = arith.muli %id, %c3 : index
  %end = arith.addi %start, %c3 : index
  %c2 = arith.constant 2 : index
  scf.for %row = %start to %end step %c2 {
    "test.op"(%row) : (index) -> ()
  }
  return
}

// CHECK-LABEL: func.func @left_alone
// CHECK:         scf.for %{{.*}} = %[[ID:.*]] to %{{.*}} step %{{.*}} iter_args
// CHECK:         scf.for %{{.*}} = %[[ID]] to %{{.*}} step %{{.*}} {
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
func.func @left_alone(%n: index) attributes {grid = [4]} {
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %id = ktdp.get_compute_tile_id : index
  %s = scf.for %i = %id to %c10 step %c1 iter_args(%a = %c1) -> (index) {  // 10 - pid
    scf.yield %i : index
  }
  scf.for %i = %id to %n step %c1 {     // bounded by an argument
  }
  scf.for %i = %c1 to %c10 step %c1 {   // the same on every tile
  }
  return
}

// CHECK-LABEL: func.func @clamped
// CHECK:         %[[START:.*]] = arith.muli
// CHECK:         arith.select
// CHECK-NEXT:    %[[LO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[K:.*]] = %[[LO]] to %[[HI]] step %[[ONE]] {
// CHECK-NEXT:      %[[S:.*]] = arith.muli %[[K]], %{{.*}} : index
// CHECK-NEXT:      arith.addi %[[START]], %[[S]] : index
/// Triton's clamped end, min(%start + 2, 4) on a grid of 2: two rows on each tile.
func.func @clamped() attributes {grid = [2]} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %id = ktdp.get_compute_tile_id : index
  %start = arith.muli %id, %c2 : index
  %raw = arith.addi %start, %c2 : index
  %lt = arith.cmpi slt, %raw, %c4 : index
  %end = arith.select %lt, %raw, %c4 : index
  scf.for %row = %start to %end step %c1 {
    "test.op"(%row) : (index) -> ()
  }
  return
}
