// RUN: ktir-opt %s -p affine-min-canonicalization --split-input-file | filecheck %s

/// The extent of a partial tile, `min(iv + step, ub) - iv`, becomes one
/// `affine.min (ub - iv, step)`, whichever operand order the `addi` and the `minsi` have.
/// The `addi` / `minsi` stay (nothing is erased here); a second reader of the `minsi` keeps
/// reading it.

// CHECK-LABEL: func.func @basic(
// CHECK:         scf.for %[[IV:.*]] = %[[C0:.*]] to %[[C8:.*]] step %[[C2:.*]] {
// CHECK:           %[[N:.*]] = affine.min affine_map<(d0)[s0, s1] -> ((s0 + (d0 * -1)), s1)> (%[[IV]])[%[[C8]], %[[C2]]]
// CHECK-NEXT:      func.call @use(%[[N]]) : (index) -> ()

func.func private @use(index) -> ()
func.func @basic() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %iv = %c0 to %c8 step %c2 {
    %add = arith.addi %iv, %c2 : index
    %min = arith.minsi %add, %c8 : index
    %n = affine.apply affine_map<()[s0, s1] -> (-s0 + s1)>()[%iv, %min]
    func.call @use(%n) : (index) -> ()
  }
  func.return
}

// -----

// CHECK-LABEL: func.func @reversed_operands(
// CHECK:         scf.for %[[IV:.*]] = %{{.*}} to %[[C100:.*]] step %[[C4:.*]] {
// CHECK:           %[[N:.*]] = affine.min affine_map<(d0)[s0, s1] -> ((s0 + (d0 * -1)), s1)> (%[[IV]])[%[[C100]], %[[C4]]]
// CHECK-NEXT:      func.call @use(%[[N]]) : (index) -> ()

func.func private @use(index) -> ()
func.func @reversed_operands() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  scf.for %iv = %c0 to %c100 step %c4 {
    %add = arith.addi %c4, %iv : index
    %min = arith.minsi %c100, %add : index
    %n = affine.apply affine_map<()[s0, s1] -> (s1 - s0)>()[%iv, %min]
    func.call @use(%n) : (index) -> ()
  }
  func.return
}

// -----

// CHECK-LABEL: func.func @other_uses(
// CHECK:           %[[MIN:.*]] = arith.minsi
// CHECK-NEXT:      %[[N:.*]] = affine.min
// CHECK-NEXT:      func.call @use(%[[N]]) : (index) -> ()
// CHECK-NEXT:      func.call @use(%[[MIN]]) : (index) -> ()

func.func private @use(index) -> ()
func.func @other_uses() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %iv = %c0 to %c8 step %c2 {
    %add = arith.addi %iv, %c2 : index
    %min = arith.minsi %add, %c8 : index
    %n = affine.apply affine_map<()[s0, s1] -> (-s0 + s1)>()[%iv, %min]
    func.call @use(%n) : (index) -> ()
    func.call @use(%min) : (index) -> ()
  }
  func.return
}

// -----

/// Left alone: a map that is not `s1 - s0`, and a `minsi` whose `addi` does not add the
/// subtracted index.

// CHECK-LABEL: func.func @negative_no_match(
// CHECK-NOT:     affine.min
// CHECK:         affine.apply affine_map<()[s0, s1] -> ((s0 + s1))>
// CHECK:         affine.apply affine_map<()[s0, s1] -> ((s1 + (s0 * -1)))>
// CHECK-NOT:     affine.min

func.func private @use(index) -> ()
func.func @negative_no_match(%x: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %iv = %c0 to %c8 step %c2 {
    %add = arith.addi %iv, %c2 : index
    %min = arith.minsi %add, %c8 : index
    %n = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%iv, %min]
    func.call @use(%n) : (index) -> ()
    %add2 = arith.addi %x, %c2 : index
    %min2 = arith.minsi %add2, %c8 : index
    %m = affine.apply affine_map<()[s0, s1] -> (s1 - s0)>()[%iv, %min2]
    func.call @use(%m) : (index) -> ()
  }
  func.return
}
