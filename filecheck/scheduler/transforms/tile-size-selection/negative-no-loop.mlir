// RUN: not ktir-opt %s -p tile-size-selection 2>&1 | filecheck %s

/// A reserved size no constant can replace because it bounds no loop: a located error at
/// the `reserve_size`.

// CHECK: negative-no-loop.mlir:[[# @LINE + 5]]:5: error: 'ktdf.tiling.reserve_size' op tile-size-selection: this reserved tile size bounds no loop
// CHECK-NOT: Traceback
module {
  ktdf_arch.device @stream_device import("stream_device.mlir")
  func.func @negative_no_loop() {
    %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    func.return
  }
}
