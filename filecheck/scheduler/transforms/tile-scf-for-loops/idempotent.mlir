// RUN: ktir-opt %s -p tile-scf-for-loops,tile-scf-for-loops | filecheck %s

/// Twice is once: tile loops count to a `ceildivui` and point loops to a `derive_size`, so
/// nothing of the tiled nest is a nest to tile again.

module {
  ktdf_arch.device @stream_device import("stream_device.mlir")
  // CHECK-LABEL: func.func @twice(
  // CHECK-COUNT-2: ktdf.tiling.reserve_size
  // CHECK-NOT:     ktdf.tiling.reserve_size
  // CHECK-COUNT-2: arith.ceildivui
  // CHECK-NOT:     arith.ceildivui
  // CHECK:         func.return
  func.func @twice(%out: memref<8x6xindex>) {
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
