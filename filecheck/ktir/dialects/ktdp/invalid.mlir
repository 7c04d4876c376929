// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// One case per ktdp verifier and parser rule (shared/spec/ktir.md): each chunk breaks exactly one
/// rule and the message names it. --verify-diagnostics prints the located error and goes on.

func.func @negative_memory_space_unknown_kind(%a: memref<4xf16, #ktdp.memory_space<shared>>) {
  return
}
// CHECK: error: {{.*}}unknown memory space 'shared', expected 'global' or 'ct_local'

// -----

func.func @negative_ct_id_on_global(%a: memref<4xf16, #ktdp.memory_space<global, ct_id = 1>>) {
  return
}
// CHECK: error: {{.*}}'ct_id' is only valid with 'ct_local'

// -----

func.func @negative_ct_id_negative(%a: memref<4xf16, #ktdp.memory_space<ct_local, ct_id = -2>>) {
  return
}
// CHECK: error: {{.*}}'ct_id' must be >= 0, got -2

// -----

func.func @negative_legacy_unknown_kind(%a: memref<4xf16, #ktdp.spyre_memory_space<DRAM>>) {
  return
}
// CHECK: error: {{.*}}unknown legacy memory space 'DRAM'

// -----

func.func @negative_legacy_core_negative(%a: memref<4xf16, #ktdp.spyre_memory_space<LX, core = -1>>) {
  return
}
// CHECK: error: {{.*}}core must be >= 0, got -1

// -----

func.func @negative_legacy_core_on_hbm(%a: memref<4xf16, #ktdp.spyre_memory_space<HBM, core = 2>>) {
  return
}
// CHECK: error: {{.*}}core affinity is only valid for LX or L0 memory spaces, but got memory space 'HBM' with core = 2

// -----

func.func @negative_tile_element_type(%t: !ktdp.access_tile<32x64xf16>) {
  return
}
// CHECK: error: {{.*}}tile element type must be 'index'

// -----

func.func @negative_runtime_arg_type(%r: !ktdp.runtime_arg<tensor<4xf16>>) {
  return
}
// CHECK: error: {{.*}}runtime_arg underlying type must be index, an integer or a float type

// -----

func.func @negative_runtime_arg_duplicate(%r: !ktdp.runtime_arg<index, granularity=2, granularity=4>) {
  return
}
// CHECK: error: {{.*}}duplicate 'granularity' in runtime_arg

// -----

func.func @negative_runtime_arg_granularity(%r: !ktdp.runtime_arg<index, granularity=0>) {
  return
}
// CHECK: error: {{.*}}runtime_arg granularity must be positive

// -----

func.func @negative_runtime_arg_upperbound(%r: !ktdp.runtime_arg<index, upperbound=-1>) {
  return
}
// CHECK: error: {{.*}}runtime_arg upperbound must be positive

// -----

func.func @negative_future_groups_not_set(%f: !ktdp.tile_future<(tensor<4xf16>), groups = affine_map<(d0) -> (d0)>>) {
  return
}
// CHECK: error: {{.*}}expected an affine_set for tile_future groups

// -----

func.func @negative_future_groups_rank(%f: !ktdp.tile_future<(tensor<4xf16>), groups = affine_set<(g, h) : (g >= 0, h >= 0)>>) {
  return
}
// CHECK: error: {{.*}}tile_future groups must be a 1-D affine set without symbols

// -----

func.func @negative_future_partial_type(%f: !ktdp.tile_future<(memref<4xf16>), groups = affine_set<(g) : (g == 0)>>) {
  return
}
// CHECK: error: {{.*}}tile_future partial types must be ranked tensors

// -----

func.func @negative_tile_id_count() attributes {grid = [4, 2]} {
  %a, %b, %c = ktdp.get_compute_tile_id : index, index, index
  return
}
// CHECK: error: 'ktdp.get_compute_tile_id' op expects 1 result or one per grid dimension (2), got 3

// -----

func.func @negative_tile_id_type() {
  %a = ktdp.get_compute_tile_id : i32
  return
}
// CHECK: error: {{.*}}i32 should be of base attribute index

// -----

func.func @negative_view_no_space(%a: index) {
  %v = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16>
  return
}
// CHECK: error: {{.*}}ktdp.construct_memory_view needs a 'memory_space' attribute

// -----

func.func @negative_view_not_memref(%a: index) {
  %v = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : tensor<32x64xf16>
  return
}
// CHECK: error: {{.*}}construct_memory_view must produce a memref, got tensor<32x64xf16>

// -----

func.func @negative_view_static_lengths(%a: index) {
  %v = "ktdp.construct_memory_view"(%a) <{static_sizes = array<i64: 4>, static_strides = array<i64: 1, 1>, coordinate_set = affine_set<(d0) : (d0 >= 0)>, memory_space = #ktdp.memory_space<global>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (index) -> memref<4xf16>
  return
}
// CHECK: error: {{.*}}static sizes and strides must have the same length

// -----

func.func @negative_view_dynamic_sizes(%a: index) {
  %v = "ktdp.construct_memory_view"(%a) <{static_sizes = array<i64: -9223372036854775808>, static_strides = array<i64: 1>, coordinate_set = affine_set<(d0) : (d0 >= 0)>, memory_space = #ktdp.memory_space<global>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (index) -> memref<?xf16>
  return
}
// CHECK: error: {{.*}}0 dynamic size operands for 1 '?'

// -----

func.func @negative_view_dynamic_strides(%a: index) {
  %v = "ktdp.construct_memory_view"(%a, %a) <{static_sizes = array<i64: 4>, static_strides = array<i64: 1>, coordinate_set = affine_set<(d0) : (d0 >= 0)>, memory_space = #ktdp.memory_space<global>, operandSegmentSizes = array<i32: 1, 0, 1>}> : (index, index) -> memref<4xf16>
  return
}
// CHECK: error: {{.*}}1 dynamic stride operands for 0 '?'

// -----

func.func @negative_view_rank(%a: index) {
  %v = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64x8xf16>
  return
}
// CHECK: error: {{.*}}result memref rank does not match sizes/strides length

// -----

func.func @negative_view_dim(%a: index) {
  %v = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
  return
}
// CHECK: error: {{.*}}result dimension 1 is 32 but size 1 is 64

// -----

func.func @negative_view_negative_size(%a: index) {
  %v = ktdp.construct_memory_view %a, sizes: [-4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  return
}
// CHECK: error: {{.*}}size 0 must be >= 0, got -4

// -----

func.func @negative_view_negative_stride(%a: index) {
  %v = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, -1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  return
}
// CHECK: error: {{.*}}stride 1 must be >= 0, got -1

// -----

func.func @negative_view_set_rank(%a: index) {
  %v = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0) : (d0 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  return
}
// CHECK: error: {{.*}}coordinate_set has 1 dims but the view has rank 2

// -----

func.func @negative_view_set_symbols(%a: index) {
  %v = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  return
}
// CHECK: error: {{.*}}coordinate_set has 1 symbols but only 0 dynamic sizes to bind them to

// -----

// A bound past int64 (a fuzz mutant of allreduce.mlir): was an OverflowError in the interpreter.
func.func @negative_view_set_beyond_int64(%a: index) {
  %v = ktdp.construct_memory_view %a, sizes: [8, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 9223372036854775808, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x256xf32>
  return
}
// CHECK: error: {{.*}}coordinate_set bounds dimension 1 at 9223372036854775808, beyond the 64-bit range of index coordinates

// -----

func.func @negative_view_result_space(%a: index) {
  %v = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16, #ktdp.memory_space<ct_local>>
  return
}
// CHECK: error: {{.*}}result memory space #ktdp.memory_space<ct_local> differs from memory_space #ktdp.memory_space<global>

// -----

func.func @negative_view_ct_id_range(%a: index) attributes {grid = [4]} {
  %v = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 4>} : memref<32x64xf16>
  return
}
// CHECK: error: {{.*}}ct_id 4 is out of range for a grid of 4 tiles

// -----

func.func @negative_distributed_empty() {
  %d = "ktdp.construct_distributed_memory_view"() : () -> memref<4xf16>
  return
}
// CHECK: error: {{.*}}expects at least one input view

// -----

func.func @negative_distributed_element(%a: memref<32x64xf16>, %b: memref<32x64xf32>) {
  %d = ktdp.construct_distributed_memory_view (%a, %b : memref<32x64xf16>, memref<32x64xf32>) : memref<64x64xf16>
  return
}
// CHECK: error: {{.*}}all input memrefs must have the same element type as the result

// -----

func.func @negative_distributed_rank(%a: memref<32x64xf16>, %b: memref<64xf16>) {
  %d = ktdp.construct_distributed_memory_view (%a, %b : memref<32x64xf16>, memref<64xf16>) : memref<64x64xf16>
  return
}
// CHECK: error: {{.*}}all input memrefs must have the same rank as the result

// -----

func.func @negative_distributed_source() {
  %m = memref.alloc() : memref<4xf16>
  %d = ktdp.construct_distributed_memory_view (%m : memref<4xf16>) : memref<4xf16>
  return
}
// CHECK: error: {{.*}}input views must come from ktdp.construct_memory_view, not memref.alloc

// -----

func.func @negative_tile_missing_set(%v: memref<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  return
}
// CHECK: error: {{.*}}ktdp.construct_access_tile needs a 'access_tile_set' attribute

// -----

func.func @negative_tile_missing_order(%v: memref<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  return
}
// CHECK: error: {{.*}}ktdp.construct_access_tile needs a 'access_tile_order' attribute

// -----

func.func @negative_tile_set_rank(%v: memref<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = affine_map<(d0) -> (d0)>, access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<4xindex>
  return
}
// CHECK: error: {{.*}}access_tile_set has 1 dims but the base has rank 2

// -----

func.func @negative_tile_subscripts(%v: memref<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  return
}
// CHECK: error: {{.*}}1 subscripts for a base of rank 2

// -----

func.func @negative_tile_base_map(%v: memref<32x64xf16>, %i: index) {
  %t = "ktdp.construct_access_tile"(%v, %i) <{base_map = affine_map<(d0, d1) -> (d0, d1)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<32x64xf16>, index) -> !ktdp.access_tile<32x64xindex>
  return
}
// CHECK: error: {{.*}}base map inputs must equal the number of index operands

// -----

func.func @negative_tile_symbols(%v: memref<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 >= 0, d1 >= 0, -d1 + 3 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<?x4xindex>
  return
}
// CHECK: error: {{.*}}access_tile_set has 1 symbols but 0 symbol operands are given

// -----

func.func @negative_tile_order_inputs(%v: memref<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = affine_map<(d0) -> (d0, d0)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  return
}
// CHECK: error: {{.*}}access_tile order map has 1 inputs but the set has 2 dims

// -----

func.func @negative_tile_order_square(%v: memref<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = affine_map<(d0, d1) -> (d0)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  return
}
// CHECK: error: {{.*}}access_tile order map must be square

// -----

func.func @negative_tile_result_rank(%v: memref<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<2048xindex>
  return
}
// CHECK: error: {{.*}}result rank 1 must equal the access_tile_set dims (2)

// -----

func.func @negative_tile_symbolic_extent(%v: memref<32x64xf16>, %i: index, %n: index, %m: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] symbols(%n, %m) {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1)[s0, s1] : (d0 - s1 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  return
}
// CHECK: error: {{.*}}result dimension 0 is 32 but its extent depends on a symbol and so does where it starts (ambiguous: the set has no fixed first position for the type's box to start from); write '?'

// -----

func.func @negative_tile_shape(%v: memref<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = affine_map<(d0, d1) -> (d1, d0)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<16x32xindex>
  return
}
// CHECK: error: {{.*}}result shape 16x32 does not match the extents 32x16 of the access_tile_set under its order map: ambiguous, the set does not say where the extra positions lie

// -----

func.func @negative_tile_outside_view(%a: index) {
  %c30 = arith.constant 30 : index
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %t = ktdp.construct_access_tile %v[%c30, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<4x64xindex>
  return
}
// CHECK: error: {{.*}}the access tile at constant indices [30, 0] reaches outside the view's coordinate_set

// -----

func.func @negative_indirect_missing_set(%x: memref<100x16xf16>, %idx: memref<8xi32>) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %x[(%i), ind(%idx[%j])] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  return
}
// CHECK: error: {{.*}}ktdp.construct_indirect_access_tile needs a 'variables_space_set' attribute

// -----

func.func @negative_indirect_types(%x: memref<100x16xf16>, %idx: memref<8xi32>) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %x[(%i), ind(%idx[%j])] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<100x16xf16> -> !ktdp.access_tile<8x16xindex>
  return
}
// CHECK: error: {{.*}}expected 2 types (the base, then one per index view), got 1

// -----

func.func @negative_indirect_variables(%x: memref<100x16xf16>, %idx: memref<8xi32>) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i) %x[(%i), ind(%idx[%i])] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>} : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  return
}
// CHECK: error: {{.*}}1 intermediate variables but variables_space_set has 2 dims

// -----

func.func @negative_indirect_symbols(%x: memref<100x16xf16>, %idx: memref<8xi32>) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %x[(%i), ind(%idx[%j])] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 >= 0, d1 >= 0, -d1 + 15 >= 0)>} : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<?x16xindex>
  return
}
// CHECK: error: {{.*}}variables_space_set has 1 symbols but 0 symbol operands are given

// -----

func.func @negative_indirect_subscript_count(%x: memref<100x16xf16>, %idx: memref<8xi32>) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %x[ind(%idx[%j])] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>} : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  return
}
// CHECK: error: {{.*}}expects one subscript per base dimension (2), got 1 kinds and 1 maps

// -----

func.func @negative_indirect_kinds_bool(%x: memref<100x16xf16>, %idx: memref<8xi32>) {
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{per_dim_subscript_kinds = [1 : i32, 0 : i32], per_dim_subscript_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> ({
  ^bb0(%i: index, %j: index):
    ktdp.region_terminator
  }) : (memref<100x16xf16>, memref<8xi32>) -> !ktdp.access_tile<8x16xindex>
  return
}
// CHECK: error: {{.*}}per_dim_subscript_kinds must be booleans

// -----

func.func @negative_indirect_views(%x: memref<100x16xf16>, %idx: memref<8xi32>) {
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{per_dim_subscript_kinds = [true, true], per_dim_subscript_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> ({
  ^bb0(%i: index, %j: index):
    ktdp.region_terminator
  }) : (memref<100x16xf16>, memref<8xi32>) -> !ktdp.access_tile<8x16xindex>
  return
}
// CHECK: error: {{.*}}2 indirect subscripts but 1 index views

// -----

func.func @negative_indirect_map_inputs(%x: memref<100x16xf16>, %idx: memref<8xi32>) {
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{per_dim_subscript_kinds = [true, false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0, d1) -> (d0)>], variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> ({
  ^bb0(%i: index, %j: index):
    ktdp.region_terminator
  }) : (memref<100x16xf16>, memref<8xi32>) -> !ktdp.access_tile<8x16xindex>
  return
}
// CHECK: error: {{.*}}subscript map 0 has 1 inputs, expected 2 (captured + intermediate variables)

// -----

func.func @negative_indirect_index_rank(%x: memref<100x16xf16>, %idx: memref<8xi32>) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %x[ind(%idx[%i, %j]), (%j)] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>} : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  return
}
// CHECK: error: {{.*}}indirect subscript 0 has 2 indices for an index view of rank 1

// -----

func.func @negative_indirect_index_type(%x: memref<100x16xf16>, %idx: memref<8xf32>) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %x[ind(%idx[%i]), (%j)] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>} : memref<100x16xf16>, memref<8xf32> -> !ktdp.access_tile<8x16xindex>
  return
}
// CHECK: error: {{.*}}index view of subscript 0 must hold integers or index, not f32

// -----

func.func @negative_indirect_wide_constant(%x: memref<100x16xf16>, %idx: memref<8xi32>) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %x[ind(%idx[%i floordiv -1180591620717411303423]), (%j)] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>} : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  return
}
// CHECK: error: {{.*}}subscript map 0 holds the constant -1180591620717411303423, beyond the 64-bit range of index values

// -----

func.func @negative_indirect_direct_single(%x: memref<100x16xf16>, %idx: memref<8xi32>) {
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{per_dim_subscript_kinds = [true, false], per_dim_subscript_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> ({
  ^bb0(%i: index, %j: index):
    ktdp.region_terminator
  }) : (memref<100x16xf16>, memref<8xi32>) -> !ktdp.access_tile<8x16xindex>
  return
}
// CHECK: error: {{.*}}direct subscript 1 must be a single expression

// -----

func.func @negative_indirect_shape(%x: memref<100x16xf16>, %idx: memref<8xi32>) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %x[(%i), ind(%idx[%j])] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>} : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<16x8xindex>
  return
}
// CHECK: error: {{.*}}result shape 16x8 does not match the extents 8x16 of the variables_space_set under its order map

// -----

func.func @negative_load_shape(%t: !ktdp.access_tile<32x64xindex>) {
  %d = ktdp.load %t : !ktdp.access_tile<32x64xindex> -> tensor<16x64xf16>
  return
}
// CHECK: error: 'ktdp.load' op access tile shape must match result tensor shape

// -----

func.func @negative_store_shape(%d: tensor<16x64xf16>, %t: !ktdp.access_tile<32x64xindex>) {
  ktdp.store %d, %t : tensor<16x64xf16>, !ktdp.access_tile<32x64xindex>
  return
}
// CHECK: error: 'ktdp.store' op data tile shape must match access tile shape

// -----

func.func @negative_load_element_type(%v: memref<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  %d = ktdp.load %t : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf32>
  return
}
// CHECK: error: {{.*}}result element type f32 differs from the element type f16 of the tile's view

// -----

func.func @negative_store_tensor_base(%v: tensor<32x64xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : tensor<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  ktdp.store %v, %t : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  return
}
// CHECK: error: {{.*}}cannot store through a tile whose base is a tensor (no destination memory)

// -----

func.func @negative_extract_kind(%r: !ktdp.runtime_arg<index>) {
  %v = "ktdp.runtime_arg_extract"(%r) <{kind = 7 : i32}> : (!ktdp.runtime_arg<index>) -> index
  return
}
// CHECK: error: {{.*}}unknown extraction kind 7

// -----

func.func @negative_extract_value_type(%r: !ktdp.runtime_arg<i32, granularity=4>) {
  %v = ktdp.runtime_arg_extract value from %r : !ktdp.runtime_arg<i32, granularity=4> -> index
  return
}
// CHECK: error: {{.*}}result type (index) must match the runtime_arg value type (i32)

// -----

func.func @negative_extract_missing(%r: !ktdp.runtime_arg<index>) {
  %v = ktdp.runtime_arg_extract upperbound from %r : !ktdp.runtime_arg<index> -> index
  return
}
// CHECK: error: {{.*}}cannot extract upperbound from runtime_arg that doesn't have one

// -----

func.func @negative_extract_result_index(%r: !ktdp.runtime_arg<index, granularity=3>) {
  %v = ktdp.runtime_arg_extract granularity from %r : !ktdp.runtime_arg<index, granularity=3> -> i32
  return
}
// CHECK: error: {{.*}}result type must be index when extracting granularity

// -----

func.func @negative_produce_set(%p: tensor<1x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i) : (i >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}producer_tiles_per_group must be a set '(i)[g]' of one dim and one symbol

// -----

func.func @negative_produce_args(%p: tensor<1x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index, %x: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}the region takes exactly one 'index' argument (the group id)

// -----

func.func @negative_produce_yield(%p: tensor<1x64xf16>, %q: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %q : tensor<2x64xf16>
  }
  return
}
// CHECK: error: {{.*}}yield_partial types must equal the future's partial types (tensor<1x64xf16>)

// -----

func.func @negative_produce_uses(%p: tensor<1x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}the future must be used exactly once (R2), it has 0 uses

// -----

func.func @negative_produce_disjoint(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 4 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 5 == 0)> : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16>
  return
}
// CHECK: error: {{.*}}producer sets of distinct groups must be disjoint (R1)

// -----

func.func @negative_produce_unbounded_groups(%p: tensor<1x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - g == 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - g == 0)> : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0)>> -> tensor<1x64xf16>
  return
}
// CHECK: error: {{.*}}the tile_future's groups '(d0) : (d0 >= 0)' are unbounded: a future ranges over finitely many groups

// -----

func.func @negative_yield_partial_parent(%p: tensor<1x64xf16>) {
  scf.execute_region {
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}expects parent op 'ktdp.inter_tile_produce'

// -----

func.func @negative_reduce_results(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>, %w: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %a, %b = "ktdp.inter_tile_reduce"(%f, %z) <{consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>}> ({
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    ktdp.yield_reduced %l : tensor<1x64xf16>
  }) : (!ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>>, tensor<1x64xf16>) -> (tensor<1x64xf16>, tensor<1x64xf16>)
  return
}
// CHECK: error: {{.*}}expects 1 results (one per partial type), got 2

// -----

func.func @negative_reduce_result_type(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>, %w: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %red = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>, identity(%z : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<2x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    %s = arith.addf %l, %r : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}result type tensor<2x64xf16> must equal the partial type tensor<1x64xf16>

// -----

func.func @negative_reduce_identity(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>, %w: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %red = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>, identity(%w : tensor<2x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    %s = arith.addf %l, %r : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}identity types must equal the partial types (R11)

// -----

func.func @negative_reduce_combiner_args(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>, %w: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %red = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>, identity(%z : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>):
    ktdp.yield_reduced %l : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}the combiner takes 2 arguments: two of each partial type

// -----

func.func @negative_reduce_yield(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>, %w: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %red = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>, identity(%z : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    ktdp.yield_reduced %w : tensor<2x64xf16>
  }
  return
}
// CHECK: error: {{.*}}yield_reduced must yield one value of each partial type

// -----

func.func @negative_reduce_pure(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>, %w: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %red = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>, identity(%z : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    %m = memref.alloc() : memref<4xf16>
    ktdp.yield_reduced %l : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}the combiner must be pure (R10); 'memref.alloc' has side effects

// -----

func.func @negative_reduce_subset(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>, %w: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %red = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g - 4 >= 0, -i + 4 * g + 5 >= 0)>, identity(%z : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    %s = arith.addf %l, %r : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}of group 0 are not producers of it (R13)

// -----

func.func @negative_reduce_r14(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>, %w: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %red = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 1 >= 0)>, identity(%z : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    %s = arith.addf %l, %r : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}group 0: consumers must equal producers or be a single tile (R14)

// -----

func.func @negative_yield_reduced_parent(%p: tensor<1x64xf16>) {
  scf.execute_region {
    ktdp.yield_reduced %p : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}expects parent op 'ktdp.inter_tile_reduce'

// -----

func.func @negative_consume_results(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>, %w: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g == 0)>, producer_dependency_per_consumer = affine_set<(p)[c] : (p - c == 0)> : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<2x64xf16>
  return
}
// CHECK: error: {{.*}}results must equal the future's partial types

// -----

func.func @negative_consume_dependency_shape(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>, %w: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g == 0)>, producer_dependency_per_consumer = affine_set<(p) : (p == 0)> : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16>
  return
}
// CHECK: error: {{.*}}producer_dependency_per_consumer must be '(p)[c]' or '(p)[c, g]'

// -----

func.func @negative_consume_r8(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>, %w: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g == 0)> : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16>
  return
}
// CHECK: error: {{.*}}group 0 has 4 producers: each consumer needs exactly one source, give producer_dependency_per_consumer (R8)

// -----

func.func @negative_consume_r8_dependency(%p: tensor<1x64xf16>, %z: tensor<1x64xf16>, %w: tensor<2x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g == 0)>, producer_dependency_per_consumer = affine_set<(p)[c] : (p >= 0)> : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16>
  return
}
// CHECK: error: {{.*}}consumer 0 of group 0 depends on 4 producers, expected exactly one (R8)
