// RUN: not ktir-opt %s -p 'tile-scf-for-loops{tile_sizes=4}' 2>&1 | filecheck %s
// RUN: not ktir-opt %s -p 'tile-scf-for-loops{tile_sizes=0,1}' 2>&1 | filecheck %s --check-prefix=ZERO

/// Static sizes that cannot tile the nest: a located error at its outermost loop when their
/// number is not the nest's depth, and an error for a size below one.

// CHECK: negative-tile-sizes.mlir:[[# @LINE + 11]]:5: error: 'scf.for' op tile-scf-for-loops: 1 tile size(s) given for a nest of 2 loops
// CHECK-NOT: Traceback
// ZERO: error: tile-scf-for-loops: tile size 0 must be at least 1, got 0
// ZERO-NOT: Traceback
module {
  ktdf_arch.device @stream_device import("stream_device.mlir")
  func.func @negative_depth(%out: memref<8x6xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c6 = arith.constant 6 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c6 step %c1 {
        memref.store %j, %out[%i, %j] : memref<8x6xindex>
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    func.return
  }
}
