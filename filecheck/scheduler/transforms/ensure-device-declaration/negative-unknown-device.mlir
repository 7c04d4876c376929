// RUN: not ktir-opt %s -p 'ensure-device-declaration{device=nope}' 2>&1 | filecheck %s --check-prefix=NAME
// RUN: not ktir-opt %s -p 'ensure-device-declaration' 2>&1 | filecheck %s --check-prefix=NONE
// RUN: not ktir-opt %s -p 'ensure-device-declaration{device="%S/Inputs/two-devices.mlir"}' 2>&1 | filecheck %s --check-prefix=SEVERAL
// RUN: not ktir-opt %s -p 'ensure-device-declaration{device="%S/Inputs/two-devices.mlir" device_name=huge}' 2>&1 | filecheck %s --check-prefix=NOT-THERE

/// Each way of naming no usable device is an error with exit code 1 (no traceback): an unknown
/// name lists the shipped devices; no option at all says how to give one; a file with several
/// devices and no `device_name`; a `device_name` the file does not define.

// NAME:      error: no device 'nope': not a file and not a shipped device (shipped: sample_device, spyre, stream_device)
// NONE:      error: the module declares no device; give one with ensure-device-declaration{device=NAME|FILE}
// SEVERAL:   {{.*}}Inputs/two-devices.mlir:1:1: error: expected one ktdf_arch.device, found 2 (@little, @big); choose one by name
// NOT-THERE: error: '{{.*}}Inputs/two-devices.mlir' has no device named @huge

func.func @kernel() {
  func.return
}
