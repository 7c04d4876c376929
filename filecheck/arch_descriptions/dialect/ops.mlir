// RUN: ktir-opt %s --split-input-file | ktir-opt --split-input-file | filecheck %s
// RUN: KTIR_GENERIC_ROUNDTRIP | filecheck %s

/// Every ktdf_arch op, type and attribute survives print -> parse -> print, in the custom form
/// and through the generic form: ids, attribute dictionaries and aliases, groups that share
/// memories (block arguments shadow the outer names) and yield exec units, switches, datapaths
/// to ports, patterns, imports with overriding attributes, and the timing intrinsics.

#mem = {kind = "M", size = 4096, ktdf_arch.latency = 3}

// CHECK-LABEL: ktdf_arch.device @resources
// CHECK-SAME:    attributes {version = 2, ktdf_arch.clock_ghz = 1.25, ktdf_arch.signal_latency = 2} {
// CHECK-NEXT:    %[[M:.*]] = memory @main {kind = "M", size = 4096, ktdf_arch.latency = 3}
// CHECK-NEXT:    %[[E:.*]] = exec_unit {kind = "E", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8, f32 = 4>, splat}}, ktdf_arch.op_latency = #ktdf_arch.map<"mul" = 5>, ktdf_arch.issue_cycles = 1}
// CHECK-NEXT:    %[[U:.*]] = exec_unit
// CHECK-NEXT:    datapath @in {ktdf_arch.transfer_granularity = array<i64: 64, 2>, ktdf_arch.bytes_per_cycle = 32, ktdf_arch.latency = 7} %[[M]] to %[[E]] : memory, exec_unit
// CHECK-NEXT:    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, size = 256, ordered}}} %[[E]] to %[[M]] : exec_unit, memory
// CHECK-NEXT:    datapath {ktdf_arch.bandwidth = 128, ktdf_arch.overlaps = ["q"]} %[[U]] to %[[E]] : exec_unit, exec_unit
// CHECK-NEXT:  }
ktdf_arch.device @resources attributes {version = 2, ktdf_arch.clock_ghz = 1.25, ktdf_arch.signal_latency = 2} {
  %m = memory @main #mem
  %e = exec_unit {kind = "E", ktdf_arch.features = {ktdf_arch.feature.compute,
      ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8, f32 = 4>, splat}},
      ktdf_arch.op_latency = #ktdf_arch.map<"mul" = 5>, ktdf_arch.issue_cycles = 1}
  %u = exec_unit
  datapath @in {ktdf_arch.transfer_granularity = array<i64: 64, 2>, ktdf_arch.bytes_per_cycle = 32,
                ktdf_arch.latency = 7} %m to %e : memory, exec_unit
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, size = 256, ordered}}} %e to %m : !ktdf_arch.exec_unit, !ktdf_arch.memory
  datapath {ktdf_arch.bandwidth = 128, ktdf_arch.overlaps = ["q"]} %u to %e : exec_unit, exec_unit
}

// -----

// CHECK-LABEL: ktdf_arch.device @groups {
// CHECK-NEXT:    %[[D:.*]] = memory {kind = "D"}
// CHECK-NEXT:    %[[C0:.*]], %[[C1:.*]] = group @core0 {kind = "core"} share(%[[D]]) {
// CHECK-NEXT:      %[[L:.*]] = memory {kind = "L"}
// CHECK-NEXT:      datapath %[[D]] to %[[L]] : memory, memory
// CHECK-NEXT:      %[[A:.*]] = group {kind = "lane"} share(%[[L]]) {
// CHECK-NEXT:        %[[X:.*]] = exec_unit {kind = "X"}
// CHECK-NEXT:        datapath %[[L]] to %[[X]] : memory, exec_unit
// CHECK-NEXT:        yield %[[X]]
// CHECK-NEXT:      } -> exec_unit
// CHECK-NEXT:      %[[Y:.*]] = exec_unit {kind = "Y"}
// CHECK-NEXT:      yield %[[A]], %[[Y]]
// CHECK-NEXT:    } -> exec_unit, exec_unit
// CHECK-NEXT:    group share() {
// CHECK-NEXT:    }
// CHECK-NEXT:    datapath %[[C0]] to %[[C1]] : exec_unit, exec_unit
// CHECK-NEXT:  }
ktdf_arch.device @groups {
  %d = memory {kind = "D"}
  %c0, %c1 = group @core0 {kind = "core"} share(%d) {
    %l = memory {kind = "L"}
    datapath %d to %l : memory, memory
    %a = group {kind = "lane"} share(%l) {
      %x = exec_unit {kind = "X"}
      datapath %l to %x : memory, exec_unit
      yield %x
    } -> exec_unit
    %y = exec_unit {kind = "Y"}
    yield %a, %y
  } -> exec_unit, exec_unit
  group share() {
  }
  datapath %c0 to %c1 : exec_unit, exec_unit
}

// -----

// CHECK-LABEL: ktdf_arch.device @switches {
// CHECK-NEXT:    %[[S:.*]], %[[S1:.*]] = switch [2]
// CHECK-NEXT:    %{{.*}}, %{{.*}} = switch [2] {connectivity = dense<{{\[\[}}false, true], [true, false]]> : tensor<2x2xi1>}
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}} = switch [3] @sw {connectivity = dense<{{\[\[}}false, true, false], [false, false, false], [false, false, false]]> : tensor<3x3xi1>}
// CHECK-NEXT:    %[[E:.*]] = exec_unit
// CHECK-NEXT:    datapath %[[E]] to %[[S1]] : exec_unit, port
ktdf_arch.device @switches {
  %s:2 = switch [2]
  %t:2 = switch [2] {connectivity = dense<[[0, 1], [1, 0]]> : tensor<2x2xi1>}
  %u:3 = switch [3] @sw {connectivity = sparse<[[0, 1]], true> : tensor<3x3xi1>}
  %e = exec_unit
  datapath %e to %s#1 : exec_unit, port
}

// -----

// CHECK-LABEL: ktdf_arch.device @with_patterns {
// CHECK-NEXT:    patterns {
// CHECK-NEXT:    }
// CHECK-NEXT:    patterns ["pre_scheduling", "post_lowering"] attributes {note = "x"} {
// CHECK-NEXT:      pdl.pattern @exp : benefit(1) {
// CHECK:         patterns ["post_scheduling"] {
ktdf_arch.device @with_patterns {
  patterns {}
  patterns ["pre_scheduling", "post_lowering"] attributes {note = "x"} {
    pdl.pattern @exp : benefit(1) {
      %t = type : f16
      %in = operand : %t
      %op = operation "math.exp" (%in : !pdl.value) -> (%t : !pdl.type)
      rewrite %op {
        %mapped = attribute = "SFU"
        apply_native_rewrite "ktdf_arch.map_to" (%op, %mapped : !pdl.operation, !pdl.attribute)
      }
    }
  }
  patterns ["post_scheduling"] {}
}

// -----

// CHECK-LABEL: ktdf_arch.device @imported attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} import("sample_device.mlir")
// CHECK-NEXT:  func.func private @maps() -> () attributes {ktdf_arch.maps_to = @imported, table = #ktdf_arch.map<>, nested = #ktdf_arch.map<{hello} = "world", 1 = [1, 2]>}
ktdf_arch.device @imported attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} import("sample_device.mlir")
func.func private @maps() attributes {ktdf_arch.maps_to = @imported, table = #ktdf_arch.map<>,
                                      nested = #ktdf_arch.map<{hello} = "world", 1 = [1, 2]>}
