// Two compute groups after wrap-program-dfir: @local_schedule_0 in the two-level form (outer
// function + nested @local_schedule_0_body), @local_schedule_1 one-level (it reads its argument).
builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @kernel(%a: index, %b: index, %c: index) attributes {grid = [2 : i64]} {
      func.call @local_schedule_0(%b, %a) : (index, index) -> ()
      func.call @local_schedule_1(%c) : (index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index) -> ()
    func.func private @local_schedule_1(index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index) attributes {grid = [2 : i64]} {
      symbol.create_id %x {symbol_id = -2 : si64} : index
      symbol.create_id %y {symbol_id = -1 : si64} : index
      func.call @local_schedule_0_body() : () -> ()
      func.return
    }
    func.func private @local_schedule_0_body() -> ()
    builtin.module {
      func.func @local_schedule_0_body() attributes {grid = [2 : i64]} {
        %k0 = arith.constant 0 : index
        %k1 = arith.constant 1 : index
        %ddr = dataflow.get_unit {name = "DDR", type = "DDR"} : index
        %l1 = dataflow.get_unit {core = 0 : i32, name = "C0-L1", type = "L1"} : index
        %l1_1 = dataflow.get_unit {core = 1 : i32, name = "C1-L1", type = "L1"} : index
        %l1_of_tile = uniform.def_immutable_mapping([%k0 -> %l1], [%k1 -> %l1_1]):index
        %in0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
        %in1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU", type = "MNILU"} : index
        %tile_of_in = uniform.def_immutable_mapping([%in0 -> %k0], [%in1 -> %k1]):index
        %out0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNISU", type = "MNISU"} : index
        %out1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNISU", type = "MNISU"} : index
        %tile_of_out = uniform.def_immutable_mapping([%out0 -> %k0], [%out1 -> %k1]):index
        dataflow.program_unit iter_arg : %u -> (%in0, %in1) : {
          %tile = uniform.query_map(map:%tile_of_in, key:%u) : index
          %l1_2 = uniform.query_map(map:%l1_of_tile, key:%tile) : index
          %sx = symbol.create_symbol {SymbolId = -2 : i64} : index
          %xv = dataflow.get_logical_memory_view %ddr, %sx {layout_map = affine_map<(d0, d1) -> (((d0 * 64) + d1))>} : index, index, memref<2x64xf16>
          %buf = dataflow.get_logical_memory_view %l1_2, %k0 {layout_map = affine_map<(d0, d1) -> (((d0 * 64) + d1))>} : index, index, memref<1x64xf16>
          agen.composite_load_and_store src:%xv[%tile, %k0] dst:%buf[0, 0]
           time_symbols(), load_iv(%v:vector<64xf16>)
           {load_order = affine_map<(d0, d1) -> (d0, d1)>, load_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, load_time_addr_map = affine_map<(d0) -> (0, 0)>, store_order = affine_map<(d0, d1) -> (d0, d1)>, store_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, store_time_addr_map = affine_map<(d0) -> (0, 0)>, time_order = affine_map<(d0) -> (d0)>, time_set = affine_set<(d0) : (d0 == 0)>}
          {
            agen.yield
          } : memref<2x64xf16>, memref<1x64xf16>
        }
        dataflow.program_unit iter_arg : %w -> (%out0, %out1) : {
          %tile_1 = uniform.query_map(map:%tile_of_out, key:%w) : index
          %l1_3 = uniform.query_map(map:%l1_of_tile, key:%tile_1) : index
          %sy = symbol.create_symbol {SymbolId = -1 : i64} : index
          %yv = dataflow.get_logical_memory_view %ddr, %sy {layout_map = affine_map<(d0, d1) -> (((d0 * 64) + d1))>} : index, index, memref<2x64xf16>
          %buf_1 = dataflow.get_logical_memory_view %l1_3, %k0 {layout_map = affine_map<(d0, d1) -> (((d0 * 64) + d1))>} : index, index, memref<1x64xf16>
          agen.composite_load_and_store src:%buf_1[0, 0] dst:%yv[%tile_1, %k0]
           time_symbols(), load_iv(%v_1:vector<64xf16>)
           {load_order = affine_map<(d0, d1) -> (d0, d1)>, load_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, load_time_addr_map = affine_map<(d0) -> (0, 0)>, store_order = affine_map<(d0, d1) -> (d0, d1)>, store_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, store_time_addr_map = affine_map<(d0) -> (0, 0)>, time_order = affine_map<(d0) -> (d0)>, time_set = affine_set<(d0) : (d0 == 0)>}
          {
            agen.yield
          } : memref<1x64xf16>, memref<2x64xf16>
        }
        func.return
      }
    }
  }
  builtin.module @local_schedule_1 {
    func.func @local_schedule_1(%z: index) attributes {grid = [1 : i64]} {
      %ddr = dataflow.get_unit {name = "DDR", type = "DDR"} : index
      %in0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      dataflow.program_unit iter_arg : %u -> (%in0) : {
        %zv = dataflow.get_logical_memory_view %ddr, %z {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<64xf16>
        %v = agen.vector_load %zv[0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<64xf16>, vector<64xf16>
      }
      func.return
    }
  }
}

