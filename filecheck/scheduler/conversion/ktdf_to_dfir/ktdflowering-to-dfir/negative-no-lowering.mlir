// RUN: ktir-opt %s --split-input-file -p ktdflowering-to-dfir --verify-diagnostics | filecheck %s

/// What ktdflowering-to-dfir cannot express in DataflowIR stops with an error at the op: an op
/// with no DataflowIR lowering, a compute op with no vectorchain lowering, a view not built by
/// ktdp.construct_memory_view, a transfer of run-time size, a FIFO whose producer unit is not
/// materialised, a stage on a unit kind that has no units, a buffer whose address is not an
/// index, and a buffer in a memory that has no unit.

func.func @negative_no_dfir_lowering(%m: memref<64xf16, "L1">) attributes {grid = [1]} {
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %us = uniform.def_immutable_mapping([%k0 -> %u0]):index
  %u = uniform.query_map(map:%us, key:%tid) : index
  ktdf_lowering.execute_on %u {
    // CHECK: :[[# @LINE + 1]]:5: error: 'memref.load' op 'memref.load' has no DataflowIR lowering
    %v = memref.load %m[%k0] : memref<64xf16, "L1">
  } {applicable_units = ["L1LU"]}
  func.return
}

// -----

func.func @negative_no_vectorchain_lowering() attributes {grid = [1]} {
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %lu0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %lus = uniform.def_immutable_mapping([%k0 -> %lu0]):index
  %lu = uniform.query_map(map:%lus, key:%tid) : index
  %sfu0 = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %sfus = uniform.def_immutable_mapping([%k0 -> %sfu0]):index
  %sfu = uniform.query_map(map:%sfus, key:%tid) : index
  ktdf_lowering.execute_on %lu, %sfu {
    %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    ktdf_lowering.execute_on %sfu {
      %a = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<64xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%p: f16, %o: f16):
        %two = arith.constant 2 : i32
        // CHECK: :[[# @LINE + 1]]:9: error: 'math.fpowi' op 'math.fpowi' has no DataflowIR lowering yet (supported element-wise ops: arith addf, {{.*}})
        %x = math.fpowi %p, %two : f16, i32
        linalg.yield %x : f16
      } -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  } {applicable_units = ["L1LU", "SFU"]}
  func.return
}

// -----

func.func @negative_foreign_view(%m: memref<64xf16>) attributes {grid = [1]} {
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %us = uniform.def_immutable_mapping([%k0 -> %u0]):index
  %u = uniform.query_map(map:%us, key:%tid) : index
  %ddr = dataflow.get_unit {name = "DDR", type = "DDR"} : index
  // CHECK: :[[# @LINE + 1]]:3: error: 'memref.memory_space_cast' op only views built by ktdp.construct_memory_view are lowered
  %v = memref.memory_space_cast %m : memref<64xf16> to memref<64xf16, "DDR">
  ktdf_lowering.execute_on %u {
    ktdf.data_transfer from %v[0] size [64] to %v[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "DDR">
  } {applicable_units = ["MNILU"]}
  func.return
}

// -----

func.func @negative_dynamic_transfer(%n: index) attributes {grid = [1]} {
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %us = uniform.def_immutable_mapping([%k0 -> %u0]):index
  %u = uniform.query_map(map:%us, key:%tid) : index
  %l10 = dataflow.get_unit {core = 0 : i32, name = "C0-L1", type = "L1"} : index
  %l1s = uniform.def_immutable_mapping([%k0 -> %l10]):index
  %l1 = uniform.query_map(map:%l1s, key:%tid) : index
  ktdf_lowering.execute_on %u {
    %b = builtin.unrealized_conversion_cast %k0 : index to memref<64xf16, "L1">
    // CHECK: :[[# @LINE + 1]]:5: error: 'ktdf.data_transfer' op the source of a transfer needs static sizes to be lowered
    ktdf.data_transfer from %b[0] size [%n] to %b[0] size [%n] : memref<64xf16, "L1">, memref<64xf16, "L1">
  } {applicable_units = ["MNILU"]}
  func.return
}

// -----

func.func @negative_fifo_peer_missing() attributes {grid = [1]} {
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %sfu0 = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %sfus = uniform.def_immutable_mapping([%k0 -> %sfu0]):index
  %sfu = uniform.query_map(map:%sfus, key:%tid) : index
  ktdf_lowering.execute_on %sfu {
    %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    ktdf_lowering.execute_on %sfu {
      // CHECK: :[[# @LINE + 1]]:7: error: 'ktdf.read_from_fifo' op no unit of kind 'L1LU' is materialised for this FIFO
      %a = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  } {applicable_units = ["SFU"]}
  func.return
}

// -----

// CHECK: :[[# @LINE + 1]]:1: error: 'func.func' op no units of kind 'SFU' are materialised
func.func @negative_kind_without_units() attributes {grid = [1]} {
  %tid = ktdp.get_compute_tile_id : index
  ktdf_lowering.execute_on %tid {
    %c = arith.constant 0 : index
  } {applicable_units = ["SFU"]}
  func.return
}

// -----

func.func @negative_buffer_not_an_address(%n: i32) attributes {grid = [1]} {
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %us = uniform.def_immutable_mapping([%k0 -> %u0]):index
  %u = uniform.query_map(map:%us, key:%tid) : index
  ktdf_lowering.execute_on %u {
    // CHECK: :[[# @LINE + 1]]:5: error: 'builtin.unrealized_conversion_cast' op unexpected unrealized_conversion_cast
    %b = builtin.unrealized_conversion_cast %n : i32 to memref<64xf16, "L1">
  } {applicable_units = ["L1LU"]}
  func.return
}

// -----

func.func @negative_memory_without_unit() attributes {grid = [1]} {
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %us = uniform.def_immutable_mapping([%k0 -> %u0]):index
  %u = uniform.query_map(map:%us, key:%tid) : index
  ktdf_lowering.execute_on %u {
    // CHECK: :[[# @LINE + 1]]:5: error: 'builtin.unrealized_conversion_cast' op no unit of memory kind 'L1' is materialised
    %b = builtin.unrealized_conversion_cast %k0 : index to memref<64xf16, "L1">
  } {applicable_units = ["L1LU"]}
  func.return
}
