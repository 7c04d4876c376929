// RUN: not ktir emulate %s 2>&1 | filecheck %s

/// A load unit that waits for a signal from the compute unit before it sends, and a compute
/// unit that waits for that data before it signals: every unit is blocked. The run stops at
/// once (no hang) and names each blocked unit, the op it waits on and the FIFO/signal state.

// CHECK:      {{.*}}negative-deadlock.mlir:[[# @LINE + 19]]:3: error: 'func.call' op deadlock: every unfinished process is blocked (2 of them)
// CHECK-NEXT:   C0-LU at cycle 0 waits for a signal from C0-CU in 'dataflow.sync_recv' at {{.*}}negative-deadlock.mlir:[[# @LINE + 25]]:5: signal C0-CU -> C0-LU count 0
// CHECK-NEXT:   C0-CU at cycle 0 waits to receive from C0-LU in 'dataflow.receive' at {{.*}}negative-deadlock.mlir:[[# @LINE + 29]]:5: FIFO C0-LU -> C0-CU holds 0/2
// CHECK-NOT: Traceback

ktdf_arch.device @tdev {
  %gm = memory {kind = "GM", size = 1048576}
  group {kind = "core"} share(%gm) {
    %cu = exec_unit {kind = "CU", ktdf_arch.features = {ktdf_arch.feature.compute,
      ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
    %lu = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %su = exec_unit {kind = "SU", ktdf_arch.features = {ktdf_arch.feature.store}}
    datapath %gm to %lu : memory, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}} %lu to %cu : exec_unit, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}} %cu to %su : exec_unit, exec_unit
    datapath %su to %gm : exec_unit, memory
  }
}
func.func @k() attributes {grid = [1]} {
  func.call @k_body() : () -> ()
  func.return
}
func.func @k_body() attributes {grid = [1]} {
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-LU", type = "LU"} : index
  %cu = dataflow.get_unit {core = 0 : i32, name = "C0-CU", type = "CU"} : index
  dataflow.program_unit %lu : {
    dataflow.sync_recv %cu : index
    %z = vectorchain.constant_bitstream {value = [0x3C00]} : vector<1xf16>
    dataflow.send %cu, %z : vector<1xf16>
  }
  dataflow.program_unit %cu : {
    %x = dataflow.receive %lu : vector<1xf16>
    dataflow.sync_send %lu : index
  }
  func.return
}
