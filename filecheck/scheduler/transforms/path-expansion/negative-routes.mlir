// RUN: ktir-opt %s --split-input-file -p path-expansion --verify-diagnostics | filecheck %s

/// path-expansion needs, between a memory and the compute unit, a route on which units and
/// memories alternate and whose last unit feeds the compute unit over a queue; each device
/// below (written inline) breaks one rule and the error, located at the transfer, names the
/// device and the route. The last chunk moves a block whose size is known only at run time.

// The compute unit reads DDR directly: no unit to bind a load stage to.
#q = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}}
ktdf_arch.device @direct {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
    datapath #q %ddr to %sfu : memory, exec_unit
    datapath #q %sfu to %ddr : exec_unit, memory
  }
}
func.func @negative_no_unit_on_route(%xc: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  ktdf.pipeline {
    %s, %t0, %t1 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.token, !ktdf.token) {
      %s0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
      %k0 = ktdf.create_token : !ktdf.token
      %k1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s0, %k0, %k1 : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t0) {
      // CHECK: :[[# @LINE + 1]]:7: error: 'ktdf.data_transfer' op device @direct has no route through a unit between memory 'DDR' and the compute unit (route: DDR -> SFU)
      ktdf.data_transfer from %xc[%c0] size [64] to %s size [64] : memref<64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
    }
    ktdf.stage depends_in(%t0) depends_out(%t1) {
      %a = ktdf.read_from_fifo %s : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// -----

// Two units in a row (LU -> PRE) before the compute unit.
#q = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}}
ktdf_arch.device @two_units {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %lu = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %pre = exec_unit {kind = "PRE"}
    %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
    datapath #q %ddr to %lu : memory, exec_unit
    datapath #q %lu to %pre : exec_unit, exec_unit
    datapath #q %pre to %sfu : exec_unit, exec_unit
    datapath #q %sfu to %ddr : exec_unit, memory
  }
}
func.func @negative_units_in_a_row(%xc: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  ktdf.pipeline {
    %s, %t0, %t1 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.token, !ktdf.token) {
      %s0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
      %k0 = ktdf.create_token : !ktdf.token
      %k1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s0, %k0, %k1 : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t0) {
      // CHECK: :[[# @LINE + 1]]:7: error: 'ktdf.data_transfer' op the route DDR -> LU -> PRE -> SFU of device @two_units does not alternate units and memories; such routes are not supported yet
      ktdf.data_transfer from %xc[%c0] size [64] to %s size [64] : memref<64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
    }
    ktdf.stage depends_in(%t0) depends_out(%t1) {
      %a = ktdf.read_from_fifo %s : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// -----

// A memory (BUF) feeds the compute unit: the last hop has no unit to run it.
#q = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}}
ktdf_arch.device @memory_feeds_compute {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %buf = memory {kind = "BUF", size = 4096}
    %lu = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
    datapath #q %ddr to %lu : memory, exec_unit
    datapath #q %lu to %buf : exec_unit, memory
    datapath #q %buf to %sfu : memory, exec_unit
    datapath #q %sfu to %ddr : exec_unit, memory
  }
}
func.func @negative_memory_feeds_compute(%xc: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  ktdf.pipeline {
    %s, %t0, %t1 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.token, !ktdf.token) {
      %s0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
      %k0 = ktdf.create_token : !ktdf.token
      %k1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s0, %k0, %k1 : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t0) {
      // CHECK: :[[# @LINE + 1]]:7: error: 'ktdf.data_transfer' op route DDR -> LU -> BUF -> SFU of device @memory_feeds_compute must end with a unit that feeds the compute unit
      ktdf.data_transfer from %xc[%c0] size [64] to %s size [64] : memref<64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
    }
    ktdf.stage depends_in(%t0) depends_out(%t1) {
      %a = ktdf.read_from_fifo %s : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// -----

// The load unit reaches the compute unit over a plain datapath, not a queue.
#q = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}}
ktdf_arch.device @no_queue {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %lu = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
    datapath #q %ddr to %lu : memory, exec_unit
    datapath {ktdf_arch.bytes_per_cycle = 64} %lu to %sfu : exec_unit, exec_unit
    datapath #q %sfu to %ddr : exec_unit, memory
  }
}
func.func @negative_link_not_a_queue(%xc: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  ktdf.pipeline {
    %s, %t0, %t1 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.token, !ktdf.token) {
      %s0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
      %k0 = ktdf.create_token : !ktdf.token
      %k1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s0, %k0, %k1 : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t0) {
      // CHECK: :[[# @LINE + 1]]:7: error: 'ktdf.data_transfer' op the link "LU" -> "SFU" of device @no_queue must be a queue (feature.queue) to carry a FIFO
      ktdf.data_transfer from %xc[%c0] size [64] to %s size [64] : memref<64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
    }
    ktdf.stage depends_in(%t0) depends_out(%t1) {
      %a = ktdf.read_from_fifo %s : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// -----

// A transfer whose size is only known at run time cannot be given a buffer.
ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @negative_dynamic_size(%xc: memref<4x64xf16, "DDR">, %n: index) {
  %c0 = arith.constant 0 : index
  ktdf.pipeline {
    %s, %t0, %t1 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.token, !ktdf.token) {
      %s0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
      %k0 = ktdf.create_token : !ktdf.token
      %k1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s0, %k0, %k1 : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t0) {
      // CHECK: :[[# @LINE + 1]]:7: error: 'ktdf.data_transfer' op routing needs static transfer sizes
      ktdf.data_transfer from %xc[%c0, %c0] size [%n, 64] to %s size [64] : memref<4x64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
    }
    ktdf.stage depends_in(%t0) depends_out(%t1) {
      %a = ktdf.read_from_fifo %s : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}
