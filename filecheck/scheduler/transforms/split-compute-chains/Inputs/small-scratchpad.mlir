// sample_device with an 8 KiB scratchpad (overrides: memory.scratchpad.size = 8192)
builtin.module {
  ktdf_arch.device @sample_device attributes {ktdf_arch.clock_ghz = 1.0} {
    %ddr = memory {kind = "DDR", size = 1073741824}
    group {kind = "core"} share(%ddr) {
      %l1 = memory {kind = "L1", size = 8192}
      %mnilu = exec_unit {kind = "MNILU", dataflow_scheduler.double_buffer_last, ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>, access_granularity = #ktdf_arch.map<"DDR" = [{size_in_words = 1, align_in_words = 1}], "L1" = [{size_in_words = 1, align_in_words = 1}]>}}}
      %mnisu = exec_unit {kind = "MNISU", dataflow_scheduler.double_buffer_last, ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>, access_granularity = #ktdf_arch.map<"DDR" = [{size_in_words = 1, align_in_words = 1}], "L1" = [{size_in_words = 1, align_in_words = 1}]>}}}
      datapath {ktdf_arch.transfer_granularity = array<i64: 64>, ktdf_arch.bytes_per_cycle = 256} %ddr to %mnilu : memory, exec_unit
      datapath {ktdf_arch.transfer_granularity = array<i64: 64>, ktdf_arch.bytes_per_cycle = 256} %mnilu to %l1 : exec_unit, memory
      datapath {ktdf_arch.transfer_granularity = array<i64: 64>, ktdf_arch.bytes_per_cycle = 128} %l1 to %mnisu : memory, exec_unit
      datapath {ktdf_arch.transfer_granularity = array<i64: 64>, ktdf_arch.bytes_per_cycle = 128} %mnisu to %ddr : exec_unit, memory
      group share(%l1) {
        %sfu = group {kind = "SFU_Block"} share() {
          %reg = memory {kind = "SFU_REG", size = 2048}
          %unit = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
          yield %unit
        } -> exec_unit
        %l1lu = exec_unit {kind = "L1LU", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"L1" = [{size_in_words = 64, align_in_words = 64}, {size_in_words = 2, align_in_words = 2}]>}, ktdf_arch.feature.simd = {splat, zero_pad}}}
        %l1su = exec_unit {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store = {access_granularity = #ktdf_arch.map<"L1" = [{size_in_words = 64, align_in_words = 64}, {size_in_words = 2, align_in_words = 2}]>}}}
        datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}, ktdf_arch.bytes_per_cycle = 128} %l1 to %l1lu : memory, exec_unit
        datapath {ktdf_arch.transfer_granularity = array<i64: 64, 2>, ktdf_arch.bytes_per_cycle = 128, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}} %l1lu to %sfu : exec_unit, exec_unit
        datapath {ktdf_arch.transfer_granularity = array<i64: 64, 2>, ktdf_arch.bytes_per_cycle = 128, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}} %sfu to %l1su : exec_unit, exec_unit
        datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}, ktdf_arch.bytes_per_cycle = 128} %l1su to %l1 : exec_unit, memory
      }
      group share(%l1) {
        %sfu = group {kind = "SFU_Block"} share() {
          %reg = memory {kind = "SFU_REG", size = 2048}
          %unit = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
          yield %unit
        } -> exec_unit
        %l1lu = exec_unit {kind = "L1LU", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"L1" = [{size_in_words = 64, align_in_words = 64}, {size_in_words = 2, align_in_words = 2}]>}, ktdf_arch.feature.simd = {splat, zero_pad}}}
        %l1su = exec_unit {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store = {access_granularity = #ktdf_arch.map<"L1" = [{size_in_words = 64, align_in_words = 64}, {size_in_words = 2, align_in_words = 2}]>}}}
        datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}, ktdf_arch.bytes_per_cycle = 128} %l1 to %l1lu : memory, exec_unit
        datapath {ktdf_arch.transfer_granularity = array<i64: 64, 2>, ktdf_arch.bytes_per_cycle = 128, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}} %l1lu to %sfu : exec_unit, exec_unit
        datapath {ktdf_arch.transfer_granularity = array<i64: 64, 2>, ktdf_arch.bytes_per_cycle = 128, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}} %sfu to %l1su : exec_unit, exec_unit
        datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}, ktdf_arch.bytes_per_cycle = 128} %l1su to %l1 : exec_unit, memory
      }
    }
  }
}
