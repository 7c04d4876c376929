// RUN: ktir-opt %s -p cse,dce | filecheck %s

/// create_token and tiling.reserve_size are Pure (an unused one is dead) but unique: CSE
/// never merges two of them, even when they are written alike.

// CHECK-LABEL: func.func @unique()
// CHECK-NEXT:    %[[A:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:    %[[B:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:    %[[X:.*]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// CHECK-NEXT:    %[[Y:.*]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[X]], %[[Y]] : index
// CHECK-NEXT:    func.return %[[A]], %[[B]], %[[S]]
func.func @unique() -> (!ktdf.token, !ktdf.token, index) {
  %a = ktdf.create_token : !ktdf.token
  %b = ktdf.create_token : !ktdf.token
  %dead = ktdf.create_token : !ktdf.token
  %x = ktdf.tiling.reserve_size {min_value = 1 : index, divisibility = 1 : index} : index
  %y = ktdf.tiling.reserve_size {min_value = 1 : index, divisibility = 1 : index} : index
  %unused = ktdf.tiling.reserve_size {min_value = 1 : index, divisibility = 1 : index} : index
  %s = arith.addi %x, %y : index
  return %a, %b, %s : !ktdf.token, !ktdf.token, index
}

// CHECK-LABEL: func.func @pure_ops(
// CHECK-SAME:    %[[I:.*]]: index)
// CHECK-NEXT:    %[[P:.*]] = ktdf.buffer_phase(%[[I]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:    func.return %[[P]], %[[P]]
func.func @pure_ops(%i: index) -> (index, index) {
  %p = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
  %q = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
  %l = ktdf.tiling.linearize_index [%i : %i] : index
  return %p, %q : index, index
}
