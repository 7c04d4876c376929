// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// One case per dataflow verifier and parser rule (shared/spec/dataflow-ir.md §2, §7): each
/// chunk breaks exactly one rule and the located message names it.

func.func @negative_get_unit_two_results() {
  %a, %b = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index, index
  return
}
// CHECK: error: 'dataflow.get_unit' op expects exactly one result, got 2 (one handle per program time step is not supported)

// -----

func.func @negative_get_unit_empty_type() {
  %a = dataflow.get_unit {name = "C0-SFU", type = ""} : index
  return
}
// CHECK: error: 'dataflow.get_unit' op 'name' and 'type' must not be empty

// -----

func.func @negative_get_unit_negative_core() {
  %a = dataflow.get_unit {core = -1 : i32, name = "C0-SFU", type = "SFU"} : index
  return
}
// CHECK: error: 'dataflow.get_unit' op 'core' must be >= 0, got -1

// -----

func.func @negative_program_unit_no_units() {
  dataflow.program_unit iter_arg : %u -> () : {
  }
  return
}
// CHECK: error: 'dataflow.program_unit' op expects at least one unit

// -----

func.func @negative_program_unit_two_block_args() {
  %u = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  "dataflow.program_unit"(%u) ({
  ^bb0(%a: index, %b: index):
    "dataflow.return"() : () -> ()
  }) : (index) -> ()
  return
}
// CHECK: error: 'dataflow.program_unit' op the body takes at most one argument, the executing unit's 'index' handle

// -----

func.func @negative_program_unit_nested() {
  %u = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %v = dataflow.get_unit {name = "C1-SFU", type = "SFU"} : index
  dataflow.program_unit %u : {
    dataflow.program_unit %v : {
    }
  }
  return
}
// CHECK: error: 'dataflow.program_unit' op must not be nested in another dataflow.program_unit

// -----

func.func @negative_program_unit_not_a_unit(%u: index) {
  dataflow.program_unit %u : {
  }
  return
}
// CHECK: error: 'dataflow.program_unit' op unit #0 must be the result of a dataflow.get_unit

// -----

func.func @negative_program_unit_unit_twice() {
  %u = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %v = dataflow.get_unit {name = "c0-sfu", type = "SFU"} : index
  dataflow.program_unit iter_arg : %me -> (%u, %v) : {
  }
  return
}
// CHECK: error: 'dataflow.program_unit' op unit 'c0-sfu' is listed twice

// -----

func.func @negative_unit_in_two_programs() {
  %u = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  dataflow.program_unit %u : {
  }
  dataflow.program_unit %u : {
  }
  return
}
// CHECK: error: 'dataflow.program_unit' op unit 'C0-SFU' already runs another dataflow.program_unit of this function (a unit runs at most one program)

// -----

func.func @negative_return_outside_program() {
  "dataflow.return"() : () -> ()
}
// CHECK: error: 'dataflow.return' op 'dataflow.return' expects parent op 'dataflow.program_unit'

// -----

func.func @negative_group_empty() {
  %g = dataflow.create_group() : index
  return
}
// CHECK: error: 'dataflow.create_group' op a group needs at least one unit

// -----

func.func @negative_group_duplicate(%u: index) {
  %g = dataflow.create_group(%u, %u : index, index) : index
  return
}
// CHECK: error: 'dataflow.create_group' op a unit is listed twice in the group

// -----

func.func @negative_multicast_negative_count(%p: index) {
  %g = dataflow.create_multicast_group(%p -> ()) {count = -1 : i32, group_id = 0 : i32, num_consumers = 0 : i32} : index
  return
}
// CHECK: error: 'dataflow.create_multicast_group' op 'num_consumers', 'group_id' and 'count' must be >= 0

// -----

func.func @negative_multicast_consumer_count(%p: index, %c: index) {
  %g = dataflow.create_multicast_group(%p -> (%c)) {count = 0 : i32, group_id = 0 : i32, num_consumers = 2 : i32} : index
  return
}
// CHECK: error: 'dataflow.create_multicast_group' op 1 consumers listed but num_consumers = 2

// -----

func.func @negative_send_outside_program(%u: index, %v: vector<64xf16>) {
  dataflow.send %u, %v : vector<64xf16>
  return
}
// CHECK: error: 'dataflow.send' op send to must be inside a dataflow.program_unit (it needs an executing unit)

// -----

func.func @negative_send_to_self(%v: vector<64xf16>) {
  %u = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  dataflow.program_unit iter_arg : %me -> (%u) : {
    dataflow.send %me, %v : vector<64xf16>
  }
  return
}
// CHECK: error: 'dataflow.send' op a unit may not send to itself

// -----

func.func @negative_receive_from_self() {
  %u = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  dataflow.program_unit %u : {
    %v = dataflow.receive %u : vector<64xf16>
  }
  return
}
// CHECK: error: 'dataflow.receive' op a unit may not receive from itself

// -----

func.func @negative_sync_recv_outside_program(%u: index) {
  dataflow.sync_recv %u : index
  return
}
// CHECK: error: 'dataflow.sync_recv' op wait for a signal from must be inside a dataflow.program_unit

// -----

func.func @negative_send_scalar(%x: f16) {
  %u = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %v = dataflow.get_unit {name = "C1-SFU", type = "SFU"} : index
  dataflow.program_unit %u : {
    dataflow.send %v, %x : f16
  }
  return
}
// CHECK: error: 'dataflow.send' op sends a vector or custom vector, got f16

// -----

func.func @negative_receive_memref() {
  %u = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %v = dataflow.get_unit {name = "C1-SFU", type = "SFU"} : index
  dataflow.program_unit %u : {
    %m = dataflow.receive %v : memref<4xf16>
  }
  return
}
// CHECK: error: 'dataflow.receive' op receives a vector or custom vector, got memref<4xf16>

// -----

func.func @negative_view_with_layout(%u: index, %s: index) {
  %v = dataflow.get_logical_memory_view %u, %s {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<4xf16, strided<[2]>>
  return
}
// CHECK: error: 'dataflow.get_logical_memory_view' op the view's memref type must not carry a layout: 'layout_map' gives the addressing

// -----

func.func @negative_view_layout_dims(%u: index, %s: index) {
  %v = dataflow.get_logical_memory_view %u, %s {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<4x64xf16>
  return
}
// CHECK: error: 'dataflow.get_logical_memory_view' op layout_map must have 2 dimension(s), one per view index, got 1

// -----

func.func @negative_view_layout_results(%u: index, %s: index) {
  %v = dataflow.get_logical_memory_view %u, %s {layout_map = affine_map<(d0) -> (d0, 0)>} : index, index, memref<4xf16>
  return
}
// CHECK: error: 'dataflow.get_logical_memory_view' op layout_map must map the view's indices to one element offset (one result, no symbols)

// -----

func.func @negative_paged_start_not_constant(%u: index, %s: index) {
  %v = dataflow.get_paged_logical_memory_view %u, %s {layout_map = affine_map<(d0) -> (d0)>} {segments = page0: (idx_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, start_addr = %s)} : index, index, memref<4xf16>
  return
}
// CHECK: error: 'dataflow.get_paged_logical_memory_view' op the start address of page0 must be an arith.constant

// -----

func.func @negative_paged_not_a_box(%u: index, %s: index) {
  %c = arith.constant 0 : index
  %v = dataflow.get_paged_logical_memory_view %u, %s {layout_map = affine_map<(d0, d1) -> (d0 * 4 + d1)>} {segments = page0: (idx_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, d0 - d1 >= 0)>, start_addr = %c)} : index, index, memref<4x4xf16>
  return
}
// CHECK: error: 'dataflow.get_paged_logical_memory_view' op the idx_set of page0 must be a box over the 2 view indices

// -----

func.func @negative_paged_counts(%u: index, %s: index) {
  %c = arith.constant 0 : index
  %v = "dataflow.get_paged_logical_memory_view"(%u, %s, %c, %c) <{idx_sets = [affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>], layout_map = affine_map<(d0) -> (d0)>}> : (index, index, index, index) -> memref<4xf16>
  return
}
// CHECK: error: 'dataflow.get_paged_logical_memory_view' op 1 idx_sets for 2 page start addresses

// -----

func.func @negative_paged_no_pages(%u: index, %s: index) {
  %v = dataflow.get_paged_logical_memory_view %u, %s {layout_map = affine_map<(d0) -> (d0)>} {segments = } : index, index, memref<4xf16>
  return
}
// CHECK: error: 'dataflow.get_paged_logical_memory_view' op expects at least one page

// -----

func.func @negative_opaque_no_name() {
  dataflow.opaque {func_name = "", read_write_register_dictionary = {}, read_only_register_dictionary = {}, parameter_dictionary = {}}
  return
}
// CHECK: error: 'dataflow.opaque' op 'func_name' must not be empty

// -----

func.func @negative_custom_vector_shape(%a: !dataflow.custom_vector<2x3xf16>) {
  return
}
// CHECK: error: a custom vector has one positive dimension, e.g. <64xf16>

// -----

func.func @negative_mx_width(%a: !dataflow.mxint<8>) {
  return
}
// CHECK: error: unsupported MX type 'mxint8', expected one of mxfp4, mxfp8, mxint4

// -----

func.func @negative_custom_name(%a: !dataflow.custom<fp4>) {
  return
}
// CHECK: error: expected one of mxfp4, mxfp8, mxint4, got 'fp4'

// -----

func.func @negative_direction() {
  "test.op"() {d = #dataflow<direction Up>} : () -> ()
  return
}
// CHECK: error: Expected `PseudoRandom`, `CounterClockwise`, `Clockwise`, or `BothWays`.
