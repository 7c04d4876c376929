// RUN: ktir-opt %s --split-input-file -p address-assignment --verify-diagnostics | filecheck %s

/// Buffers address-assignment cannot place: located errors at the alloc that does not fit (the
/// message names every buffer of that memory with its size and place), at an alloc in a memory
/// the device does not have, at a buffer of run-time size, and at a view of a device memory
/// larger than that memory (a kernel buffer in global memory; every memory is checked, not
/// only the scratchpads the pass places buffers in).

module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  func.func @negative_full(%i: index) {
    %acc = memref.alloc() : memref<512xf16, "SFU_REG">
    %lhs = memref.alloc() : memref<512xf16, "SFU_REG">
    // CHECK: :[[# @LINE + 1]]:5: error: 'memref.alloc' op memory "SFU_REG" of device @sample_device is full: the buffers of this compute group need 3072 B of its 2048 B (%acc (1024 B at {{.*}}negative-memory.mlir:[[# @LINE - 2]]:5), %lhs (1024 B at {{.*}}negative-memory.mlir:[[# @LINE - 1]]:5), %rhs (1024 B at {{.*}}negative-memory.mlir:[[# @LINE + 1]]:5))
    %rhs = memref.alloc() : memref<512xf16, "SFU_REG">
    func.return
  }
}

// -----

module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  func.func @negative_unknown_memory() {
    // CHECK: :[[# @LINE + 1]]:5: error: 'memref.alloc' op memory space "HBM" is not a memory of device @sample_device (DDR, L1, SFU_REG)
    %b = memref.alloc() : memref<64xf16, "HBM">
    func.return
  }
}

// -----

module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  func.func @negative_dynamic_size(%n: index) {
    // CHECK: :[[# @LINE + 1]]:5: error: 'memref.alloc' op buffers with dynamic sizes cannot be placed yet
    %b = memref.alloc(%n) : memref<?xf16, "L1">
    func.return
  }
}

// -----

module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  func.func @negative_view_too_large(%v: memref<32768x32768xf16>) {
    // CHECK: :[[# @LINE + 1]]:5: error: 'memref.memory_space_cast' op a view of 2147483648 B (memref<32768x32768xf16, "DDR">) does not fit in memory "DDR" of device @sample_device, which holds 1073741824 B
    %d = memref.memory_space_cast %v : memref<32768x32768xf16> to memref<32768x32768xf16, "DDR">
    func.return
  }
}
