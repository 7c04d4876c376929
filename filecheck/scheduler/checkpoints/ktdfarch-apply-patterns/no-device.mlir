// RUN: ktir-opt %s -p 'ktdfarch-apply-patterns{groups=pre_mapping,post_lowering}' | filecheck %s

/// Without a device (and without registered Python patterns) the IR is left untouched.

// CHECK-LABEL: func.func @scale(
// CHECK-SAME:    %[[A:.*]]: index)
// CHECK:         %[[C:.*]] = arith.constant 3 : index
// CHECK-NEXT:    arith.muli %[[A]], %[[C]] : index
func.func @scale(%a: index) -> index {
  %c3 = arith.constant 3 : index
  %m = arith.muli %a, %c3 : index
  return %m : index
}
