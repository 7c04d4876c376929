// RUN: not ktir-opt %s -p path-expansion 2>&1 | filecheck %s

/// Results leave the compute unit over a route with no unit on it (SFU writes DDR directly):
/// the error, located at the store transfer, names the compute unit and the memory.

#q = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}}
ktdf_arch.device @direct_store {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %lu = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
    datapath #q %ddr to %lu : memory, exec_unit
    datapath #q %lu to %sfu : exec_unit, exec_unit
    datapath #q %sfu to %ddr : exec_unit, memory
  }
}
func.func @negative_no_unit_on_store_route(%yc: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  ktdf.pipeline {
    %r, %t0, %t1 = ktdf.private -> (!ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token) {
      %r0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
      %k0 = ktdf.create_token : !ktdf.token
      %k1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %r0, %k0, %k1 : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t0) {
      %z = arith.constant dense<0.0> : tensor<64xf16>
      ktdf.write_to_fifo %z, %r : tensor<64xf16>, <"SFU" -> "DDR", 64xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%t0) depends_out(%t1) {
      // CHECK: :[[# @LINE + 1]]:7: error: 'ktdf.data_transfer' op device @direct_store has no route through a unit between {{.*}}'DDR'{{.*}}(route: SFU -> DDR)
      ktdf.data_transfer from %r size [64] to %yc[%c0] size [64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<64xf16, "DDR">
    }
  }
  func.return
}
