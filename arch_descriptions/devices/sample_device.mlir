// The sample device of torch-spyre/dataflow-scheduler, described for ktir: a device memory
// (DDR), one core template with a 1 MiB scratchpad (L1) filled and drained by two DMA units,
// and two sub-cores ("corelets"). Each sub-core has a compute unit (SFU) with a 2 KiB register
// memory, and load/store units (L1LU, L1SU) that stream between L1 and the SFU through ordered
// FIFOs of depth 16. Only one core is written: the kernel's grid says how many cores run.
//
// Timing (ktir extension, shared/spec/arch.md §8): DMA read links carry 256 B/cycle and write
// links 128 B/cycle (the upstream file's own comment), the FIFO links 128 B/cycle; every other
// timing value is the documented default, which `ktir arch show` lists.
//
//   ktir arch check sample_device
//   ktir arch show sample_device

// Memories.
#ddr = {kind = "DDR", size = 1073741824}            // 1 GiB, shared by all cores
#l1 = {kind = "L1", size = 1048576}                 // 1 MiB scratchpad per core
#sfu_reg = {kind = "SFU_REG", size = 2048}          // 2 KiB per compute unit

// DMA units: DDR <-> L1 in 64-byte words.
#mnilu = {kind = "MNILU", dataflow_scheduler.double_buffer_last,
          ktdf_arch.features = {ktdf_arch.feature.load = {
            word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>,
            access_granularity = #ktdf_arch.map<"DDR" = [{size_in_words = 1, align_in_words = 1}],
                                                "L1" = [{size_in_words = 1, align_in_words = 1}]>}}}
#mnisu = {kind = "MNISU", dataflow_scheduler.double_buffer_last,
          ktdf_arch.features = {ktdf_arch.feature.store = {
            word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>,
            access_granularity = #ktdf_arch.map<"DDR" = [{size_in_words = 1, align_in_words = 1}],
                                                "L1" = [{size_in_words = 1, align_in_words = 1}]>}}}
#dma_read = {ktdf_arch.transfer_granularity = array<i64: 64>, ktdf_arch.bytes_per_cycle = 256}
#dma_write = {ktdf_arch.transfer_granularity = array<i64: 64>, ktdf_arch.bytes_per_cycle = 128}

// Sub-core units: the SIMD compute unit and the L1 load/store units around it.
#sfu = {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute,
          ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
#l1lu = {kind = "L1LU", ktdf_arch.features = {
           ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"L1" = [
             {size_in_words = 64, align_in_words = 64}, {size_in_words = 2, align_in_words = 2}]>},
           ktdf_arch.feature.simd = {splat, zero_pad}}}
#l1su = {kind = "L1SU", ktdf_arch.features = {
           ktdf_arch.feature.store = {access_granularity = #ktdf_arch.map<"L1" = [
             {size_in_words = 64, align_in_words = 64}, {size_in_words = 2, align_in_words = 2}]>}}}
// FIFOs: between L1 and the load/store units, and between those and the SFU.
#core_fifo = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}},
              ktdf_arch.bytes_per_cycle = 128}
#subcore_fifo = {ktdf_arch.transfer_granularity = array<i64: 64, 2>, ktdf_arch.bytes_per_cycle = 128,
                 ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}}

ktdf_arch.device @sample_device attributes {ktdf_arch.clock_ghz = 1.0} {
  %ddr = memory #ddr

  group {kind = "core"} share(%ddr) {
    %l1 = memory #l1
    %mnilu = exec_unit #mnilu
    %mnisu = exec_unit #mnisu
    datapath #dma_read %ddr to %mnilu : memory, exec_unit
    datapath #dma_read %mnilu to %l1 : exec_unit, memory
    datapath #dma_write %l1 to %mnisu : memory, exec_unit
    datapath #dma_write %mnisu to %ddr : exec_unit, memory

    // Sub-core 0.
    group share(%l1) {
      // The SFU with its private registers; the group only names the unit it yields.
      %sfu = group {kind = "SFU_Block"} share() {
        %reg = memory #sfu_reg
        %unit = exec_unit #sfu
        yield %unit
      } -> exec_unit
      %l1lu = exec_unit #l1lu
      %l1su = exec_unit #l1su
      datapath #core_fifo %l1 to %l1lu : memory, exec_unit
      datapath #subcore_fifo %l1lu to %sfu : exec_unit, exec_unit
      datapath #subcore_fifo %sfu to %l1su : exec_unit, exec_unit
      datapath #core_fifo %l1su to %l1 : exec_unit, memory
    }

    // Sub-core 1: a copy of sub-core 0.
    group share(%l1) {
      %sfu = group {kind = "SFU_Block"} share() {
        %reg = memory #sfu_reg
        %unit = exec_unit #sfu
        yield %unit
      } -> exec_unit
      %l1lu = exec_unit #l1lu
      %l1su = exec_unit #l1su
      datapath #core_fifo %l1 to %l1lu : memory, exec_unit
      datapath #subcore_fifo %l1lu to %sfu : exec_unit, exec_unit
      datapath #subcore_fifo %sfu to %l1su : exec_unit, exec_unit
      datapath #core_fifo %l1su to %l1 : exec_unit, memory
    }
  }
}
