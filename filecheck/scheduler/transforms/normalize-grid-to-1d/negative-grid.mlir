// RUN: ktir-opt %s --split-input-file -p normalize-grid-to-1d --verify-diagnostics | filecheck %s

/// Grids normalize-grid-to-1d refuses, located at the kernel: more tiles than the element
/// limit (the product of 2^62 x 8 does not even fit in i64: it used to escape as an internal
/// error when the flattened grid attribute was built, fuzz seed 12 kernel:2422).

// CHECK: :[[# @LINE + 1]]:1: error: 'func.func' op has a grid of 36,893,488,147,419,103,232 tiles, more than the element limit of 268,435,456 (raise it with --max-elements)
func.func @negative_huge(%A: index) attributes {grid = [4611686018427387904, 8]} {
  %x, %y = ktdp.get_compute_tile_id : index, index
  return
}

// -----

// CHECK: :[[# @LINE + 1]]:1: error: 'func.func' op has a grid of 268,435,457 tiles, more than the element limit of 268,435,456 (raise it with --max-elements)
func.func @negative_just_over(%A: index) attributes {grid = [268435457, 1]} {
  %x, %y = ktdp.get_compute_tile_id : index, index
  return
}
