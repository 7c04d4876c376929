// One compute group after wrap-program-dfir: a single MNILU program reading kernel argument 0.
builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @load_row(%a: index) attributes {grid = [1 : i64]} {
      func.call @local_schedule_0(%a) : (index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%a: index) attributes {grid = [1 : i64]} {
      symbol.create_id %a {symbol_id = -1 : si64} : index
      func.call @local_schedule_0_body() : () -> ()
      func.return
    }
    func.func private @local_schedule_0_body() -> ()
    builtin.module {
      func.func @local_schedule_0_body() attributes {grid = [1 : i64]} {
        %ddr = dataflow.get_unit {name = "DDR", type = "DDR"} : index
        %in0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
        dataflow.program_unit iter_arg : %u -> (%in0) : {
          %sa = symbol.create_symbol {SymbolId = -1 : i64} : index
          %av = dataflow.get_logical_memory_view %ddr, %sa {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<64xf16>
          %v = agen.vector_load %av[0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<64xf16>, vector<64xf16>
        }
        func.return
      }
    }
  }
}
