// RUN: ktir-opt %s -p 'ensure-device-declaration{device=sample_device}' | filecheck %s --check-prefix=NAME
// RUN: ktir-opt %s -p 'ensure-device-declaration{device="%devices/stream_device.mlir"}' | filecheck %s --check-prefix=SHIPPED
// RUN: ktir-opt %s -p 'ensure-device-declaration{device="%S/Inputs/two-devices.mlir" device_name=big}' | filecheck %s --check-prefix=FILE

/// A module without a device gets `ktdf_arch.device @<name> import("<file>")` as its first op;
/// the rest is untouched. A shipped device, by name or by path, is imported by its file name
/// so the output stays portable; any other file by its absolute path, and `device_name` picks
/// one device of a file that holds several.

// NAME:      builtin.module {
// NAME-NEXT:   ktdf_arch.device @sample_device import("sample_device.mlir")
// NAME-NEXT:   func.func @kernel(%{{.*}}: index) attributes {grid = [2 : i64]} {

// SHIPPED:      builtin.module {
// SHIPPED-NEXT:   ktdf_arch.device @stream_device import("stream_device.mlir")
// SHIPPED-NEXT:   func.func @kernel(

// FILE:      builtin.module {
// FILE-NEXT:   ktdf_arch.device @big import("/{{.*}}/ensure-device-declaration/Inputs/two-devices.mlir")
// FILE-NEXT:   func.func @kernel(

func.func @kernel(%x: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  func.return
}
