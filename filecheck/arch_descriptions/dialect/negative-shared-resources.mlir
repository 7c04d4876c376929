// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// The shared resources of shared/spec/arch.md §8: a memory's own bandwidth
/// (`ktdf_arch.bytes_per_cycle` on a memory) and the transfers a data-moving unit keeps in
/// flight (`ktdf_arch.max_outstanding`). Each chunk breaks one rule; the message is located
/// at the resource.

ktdf_arch.device @negative_memory_bandwidth_zero {
  memory {kind = "DDR", ktdf_arch.bytes_per_cycle = 0}
}
// CHECK: negative-shared-resources.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.memory' op 'ktdf_arch.bytes_per_cycle' intrinsic value must be > 0, got 0

// -----

ktdf_arch.device @negative_memory_bandwidth_type {
  memory {kind = "DDR", ktdf_arch.bytes_per_cycle = 128 : i32}
}
// CHECK: negative-shared-resources.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.memory' op 'ktdf_arch.bytes_per_cycle' intrinsic value requires 64-bit integer

// -----

ktdf_arch.device @negative_bandwidth_on_unit {
  exec_unit {kind = "DMA", ktdf_arch.bytes_per_cycle = 64,
             ktdf_arch.features = {ktdf_arch.feature.load}}
}
// CHECK: negative-shared-resources.mlir:[[# @LINE - 3]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.bytes_per_cycle' intrinsic only valid on links and memories

// -----

ktdf_arch.device @negative_outstanding_zero {
  exec_unit {kind = "DMA", ktdf_arch.max_outstanding = 0,
             ktdf_arch.features = {ktdf_arch.feature.load}}
}
// CHECK: negative-shared-resources.mlir:[[# @LINE - 3]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.max_outstanding' intrinsic value must be > 0, got 0

// -----

ktdf_arch.device @negative_outstanding_type {
  exec_unit {kind = "DMA", ktdf_arch.max_outstanding = "four",
             ktdf_arch.features = {ktdf_arch.feature.store}}
}
// CHECK: negative-shared-resources.mlir:[[# @LINE - 3]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.max_outstanding' intrinsic value requires 64-bit integer

// -----

ktdf_arch.device @negative_outstanding_on_memory {
  memory {kind = "DDR", ktdf_arch.max_outstanding = 4}
}
// CHECK: negative-shared-resources.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.memory' op 'ktdf_arch.max_outstanding' intrinsic only valid on execution units

// -----

ktdf_arch.device @negative_outstanding_on_compute {
  exec_unit {kind = "PE", ktdf_arch.max_outstanding = 4,
             ktdf_arch.features = {ktdf_arch.feature.compute}}
}
// CHECK: negative-shared-resources.mlir:[[# @LINE - 3]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.max_outstanding' intrinsic only valid on execution units that move data (with ktdf_arch.feature.load or ktdf_arch.feature.store)

// -----

ktdf_arch.device @negative_outstanding_on_link {
  %a = exec_unit {ktdf_arch.features = {ktdf_arch.feature.load}}
  %b = exec_unit {ktdf_arch.features = {ktdf_arch.feature.store}}
  datapath {ktdf_arch.max_outstanding = 2} %a to %b : exec_unit, exec_unit
}
// CHECK: negative-shared-resources.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.datapath' op 'ktdf_arch.max_outstanding' intrinsic only valid on execution units
