// RUN: not ktir-opt %s -p tile-size-selection 2>&1 | filecheck %s

/// A reserved size whose `min_value` exceeds every divisor of its trip count: a located
/// error at the `reserve_size`.

// CHECK: negative-no-candidate.mlir:[[# @LINE + 7]]:5: error: 'ktdf.tiling.reserve_size' op tile-size-selection: no tile size of at least 13, a multiple of 1, divides the trip count(s) 12
// CHECK-NOT: Traceback
module {
  ktdf_arch.device @stream_device import("stream_device.mlir")
  func.func @negative_no_candidate(%out: memref<12xindex>) {
    %c0 = arith.constant 0 : index
    %c12 = arith.constant 12 : index
    %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 13 : index} : index
    %n = arith.ceildivui %c12, %ts : index
    scf.for %t = %c0 to %n step %ts {
      memref.store %t, %out[%t] : memref<12xindex>
    }
    func.return
  }
}
