// A streaming vector device: structurally unlike the sample, to show that retargeting is a new
// file and not a new pass. There are NO DMA units and no staging through the scratchpad: each
// of the four corelets ("lanes") of a core has vector load/store units that read and write the
// high-bandwidth memory (HBM) directly and feed a narrower compute unit (VPU, 32 fp16 lanes)
// through ordered FIFOs. The per-core scratchpad (VMEM) is reached through the same load/store
// units, so HBM -> VPU is a two-hop route (HBM, VLU, VPU) where the sample needs four.
//
// This machine is invented (no product behind it); every number is a design choice, including
// the timing: 1.5 GHz clock, 32 B/cycle per lane from HBM at 120 cycles, 64 B/cycle at 4
// cycles from VMEM, eight loads and eight stores in flight per lane, slower transcendental
// and divide units.
//
//   ktir arch check stream_device
//   ktir arch draw stream_device -o stream_device.dot

#hbm = {kind = "HBM", size = 268435456, ktdf_arch.latency = 20}      // 256 MiB, shared
#vmem = {kind = "VMEM", size = 262144, ktdf_arch.latency = 2}        // 256 KiB per core
#vreg = {kind = "VREG", size = 4096, ktdf_arch.latency = 0}          // 4 KiB per VPU

// Vector load unit: reads HBM or VMEM in 32-byte words, can broadcast and pad.
#vlu = {kind = "VLU", ktdf_arch.issue_cycles = 1, ktdf_arch.max_outstanding = 8,
  ktdf_arch.features = {
  ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"HBM" = 32, "VMEM" = 32>,
    access_granularity = #ktdf_arch.map<"HBM" = [{size_in_words = 2, align_in_words = 2}],
                                        "VMEM" = [{size_in_words = 2, align_in_words = 2}]>},
  ktdf_arch.feature.simd = {splat, zero_pad}}}
// Vector store unit: writes HBM or VMEM.
#vsu = {kind = "VSU", ktdf_arch.issue_cycles = 1, ktdf_arch.max_outstanding = 8,
  ktdf_arch.features = {
  ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"HBM" = 32, "VMEM" = 32>,
    access_granularity = #ktdf_arch.map<"HBM" = [{size_in_words = 2, align_in_words = 2}],
                                        "VMEM" = [{size_in_words = 2, align_in_words = 2}]>}}}
// The compute unit: 32 fp16 or 16 fp32 lanes; one vector per cycle.
#vpu_block = {kind = "VPU_Block"}
#vpu = {kind = "VPU", ktdf_arch.issue_cycles = 1,
  ktdf_arch.features = {ktdf_arch.feature.compute,
    ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 32, f32 = 16>}},
  ktdf_arch.lanes_per_cycle = #ktdf_arch.map<f16 = 32, f32 = 16>,
  ktdf_arch.op_latency = #ktdf_arch.map<"simple" = 1, "mul" = 3, "fma" = 5, "reduce" = 6,
    "divide" = 16, "transcendental" = 12, "opaque" = 24>,
  ktdf_arch.op_interval = #ktdf_arch.map<"simple" = 1, "mul" = 1, "fma" = 1, "reduce" = 2,
    "divide" = 8, "transcendental" = 6, "opaque" = 4>}

#hbm_port = {ktdf_arch.transfer_granularity = array<i64: 64>,
             ktdf_arch.bytes_per_cycle = 32, ktdf_arch.latency = 120}
#vmem_port = {ktdf_arch.transfer_granularity = array<i64: 64>,
              ktdf_arch.bytes_per_cycle = 64, ktdf_arch.latency = 4}
#fifo = {ktdf_arch.transfer_granularity = array<i64: 64, 2>, ktdf_arch.bytes_per_cycle = 64,
         ktdf_arch.latency = 1,
         ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8, size = 512, ordered}}}
#lane = {kind = "lane"}

ktdf_arch.device @stream_device attributes {ktdf_arch.clock_ghz = 1.5,
                                            ktdf_arch.signal_latency = 4} {
  %hbm = memory #hbm

  group {kind = "core"} share(%hbm) {
    %vmem = memory #vmem

    // Lane 0; lanes 1-3 are copies. A lane captures VMEM first, so VREG sits under VMEM in
    // the memory tree (HBM -> VMEM -> VREG).
    group #lane share(%vmem, %hbm) {
      %vpu = group #vpu_block share() {
        %vreg = memory #vreg
        %unit = exec_unit #vpu
        yield %unit
      } -> exec_unit
      %vlu = exec_unit #vlu
      %vsu = exec_unit #vsu
      datapath #hbm_port %hbm to %vlu : memory, exec_unit
      datapath #vmem_port %vmem to %vlu : memory, exec_unit
      datapath #fifo %vlu to %vpu : exec_unit, exec_unit
      datapath #fifo %vpu to %vsu : exec_unit, exec_unit
      datapath #hbm_port %vsu to %hbm : exec_unit, memory
      datapath #vmem_port %vsu to %vmem : exec_unit, memory
    }
    group #lane share(%vmem, %hbm) {
      %vpu = group #vpu_block share() {
        %vreg = memory #vreg
        %unit = exec_unit #vpu
        yield %unit
      } -> exec_unit
      %vlu = exec_unit #vlu
      %vsu = exec_unit #vsu
      datapath #hbm_port %hbm to %vlu : memory, exec_unit
      datapath #vmem_port %vmem to %vlu : memory, exec_unit
      datapath #fifo %vlu to %vpu : exec_unit, exec_unit
      datapath #fifo %vpu to %vsu : exec_unit, exec_unit
      datapath #hbm_port %vsu to %hbm : exec_unit, memory
      datapath #vmem_port %vsu to %vmem : exec_unit, memory
    }
    group #lane share(%vmem, %hbm) {
      %vpu = group #vpu_block share() {
        %vreg = memory #vreg
        %unit = exec_unit #vpu
        yield %unit
      } -> exec_unit
      %vlu = exec_unit #vlu
      %vsu = exec_unit #vsu
      datapath #hbm_port %hbm to %vlu : memory, exec_unit
      datapath #vmem_port %vmem to %vlu : memory, exec_unit
      datapath #fifo %vlu to %vpu : exec_unit, exec_unit
      datapath #fifo %vpu to %vsu : exec_unit, exec_unit
      datapath #hbm_port %vsu to %hbm : exec_unit, memory
      datapath #vmem_port %vsu to %vmem : exec_unit, memory
    }
    group #lane share(%vmem, %hbm) {
      %vpu = group #vpu_block share() {
        %vreg = memory #vreg
        %unit = exec_unit #vpu
        yield %unit
      } -> exec_unit
      %vlu = exec_unit #vlu
      %vsu = exec_unit #vsu
      datapath #hbm_port %hbm to %vlu : memory, exec_unit
      datapath #vmem_port %vmem to %vlu : memory, exec_unit
      datapath #fifo %vlu to %vpu : exec_unit, exec_unit
      datapath #fifo %vpu to %vsu : exec_unit, exec_unit
      datapath #hbm_port %vsu to %hbm : exec_unit, memory
      datapath #vmem_port %vsu to %vmem : exec_unit, memory
    }
  }
}
