// RUN: ktir-opt %s | ktir-opt | filecheck %s
// RUN: KTIR_GENERIC_ROUNDTRIP | filecheck %s

/// Every dataflow op, type and attribute survives print -> parse -> print, in the custom form
/// and through the generic form: units, a program per unit with its iter_arg, FIFOs, signals,
/// memory views (plain and paged), groups, the opaque call, the custom and MX types.

// CHECK-LABEL: func.func @units_and_programs()
// CHECK-NEXT:    %[[LU0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
// CHECK-NEXT:    %[[LU1:.*]] = dataflow.get_unit {core = 1 : i32, corelet = 1 : i32, name = "C1-L1LU-CL1", type = "L1LU"} : index
// CHECK-NEXT:    %[[SFU:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
// CHECK-NEXT:    dataflow.program_unit iter_arg : %[[ME:.*]] -> (%[[LU0]], %[[LU1]]) {precision = "fp16"} : {
// CHECK-NEXT:      %[[V:.*]] = dataflow.receive %[[SFU]] {dbgName = "in"} : vector<64xf16>
// CHECK-NEXT:      dataflow.send %[[SFU]], %[[V]] {dir = #dataflow<direction CounterClockwise>} : vector<64xf16>
// CHECK-NEXT:      dataflow.sync_send %[[SFU]] {wait_immediately_for_async_transfers = true} : index
// CHECK-NEXT:      dataflow.sync_recv %[[SFU]] : index
// CHECK-NEXT:      %[[L:.*]] = dataflow.get_local_unit %[[ME]] {name = "L1-LU"} : index
// CHECK-NEXT:    }
// CHECK-NEXT:    dataflow.program_unit %[[SFU]] : {
// CHECK-NEXT:      dataflow.sync_send %[[LU0]] {wait_immediately_for_async_transfers = false} : index
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @units_and_programs() {
  %lu0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %lu1 = dataflow.get_unit {core = 1 : i32, corelet = 1 : i32, name = "C1-L1LU-CL1", type = "L1LU"} : index
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  dataflow.program_unit iter_arg : %me -> (%lu0, %lu1) {precision = "fp16"} : {
    %v = dataflow.receive %sfu {dbgName = "in"} : vector<64xf16>
    dataflow.send %sfu, %v {dir = #dataflow<direction CounterClockwise>} : vector<64xf16>
    dataflow.sync_send %sfu {wait_immediately_for_async_transfers = true} : index
    dataflow.sync_recv %sfu : index
    %l = dataflow.get_local_unit %me {name = "L1-LU"} : index
  }
  dataflow.program_unit %sfu : {
    dataflow.sync_send %lu0 {wait_immediately_for_async_transfers = false} : index
  }
  return
}

// CHECK-LABEL: func.func @views_and_groups()
// CHECK:         %[[M:.*]] = dataflow.get_unit {name = "DDR", type = "DDR"} : index
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8192 : index
// CHECK-NEXT:    %{{.*}} = dataflow.get_logical_memory_view %[[M]], %[[C0]] {layout_map = affine_map<(d0, d1) -> (((d0 * 64) + d1))>} : index, index, memref<4x64xf16>
// CHECK-NEXT:    %{{.*}} = dataflow.get_paged_logical_memory_view %[[M]], %[[C0]] {layout_map = affine_map<(d0) -> (d0)>}
// CHECK-NEXT:      {segments =
// CHECK-NEXT:        page0: (idx_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 63) >= 0)>, start_addr = %[[C0]]),
// CHECK-NEXT:        page1: (idx_set = affine_set<(d0) : ((d0 + -64) >= 0, ((d0 * -1) + 127) >= 0)>, start_addr = %[[C8]])} : index, index, memref<128xf16>
// CHECK-NEXT:    %{{.*}} = dataflow.create_group(%[[A:.*]], %[[B:.*]] : index, index) : index
// CHECK-NEXT:    %{{.*}} = dataflow.create_multicast_group(%[[M]] -> (%[[A]], %[[B]])) {count = 0 : i32, group_id = 1 : i32, num_consumers = 2 : i32} : index
// CHECK-NEXT:    %{{.*}} = dataflow.create_multicast_group(%[[M]] -> ()) {count = 3 : i32, group_id = 2 : i32, num_consumers = 4 : i32} : index
func.func @views_and_groups() {
  %m = dataflow.get_unit {name = "DDR", type = "DDR"} : index
  %a = dataflow.get_unit {core = 0 : i32, name = "C0-L1", type = "L1"} : index
  %b = dataflow.get_unit {core = 1 : i32, name = "C1-L1", type = "L1"} : index
  %c0 = arith.constant 0 : index
  %c8192 = arith.constant 8192 : index
  %v = dataflow.get_logical_memory_view %m, %c0 {layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>} : index, index, memref<4x64xf16>
  %p = dataflow.get_paged_logical_memory_view %m, %c0 {layout_map = affine_map<(d0) -> (d0)>}
         {segments = page0: (idx_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, start_addr = %c0),
                     page1: (idx_set = affine_set<(d0) : (d0 - 64 >= 0, -d0 + 127 >= 0)>, start_addr = %c8192)} : index, index, memref<128xf16>
  %g = dataflow.create_group (%a, %b : index, index) : index
  %mg = dataflow.create_multicast_group(%m -> (%a, %b)) {count = 0 : i32, group_id = 1 : i32, num_consumers = 2 : i32} : index
  %mg2 = dataflow.create_multicast_group(%m -> ()) {count = 3 : i32, group_id = 2 : i32, num_consumers = 4 : i32} : index
  return
}

// CHECK-LABEL: func.func @opaque_and_streaming(
// CHECK-SAME:    %[[MEM:.*]]: memref<4xi8>, %[[U:.*]]: index, %[[N:.*]]: index)
// CHECK-NEXT:    dataflow.opaque {func_name = "reciprocal", read_write_register_dictionary = {p0 = "R0", p1 = "R1"}, read_only_register_dictionary = {c0 = "R2"}, parameter_dictionary = {unroll_factor = "2"}}
// CHECK-NEXT:    dataflow.implicit_sync_on_streaming_buffer %[[MEM]], %[[U]], %[[N]] : memref<4xi8>, index, index
func.func @opaque_and_streaming(%mem: memref<4xi8>, %u: index, %n: index) {
  dataflow.opaque {func_name = "reciprocal", read_write_register_dictionary = {p0 = "R0", p1 = "R1"}, read_only_register_dictionary = {c0 = "R2"}, parameter_dictionary = {unroll_factor = "2"}}
  dataflow.implicit_sync_on_streaming_buffer %mem, %u, %n : memref<4xi8>, index, index
  return
}

/// Both MX spellings parse to one type, printed `!dataflow.custom<...>`.
// CHECK-LABEL: func.func @types(
// CHECK-SAME:    %{{.*}}: !dataflow.custom_vector<64xf16>, %{{.*}}: !dataflow.custom_vector<32x!dataflow.custom<mxfp4>>,
// CHECK-SAME:    %{{.*}}: vector<16x!dataflow.custom<mxfp8>>, %{{.*}}: vector<8x!dataflow.custom<mxint4>>, %{{.*}}: memref<4x!dataflow.custom<mxfp4>>)
func.func @types(%a: !dataflow.custom_vector<64xf16>, %b: !dataflow.custom_vector<32x!dataflow.mxfp<4>>,
                 %c: vector<16x!dataflow.custom<mxfp8>>, %d: vector<8x!dataflow.mxint<4>>, %e: memref<4x!dataflow.custom<mxfp4>>) {
  return
}

/// The terminator may be written; it is implicit and elided when printed.
// CHECK-LABEL: func.func @explicit_return()
// CHECK-NEXT:    %[[U:.*]] = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
// CHECK-NEXT:    dataflow.program_unit iter_arg : %{{.*}} -> (%[[U]]) : {
// CHECK-NEXT:    }
func.func @explicit_return() {
  %u = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  dataflow.program_unit iter_arg : %arg -> (%u) : {
    "dataflow.return"() : () -> ()
  }
  return
}
