// RUN: ktir-opt %s --split-input-file -p 'ensure-device-declaration{device=sample_device},ensure-device-declaration{device=spyre}' | filecheck %s

/// A module that already declares a device keeps it, whatever the option names (no second
/// declaration, no replacement): a declared module goes through both runs unchanged, and an
/// undeclared one keeps the device the first run gave it.

// CHECK:      builtin.module {
// CHECK-NEXT:   ktdf_arch.device @stream_device import("stream_device.mlir")
// CHECK-NEXT:   func.func @declared()
// CHECK-NOT:    ktdf_arch.device
// CHECK:      // -----
// CHECK:      builtin.module {
// CHECK-NEXT:   ktdf_arch.device @sample_device import("sample_device.mlir")
// CHECK-NEXT:   func.func @undeclared()
// CHECK-NOT:    ktdf_arch.device

ktdf_arch.device @stream_device import("stream_device.mlir")
func.func @declared() attributes {grid = [4]} {
  func.return
}

// -----

func.func @undeclared() attributes {grid = [4]} {
  func.return
}
