// A one-core device for the emulator's negative tests: GM -> LU -> CU -> SU -> GM.
ktdf_arch.device @fdev {
  %gm = memory {kind = "GM", size = 1048576}
  group {kind = "core"} share(%gm) {
    %sp = memory {kind = "SP", size = 4096}
    %cu = exec_unit {kind = "CU", ktdf_arch.features = {ktdf_arch.feature.compute,
      ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
    %lu = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %su = exec_unit {kind = "SU", ktdf_arch.features = {ktdf_arch.feature.store}}
    datapath {ktdf_arch.bytes_per_cycle = 128, ktdf_arch.latency = 2} %gm to %lu : memory, exec_unit
    datapath {ktdf_arch.bytes_per_cycle = 128} %sp to %lu : memory, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}, ktdf_arch.bytes_per_cycle = 128} %lu to %cu : exec_unit, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}, ktdf_arch.bytes_per_cycle = 128} %cu to %lu : exec_unit, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}, ktdf_arch.bytes_per_cycle = 128} %cu to %su : exec_unit, exec_unit
    datapath {ktdf_arch.bytes_per_cycle = 128} %su to %gm : exec_unit, memory
    datapath {ktdf_arch.bytes_per_cycle = 128} %su to %sp : exec_unit, memory
  }
}
