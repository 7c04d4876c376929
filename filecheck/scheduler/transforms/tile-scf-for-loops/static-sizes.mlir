// RUN: ktir-opt %s -p 'tile-scf-for-loops{tile_sizes=4,3}' | filecheck %s

/// Upstream's static mode: the given constants instead of reserved sizes, one per loop of
/// the nest (a measurement or test of one size; the pipeline reserves them).

module {
  ktdf_arch.device @stream_device import("stream_device.mlir")

  // CHECK-LABEL: func.func @static(
  // CHECK:         %[[N0:.*]] = arith.constant 8 : index
  // CHECK:         %[[N1:.*]] = arith.constant 6 : index
  // CHECK:         %[[TS0:.*]] = arith.constant 4 : index
  // CHECK-NEXT:    %[[TS1:.*]] = arith.constant 3 : index
  // CHECK-NOT:     reserve_size
  // CHECK:         arith.ceildivui %[[N0]], %[[TS0]] : index
  // CHECK:         arith.ceildivui %[[N1]], %[[TS1]] : index
  // CHECK:         ktdf.tiling.derive_size [%{{.*}} : %[[TS0]]], total_size = %[[N0]] : index
  // CHECK-NEXT:    ktdf.tiling.derive_size [%{{.*}} : %[[TS1]]], total_size = %[[N1]] : index
  func.func @static(%out: memref<8x6xindex>) {
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
