// RUN: not ktir interpret %s 2>&1 | filecheck %s
// RUN: not ktir --max-elements 1000 interpret %s 2>&1 | filecheck %s --check-prefix=LOWER
/// The interpreter keeps arrays over all tiles of a kernel's grid: a grid beyond the element
/// limit (2^28 tiles, --max-elements) is a located error at the kernel, not a MemoryError.
// CHECK-NOT: Traceback
// CHECK-NOT: internal error
// CHECK: negative-huge-grid.mlir:[[# @LINE + 2]]:1: error: 'func.func' op has a grid of 100,000,000,000 tiles, more than the element limit of 268,435,456 (raise it with --max-elements)
// LOWER: negative-huge-grid.mlir:[[# @LINE + 1]]:1: error: 'func.func' op has a grid of 100,000,000,000 tiles, more than the element limit of 1,000
func.func @negative_huge_grid(%A: index) attributes {grid = [100000000000]} {
  return
}
