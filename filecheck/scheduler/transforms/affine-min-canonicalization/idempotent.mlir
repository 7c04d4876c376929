// RUN: ktir-opt %s -p affine-min-canonicalization,affine-min-canonicalization | filecheck %s

/// Twice is once: the `affine.min` the first run writes does not match again.

// CHECK-LABEL: func.func @twice(
// CHECK:         affine.min
// CHECK-NOT:     affine.min

func.func private @use(index) -> ()
func.func @twice() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %iv = %c0 to %c8 step %c2 {
    %add = arith.addi %iv, %c2 : index
    %min = arith.minsi %add, %c8 : index
    %n = affine.apply affine_map<()[s0, s1] -> (s1 - s0)>()[%iv, %min]
    func.call @use(%n) : (index) -> ()
  }
  func.return
}
