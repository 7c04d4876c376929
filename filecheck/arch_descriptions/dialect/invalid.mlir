// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// One chunk per verifier and parser rule of ktdf_arch (upstream rules and this project's):
/// each breaks exactly one rule, and the message names the resource at its line.

ktdf_arch.device @negative_empty {}
// CHECK: invalid.mlir:[[# @LINE - 1]]:1: error: 'ktdf_arch.device' op device @negative_empty is empty: empty device requires 'import_path'

// -----

"ktdf_arch.device"() <{sym_name = "negative_body_and_import", import_path = "x.mlir"}> ({
  %e = "ktdf_arch.exec_unit"() : () -> !ktdf_arch.exec_unit
}) : () -> ()
// CHECK: error: 'ktdf_arch.device' op non-empty device can't have 'import_path' attribute

// -----

ktdf_arch.device @negative_body_and_import_attribute attributes {import_path = "x.mlir"} {
  exec_unit
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:1: error: 'ktdf_arch.device' op non-empty device can't have 'import_path' attribute

// -----

ktdf_arch.device @negative_sibling_redefines_id {
  exec_unit @a
  exec_unit @a
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op resource with id "a" redefined (previous definition at {{.*}}invalid.mlir:[[# @LINE - 3]]:3)

// -----

ktdf_arch.device @negative_cousin_redefines_id {
  group share() {
    memory @a {kind = "M"}
  }
  exec_unit @a
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op resource with id "a" redefined

// -----

ktdf_arch.device @negative_unexpected_child {
  func.func private @f()
}
// CHECK: error: 'ktdf_arch.device' op expects child ops to be resources (memory, exec_unit, switch, datapath, group) or patterns, found 'func.func'

// -----

ktdf_arch.device @negative_memory_without_kind {
  memory {size = 16}
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.memory' op memory needs a 'kind'

// -----

ktdf_arch.device @negative_memory_kind_float {
  memory {kind = 1.5}
}
// CHECK: error: 'ktdf_arch.memory' op attribute 'kind' requires valid memory space

// -----

ktdf_arch.device @negative_size_zero {
  memory {kind = "L1", size = 0}
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.memory' op memory "L1": attribute 'size' must be >= 1 (bytes), got 0

// -----

ktdf_arch.device @negative_size_float {
  memory {kind = "L1", size = 1.5}
}
// CHECK: error: 'ktdf_arch.memory' op memory "L1": attribute 'size' requires a 64-bit integer attribute (bytes)

// -----

ktdf_arch.device @negative_bandwidth_not_on_link {
  exec_unit {kind = "E", ktdf_arch.bandwidth = 8}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.bandwidth' intrinsic only valid on links

// -----

ktdf_arch.device @negative_bandwidth_zero {
  %a = exec_unit
  %b = exec_unit
  datapath {ktdf_arch.bandwidth = 0} %a to %b : exec_unit, exec_unit
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.datapath' op 'ktdf_arch.bandwidth' intrinsic value must be > 0, got 0

// -----

ktdf_arch.device @negative_bandwidth_string {
  %a = exec_unit
  %b = exec_unit
  datapath {ktdf_arch.bandwidth = "fast"} %a to %b : exec_unit, exec_unit
}
// CHECK: error: 'ktdf_arch.datapath' op 'ktdf_arch.bandwidth' intrinsic value requires 64-bit integer

// -----

ktdf_arch.device @negative_maps_to_on_resource {
  exec_unit {ktdf_arch.maps_to = "CPU"}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.maps_to' intrinsic only valid on mappable ops

// -----

ktdf_arch.device @negative_overlaps_not_array {
  exec_unit {ktdf_arch.overlaps = 4}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.overlaps' intrinsic requires array attribute

// -----

ktdf_arch.device @negative_granularity_not_on_link {
  exec_unit {ktdf_arch.transfer_granularity = array<i64: 64>}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.transfer_granularity' intrinsic only valid on links

// -----

ktdf_arch.device @negative_granularity_not_dense {
  %a = exec_unit
  %b = exec_unit
  datapath {ktdf_arch.transfer_granularity = [0, 1]} %a to %b : exec_unit, exec_unit
}
// CHECK: error: 'ktdf_arch.datapath' op 'ktdf_arch.transfer_granularity' intrinsic requires dense 64-bit integer array attribute

// -----

ktdf_arch.device @negative_granularity_repeated {
  %a = exec_unit
  %b = exec_unit
  datapath {ktdf_arch.transfer_granularity = array<i64: 64, 64>} %a to %b : exec_unit, exec_unit
}
// CHECK: error: 'ktdf_arch.datapath' op 'ktdf_arch.transfer_granularity' intrinsic repeated granularity (64)

// -----

ktdf_arch.device @negative_granularity_negative {
  %a = exec_unit
  %b = exec_unit
  datapath {ktdf_arch.transfer_granularity = array<i64: -2>} %a to %b : exec_unit, exec_unit
}
// CHECK: error: 'ktdf_arch.datapath' op 'ktdf_arch.transfer_granularity' intrinsic granularity must be >= 0, got -2

// -----

ktdf_arch.device @negative_compute_on_memory {
  memory {kind = "A", ktdf_arch.features = {ktdf_arch.feature.compute}}
}
// CHECK: error: 'ktdf_arch.memory' op 'ktdf_arch.feature.compute' intrinsic only valid on execution units

// -----

ktdf_arch.device @negative_queue_on_unit {
  exec_unit {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2}}}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.queue' intrinsic only valid on links

// -----

ktdf_arch.device @negative_word_size_not_map {
  exec_unit {ktdf_arch.features = {ktdf_arch.feature.load = {word_size = 1}}}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.load' intrinsic attribute 'word_size' requires map from attribute to 64-bit integer

// -----

ktdf_arch.device @negative_word_size_negative {
  exec_unit {ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"A" = -1>}}}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.store' intrinsic 'word_size["A"]' must be > 0, got -1

// -----

ktdf_arch.device @negative_access_size_i32 {
  exec_unit {ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"A" = [{size_in_words = 1 : i32}]>}}}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.load' intrinsic attribute 'access_granularity["A"]' 'size_in_words' requires 64-bit integer

// -----

ktdf_arch.device @negative_access_align_zero {
  exec_unit {ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"A" = [{size_in_words = 1, align_in_words = 0}]>}}}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.load' intrinsic attribute 'access_granularity["A"]' 'align_in_words' must be > 0, got 0

// -----

ktdf_arch.device @negative_simd_splat_not_unit {
  exec_unit {ktdf_arch.features = {ktdf_arch.feature.simd = {splat = 1}}}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.simd' intrinsic attribute 'splat' requires unit

// -----

ktdf_arch.device @negative_simd_lanes_not_map {
  exec_unit {ktdf_arch.features = {ktdf_arch.feature.simd = {lanes = 64}}}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.simd' intrinsic attribute 'lanes' requires map from type to 64-bit integer

// -----

ktdf_arch.device @negative_simd_lanes_zero {
  exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 0>}}}
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.simd' intrinsic 'lanes[f16]' must be > 0, got 0

// -----

ktdf_arch.device @negative_simd_lanes_string_key {
  exec_unit {ktdf_arch.features = {ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<"f16" = 8>}}}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.simd' intrinsic attribute 'lanes' requires map from type to 64-bit integer, got key "f16"

// -----

ktdf_arch.device @negative_queue_ordered_not_unit {
  %a = exec_unit
  %b = exec_unit
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {ordered = true}}} %a to %b : exec_unit, exec_unit
}
// CHECK: error: 'ktdf_arch.datapath' op 'ktdf_arch.feature.queue' intrinsic attribute 'ordered' requires unit

// -----

ktdf_arch.device @negative_queue_depth_zero {
  %a = exec_unit
  %b = exec_unit
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 0}}} %a to %b : exec_unit, exec_unit
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.datapath' op 'ktdf_arch.feature.queue' intrinsic 'depth' must be > 0, got 0

// -----

ktdf_arch.device @negative_queue_size_string {
  %a = exec_unit
  %b = exec_unit
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {size = "a"}}} %a to %b : exec_unit, exec_unit
}
// CHECK: error: 'ktdf_arch.datapath' op 'ktdf_arch.feature.queue' intrinsic 'size' requires 64-bit integer

// -----

ktdf_arch.device @negative_unknown_feature {
  exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.vector}}
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op unrecognized 'ktdf_arch' feature: ktdf_arch.feature.vector (expected one of: ktdf_arch.feature.compute, ktdf_arch.feature.load, ktdf_arch.feature.store, ktdf_arch.feature.simd, ktdf_arch.feature.matrix, ktdf_arch.feature.queue)

// -----

ktdf_arch.device @negative_feature_without_prefix {
  exec_unit {ktdf_arch.features = {compute}}
}
// CHECK: error: 'ktdf_arch.exec_unit' op unrecognized 'ktdf_arch' feature: compute

// -----

ktdf_arch.device @negative_unknown_field {
  exec_unit {ktdf_arch.features = {ktdf_arch.feature.simd = {lane = #ktdf_arch.map<f16 = 8>}}}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.simd' intrinsic unknown field 'lane' of ktdf_arch.feature.simd (expected one of: lanes, splat, zero_pad)

// -----

ktdf_arch.device @negative_unknown_intrinsic {
  memory {kind = "M", ktdf_arch.speed = 3}
}
// CHECK: error: 'ktdf_arch.memory' op unrecognized 'ktdf_arch' intrinsic: ktdf_arch.speed

// -----

ktdf_arch.device @negative_clock_on_memory {
  memory {kind = "M", ktdf_arch.clock_ghz = 1.0}
}
// CHECK: error: 'ktdf_arch.memory' op 'ktdf_arch.clock_ghz' intrinsic only valid on devices

// -----

ktdf_arch.device @negative_clock_zero attributes {ktdf_arch.clock_ghz = 0.0} {
  exec_unit
}
// CHECK: error: 'ktdf_arch.device' op 'ktdf_arch.clock_ghz' intrinsic value must be a finite number > 0, got 0.0

// -----

ktdf_arch.device @negative_clock_infinite attributes {ktdf_arch.clock_ghz = 1.0e400} {
  exec_unit
}
// CHECK: error: 'ktdf_arch.device' op 'ktdf_arch.clock_ghz' intrinsic value must be a finite number > 0, got inf

// -----

ktdf_arch.device @negative_empty_kind {
  %m = memory {kind = ""}
}
// CHECK: error: 'ktdf_arch.memory' op attribute 'kind' must be a name (a letter or '_', then letters, digits, '_', '.', '-', '$'), got ""

// -----

ktdf_arch.device @negative_kind_with_space {
  %u = exec_unit {kind = "my unit"}
}
// CHECK: error: 'ktdf_arch.exec_unit' op attribute 'kind' must be a name (a letter or '_', then letters, digits, '_', '.', '-', '$'), got "my unit"

// -----

ktdf_arch.device @negative_float_kind {
  %u = exec_unit {kind = 1.0e400}
}
// CHECK: error: 'ktdf_arch.exec_unit' op attribute 'kind' must be a name, an integer or an attribute, not a float: got 0x7ff0000000000000 : f64

// -----

ktdf_arch.device @negative_signal_latency_negative attributes {ktdf_arch.signal_latency = -1} {
  exec_unit
}
// CHECK: error: 'ktdf_arch.device' op 'ktdf_arch.signal_latency' intrinsic value must be >= 0, got -1

// -----

ktdf_arch.device @negative_latency_negative {
  memory {kind = "M", ktdf_arch.latency = -3}
}
// CHECK: error: 'ktdf_arch.memory' op 'ktdf_arch.latency' intrinsic value must be >= 0, got -3

// -----

ktdf_arch.device @negative_bytes_per_cycle_zero {
  %a = exec_unit
  %b = exec_unit
  datapath {ktdf_arch.bytes_per_cycle = 0} %a to %b : exec_unit, exec_unit
}
// CHECK: error: 'ktdf_arch.datapath' op 'ktdf_arch.bytes_per_cycle' intrinsic value must be > 0, got 0

// -----

ktdf_arch.device @negative_op_latency_class {
  exec_unit {ktdf_arch.op_latency = #ktdf_arch.map<"sqrt" = 4>}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.op_latency' intrinsic unknown key "sqrt" in 'op_latency' (expected one of: simple, mul, fma, reduce, divide, transcendental, opaque)

// -----

ktdf_arch.device @negative_lanes_per_cycle_on_link {
  %a = exec_unit
  %b = exec_unit
  datapath {ktdf_arch.lanes_per_cycle = #ktdf_arch.map<f16 = 4>} %a to %b : exec_unit, exec_unit
}
// CHECK: error: 'ktdf_arch.datapath' op 'ktdf_arch.lanes_per_cycle' intrinsic only valid on execution units

// -----

ktdf_arch.device @negative_issue_cycles_negative {
  exec_unit {ktdf_arch.issue_cycles = -1}
}
// CHECK: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.issue_cycles' intrinsic value must be >= 0, got -1

// -----

ktdf_arch.device @negative_patterns_child {
  patterns ["pre_mapping"] {
    func.func private @f()
  }
}
// CHECK: error: 'ktdf_arch.patterns' op expects child ops to be 'pdl.pattern', found 'func.func'

// -----

"ktdf_arch.patterns"() <{groups = []}> ({}) : () -> ()
// CHECK: invalid.mlir:[[# @LINE - 1]]:1: error: 'ktdf_arch.patterns' op 'ktdf_arch.patterns' expects parent op 'ktdf_arch.device'

// -----

ktdf_arch.device @negative_yield_arity {
  group share() {
    yield
  } -> exec_unit
}
// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'ktdf_arch.group' op group (no kind): yield has 0 operand(s), but the group declares 1 result(s)

// -----

ktdf_arch.device @negative_self_link {
  %m = memory {kind = "M"}
  datapath %m to %m : memory, memory
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.datapath' op datapath "M" -> "M": can't link resource to itself

// -----

ktdf_arch.device @negative_endpoint_type {
  %m = memory {kind = "M"}
  %e = exec_unit
  datapath %m to %e : exec_unit, exec_unit
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:23: error: endpoint type mismatch: the value is a memory, declared exec_unit

// -----

ktdf_arch.device @negative_endpoint_not_in_scope {
  %m = memory {kind = "M"}
  group share() {
    %e = exec_unit {kind = "E"}
    datapath %m to %e : memory, exec_unit
  }
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:14: error: datapath source '%m' is not a resource defined before this point in this scope

// -----

ktdf_arch.device @negative_share_exec_unit {
  %e = exec_unit
  group share(%e) {
  }
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:15: error: share '%e' is an exec_unit, expected memory

// -----

ktdf_arch.device @negative_mapping_unknown_kind attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "HBM">} {
  memory {kind = "DDR"}
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:1: error: 'ktdf_arch.device' op mem_space_mapping maps #ktdp.memory_space<global> to "HBM", but the device has no memory of kind "HBM" (memory kinds: "DDR")

// -----

ktdf_arch.device @negative_mapping_not_map attributes {mem_space_mapping = {global = "DDR"}} {
  memory {kind = "DDR"}
}
// CHECK: error: 'ktdf_arch.device' op attribute 'mem_space_mapping' requires a #ktdf_arch.map<memory space = memory kind, ...>

// -----

func.func private @negative_map_duplicate_key() attributes {m = #ktdf_arch.map<f16 = 1, f16 = 2>}
// CHECK: invalid.mlir:[[# @LINE - 1]]:{{[0-9]+}}: error: multiple entries for key f16

// -----

ktdf_arch.device @negative_switch_shape {
  %s:2 = switch [2] {connectivity = dense<true> : tensor<3x3xi1>}
}
// CHECK: error: 'ktdf_arch.switch' op expected connectivity of type tensor<2x2xi1>

// -----

ktdf_arch.device @negative_matrix_not_dict {
  exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.matrix}}
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.matrix' intrinsic requires dictionary attribute {rows, cols, depth, inputs, accumulator, macs_per_cycle, latency}

// -----

ktdf_arch.device @negative_matrix_missing_field {
  exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.matrix = {rows = 32, cols = 32, depth = 1, inputs = [f16], accumulator = f32, latency = 4}}}
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.matrix' intrinsic is missing field 'macs_per_cycle'

// -----

ktdf_arch.device @negative_matrix_rate_over_array {
  exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.matrix = {rows = 8, cols = 8, depth = 1, inputs = [f16], accumulator = f32, macs_per_cycle = 128, latency = 4}}}
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.matrix' intrinsic 'macs_per_cycle' (128) exceeds the MACs of the array (rows x cols x depth = 64)

// -----

ktdf_arch.device @negative_matrix_rows_zero {
  exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.matrix = {rows = 0, cols = 8, depth = 1, inputs = [f16], accumulator = f32, macs_per_cycle = 1, latency = 4}}}
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.matrix' intrinsic 'rows' must be > 0, got 0

// -----

ktdf_arch.device @negative_matrix_input_type {
  exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.matrix = {rows = 8, cols = 8, depth = 1, inputs = [i8], accumulator = f32, macs_per_cycle = 64, latency = 4}}}
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.matrix' intrinsic field 'inputs' requires a non-empty array of element types among f16, bf16

// -----

ktdf_arch.device @negative_matrix_accumulator {
  exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.matrix = {rows = 8, cols = 8, depth = 1, inputs = [f16], accumulator = f16, macs_per_cycle = 64, latency = 4}}}
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.matrix' intrinsic field 'accumulator' must be f32 (wider than every input type), got f16

// -----

ktdf_arch.device @negative_matrix_unknown_field {
  exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.matrix = {rows = 8, cols = 8, depth = 1, inputs = [f16], accumulator = f32, macs_per_cycle = 64, latency = 4, shape = 3}}}
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:3: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.matrix' intrinsic unknown field 'shape' of ktdf_arch.feature.matrix (expected one of: rows, cols, depth, inputs, accumulator, macs_per_cycle, latency)
