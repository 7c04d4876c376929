// Two small devices in one file, for picking one by name. Each core has one load unit (LU),
// one compute unit (CU, 16 f16 lanes) and one store unit (SU) around a 4 KiB scratchpad.
#q = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}}
#cu = {kind = "CU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 16>}}}
ktdf_arch.device @little {
  %dram = memory {kind = "DRAM", size = 1048576}
  group {kind = "core"} share(%dram) {
    %lu = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %cu = exec_unit #cu
    %su = exec_unit {kind = "SU", ktdf_arch.features = {ktdf_arch.feature.store}}
    datapath #q %dram to %lu : memory, exec_unit
    datapath #q %lu to %cu : exec_unit, exec_unit
    datapath #q %cu to %su : exec_unit, exec_unit
    datapath #q %su to %dram : exec_unit, memory
  }
}
ktdf_arch.device @big {
  %dram = memory {kind = "DRAM", size = 16777216}
  group {kind = "core"} share(%dram) {
    %lu = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %cu = exec_unit #cu
    %su = exec_unit {kind = "SU", ktdf_arch.features = {ktdf_arch.feature.store}}
    datapath #q %dram to %lu : memory, exec_unit
    datapath #q %lu to %cu : exec_unit, exec_unit
    datapath #q %cu to %su : exec_unit, exec_unit
    datapath #q %su to %dram : exec_unit, memory
  }
}
