// spyre.mlir with its scratchpad load unit's simd.splat (and zero_pad) feature removed: a
// device whose load unit cannot splat (test input of scalar-broadcast-legalization).
//
// A Spyre-like device written only from public material (shared/spec/arch.md §9). IBM has not
// published Spyre's own architecture description; this file is an APPROXIMATION.
//
// Public facts it encodes: 32 cores on a ring; a 2 MiB scratchpad per core (kind LX);
// off-chip device memory shared by the cores (kind DDR); data moves between device memory and
// scratchpads in 128-byte sticks (64 fp16 values), so the DMA links have
// transfer_granularity = [128]; a SIMD compute engine over 64 fp16 values; decoupled load,
// compute and store engines that talk through FIFOs.
//
// Figures from ktir-cpu's public latency model (torch-spyre/ktir-cpu, ktir_cpu/latency.py,
// `HardwareConfig` defaults; that tool calls them example values, not published hardware
// figures, so they are assumptions here too):
//   * 1 GHz clock (`clock_ghz = 1.0`);
//   * device memory 128 GB/s in total, shared by the active cores (`hbm_bandwidth_tb_s =
//     0.128`, `bw_sharing = "contended"`): the DDR memory has ktdf_arch.bytes_per_cycle = 128,
//     which every transfer to or from it shares, so 32 cores streaming get 4 B/cycle each;
//   * ring links 64 GB/s per direction (`ring_bandwidth_tb_s = 0.064`): 64 B/cycle;
//   * 64 fp16 lanes per cycle (`simd_elements_per_cycle = 64`); transcendental ops 4 times
//     slower (`transcendental_penalty = 4`): op_interval transcendental = 4.
//
// ASSUMPTIONS (no public figure; marked "assumption" below, change them when better numbers are
// public):
//   * the kind names of the engines (DMA_IN, DMA_OUT, LX_LOAD, LX_STORE, PE, RING) are ours;
//   * DDR size 128 GiB; PE register memory 2 KiB (as the sample device's SFU_REG);
//   * 32 f32 lanes (one 128-byte vector of fp32); FIFO depth 16 (as the sample device);
//   * scratchpad-to-scratchpad traffic goes through one RING unit per core, linked to both
//     neighbours;
//   * each DMA engine (and ring unit) keeps 4 transfers in flight (ktdf_arch.max_outstanding:
//     two double-buffered input streams); the scratchpad load/store engines 16, their FIFO
//     depth;
//   * every other timing value is a ktir default of shared/spec/arch.md §8, written out: a
//     core's DMA links 128 B/cycle (one stick), 100 cycles to or from DDR, 8 cycles on chip;
//     FIFO links 1 cycle; ring links 8 cycles; op latencies simple 2, mul 3, fma 4, reduce 4,
//     divide 8, transcendental 8, opaque 16; intervals 1 (divide and transcendental 4).

#core = {kind = "core"}
// DDR: 128 GiB is an assumption; 128 B/cycle shared by all cores is ktir-cpu's 128 GB/s.
#ddr = {kind = "DDR", size = 137438953472, ktdf_arch.latency = 0, ktdf_arch.bytes_per_cycle = 128}
#lx = {kind = "LX", size = 2097152, ktdf_arch.latency = 0}             // 2 MiB per core
#pe_reg = {kind = "PE_REG", size = 2048, ktdf_arch.latency = 0}        // assumption

// DMA engines: DDR <-> LX in 128-byte words (sticks).
#dma_in = {kind = "DMA_IN", ktdf_arch.issue_cycles = 0,
  ktdf_arch.max_outstanding = 4, ktdf_arch.features = {                    // assumption
  ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"DDR" = 128, "LX" = 128>,
    access_granularity = #ktdf_arch.map<"DDR" = [{size_in_words = 1, align_in_words = 1}],
                                        "LX" = [{size_in_words = 1, align_in_words = 1}]>}}}
#dma_out = {kind = "DMA_OUT", ktdf_arch.issue_cycles = 0,
  ktdf_arch.max_outstanding = 4, ktdf_arch.features = {                    // assumption
  ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"DDR" = 128, "LX" = 128>,
    access_granularity = #ktdf_arch.map<"DDR" = [{size_in_words = 1, align_in_words = 1}],
                                        "LX" = [{size_in_words = 1, align_in_words = 1}]>}}}
#dma_offchip = {ktdf_arch.transfer_granularity = array<i64: 128>,
                ktdf_arch.bytes_per_cycle = 128, ktdf_arch.latency = 100}  // assumption
#dma_onchip = {ktdf_arch.transfer_granularity = array<i64: 128>,
               ktdf_arch.bytes_per_cycle = 128, ktdf_arch.latency = 8}     // assumption

// The compute engine: SIMD over a 128-byte vector.
#pe_block = {kind = "PE_Block"}
#pe = {kind = "PE", ktdf_arch.issue_cycles = 0,
  ktdf_arch.features = {ktdf_arch.feature.compute,
    ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, f32 = 32>}},  // f32: assumption
  ktdf_arch.lanes_per_cycle = #ktdf_arch.map<f16 = 64, f32 = 32>,           // assumption
  ktdf_arch.op_latency = #ktdf_arch.map<"simple" = 2, "mul" = 3, "fma" = 4, "reduce" = 4,
    "divide" = 8, "transcendental" = 8, "opaque" = 16>,                      // assumption
  ktdf_arch.op_interval = #ktdf_arch.map<"simple" = 1, "mul" = 1, "fma" = 1, "reduce" = 1,
    "divide" = 4, "transcendental" = 4, "opaque" = 1>}                       // assumption

// Scratchpad load/store engines feeding and draining the PE: a whole stick or one fp16 value.
#lx_load = {kind = "LX_LOAD", ktdf_arch.issue_cycles = 0,
  ktdf_arch.max_outstanding = 16, ktdf_arch.features = {                   // FIFO depth
  ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"LX" = [
    {size_in_words = 128, align_in_words = 128}, {size_in_words = 2, align_in_words = 2}]>}}}
#lx_store = {kind = "LX_STORE", ktdf_arch.issue_cycles = 0,
  ktdf_arch.max_outstanding = 16, ktdf_arch.features = {                   // FIFO depth
  ktdf_arch.feature.store = {access_granularity = #ktdf_arch.map<"LX" = [
    {size_in_words = 128, align_in_words = 128}, {size_in_words = 2, align_in_words = 2}]>}}}
#fifo = {ktdf_arch.bytes_per_cycle = 128, ktdf_arch.latency = 1,            // assumption
         ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}}
#vector_fifo = {ktdf_arch.transfer_granularity = array<i64: 128, 2>,
                ktdf_arch.bytes_per_cycle = 128, ktdf_arch.latency = 1,     // assumption
                ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}}

// The ring: one interface unit per core, reading and writing its scratchpad.
#ring = {kind = "RING", ktdf_arch.issue_cycles = 0,
  ktdf_arch.max_outstanding = 4, ktdf_arch.features = {                    // assumption
  ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"LX" = 128>},
  ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"LX" = 128>}}}
#ring_port = {ktdf_arch.transfer_granularity = array<i64: 128>,
              ktdf_arch.bytes_per_cycle = 128, ktdf_arch.latency = 8}       // assumption
// Ring links: 64 B/cycle is ktir-cpu's 64 GB/s per direction; the latency is an assumption.
#ring_link = {ktdf_arch.transfer_granularity = array<i64: 128>,
              ktdf_arch.bytes_per_cycle = 64, ktdf_arch.latency = 8}

ktdf_arch.device @spyre attributes {ktdf_arch.clock_ghz = 1.0, ktdf_arch.signal_latency = 1} {  // clock: ktir-cpu's 1 GHz
  %ddr = memory #ddr

  // Core 0.
  %ring0 = group @core0 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 1.
  %ring1 = group @core1 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 2.
  %ring2 = group @core2 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 3.
  %ring3 = group @core3 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 4.
  %ring4 = group @core4 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 5.
  %ring5 = group @core5 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 6.
  %ring6 = group @core6 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 7.
  %ring7 = group @core7 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 8.
  %ring8 = group @core8 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 9.
  %ring9 = group @core9 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 10.
  %ring10 = group @core10 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 11.
  %ring11 = group @core11 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 12.
  %ring12 = group @core12 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 13.
  %ring13 = group @core13 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 14.
  %ring14 = group @core14 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 15.
  %ring15 = group @core15 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 16.
  %ring16 = group @core16 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 17.
  %ring17 = group @core17 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 18.
  %ring18 = group @core18 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 19.
  %ring19 = group @core19 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 20.
  %ring20 = group @core20 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 21.
  %ring21 = group @core21 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 22.
  %ring22 = group @core22 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 23.
  %ring23 = group @core23 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 24.
  %ring24 = group @core24 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 25.
  %ring25 = group @core25 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 26.
  %ring26 = group @core26 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 27.
  %ring27 = group @core27 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 28.
  %ring28 = group @core28 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 29.
  %ring29 = group @core29 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 30.
  %ring30 = group @core30 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // Core 31.
  %ring31 = group @core31 #core share(%ddr) {
    %lx = memory #lx
    %dma_in = exec_unit #dma_in
    %dma_out = exec_unit #dma_out
    datapath #dma_offchip %ddr to %dma_in : memory, exec_unit
    datapath #dma_onchip %dma_in to %lx : exec_unit, memory
    datapath #dma_onchip %lx to %dma_out : memory, exec_unit
    datapath #dma_offchip %dma_out to %ddr : exec_unit, memory
    %pe = group #pe_block share(%lx) {
      %reg = memory #pe_reg
      %unit = exec_unit #pe
      yield %unit
    } -> exec_unit
    %lx_load = exec_unit #lx_load
    %lx_store = exec_unit #lx_store
    datapath #fifo %lx to %lx_load : memory, exec_unit
    datapath #vector_fifo %lx_load to %pe : exec_unit, exec_unit
    datapath #vector_fifo %pe to %lx_store : exec_unit, exec_unit
    datapath #fifo %lx_store to %lx : exec_unit, memory
    %ring = exec_unit #ring
    datapath #ring_port %lx to %ring : memory, exec_unit
    datapath #ring_port %ring to %lx : exec_unit, memory
    yield %ring
  } -> exec_unit

  // The ring: each core's RING unit talks to both neighbours.
  datapath #ring_link %ring0 to %ring1 : exec_unit, exec_unit
  datapath #ring_link %ring1 to %ring0 : exec_unit, exec_unit
  datapath #ring_link %ring1 to %ring2 : exec_unit, exec_unit
  datapath #ring_link %ring2 to %ring1 : exec_unit, exec_unit
  datapath #ring_link %ring2 to %ring3 : exec_unit, exec_unit
  datapath #ring_link %ring3 to %ring2 : exec_unit, exec_unit
  datapath #ring_link %ring3 to %ring4 : exec_unit, exec_unit
  datapath #ring_link %ring4 to %ring3 : exec_unit, exec_unit
  datapath #ring_link %ring4 to %ring5 : exec_unit, exec_unit
  datapath #ring_link %ring5 to %ring4 : exec_unit, exec_unit
  datapath #ring_link %ring5 to %ring6 : exec_unit, exec_unit
  datapath #ring_link %ring6 to %ring5 : exec_unit, exec_unit
  datapath #ring_link %ring6 to %ring7 : exec_unit, exec_unit
  datapath #ring_link %ring7 to %ring6 : exec_unit, exec_unit
  datapath #ring_link %ring7 to %ring8 : exec_unit, exec_unit
  datapath #ring_link %ring8 to %ring7 : exec_unit, exec_unit
  datapath #ring_link %ring8 to %ring9 : exec_unit, exec_unit
  datapath #ring_link %ring9 to %ring8 : exec_unit, exec_unit
  datapath #ring_link %ring9 to %ring10 : exec_unit, exec_unit
  datapath #ring_link %ring10 to %ring9 : exec_unit, exec_unit
  datapath #ring_link %ring10 to %ring11 : exec_unit, exec_unit
  datapath #ring_link %ring11 to %ring10 : exec_unit, exec_unit
  datapath #ring_link %ring11 to %ring12 : exec_unit, exec_unit
  datapath #ring_link %ring12 to %ring11 : exec_unit, exec_unit
  datapath #ring_link %ring12 to %ring13 : exec_unit, exec_unit
  datapath #ring_link %ring13 to %ring12 : exec_unit, exec_unit
  datapath #ring_link %ring13 to %ring14 : exec_unit, exec_unit
  datapath #ring_link %ring14 to %ring13 : exec_unit, exec_unit
  datapath #ring_link %ring14 to %ring15 : exec_unit, exec_unit
  datapath #ring_link %ring15 to %ring14 : exec_unit, exec_unit
  datapath #ring_link %ring15 to %ring16 : exec_unit, exec_unit
  datapath #ring_link %ring16 to %ring15 : exec_unit, exec_unit
  datapath #ring_link %ring16 to %ring17 : exec_unit, exec_unit
  datapath #ring_link %ring17 to %ring16 : exec_unit, exec_unit
  datapath #ring_link %ring17 to %ring18 : exec_unit, exec_unit
  datapath #ring_link %ring18 to %ring17 : exec_unit, exec_unit
  datapath #ring_link %ring18 to %ring19 : exec_unit, exec_unit
  datapath #ring_link %ring19 to %ring18 : exec_unit, exec_unit
  datapath #ring_link %ring19 to %ring20 : exec_unit, exec_unit
  datapath #ring_link %ring20 to %ring19 : exec_unit, exec_unit
  datapath #ring_link %ring20 to %ring21 : exec_unit, exec_unit
  datapath #ring_link %ring21 to %ring20 : exec_unit, exec_unit
  datapath #ring_link %ring21 to %ring22 : exec_unit, exec_unit
  datapath #ring_link %ring22 to %ring21 : exec_unit, exec_unit
  datapath #ring_link %ring22 to %ring23 : exec_unit, exec_unit
  datapath #ring_link %ring23 to %ring22 : exec_unit, exec_unit
  datapath #ring_link %ring23 to %ring24 : exec_unit, exec_unit
  datapath #ring_link %ring24 to %ring23 : exec_unit, exec_unit
  datapath #ring_link %ring24 to %ring25 : exec_unit, exec_unit
  datapath #ring_link %ring25 to %ring24 : exec_unit, exec_unit
  datapath #ring_link %ring25 to %ring26 : exec_unit, exec_unit
  datapath #ring_link %ring26 to %ring25 : exec_unit, exec_unit
  datapath #ring_link %ring26 to %ring27 : exec_unit, exec_unit
  datapath #ring_link %ring27 to %ring26 : exec_unit, exec_unit
  datapath #ring_link %ring27 to %ring28 : exec_unit, exec_unit
  datapath #ring_link %ring28 to %ring27 : exec_unit, exec_unit
  datapath #ring_link %ring28 to %ring29 : exec_unit, exec_unit
  datapath #ring_link %ring29 to %ring28 : exec_unit, exec_unit
  datapath #ring_link %ring29 to %ring30 : exec_unit, exec_unit
  datapath #ring_link %ring30 to %ring29 : exec_unit, exec_unit
  datapath #ring_link %ring30 to %ring31 : exec_unit, exec_unit
  datapath #ring_link %ring31 to %ring30 : exec_unit, exec_unit
  datapath #ring_link %ring31 to %ring0 : exec_unit, exec_unit
  datapath #ring_link %ring0 to %ring31 : exec_unit, exec_unit
}
