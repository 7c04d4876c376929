// RUN: not ktir arch check --split-input-file %s 2>&1 | filecheck %s

/// Import rules: a missing file, a cycle, a file without the named device, a file that does
/// not parse, an imported device the model rejects, and a mem_space_mapping on a declaration
/// naming a memory kind the imported definition lacks. Each error is located, with a note at
/// the import when the error lies in another file.

ktdf_arch.device @nowhere import("Inputs/not-there.mlir")
// CHECK: negative-imports.mlir:[[# @LINE - 1]]:1: error: 'ktdf_arch.device' op cannot import device @nowhere: file 'Inputs/not-there.mlir' not found (looked in: {{.*}}check/Inputs{{.*}})

// -----

ktdf_arch.device @looped import("Inputs/cycle-a.mlir")
// CHECK: cycle-b.mlir:2:1: error: 'ktdf_arch.device' op import cycle: device @looped imports itself ({{.*}}cycle-a.mlir -> {{.*}}cycle-b.mlir -> {{.*}}cycle-a.mlir)
// CHECK: negative-imports.mlir:[[# @LINE - 2]]:1: note: 'ktdf_arch.device' op while importing device @looped

// -----

ktdf_arch.device @wanted import("Inputs/other-name.mlir")
// CHECK: negative-imports.mlir:[[# @LINE - 1]]:1: error: 'ktdf_arch.device' op cannot import device @wanted: '{{.*}}other-name.mlir' has no device named @wanted

// -----

ktdf_arch.device @broken import("Inputs/broken.mlir")
// CHECK: broken.mlir:4:30: error: {{.*}}
// CHECK: negative-imports.mlir:[[# @LINE - 2]]:1: note: 'ktdf_arch.device' op while importing device @broken from '{{.*}}broken.mlir'

// -----

ktdf_arch.device @idle import("Inputs/no-compute.mlir")
// CHECK: no-compute.mlir:2:1: error: 'ktdf_arch.device' op device @idle has no compute unit
// CHECK: negative-imports.mlir:[[# @LINE - 2]]:1: note: 'ktdf_arch.device' op while importing device @idle

// -----

ktdf_arch.device @sample_device attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "HBM">} import("sample_device.mlir")
// CHECK: negative-imports.mlir:[[# @LINE - 1]]:1: error: 'ktdf_arch.device' op mem_space_mapping maps #ktdp.memory_space<global> to "HBM", but device @sample_device has no memory of kind "HBM" (memory kinds: DDR, L1, SFU_REG)
