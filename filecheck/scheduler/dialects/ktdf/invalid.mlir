// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// One case per ktdf parser and verifier rule (shared/spec/schedule-ir.md): each chunk breaks
/// exactly one rule and the located message names it.

// CHECK: invalid.mlir:[[# @LINE + 1]]:51: error: expected the FIFO source as a unit-kind string ("L1LU") or a ktdp memory space (#ktdp.memory_space<global>)
func.func @negative_slot_bare(%s: !ktdf.fifo.slot<L1LU -> "SFU", 64xf16>) {
  return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: expected the FIFO destination as a unit-kind string
func.func @negative_slot_dst(%s: !ktdf.fifo.slot<"L1LU" -> 3, 64xf16>) {
  return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: FIFO slot type needs an element type, as in `64xf16`
func.func @negative_slot_no_element_type(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64>) {
  return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: a FIFO slot holds at least one element
func.func @negative_slot_empty(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 0xf16>) {
  return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: a FIFO slot holds a flat count of elements (`Nxtype`), not a multi-dimensional shape
func.func @negative_slot_shape(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 2x32xf16>) {
  return
}

// -----

func.func @negative_loop_type(%n: index) {
  scf.for %i = %n to %n step %n {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:34: error: Expected `parallel_loop`, or `reduction_loop`.
  } {loop_type = #ktdf.loop_type<vector_loop>}
  return
}

// -----

func.func @negative_pipeline_modulo() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.pipeline' op modulo size must be >= 1, got 0
  ktdf.pipeline modulo(size: 0) {
  }
  return
}

// -----

func.func @negative_pipeline_child() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.pipeline' op immediate children must be 'ktdf.stage' or 'ktdf.private' ops, found 'arith.constant'
  ktdf.pipeline {
    %c0 = arith.constant 0 : index
  }
  return
}

// -----

func.func @negative_pipeline_two_privates() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.pipeline' op at most one immediate 'ktdf.private' child is allowed
  ktdf.pipeline {
    ktdf.private {
    }
    ktdf.private {
    }
  }
  return
}

// -----

func.func @negative_pipeline_cycle() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.pipeline' op the token dependencies of its stages form a cycle (through stages #0 and #1)
  ktdf.pipeline {
    %t:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
      %a = ktdf.create_token : !ktdf.token
      %b = ktdf.create_token : !ktdf.token
      ktdf.private_yield %a, %b : !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(%t#1) depends_out(%t#0) {
    }
    ktdf.stage depends_in(%t#0) depends_out(%t#1) {
    }
  }
  return
}

// -----

func.func @negative_stage_parent() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.stage' op 'ktdf.stage' expects parent op 'ktdf.pipeline'
  ktdf.stage depends_in(none) depends_out(none) {
  }
  return
}

// -----

func.func @negative_stage_token_argument(%t: !ktdf.token) {
  ktdf.pipeline {
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'ktdf.stage' op depends_in operand must originate from ktdf.create_token or ktdf.private operation yielding a token created by ktdf.create_token
    ktdf.stage depends_in(%t) depends_out(none) {
    }
  }
  return
}

// -----

func.func @negative_stage_private_token(%t: !ktdf.token) {
  ktdf.pipeline {
    %p = ktdf.private -> (!ktdf.token) {
      ktdf.private_yield %t : !ktdf.token
    }
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'ktdf.stage' op depends_out operand must originate from ktdf.create_token
    ktdf.stage depends_in(none) depends_out(%p) {
    }
  }
  return
}

// -----

func.func @negative_stage_not_a_token(%i: index) {
  ktdf.pipeline {
    // CHECK: invalid.mlir:[[# @LINE + 1]]:27: error: operand is used with type !ktdf.token, but has been previously used or defined with type index
    ktdf.stage depends_in(%i) depends_out(none) {
    }
  }
  return
}

// -----

func.func @negative_stage_units(%i: index) {
  ktdf.pipeline {
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'ktdf.stage' op applicable_units must be an array of unit-kind strings, got [1 : i64, 2 : i64]
    ktdf.stage depends_in(none) depends_out(none) {
    } {applicable_units = [1, 2]}
  }
  return
}

// -----

func.func @negative_private_parent() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.private' op 'ktdf.private' expects parent op 'ktdf.pipeline'
  ktdf.private {
  }
  return
}

// -----

func.func @negative_private_count() {
  ktdf.pipeline {
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'ktdf.private' op yield operands count (1) must match results count (2)
    %p:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
      %a = ktdf.create_token : !ktdf.token
      ktdf.private_yield %a : !ktdf.token
    }
  }
  return
}

// -----

func.func @negative_private_type() {
  ktdf.pipeline {
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'ktdf.private' op yield operand type !ktdf.token must match result type index
    %p = ktdf.private -> (index) {
      %a = ktdf.create_token : !ktdf.token
      ktdf.private_yield %a : !ktdf.token
    }
  }
  return
}

// -----

func.func @negative_private_yield_parent(%t: !ktdf.token) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.private_yield' op 'ktdf.private_yield' expects parent op 'ktdf.private'
  ktdf.private_yield %t : !ktdf.token
}

// -----

func.func @negative_create_token_type() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:28: error: ktdf.create_token produces !ktdf.token, not index
  %t = ktdf.create_token : index
  return
}

// -----

func.func @negative_allocate_dynamic_count(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.fifo.allocate' op number of dynamic size operands (1) must match number of dynamic sizes in result types (0)
  %s = ktdf.fifo.allocate(%n) -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

func.func @negative_read_element_type(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.read_from_fifo' op element type of the FIFO slot (f16) and of the data (f32) differ
  %d = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf32>
  return
}

// -----

func.func @negative_read_dynamic(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.read_from_fifo' op FIFO slot and data must both be dynamic or both be static
  %d = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", ?xf16> -> tensor<64xf16>
  return
}

// -----

func.func @negative_read_count(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.read_from_fifo' op data total elements (32) must match FIFO slot size (64)
  %d = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> memref<2x16xf16>
  return
}

// -----

func.func @negative_write_count(%s: !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, %d: tensor<65xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.write_to_fifo' op data total elements (65) must match FIFO slot size (64)
  ktdf.write_to_fifo %d, %s : tensor<65xf16>, <"SFU" -> "L1SU", 64xf16>
  return
}

// -----

func.func @negative_transfer_no_map(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op source_map must be present when source is a memref
  ktdf.data_transfer from %a size [64] to %b[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "L1">
  return
}

// -----

func.func @negative_transfer_map_symbols(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">, %i: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op dest_map must have 0 symbols (dims-only); got 1
  "ktdf.data_transfer"(%a, %b, %i) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 1, 0, 0>, static_source_sizes = array<i64: 64>, static_dest_sizes = array<i64: 64>, source_map = affine_map<() -> (0)>, dest_map = affine_map<()[s0] -> (s0)>}> : (memref<64xf16, "L1">, memref<64xf16, "L1">, index) -> ()
  return
}

// -----

func.func @negative_transfer_map_rank(%a: memref<4x16xf16, "L1">, %b: memref<64xf16, "L1">, %i: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op source memref has rank 2 but source_map has 1 results
  "ktdf.data_transfer"(%a, %i, %b) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 0, 0>, static_source_sizes = array<i64: 4, 16>, static_dest_sizes = array<i64: 64>, source_map = affine_map<(d0) -> (d0)>, dest_map = affine_map<() -> (0)>}> : (memref<4x16xf16, "L1">, index, memref<64xf16, "L1">) -> ()
  return
}

// -----

func.func @negative_transfer_map_dims(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">, %i: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op source_indices count (1) must match source_map dim count (2)
  "ktdf.data_transfer"(%a, %i, %b) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 0, 0>, static_source_sizes = array<i64: 64>, static_dest_sizes = array<i64: 64>, source_map = affine_map<(d0, d1) -> (d0 + d1)>, dest_map = affine_map<() -> (0)>}> : (memref<64xf16, "L1">, index, memref<64xf16, "L1">) -> ()
  return
}

// -----

func.func @negative_transfer_size_rank(%a: memref<4x16xf16, "L1">, %b: memref<64xf16, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op dest size count (2) must match memref rank (1)
  ktdf.data_transfer from %a[0, 0] size [4, 16] to %b[0] size [4, 16] : memref<4x16xf16, "L1">, memref<64xf16, "L1">
  return
}

// -----

func.func @negative_transfer_fifo_map(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %b: memref<64xf16, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op source_map must be absent for fifo source
  "ktdf.data_transfer"(%s, %b) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 0, 0>, static_dest_sizes = array<i64: 64>, source_map = affine_map<() -> ()>, dest_map = affine_map<() -> (0)>}> : (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "L1">) -> ()
  return
}

// -----

func.func @negative_transfer_fifo_indices(%s: !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, %b: memref<64xf16, "L1">, %i: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op FIFO slot dest cannot have indices specified
  "ktdf.data_transfer"(%b, %s, %i) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 1, 0, 0>, static_source_sizes = array<i64: 64>, source_map = affine_map<() -> (0)>}> : (memref<64xf16, "L1">, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, index) -> ()
  return
}

// -----

func.func @negative_transfer_dynamic_sizes(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">, %n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op number of dynamic source sizes (1) must match number of dynamic entries in static_source_sizes (0)
  "ktdf.data_transfer"(%a, %n, %b) <{operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 0, 0>, static_source_sizes = array<i64: 64>, static_dest_sizes = array<i64: 64>, source_map = affine_map<() -> (0)>, dest_map = affine_map<() -> (0)>}> : (memref<64xf16, "L1">, index, memref<64xf16, "L1">) -> ()
  return
}

// -----

func.func @negative_transfer_sizes_without_static(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %b: memref<64xf16, "L1">, %n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op 1 dynamic source sizes given without static_source_sizes
  "ktdf.data_transfer"(%s, %n, %b) <{operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 0, 0>, static_dest_sizes = array<i64: 64>, dest_map = affine_map<() -> (0)>}> : (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, index, memref<64xf16, "L1">) -> ()
  return
}

// -----

func.func @negative_transfer_negative_size(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op source sizes must be >= 0, got -4
  ktdf.data_transfer from %a[0] size [-4] to %b[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "L1">
  return
}

// -----

func.func @negative_transfer_element_type(%a: memref<64xf16, "L1">, %b: memref<64xf32, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op source and destination element types differ (f16 vs f32)
  ktdf.data_transfer from %a[0] size [64] to %b[0] size [64] : memref<64xf16, "L1">, memref<64xf32, "L1">
  return
}

// -----

func.func @negative_transfer_counts(%a: memref<64xf16, "L1">, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op source and destination move different element counts (1 vs 64) without a transfer_mode
  ktdf.data_transfer from %a[0] size [1] to %s size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

func.func @negative_transfer_splat(%a: memref<64xf16, "L1">, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op transfer_mode "splat" needs a destination count (64) that is a multiple of the source count (3)
  ktdf.data_transfer from %a[0] size [3] to %s {transfer_mode = "splat"} : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

func.func @negative_transfer_pad(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op transfer_mode "pad" needs a destination count (16) of at least the source count (64)
  ktdf.data_transfer from %a[0] size [64] to %b[0] size [16] {transfer_mode = "pad"} : memref<64xf16, "L1">, memref<64xf16, "L1">
  return
}

// -----

func.func @negative_transfer_mode(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op transfer_mode must be "splat" or "pad", got "wrap"
  ktdf.data_transfer from %a[0] size [64] to %b[0] size [64] {transfer_mode = "wrap"} : memref<64xf16, "L1">, memref<64xf16, "L1">
  return
}

// -----

func.func @negative_transfer_fifo_to_fifo(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %t: !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op a transfer between two FIFO slots is not allowed
  ktdf.data_transfer from %s to %t : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
  return
}

// -----

func.func @negative_ind_subscript_count(%x: memref<8x128xf16, "DDR">, %idx: memref<4xi32, "L1">, %d: memref<128xf16, "L1">, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op expects one subscript per source dimension (2), got 1 kinds and 1 maps
  ktdf.ind_data_transfer from %x[ind(%idx[%b])] size [1, 128] to %d[0] size [128] : memref<8x128xf16, "DDR">, memref<4xi32, "L1">, memref<128xf16, "L1">
  return
}

// -----

func.func @negative_ind_buffer_count(%x: memref<8x128xf16, "DDR">, %idx: memref<4xi32, "L1">, %d: memref<128xf16, "L1">, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op 1 indirect subscripts but 2 index buffers
  "ktdf.ind_data_transfer"(%x, %idx, %idx, %b, %d) <{operandSegmentSizes = array<i32: 1, 2, 1, 0, 1, 0, 0, 0>, per_dim_subscript_kinds = [true, false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (0)>], static_source_sizes = array<i64: 1, 128>, static_dest_sizes = array<i64: 128>, dest_map = affine_map<() -> (0)>}> : (memref<8x128xf16, "DDR">, memref<4xi32, "L1">, memref<4xi32, "L1">, index, memref<128xf16, "L1">) -> ()
  return
}

// -----

func.func @negative_ind_kinds(%x: memref<8x128xf16, "DDR">, %d: memref<128xf16, "L1">, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op per_dim_subscript_kinds must be booleans
  "ktdf.ind_data_transfer"(%x, %b, %d) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 1, 0, 0, 0>, per_dim_subscript_kinds = [0, 1], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (0)>], static_source_sizes = array<i64: 1, 128>, static_dest_sizes = array<i64: 128>, dest_map = affine_map<() -> (0)>}> : (memref<8x128xf16, "DDR">, index, memref<128xf16, "L1">) -> ()
  return
}

// -----

func.func @negative_ind_map_dims(%x: memref<8x128xf16, "DDR">, %d: memref<128xf16, "L1">, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op subscript map 1 has 2 dims and 0 symbols, expected 1 dims (the subscript operands) and no symbols
  "ktdf.ind_data_transfer"(%x, %b, %d) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 1, 0, 0, 0>, per_dim_subscript_kinds = [false, false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0, d1) -> (0)>], static_source_sizes = array<i64: 1, 128>, static_dest_sizes = array<i64: 128>, dest_map = affine_map<() -> (0)>}> : (memref<8x128xf16, "DDR">, index, memref<128xf16, "L1">) -> ()
  return
}

// -----

func.func @negative_ind_direct_results(%x: memref<8x128xf16, "DDR">, %d: memref<128xf16, "L1">, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op direct subscript 0 must be a single expression
  "ktdf.ind_data_transfer"(%x, %b, %d) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 1, 0, 0, 0>, per_dim_subscript_kinds = [false, false], per_dim_subscript_maps = [affine_map<(d0) -> (d0, d0)>, affine_map<(d0) -> (0)>], static_source_sizes = array<i64: 1, 128>, static_dest_sizes = array<i64: 128>, dest_map = affine_map<() -> (0)>}> : (memref<8x128xf16, "DDR">, index, memref<128xf16, "L1">) -> ()
  return
}

// -----

func.func @negative_ind_buffer_rank(%x: memref<8x128xf16, "DDR">, %idx: memref<4x4xi32, "L1">, %d: memref<128xf16, "L1">, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op indirect subscript 0 has 1 indices for an index buffer of rank 2
  ktdf.ind_data_transfer from %x[ind(%idx[%b]), (0)] size [1, 128] to %d[0] size [128] : memref<8x128xf16, "DDR">, memref<4x4xi32, "L1">, memref<128xf16, "L1">
  return
}

// -----

func.func @negative_ind_buffer_type(%x: memref<8x128xf16, "DDR">, %idx: memref<4xf32, "L1">, %d: memref<128xf16, "L1">, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op index buffer of subscript 0 must hold integers or index, not f32
  ktdf.ind_data_transfer from %x[ind(%idx[%b]), (0)] size [1, 128] to %d[0] size [128] : memref<8x128xf16, "DDR">, memref<4xf32, "L1">, memref<128xf16, "L1">
  return
}

// -----

func.func @negative_ind_source_sizes(%x: memref<8x128xf16, "DDR">, %idx: memref<4xi32, "L1">, %d: memref<128xf16, "L1">, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op source size count (1) must match memref rank (2)
  ktdf.ind_data_transfer from %x[ind(%idx[%b]), (0)] size [128] to %d[0] size [128] : memref<8x128xf16, "DDR">, memref<4xi32, "L1">, memref<128xf16, "L1">
  return
}

// -----

func.func @negative_ind_counts(%x: memref<8x128xf16, "DDR">, %idx: memref<4xi32, "L1">, %d: memref<128xf16, "L1">, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op source and destination move different element counts (256 vs 128) without a transfer_mode
  ktdf.ind_data_transfer from %x[ind(%idx[%b]), (0)] size [2, 128] to %d[0] size [128] : memref<8x128xf16, "DDR">, memref<4xi32, "L1">, memref<128xf16, "L1">
  return
}

// -----

func.func @negative_ind_no_source_size(%x: memref<8x128xf16, "DDR">, %idx: memref<4xi32, "L1">, %d: memref<128xf16, "L1">, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: the source of ktdf.ind_data_transfer needs `size [...]`
  ktdf.ind_data_transfer from %x[ind(%idx[%b]), (0)] to %d[0] size [128] : memref<8x128xf16, "DDR">, memref<4xi32, "L1">, memref<128xf16, "L1">
  return
}

// -----

func.func @negative_ind_type_count(%x: memref<8x128xf16, "DDR">, %idx: memref<4xi32, "L1">, %d: memref<128xf16, "L1">, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: expected 3 types (the source, one per index buffer, the destination), got 2
  ktdf.ind_data_transfer from %x[ind(%idx[%b]), (0)] size [1, 128] to %d[0] size [128] : memref<8x128xf16, "DDR">, memref<128xf16, "L1">
  return
}

// -----

func.func @negative_ind_none(%x: memref<8x128xf16, "DDR">, %d: memref<128xf16, "L1">, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op an indirect transfer needs an ind(...) subscript on its source or its destination (else use ktdf.data_transfer)
  ktdf.ind_data_transfer from %x[%b, 0] size [1, 128] to %d[0] size [128] : memref<8x128xf16, "DDR">, memref<128xf16, "L1">
  return
}

// -----

func.func @negative_ind_dest_subscript_count(%y: memref<8x128xf16, "DDR">, %idx: memref<4xi32, "L1">, %s: memref<128xf16, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op expects one subscript per destination dimension (2), got 1 kinds and 1 maps
  ktdf.ind_data_transfer from %s[0] size [128] to %y[ind(%idx[0])] size [1, 128] : memref<128xf16, "L1">, memref<4xi32, "L1">, memref<8x128xf16, "DDR">
  return
}

// -----

func.func @negative_ind_dest_sizes(%y: memref<8x128xf16, "DDR">, %idx: memref<4xi32, "L1">, %s: memref<128xf16, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op dest size count (1) must match memref rank (2)
  ktdf.ind_data_transfer from %s[0] size [128] to %y[ind(%idx[0]), (0)] size [128] : memref<128xf16, "L1">, memref<4xi32, "L1">, memref<8x128xf16, "DDR">
  return
}

// -----

func.func @negative_ind_dest_map(%y: memref<8x128xf16, "DDR">, %idx: memref<4xi32, "L1">, %s: memref<128xf16, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op an indirect destination is a memref with dest_subscript_kinds and dest_subscript_maps, and no dest_map
  "ktdf.ind_data_transfer"(%s, %y, %idx) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 1, 1, 0, 0>, per_dim_subscript_kinds = [false], per_dim_subscript_maps = [affine_map<() -> (0)>], static_source_sizes = array<i64: 128>, static_dest_sizes = array<i64: 1, 128>, dest_map = affine_map<() -> (0, 0)>, dest_subscript_kinds = [true, false], dest_subscript_maps = [affine_map<() -> (0)>, affine_map<() -> (0)>]}> : (memref<128xf16, "L1">, memref<8x128xf16, "DDR">, memref<4xi32, "L1">) -> ()
  return
}

// -----

func.func @negative_ind_fifo_source_subscripts(%y: memref<8x128xf16, "DDR">, %idx: memref<4xi32, "L1">, %s: !ktdf.fifo.slot<"PE" -> "LX_STORE", 128xf16>, %b: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.ind_data_transfer' op a FIFO source has no subscripts
  "ktdf.ind_data_transfer"(%s, %b, %y, %idx) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 1, 1, 0, 0>, static_source_sizes = array<i64: 128>, static_dest_sizes = array<i64: 1, 128>, dest_subscript_kinds = [true, false], dest_subscript_maps = [affine_map<() -> (0)>, affine_map<() -> (0)>]}> : (!ktdf.fifo.slot<"PE" -> "LX_STORE", 128xf16>, index, memref<8x128xf16, "DDR">, memref<4xi32, "L1">) -> ()
  return
}

// -----

func.func @negative_reserve_missing() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.tiling.reserve_size' op property 'divisibility' expected in operation 'ktdf.tiling.reserve_size'
  %t = ktdf.tiling.reserve_size {min_value = 1 : index} : index
  return
}

// -----

func.func @negative_reserve_min_value() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.tiling.reserve_size' op min_value must be >= 1, got 0
  %t = ktdf.tiling.reserve_size {min_value = 0 : index, divisibility = 1 : index} : index
  return
}

// -----

func.func @negative_reserve_divisibility() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.tiling.reserve_size' op divisibility must be >= 1, got -2
  %t = ktdf.tiling.reserve_size {min_value = 1 : index, divisibility = -2 : index} : index
  return
}

// -----

func.func @negative_derive_no_pairs(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.tiling.derive_size' op must have at least one [iv : tile_size] pair
  %x = ktdf.tiling.derive_size total_size = %n : index
  return
}

// -----

func.func @negative_derive_uneven(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.tiling.derive_size' op Operation has 3 operands for 2 variadic operands marked as having the same size.
  %x = "ktdf.tiling.derive_size"(%n, %n, %n, %n) : (index, index, index, index) -> index
  return
}

// -----

func.func @negative_linearize_no_pairs() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.tiling.linearize_index' op must have at least one [iv : stride] pair
  %x = ktdf.tiling.linearize_index : index
  return
}

// -----

func.func @negative_parallel_no_iv(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: expected at least one induction variable plus an instance id (got 1 block arguments)
  ktdf.parallel (%inst) = () to () step () distribute(num_instances = 2) {
    ktdf.parallel_yield
  }
  return
}

// -----

func.func @negative_parallel_bounds(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: expected 1 upper bounds (one per induction variable), got 2
  ktdf.parallel (%i, %inst) = (%n) to (%n, %n) step (%n) distribute(num_instances = 2) {
    ktdf.parallel_yield
  }
  return
}

// -----

func.func @negative_parallel_instances(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.parallel' op expected num_instances >= 1, got 0
  ktdf.parallel (%i, %inst) = (%n) to (%n) step (%n) distribute(num_instances = 0) {
    ktdf.parallel_yield
  }
  return
}

// -----

func.func @negative_parallel_terminator(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.parallel' op region must be terminated by a ktdf.parallel_yield operation
  ktdf.parallel (%i, %inst) = (%n) to (%n) step (%n) distribute(num_instances = 2) {
  }
  return
}

// -----

func.func @negative_parallel_generic_no_iv() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.parallel' op expected at least one induction variable
  "ktdf.parallel"() <{num_instances = 2 : i64}> ({
  ^bb0(%inst: index):
    ktdf.parallel_yield
  }) : () -> ()
  return
}

// -----

func.func @negative_parallel_args(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.parallel' op expected 2 block arguments (one per induction variable plus the instance id), got 1
  "ktdf.parallel"(%n, %n, %n) <{num_instances = 2 : i64}> ({
  ^bb0(%i: index):
    ktdf.parallel_yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @negative_parallel_arg_type(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.parallel' op all block arguments (induction variables and instance id) must be of type index
  "ktdf.parallel"(%n, %n, %n) <{num_instances = 2 : i64}> ({
  ^bb0(%i: index, %inst: i32):
    ktdf.parallel_yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @negative_parallel_yield_parent() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.parallel_yield' op 'ktdf.parallel_yield' expects parent op 'ktdf.parallel'
  ktdf.parallel_yield
}

// -----

func.func @negative_phase_no_ivs() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.buffer_phase' op requires at least one induction variable operand
  %p = ktdf.buffer_phase() {num_phases = 2 : i64} : index
  return
}

// -----

func.func @negative_phase_count(%i: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.buffer_phase' op num_phases must be >= 2, got 1
  %p = ktdf.buffer_phase(%i) {num_phases = 1 : i64} : index
  return
}

// -----

func.func @negative_phase_missing(%i: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.buffer_phase' op property 'num_phases' expected in operation 'ktdf.buffer_phase'
  %p = ktdf.buffer_phase(%i) : index
  return
}

// -----

func.func @negative_select_one(%p: index, %a: memref<4xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.select_memref' op requires at least 2 candidate memrefs, got 1
  %s = ktdf.select_memref %p[%a] : memref<4xf16>
  return
}

// -----

func.func @negative_select_type(%p: index, %a: memref<4xf16>, %b: memref<8xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.select_memref' op candidate #1 has type memref<8xf16>, expected the result type memref<4xf16>
  %s = "ktdf.select_memref"(%p, %a, %b) : (index, memref<4xf16>, memref<8xf16>) -> memref<4xf16>
  return
}

// -----

func.func @negative_select_phases(%i: index, %a: memref<4xf16>) {
  %p = ktdf.buffer_phase(%i) {num_phases = 3 : i64} : index
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.select_memref' op phase op num_phases (3) must equal candidate count (2)
  %s = ktdf.select_memref %p[%a, %a] : memref<4xf16>
  return
}

// -----

func.func @negative_opaque_results(%a: tensor<4xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.opaque' op expected the number of tensor results (0) to be equal to the number of output tensors (1)
  ktdf.opaque "ADD" ins(%a : tensor<4xf16>) outs(%a : tensor<4xf16>)
  return
}

// -----

func.func @negative_opaque_result_type(%a: tensor<4xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.opaque' op result #0 has type tensor<8xf16>, expected the type of its output tensor tensor<4xf16>
  %r = ktdf.opaque "ADD" -> tensor<8xf16> ins(%a : tensor<4xf16>) outs(%a : tensor<4xf16>)
  return
}

// -----

func.func @negative_opaque_name(%a: tensor<4xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.opaque' op needs a non-empty template name
  %r = ktdf.opaque "" -> tensor<4xf16> ins() outs(%a : tensor<4xf16>)
  return
}

// -----

func.func @negative_opaque_types(%a: tensor<4xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: 2 operands but 1 types
  %r = ktdf.opaque "ADD" -> tensor<4xf16> ins(%a, %a : tensor<4xf16>) outs(%a : tensor<4xf16>)
  return
}

// -----

func.func @negative_transfer_mode_type(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op transfer_mode must be "splat" or "pad", got 1 : i64
  ktdf.data_transfer from %a[0] size [64] to %b[0] size [64] {transfer_mode = 1} : memref<64xf16, "L1">, memref<64xf16, "L1">
  return
}

// -----

func.func @negative_transfer_unknown_type(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:86: error: expected a memref or FIFO slot type, got index
  ktdf.data_transfer from %a[0] size [64] to %b[0] size [64] : memref<64xf16, "L1">, index
  return
}

// -----

func.func @negative_index_result(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:59: error: ktdf.tiling.linearize_index produces index, not i32
  %x = ktdf.tiling.linearize_index [%n : %n], [%n : %n] : i32
  return
}

// -----

func.func @negative_read_result(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:62: error: expected a ranked tensor or memref type, got f16
  %d = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> f16
  return
}

// -----

func.func @negative_write_slot(%d: tensor<64xf16>, %s: memref<64xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:47: error: expected a FIFO slot type, got memref<64xf16>
  ktdf.write_to_fifo %d, %s : tensor<64xf16>, memref<64xf16>
  return
}

// -----

func.func @negative_transfer_side_type(%a: memref<64xf16>, %t: tensor<64xf16>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:80: error: expected a memref or FIFO slot type, got tensor<64xf16>
  ktdf.data_transfer from %a[0] size [64] to %t[0] size [64] : memref<64xf16>, tensor<64xf16>
  return
}

// -----

func.func @negative_mask_both_sides(%a: memref<64xf16, "L1">, %b: memref<64xf16, "DDR">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op a transfer masks one side: source_mask or dest_mask
  ktdf.data_transfer from %a[0] size [64] to %b[0] size [64] source_mask affine_set<(d0) : (d0 >= 0)> dest_mask affine_set<(d0) : (d0 >= 0)> : memref<64xf16, "L1">, memref<64xf16, "DDR">
  return
}

// -----

func.func @negative_mask_symbols(%a: memref<64xf16, "L1">, %b: memref<?xf16, "DDR">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op dest_mask has 1 symbol(s) but 0 mask_symbols are given
  ktdf.data_transfer from %a[0] size [64] to %b[0] size [64] dest_mask affine_set<(d0)[s0] : (d0 >= 0, s0 - d0 - 1 >= 0)> : memref<64xf16, "L1">, memref<?xf16, "DDR">
  return
}

// -----

func.func @negative_mask_rank(%a: memref<64xf16, "L1">, %b: memref<?xf16, "DDR">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op dest_mask has 2 dimension(s) but the dest has rank 1
  ktdf.data_transfer from %a[0] size [64] to %b[0] size [64] dest_mask affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)> : memref<64xf16, "L1">, memref<?xf16, "DDR">
  return
}

// -----

func.func @negative_mask_fifo(%s: !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, %b: memref<64xf16, "L1">) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op source_mask needs a memref source, not a FIFO slot
  ktdf.data_transfer from %s to %b[0] size [64] source_mask affine_set<(d0) : (d0 >= 0)> : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">
  return
}

// -----

func.func @negative_mask_symbols_alone(%a: memref<64xf16, "L1">, %b: memref<64xf16, "DDR">, %n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf.data_transfer' op mask_symbols without a source_mask or dest_mask
  ktdf.data_transfer from %a[0] size [64] to %b[0] size [64] mask_symbols(%n) : memref<64xf16, "L1">, memref<64xf16, "DDR">
  return
}
