// RUN: ktir-opt %s -p tile-size-selection,tile-size-selection | filecheck %s

/// Twice is once: after the first run no `reserve_size` is left to resolve.

module {
  ktdf_arch.device @stream_device import("stream_device.mlir")
  // CHECK-LABEL: func.func @twice(
  // CHECK-NOT:     ktdf.tiling.reserve_size
  // CHECK:         arith.constant 8 : index
  // CHECK-NOT:     ktdf.tiling.reserve_size
  // CHECK:         func.return
  func.func @twice(%out: memref<8xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %n = arith.ceildivui %c8, %ts : index
    scf.for %t = %c0 to %n step %c1 {
      memref.store %t, %out[%t] : memref<8xindex>
    }
    func.return
  }
}
