// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// One case per agen verifier and parser rule (shared/spec/dataflow-ir.md §3, §7 E6): each
/// chunk breaks exactly one rule and the located message names it.

func.func @negative_map_operands(%m: memref<64xf16>, %i: index) {
  %v = "agen.vector_load"(%m, %i, %i) <{affine_map = affine_map<(d0) -> (d0)>, load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, operandSegmentSizes = array<i32: 1, 2, 0>}> : (memref<64xf16>, index, index) -> vector<64xf16>
  return
}
// CHECK: error: 'agen.vector_load' op the memref subscripts take 1 operands, got 2

// -----

func.func @negative_subscript_rank(%m: memref<4x64xf16>) {
  %v = agen.vector_load %m[0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<4x64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'agen.vector_load' op the memref subscripts give 1 coordinates for a rank-2 memref

// -----

func.func @negative_set_rank(%m: memref<4x64xf16>) {
  %v = agen.vector_load %m[0, 0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<4x64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'agen.vector_load' op load_set has 1 dimensions but the loaded memref has rank 2

// -----

func.func @negative_order_dims(%m: memref<64xf16>, %v: vector<64xf16>) {
  agen.vector_store %v, %m[0] {store_order = affine_map<(d0, d1) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'agen.vector_store' op store_set and store_order dimensions should match (1 vs 2, no symbols)

// -----

func.func @negative_unbounded_set(%m: memref<64xf16>) {
  %v = agen.vector_load %m[0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0)>} : memref<64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'agen.vector_load' op load_set is unbounded: every dimension needs a finite range

// -----

func.func @negative_set_symbols(%m: memref<64xf16>) {
  %v = agen.vector_load %m[0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 >= 0)>} : memref<64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'agen.vector_load' op load_set must not use symbols

// -----

func.func @negative_lanes(%m: memref<64xf16>) {
  %v = agen.vector_load %m[0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'agen.vector_load' op load_set selects 1 elements but the vector has 64 lanes

// -----

func.func @negative_element_type(%m: memref<64xf16>, %v: vector<64xi16>) {
  agen.vector_store %v, %m[0] {store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<64xf16>, vector<64xi16>
  return
}
// CHECK: error: 'agen.vector_store' op vector element type i16 differs from the memref element type f16

// -----

func.func @negative_time_symbols(%a: memref<64xf16>, %b: memref<64xf16>) {
  agen.composite_load_and_store src:%a[0] dst:%b[0] time_symbols(), load_iv(%x:vector<64xf16>) {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, load_time_addr_map = affine_map<(d0) -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, store_time_addr_map = affine_map<(d0) -> (0)>, time_order = affine_map<(d0) -> (d0)>, time_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 >= 0)>} {
  } : memref<64xf16>, memref<64xf16>
  return
}
// CHECK: error: 'agen.composite_load_and_store' op time_set has 1 symbols but 0 time_symbols are given

// -----

func.func @negative_time_order(%a: memref<64xf16>, %b: memref<64xf16>) {
  agen.composite_load_and_store src:%a[0] dst:%b[0] time_symbols(), load_iv(%x:vector<64xf16>) {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<(d0) -> (d0)>, time_set = affine_set<() : ()>} {
  } : memref<64xf16>, memref<64xf16>
  return
}
// CHECK: error: 'agen.composite_load_and_store' op time_order must have one input per time_set dimension (0), got 1

// -----

func.func @negative_time_addr_inputs(%a: memref<64xf16>, %b: memref<64xf16>) {
  agen.composite_load_and_store src:%a[0] dst:%b[0] time_symbols(), load_iv(%x:vector<64xf16>) {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, load_time_addr_map = affine_map<(d0) -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
  } : memref<64xf16>, memref<64xf16>
  return
}
// CHECK: error: 'agen.composite_load_and_store' op load_time_addr_map must take the 0 time dimension(s)

// -----

func.func @negative_time_addr_results(%a: memref<64xf16>, %b: memref<64xf16>) {
  agen.composite_load_and_store src:%a[0] dst:%b[0] time_symbols(), load_iv(%x:vector<64xf16>) {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, store_time_addr_map = affine_map<() -> (0, 0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
  } : memref<64xf16>, memref<64xf16>
  return
}
// CHECK: error: 'agen.composite_load_and_store' op store_time_addr_map must give one offset per memref dimension (1), got 2

// -----

func.func @negative_region_argument(%a: memref<64xf16>, %b: memref<64xf16>) {
  "agen.composite_load_and_store"(%a, %b) <{src_map = affine_map<() -> (0)>, dst_map = affine_map<() -> (0)>, load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> ({
    "agen.yield"() : () -> ()
  }) : (memref<64xf16>, memref<64xf16>) -> ()
  return
}
// CHECK: error: 'agen.composite_load_and_store' op the region takes exactly one vector argument (the loaded vector)

// -----

func.func @negative_yields_two(%a: memref<64xf16>, %b: memref<64xf16>) {
  agen.composite_load_and_store src:%a[0] dst:%b[0] time_symbols(), load_iv(%x:vector<64xf16>) {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
    agen.yield %x, %x : vector<64xf16>, vector<64xf16>
  } : memref<64xf16>, memref<64xf16>
  return
}
// CHECK: error: 'agen.composite_load_and_store' op the region yields 2 values, at most one vector

// -----

func.func @negative_stored_lanes(%a: memref<64xf16>, %b: memref<64xf16>, %h: vector<32xf16>) {
  agen.composite_load_and_store src:%a[0] dst:%b[0] time_symbols(), load_iv(%x:vector<64xf16>) {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
    agen.yield %h : vector<32xf16>
  } : memref<64xf16>, memref<64xf16>
  return
}
// CHECK: error: 'agen.composite_load_and_store' op store_set selects 64 elements but the vector has 32 lanes

// -----

func.func @negative_composite_load_yields(%a: memref<64xf16>) {
  agen.composite_load %a[0] time_symbols()(%x:vector<64xf16>) {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
    agen.yield %x : vector<64xf16>
  } : memref<64xf16>
  return
}
// CHECK: error: 'agen.composite_load' op the region must not yield values (a composite load stores nothing)

// -----

func.func @negative_store_both(%b: memref<64xf16>, %v: vector<64xf16>) {
  agen.composite_store %b[0] input_vector = %v time_symbols() {store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} : memref<64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'agen.composite_store' op either store_set + store_order or input_vector, not both

// -----

func.func @negative_store_neither(%b: memref<64xf16>) {
  agen.composite_store %b[0] time_symbols() {time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
  } : memref<64xf16>
  return
}
// CHECK: error: 'agen.composite_store' op either store_set + store_order or input_vector is required

// -----

func.func @negative_store_vector_and_region(%b: memref<64xf16>, %v: vector<64xf16>) {
  agen.composite_store %b[0] input_vector = %v time_symbols() {time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
  } : memref<64xf16>, vector<64xf16>
  return
}
// CHECK: error: a composite_store has either input_vector or a region

// -----

func.func @negative_store_must_yield(%b: memref<64xf16>) {
  agen.composite_store %b[0] time_symbols() {store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
  } : memref<64xf16>
  return
}
// CHECK: error: 'agen.composite_store' op the region must yield the vector to store

// -----

func.func @negative_index_memref_type(%i: memref<4xf16>, %a: memref<64xf16>) {
  %v = agen.indirect_vector_load indirect:%i[0] direct:%a[0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<4xf16>, memref<64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'agen.indirect_vector_load' op the indirect memref must hold integers or indices, got f16

// -----

func.func @negative_indirect_time_map(%a: memref<64xf16>, %b: memref<64xf16>) {
  agen.composite_indirect_load_and_store direct_src:%a[0] direct_dst:%b[0] time_symbols(), load_iv(%x:vector<64xf16>) {load_indirect_time_addr_map = affine_map<() -> (0)>, load_direct_time_addr_map = affine_map<() -> (0)>, store_direct_time_addr_map = affine_map<() -> (0)>, load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
  } : memref<64xf16>, memref<64xf16>
  return
}
// CHECK: error: 'agen.composite_indirect_load_and_store' op load_indirect_time_addr_map is required with, and only with, indirect_src

// -----

func.func @negative_vector_load_indirect_dim(%i: memref<4xi32>, %a: memref<64xf16>) {
  %v = agen.indirect_vector_load indirect:%i[0] direct:%a[0] {indirect_dims = array<i64: 2>, load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<4xi32>, memref<64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'agen.indirect_vector_load' op indirect_dims [2] must be distinct dimensions of the direct memref (rank 1)

// -----

func.func @negative_indirect_dims_repeated(%i: memref<4xi32>, %a: memref<64xf16>, %b: memref<64xf16>) {
  agen.composite_indirect_load_and_store indirect_src:%i[0] direct_src:%a[0] direct_dst:%b[0] time_symbols(), load_iv(%x:vector<64xf16>) {indirect_src_dims = array<i64: 0, 0>, load_indirect_time_addr_map = affine_map<() -> (0)>, load_direct_time_addr_map = affine_map<() -> (0)>, store_direct_time_addr_map = affine_map<() -> (0)>, load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
  } : memref<4xi32>, memref<64xf16>, memref<64xf16>
  return
}
// CHECK: error: 'agen.composite_indirect_load_and_store' op indirect_src_dims [0, 0] must be distinct dimensions of the direct memref (rank 1)

// -----

func.func @negative_indirect_dim_without_index(%a: memref<64xf16>, %b: memref<64xf16>) {
  agen.composite_indirect_load_and_store direct_src:%a[0] direct_dst:%b[0] time_symbols(), load_iv(%x:vector<64xf16>) {indirect_dst_dims = array<i64: 0>, load_direct_time_addr_map = affine_map<() -> (0)>, store_direct_time_addr_map = affine_map<() -> (0)>, load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
  } : memref<64xf16>, memref<64xf16>
  return
}
// CHECK: error: 'agen.composite_indirect_load_and_store' op indirect_dst_dims without an indirect_dst memref

// -----

func.func @negative_indirect_side_without_map(%i: memref<4xi32>, %a: memref<64xf16>, %b: memref<64xf16>) {
  "agen.composite_indirect_load_and_store"(%i, %a, %b) <{direct_src_map = affine_map<() -> (0)>, direct_dst_map = affine_map<() -> (0)>, load_direct_time_addr_map = affine_map<() -> (0)>, store_direct_time_addr_map = affine_map<() -> (0)>, load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>, operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 0, 0, 0, 0, 0>}> ({
  ^bb0(%x: vector<64xf16>):
    "agen.yield"() : () -> ()
  }) : (memref<4xi32>, memref<64xf16>, memref<64xf16>) -> ()
  return
}
// CHECK: error: 'agen.composite_indirect_load_and_store' op indirect_src: the memref and its map come together

// -----

func.func @negative_symbolic_rank(%u: index, %i: index) {
  %view = dataflow.get_logical_memory_view %u, %i {layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>} : index, index, memref<2x64xi8>
  %d = agen.symbolic_vector_load %view[indices:(%i), strides:(%i)] : memref<2x64xi8>, vector<64xi8>
  return
}
// CHECK: error: 'agen.symbolic_vector_load' op the memref must be one-dimensional

// -----

func.func @negative_symbolic_not_view(%m: memref<64xi8>, %i: index) {
  %d = agen.symbolic_vector_load %m[indices:(%i), strides:(%i)] : memref<64xi8>, vector<64xi8>
  return
}
// CHECK: error: 'agen.symbolic_vector_load' op the memref must be a dataflow.get_logical_memory_view with the identity layout_map

// -----

func.func @negative_symbolic_layout(%u: index, %i: index) {
  %view = dataflow.get_logical_memory_view %u, %i {layout_map = affine_map<(d0) -> (d0 * 2)>} : index, index, memref<64xi8>
  %d = agen.symbolic_vector_load %view[indices:(%i), strides:(%i)] : memref<64xi8>, vector<64xi8>
  return
}
// CHECK: error: 'agen.symbolic_vector_load' op the memref must be a dataflow.get_logical_memory_view with the identity layout_map

// -----

func.func @negative_symbolic_vector_rank(%u: index, %i: index) {
  %view = dataflow.get_logical_memory_view %u, %i {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<64xi8>
  %d = agen.symbolic_vector_load %view[indices:(%i), strides:(%i)] : memref<64xi8>, vector<2x32xi8>
  return
}
// CHECK: error: 'agen.symbolic_vector_load' op the vector must be one-dimensional

// -----

func.func @negative_symbolic_no_index(%u: index, %i: index, %v: vector<64xi8>) {
  %view = dataflow.get_logical_memory_view %u, %i {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<64xi8>
  agen.symbolic_vector_store %v, %view[indices:(), strides:()] : memref<64xi8>, vector<64xi8>
  return
}
// CHECK: error: 'agen.symbolic_vector_store' op expects at least one index

// -----

func.func @negative_symbolic_strides(%u: index, %i: index) {
  %view = dataflow.get_logical_memory_view %u, %i {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<64xi8>
  %d = agen.symbolic_vector_load %view[indices:(%i, %i), strides:(%i)] : memref<64xi8>, vector<64xi8>
  return
}
// CHECK: error: 'agen.symbolic_vector_load' op 1 strides for 2 indices

// -----

func.func @negative_symbolic_element(%u: index, %i: index) {
  %view = dataflow.get_logical_memory_view %u, %i {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<64xi8>
  %d = agen.symbolic_vector_load %view[indices:(%i), strides:(%i)] : memref<64xi8>, vector<64xf16>
  return
}
// CHECK: error: 'agen.symbolic_vector_load' op vector element type f16 differs from the memref element type i8

// -----

func.func @negative_symbolic_set_alone(%u: index, %i: index) {
  %view = dataflow.get_logical_memory_view %u, %i {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<64xi8>
  %d = agen.symbolic_vector_load %view[indices:(%i), strides:(%i)] {load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<64xi8>, vector<64xi8>
  return
}
// CHECK: error: 'agen.symbolic_vector_load' op load_set and load_order come together

// -----

func.func @negative_interleave_granularity() {
  agen.composite_memory_interleave {granularity = 0 : i32} {
  }
  return
}
// CHECK: error: 'agen.composite_memory_interleave' op granularity must be > 0

// -----

func.func @negative_interleave_content(%m: memref<64xf16>) {
  agen.composite_memory_interleave {} {
    %v = agen.vector_load %m[0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<64xf16>, vector<64xf16>
  }
  return
}
// CHECK: error: 'agen.composite_memory_interleave' op the region may only hold agen composite memory ops

// -----

func.func @negative_interleave_mixed(%a: memref<64xf16>, %b: memref<64xf16>) {
  agen.composite_memory_interleave {} {
    agen.composite_load_and_store src:%a[0] dst:%b[0] time_symbols(), load_iv(%x:vector<64xf16>) {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
    } : memref<64xf16>, memref<64xf16>
    agen.composite_load %a[0] time_symbols()(%y:vector<64xf16>) {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} {
    } : memref<64xf16>
  }
  return
}
// CHECK: error: 'agen.composite_memory_interleave' op all interleaved ops must be of the same kind

// -----

func.func @negative_mask_counts(%c: index) {
  %mk = "agen.set_transfer_mask_state"(%c) <{num_slices = 1 : i32, slice_mask_map = "(A)", num_unmasked_elements = [1 : i32], num_masked_elements = [1 : i32, 2 : i32]}> : (index) -> vector<64xi1>
  return
}
// CHECK: error: 'agen.set_transfer_mask_state' op num_unmasked_elements and num_masked_elements must both be present with equal lengths, or both absent

// -----

func.func @negative_mask_slices(%c: index) {
  %mk = agen.set_transfer_mask_state mask_value(%c) {num_slices = 3 : i32, slice_mask_map = "(0)(1)"} : index, vector<64xi1>
  return
}
// CHECK: error: 'agen.set_transfer_mask_state' op slice_mask_map must be 3 groups like (0), (1), (A) or (A|B)

// -----

func.func @negative_mask_undefined(%c: index) {
  %mk = agen.set_transfer_mask_state mask_value(%c) {num_slices = 1 : i32, slice_mask_map = "(A|B)", maskA = "(unmasked = 1, masked = 1)"} : index, vector<64xi1>
  return
}
// CHECK: error: 'agen.set_transfer_mask_state' op slice mask '(A|B)' names a mask that is not defined

// -----

func.func @negative_mask_empty(%c: index) {
  %mk = agen.set_transfer_mask_state mask_value(%c) {num_slices = 1 : i32, slice_mask_map = "(A)", maskA = "(unmasked = 0, masked = 0)"} : index, vector<64xi1>
  return
}
// CHECK: error: 'agen.set_transfer_mask_state' op each mask needs at least one element

// -----

func.func @negative_mask_spec(%c: index) {
  %mk = agen.set_transfer_mask_state mask_value(%c) {num_slices = 1 : i32, slice_mask_map = "(A)", maskA = "six and two"} : index, vector<64xi1>
  return
}
// CHECK: error: 'maskA' must read "(unmasked = N, masked = M)"

// -----

func.func @negative_mask_gap(%c: index) {
  %mk = agen.set_transfer_mask_state mask_value(%c) {num_slices = 1 : i32, slice_mask_map = "(B)", maskB = "(unmasked = 1, masked = 1)"} : index, vector<64xi1>
  return
}
// CHECK: error: masks must be named maskA, maskB, ... without gaps

// -----

func.func @negative_yield_outside() {
  "agen.yield"() : () -> ()
}
// CHECK: error: 'agen.yield' op 'agen.yield' expects parent op to be one of 'agen.composite_load_and_store', 'agen.composite_load', 'agen.composite_store', 'agen.composite_indirect_load_and_store', 'agen.composite_indirect_load', 'agen.composite_indirect_store', 'agen.composite_memory_interleave'
