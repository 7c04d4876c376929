// RUN: not ktir arch check --split-input-file %s 2>&1 | filecheck %s

/// One chunk per rule that needs the whole machine (arch_descriptions/model/validate.py), plus
/// the verifier rules as `ktir arch check` reports them: every message names the resource and
/// its line, and the command exits 1.

ktdf_arch.device @negative_generated_id {
  %ddr = memory {kind = "DDR"}
  group {kind = "core"} share(%ddr) {
    %a = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute}}
    %b = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %a : memory, exec_unit
    datapath %a to %ddr : exec_unit, memory
  }
}
// CHECK: negative-rules.mlir:[[# @LINE - 5]]:5: error: 'ktdf_arch.exec_unit' op exec_unit "SFU": duplicate resource id C0-SFU (also line [[# @LINE - 6]]); two resources of one kind in the same core or corelet need distinct kinds or sibling groups

// -----

ktdf_arch.device @negative_duplicate_id {
  %ddr = memory @m {kind = "DDR"}
  %sfu = exec_unit @m {kind = "SFU"}
}
// CHECK: negative-rules.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op resource with id "m" redefined (previous definition at {{.*}}negative-rules.mlir:[[# @LINE - 3]]:3)

// -----

ktdf_arch.device @negative_endpoint_not_a_resource {
  %ddr = memory {kind = "DDR"}
  %sfu = group share() {
    %u = exec_unit {kind = "SFU"}
    yield %u
  } -> exec_unit
  datapath %ddr to %u : memory, exec_unit
}
// CHECK: negative-rules.mlir:[[# @LINE - 2]]:20: error: datapath target '%u' is not a resource defined before this point in this scope

// -----

ktdf_arch.device @negative_link_to_itself {
  %ddr = memory {kind = "DDR"}
  %sfu = group share() {
    %u = exec_unit {kind = "SFU"}
    yield %u
  } -> exec_unit
  %u2 = exec_unit {kind = "X"}
  datapath %sfu to %sfu : exec_unit, exec_unit
}
// CHECK: negative-rules.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.datapath' op datapath "SFU" -> "SFU": can't link resource to itself

// -----

ktdf_arch.device @negative_unreachable_memory {
  %ddr = memory {kind = "DDR"}
  %spare = memory {kind = "SPARE", size = 1024}
  %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute}}
  datapath %ddr to %sfu : memory, exec_unit
  datapath %sfu to %ddr : exec_unit, memory
}
// CHECK: negative-rules.mlir:[[# @LINE - 5]]:3: error: 'ktdf_arch.memory' op memory "SPARE" is not connected to any execution unit

// -----

ktdf_arch.device @negative_no_route_from_global {
  %ddr = memory {kind = "DDR"}
  %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute}}
  datapath %sfu to %ddr : exec_unit, memory
}
// CHECK: negative-rules.mlir:[[# @LINE - 3]]:3: error: 'ktdf_arch.exec_unit' op exec_unit "SFU": compute unit has no route from global memory "DDR" (no chain of datapaths DDR -> ... -> SFU)

// -----

ktdf_arch.device @negative_no_route_to_global {
  %ddr = memory {kind = "DDR"}
  %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute}}
  datapath %ddr to %sfu : memory, exec_unit
}
// CHECK: negative-rules.mlir:[[# @LINE - 3]]:3: error: 'ktdf_arch.exec_unit' op exec_unit "SFU": compute unit has no route to global memory "DDR" (no chain of datapaths SFU -> ... -> DDR)

// -----

ktdf_arch.device @negative_size {
  %ddr = memory {kind = "DDR", size = -4}
}
// CHECK: negative-rules.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.memory' op memory "DDR": attribute 'size' must be >= 1 (bytes), got -4

// -----

ktdf_arch.device @negative_depth {
  %ddr = memory {kind = "DDR"}
  %sfu = exec_unit {kind = "SFU"}
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = -1}}} %ddr to %sfu : memory, exec_unit
}
// CHECK: negative-rules.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.datapath' op 'ktdf_arch.feature.queue' intrinsic 'depth' must be > 0, got -1

// -----

ktdf_arch.device @negative_bandwidth {
  %ddr = memory {kind = "DDR"}
  %sfu = exec_unit {kind = "SFU"}
  datapath {ktdf_arch.bytes_per_cycle = 0} %ddr to %sfu : memory, exec_unit
}
// CHECK: negative-rules.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.datapath' op 'ktdf_arch.bytes_per_cycle' intrinsic value must be > 0, got 0

// -----

ktdf_arch.device @negative_lanes {
  %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = -64>}}}
}
// CHECK: negative-rules.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.simd' intrinsic 'lanes[f16]' must be > 0, got -64

// -----

ktdf_arch.device @negative_unknown_feature {
  %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.comptue}}
}
// CHECK: negative-rules.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op unrecognized 'ktdf_arch' feature: ktdf_arch.feature.comptue

// -----

ktdf_arch.device @negative_mapping attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<ct_local> = "LX">} {
  %ddr = memory {kind = "DDR"}
}
// CHECK: negative-rules.mlir:[[# @LINE - 3]]:1: error: 'ktdf_arch.device' op mem_space_mapping maps #ktdp.memory_space<ct_local> to "LX", but the device has no memory of kind "LX" (memory kinds: "DDR")

// -----

ktdf_arch.device @negative_no_compute {
  %ddr = memory {kind = "DDR"}
  %dma = exec_unit {kind = "DMA"}
  datapath %ddr to %dma : memory, exec_unit
}
// CHECK: negative-rules.mlir:[[# @LINE - 5]]:1: error: 'ktdf_arch.device' op device @negative_no_compute has no compute unit: mark one exec_unit with ktdf_arch.features = {ktdf_arch.feature.compute}

// -----

ktdf_arch.device @negative_two_compute_kinds {
  %ddr = memory {kind = "DDR"}
  %a = exec_unit {kind = "VPU", ktdf_arch.features = {ktdf_arch.feature.compute}}
  %b = exec_unit {kind = "MPU", ktdf_arch.features = {ktdf_arch.feature.compute}}
  datapath %ddr to %a : memory, exec_unit
  datapath %a to %ddr : exec_unit, memory
  datapath %ddr to %b : memory, exec_unit
}
// CHECK: negative-rules.mlir:[[# @LINE - 5]]:3: error: 'ktdf_arch.exec_unit' op found second compute unit kind "MPU" (the first is "VPU", line [[# @LINE - 6]]); the scheduler needs exactly one kind with ktdf_arch.feature.compute

// -----

ktdf_arch.device @negative_kind_differs {
  %ddr = memory {kind = "DDR"}
  group {kind = "core"} share(%ddr) {
    %a = exec_unit {kind = "LU", ktdf_arch.issue_cycles = 1}
    %c = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %a : memory, exec_unit
    datapath %a to %c : exec_unit, exec_unit
    datapath %c to %ddr : exec_unit, memory
  }
  group {kind = "other"} share(%ddr) {
    %a = exec_unit {kind = "LU", ktdf_arch.issue_cycles = 2}
    datapath %ddr to %a : memory, exec_unit
  }
}
// CHECK: negative-rules.mlir:[[# @LINE - 4]]:5: error: 'ktdf_arch.exec_unit' op exec_unit "LU" differs from the first resource of kind "LU" (line [[# @LINE - 11]]) in: ktdf_arch.issue_cycles; resources of one kind must be identical (give this one its own kind)

// -----

ktdf_arch.device @negative_kind_shared_by_memory_and_unit {
  %ddr = memory {kind = "DDR"}
  %x = exec_unit {kind = "DDR"}
}
// CHECK: negative-rules.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op exec_unit "DDR": kind "DDR" already names a memory (line [[# @LINE - 3]]); memories, exec units and switches need distinct kinds

// -----

ktdf_arch.device @negative_groups_not_copies {
  %ddr = memory {kind = "DDR"}
  group {kind = "core"} share(%ddr) {
    %c = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %c : memory, exec_unit
    datapath %c to %ddr : exec_unit, memory
  }
  group {kind = "core"} share(%ddr) {
    %c = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %c : memory, exec_unit
  }
}
// CHECK: negative-rules.mlir:[[# @LINE - 5]]:3: error: 'ktdf_arch.group' op group "core" is not a copy of the first group of its kind (line [[# @LINE - 10]]): groups of one kind must hold the same resources in the same order (give it its own kind)

// -----

ktdf_arch.device @negative_two_global_memories {
  %ddr = memory {kind = "DDR"}
  %hbm = memory {kind = "HBM"}
  %c = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute}}
  datapath %ddr to %c : memory, exec_unit
  datapath %c to %hbm : exec_unit, memory
}
// CHECK: negative-rules.mlir:[[# @LINE - 5]]:3: error: 'ktdf_arch.memory' op several top-level memories (DDR, HBM): say which one KTIR 'global' means with mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR">

// -----

ktdf_arch.device @negative_bad_requirement {
  %ddr = memory {kind = "DDR"}
}
func.func private @kernel() attributes {ktdf_arch.features = "simd"}
// CHECK: negative-rules.mlir:[[# @LINE - 1]]:1: error: 'func.func' op 'ktdf_arch.features' intrinsic requires dictionary attribute

// -----

func.func private @negative_no_device()
// CHECK: negative-rules.mlir:[[# @LINE - 2]]:1: error: expected a ktdf_arch.device, found none

// -----

ktdf_arch.device @negative_matrix_off_compute {
  %ddr = memory {kind = "DDR"}
  %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute}}
  %mx = exec_unit {kind = "MX", ktdf_arch.features = {ktdf_arch.feature.matrix = {rows = 8, cols = 8, depth = 1, inputs = [f16], accumulator = f32, macs_per_cycle = 64, latency = 4}}}
  datapath %ddr to %sfu : memory, exec_unit
  datapath %sfu to %ddr : exec_unit, memory
  datapath %ddr to %mx : memory, exec_unit
}
// CHECK: negative-rules.mlir:[[# @LINE - 5]]:3: error: 'ktdf_arch.exec_unit' op exec_unit "MX": ktdf_arch.feature.matrix on a unit without ktdf_arch.feature.compute (the matrix engine is part of the compute unit, here "SFU")
