// RUN: ktir-opt %s -p 'bind-arguments{values="s0_in=64"}' | filecheck %s

/// Index arithmetic of bound constants folds, so a stride `2 * s0` becomes static: the view
/// takes `strides: [128, 1]`.

// CHECK-LABEL: func.func @twice(
// CHECK-NOT:     arith.muli
// CHECK:         ktdp.construct_memory_view %{{.*}}, sizes: [8, %{{.*}}], strides: [128, 1]
func.func @twice(%b: index, %s0_in: i32) attributes {grid = [1]} {
  %c2 = arith.constant 2 : index
  %s0 = arith.index_cast %s0_in : i32 to index
  %ub = arith.muli %s0, %c2 : index
  %v = ktdp.construct_memory_view %b, sizes: [8, %ub], strides: [%ub, 1] {memory_space = #ktdp.memory_space<global>} : memref<8x?xf16>
  return
}
