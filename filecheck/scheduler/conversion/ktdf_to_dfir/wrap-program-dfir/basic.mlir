// RUN: ktir-opt %s -p wrap-program-dfir | filecheck %s

/// A compute group in DataflowIR gets the two-level form: the outer function keeps its
/// signature and only says what its arguments are (`symbol.create_id`, the id of the kernel
/// argument each one receives: the host passes (%b, %a), so %x is kernel argument 1, symbol
/// -2) and calls `<name>_body`, which takes no arguments and holds the units, tables and
/// programs in a nested module, declared beside the caller. Arguments the body still reads
/// directly (a view's start, a host loop index in a subscript) are read as their symbols, once
/// per program that reads them, after its tile query; an i32 argument's symbol is cast back to
/// i32. The host is not touched.

// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:    %[[A:[^:]*]]: index, %[[B:[^:]*]]: index, %[[C:[^:]*]]: index, %[[NK:[^:]*]]: i32)
// CHECK-NEXT:    func.call @local_schedule_0(%[[B]], %[[A]]) : (index, index) -> ()
// CHECK-NEXT:    func.call @local_schedule_1(%[[C]], %[[NK]]) : (index, i32) -> ()
// CHECK-NEXT:    func.return

// CHECK:       builtin.module @local_schedule_0 {
// CHECK-NEXT:    func.func @local_schedule_0(%[[X:[^:]*]]: index, %[[Y:[^:]*]]: index) attributes {grid = [2 : i64]} {
// CHECK-NEXT:      symbol.create_id %[[X]] {symbol_id = -2 : si64} : index
// CHECK-NEXT:      symbol.create_id %[[Y]] {symbol_id = -1 : si64} : index
// CHECK-NEXT:      func.call @local_schedule_0_body() : () -> ()
// CHECK-NEXT:      func.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func private @local_schedule_0_body() -> ()
// CHECK-NEXT:    builtin.module {
// CHECK-NEXT:      func.func @local_schedule_0_body() attributes {grid = [2 : i64]} {
// CHECK-NEXT:        arith.constant 0 : index
// CHECK:             dataflow.program_unit iter_arg
// CHECK:               symbol.create_symbol {SymbolId = -2 : i64} : index
// CHECK:             dataflow.program_unit iter_arg
// CHECK:               symbol.create_symbol {SymbolId = -1 : i64} : index
// CHECK:             func.return
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// CHECK:       builtin.module @local_schedule_1 {
// CHECK-NEXT:    func.func @local_schedule_1(%[[Z:[^:]*]]: index, %[[N:[^:]*]]: i32) attributes {grid = [1 : i64]} {
// CHECK-NEXT:      symbol.create_id %[[Z]] {symbol_id = -3 : si64} : index
// CHECK-NEXT:      symbol.create_id %[[N]] {symbol_id = -4 : si64} : i32
// CHECK-NEXT:      func.call @local_schedule_1_body() : () -> ()
// CHECK:           func.func @local_schedule_1_body() attributes {grid = [1 : i64]} {
// CHECK-NOT:         symbol.create_symbol
// CHECK:             dataflow.program_unit iter_arg : %[[U:[^ ]*]]
// CHECK-NEXT:          %[[T:[^ ]*]] = uniform.query_map
// CHECK-NEXT:          %[[SZ:[^ ]*]] = symbol.create_symbol {SymbolId = -3 : i64} : index
// CHECK-NEXT:          %[[SN:[^ ]*]] = symbol.create_symbol {SymbolId = -4 : i64} : index
// CHECK-NEXT:          %[[NI:[^ ]*]] = arith.index_cast %[[SN]] : index to i32
// CHECK-NEXT:          %[[ZV:[^ ]*]] = dataflow.get_logical_memory_view %{{.*}}, %[[SZ]]
// CHECK-NEXT:          %[[NX:[^ ]*]] = arith.index_cast %[[NI]] : i32 to index
// CHECK-NEXT:          agen.vector_load %[[ZV]][%[[NX]]]
module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  module {
    func.func @kernel(%a: index, %b: index, %c: index, %n: i32) attributes {grid = [2]} {
      func.call @local_schedule_0(%b, %a) : (index, index) -> ()
      func.call @local_schedule_1(%c, %n) : (index, i32) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index)
    func.func private @local_schedule_1(index, i32)
  }
  module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index) attributes {grid = [2]} {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %ddr = dataflow.get_unit {name = "DDR", type = "DDR"} : index
      %l1_0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1", type = "L1"} : index
      %l1_1 = dataflow.get_unit {core = 1 : i32, name = "C1-L1", type = "L1"} : index
      %l1_of_tile = uniform.def_immutable_mapping([%k0 -> %l1_0], [%k1 -> %l1_1]):index
      %in0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      %in1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU", type = "MNILU"} : index
      %tile_of_in = uniform.def_immutable_mapping([%in0 -> %k0], [%in1 -> %k1]):index
      %out0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNISU", type = "MNISU"} : index
      %out1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNISU", type = "MNISU"} : index
      %tile_of_out = uniform.def_immutable_mapping([%out0 -> %k0], [%out1 -> %k1]):index
      dataflow.program_unit iter_arg : %u -> (%in0, %in1) : {
        %tile = uniform.query_map(map:%tile_of_in, key:%u) : index
        %l1 = uniform.query_map(map:%l1_of_tile, key:%tile) : index
        %sx = symbol.create_symbol {SymbolId = -2 : i64} : index
        %xv = dataflow.get_logical_memory_view %ddr, %sx {layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>} : index, index, memref<2x64xf16>
        %buf = dataflow.get_logical_memory_view %l1, %k0 {layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>} : index, index, memref<1x64xf16>
        agen.composite_load_and_store src:%xv[%tile, %k0] dst:%buf[0, 0]
         time_symbols(), load_iv(%v:vector<64xf16>)
         {load_order = affine_map<(d0, d1) -> (d0, d1)>, load_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, load_time_addr_map = affine_map<(d0) -> (0, 0)>, store_order = affine_map<(d0, d1) -> (d0, d1)>, store_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, store_time_addr_map = affine_map<(d0) -> (0, 0)>, time_order = affine_map<(d0) -> (d0)>, time_set = affine_set<(d0) : (d0 == 0)>}
        {
          agen.yield
        } : memref<2x64xf16>, memref<1x64xf16>
      }
      dataflow.program_unit iter_arg : %w -> (%out0, %out1) : {
        %tile = uniform.query_map(map:%tile_of_out, key:%w) : index
        %l1 = uniform.query_map(map:%l1_of_tile, key:%tile) : index
        %sy = symbol.create_symbol {SymbolId = -1 : i64} : index
        %yv = dataflow.get_logical_memory_view %ddr, %sy {layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>} : index, index, memref<2x64xf16>
        %buf = dataflow.get_logical_memory_view %l1, %k0 {layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>} : index, index, memref<1x64xf16>
        agen.composite_load_and_store src:%buf[0, 0] dst:%yv[%tile, %k0]
         time_symbols(), load_iv(%v:vector<64xf16>)
         {load_order = affine_map<(d0, d1) -> (d0, d1)>, load_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, load_time_addr_map = affine_map<(d0) -> (0, 0)>, store_order = affine_map<(d0, d1) -> (d0, d1)>, store_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, store_time_addr_map = affine_map<(d0) -> (0, 0)>, time_order = affine_map<(d0) -> (d0)>, time_set = affine_set<(d0) : (d0 == 0)>}
        {
          agen.yield
        } : memref<1x64xf16>, memref<2x64xf16>
      }
      func.return
    }
  }
  module @local_schedule_1 {
    func.func @local_schedule_1(%z: index, %n: i32) attributes {grid = [1]} {
      %ddr = dataflow.get_unit {name = "DDR", type = "DDR"} : index
      %in0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      %tile_of_in = uniform.def_immutable_mapping([%in0 -> %ddr]):index
      dataflow.program_unit iter_arg : %u -> (%in0) : {
        %tile = uniform.query_map(map:%tile_of_in, key:%u) : index
        %zv = dataflow.get_logical_memory_view %ddr, %z {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<64xf16>
        %nx = arith.index_cast %n : i32 to index
        %v = agen.vector_load %zv[%nx] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<64xf16>, vector<64xf16>
      }
      func.return
    }
  }
}
