// RUN: ktir-opt %s | ktir-opt | filecheck %s
// RUN: KTIR_GENERIC_ROUNDTRIP | filecheck %s

/// Every agen op survives print -> parse -> print, custom and generic: vector loads/stores
/// with affine subscripts, the composite (DMA) ops with their time loop and region, the
/// indirect and symbolic forms, interleave and the transfer mask.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<() : ()>
#none = affine_map<() -> ()>
#zero = affine_map<() -> (0, 0)>

// CHECK-LABEL: func.func @vectors(
// CHECK-SAME:    %[[M:.*]]: memref<4x64xf16>, %[[U:.*]]: index, %[[I:.*]]: index)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[V:.*]] = agen.vector_load %[[M]][%[[I]] * 2 - 1, %[[C0]]] {load_order = affine_map<(d0, d1) -> (d0, d1)>, load_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>} : memref<4x64xf16>, vector<64xf16>
// CHECK-NEXT:    %{{.*}} = agen.vector_load %[[M]][0, 0] multicast_info = %[[U]] {load_order = {{.*}}, dbgName = "mc"} : memref<4x64xf16>, vector<64xf16>
// CHECK-NEXT:    agen.vector_store %[[V]], %[[M]][%[[I]], 0] {store_order = affine_map<(d0, d1) -> (d0, d1)>, store_set = {{.*}}} : memref<4x64xf16>, vector<64xf16>
func.func @vectors(%m: memref<4x64xf16>, %u: index, %i: index) {
  %c0 = arith.constant 0 : index
  %v = agen.vector_load %m[%i * 2 - 1, %c0] {load_order = #id, load_set = #row} : memref<4x64xf16>, vector<64xf16>
  %w = agen.vector_load %m[0, 0] multicast_info = %u {load_order = #id, load_set = #row, dbgName = "mc"} : memref<4x64xf16>, vector<64xf16>
  agen.vector_store %v, %m[%i, 0] {store_order = #id, store_set = #row} : memref<4x64xf16>, vector<64xf16>
  return
}

// CHECK-LABEL: func.func @composites(
// CHECK-SAME:    %[[A:[^:]*]]: memref<4x64xf16>, %[[B:[^:]*]]: memref<4x64xf16>, %[[U:[^:]*]]: index, %[[N:[^:]*]]: index)
// CHECK-NEXT:    agen.composite_load_and_store src:%[[A]][0, 0] dst:%[[B]][0, 0]
// CHECK-NEXT:     time_symbols(), load_iv(%[[X:.*]]:vector<64xf16>)
// CHECK-NEXT:     {load_order = {{.*}}, load_set = {{.*}}, load_time_addr_map = affine_map<() -> (0, 0)>, store_order = {{.*}}, store_set = {{.*}}, store_time_addr_map = affine_map<() -> (0, 0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
// CHECK-NEXT:    {
// CHECK-NEXT:      agen.yield
// CHECK-NEXT:    } : memref<4x64xf16>, memref<4x64xf16>
// CHECK-NEXT:    agen.composite_load_and_store src:%[[A]][0, 0] dst:%[[B]][0, 0]
// CHECK-NEXT:     time_symbols(%[[N]]), load_iv(%[[Y:.*]]:vector<64xf16>), multicast_info = %[[U]]
// CHECK-NEXT:     {dir = #agen<direction BothWays>, {{.*}}, time_set = affine_set<(d0)[s0] : (d0 >= 0, (((d0 * -1) + s0) + -1) >= 0)>}
// CHECK-NEXT:    {
// CHECK-NEXT:      %[[Z:.*]] = "test.op"(%[[Y]]) : (vector<64xf16>) -> vector<64xf16>
// CHECK-NEXT:      agen.yield %[[Z]] : vector<64xf16>
// CHECK-NEXT:    } : memref<4x64xf16>, memref<4x64xf16>
// CHECK-NEXT:    agen.composite_load %[[A]][0, 0]
// CHECK-NEXT:     time_symbols()(%[[L:.*]]:vector<64xf16>)
// CHECK-NEXT:     {load_order = {{.*}}, time_addr_map = affine_map<() -> (0, 0)>, {{.*}}}
// CHECK-NEXT:    {
// CHECK-NEXT:      "test.op"(%[[L]]) : (vector<64xf16>) -> ()
// CHECK-NEXT:      agen.yield
// CHECK-NEXT:    } : memref<4x64xf16>
// CHECK-NEXT:    agen.composite_store %[[B]][0, 0]
// CHECK-NEXT:     time_symbols()
// CHECK-NEXT:     {store_order = {{.*}}}
// CHECK-NEXT:    {
// CHECK-NEXT:      %[[S:.*]] = "test.op"() : () -> vector<64xf16>
// CHECK-NEXT:      agen.yield %[[S]] : vector<64xf16>
// CHECK-NEXT:    } : memref<4x64xf16>
// CHECK-NEXT:    %[[IN:.*]] = "test.op"() : () -> vector<64xf16>
// CHECK-NEXT:    agen.composite_store %[[B]][0, 0]
// CHECK-NEXT:     input_vector = %[[IN]] time_symbols()
// CHECK-NEXT:     {time_addr_map = affine_map<() -> (0, 0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>} : memref<4x64xf16>, vector<64xf16>
// CHECK-NEXT:    agen.composite_memory_interleave {granularity = 64 : i32} {
// CHECK-NEXT:      agen.composite_load_and_store src:%[[A]][0, 0] dst:%[[B]][0, 0]
// CHECK:           } : memref<4x64xf16>, memref<4x64xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    agen.composite_memory_interleave {} {
// CHECK-NEXT:    }
func.func @composites(%a: memref<4x64xf16>, %b: memref<4x64xf16>, %u: index, %n: index) {
  agen.composite_load_and_store src:%a[0, 0] dst:%b[0, 0]
   time_symbols(), load_iv(%x:vector<64xf16>)
   {load_order = #id, load_set = #row, load_time_addr_map = #zero, store_order = #id, store_set = #row, store_time_addr_map = #zero, time_order = #none, time_set = #one}
  {
    agen.yield
  } : memref<4x64xf16>, memref<4x64xf16>
  agen.composite_load_and_store src:%a[0, 0] dst:%b[0, 0] time_symbols(%n), load_iv(%y:vector<64xf16>), multicast_info = %u {dir = #agen<direction BothWays>, load_order = #id, load_set = #row, load_time_addr_map = affine_map<(d0) -> (d0, 0)>, store_order = #id, store_set = #row, store_time_addr_map = affine_map<(d0) -> (d0, 0)>, time_order = affine_map<(d0) -> (d0)>, time_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>} {
    %z = "test.op"(%y) : (vector<64xf16>) -> vector<64xf16>
    agen.yield %z : vector<64xf16>
  } : memref<4x64xf16>, memref<4x64xf16>
  agen.composite_load %a[0, 0] time_symbols()(%l:vector<64xf16>) {load_order = #id, load_set = #row, time_addr_map = #zero, time_order = #none, time_set = #one} {
    "test.op"(%l) : (vector<64xf16>) -> ()
  } : memref<4x64xf16>
  agen.composite_store %b[0, 0] time_symbols() {store_order = #id, store_set = #row, time_addr_map = #zero, time_order = #none, time_set = #one} {
    %s = "test.op"() : () -> vector<64xf16>
    agen.yield %s : vector<64xf16>
  } : memref<4x64xf16>
  %in = "test.op"() : () -> vector<64xf16>
  agen.composite_store %b[0, 0] input_vector = %in time_symbols() {time_addr_map = #zero, time_order = #none, time_set = #one} : memref<4x64xf16>, vector<64xf16>
  agen.composite_memory_interleave {granularity = 64 : i32} {
    agen.composite_load_and_store src:%a[0, 0] dst:%b[0, 0] time_symbols(), load_iv(%q:vector<64xf16>) {load_order = #id, load_set = #row, load_time_addr_map = #zero, store_order = #id, store_set = #row, store_time_addr_map = #zero, time_order = #none, time_set = #one} {
    } : memref<4x64xf16>, memref<4x64xf16>
  }
  agen.composite_memory_interleave {} {
  }
  return
}

// CHECK-LABEL: func.func @indirect(
// CHECK-SAME:    %[[IDX:[^:]*]]: memref<4xi32>, %[[A:[^:]*]]: memref<4x64xf16>, %[[B:[^:]*]]: memref<4x64xf16>, %[[U:[^:]*]]: index)
// CHECK-NEXT:    %[[V:.*]] = agen.indirect_vector_load indirect:%[[IDX]][0] direct:%[[A]][0, 0] {indirect_dims = array<i64: 1>, load_order = {{.*}}} : memref<4xi32>, memref<4x64xf16>, vector<64xf16>
// CHECK-NEXT:    agen.indirect_vector_store %[[V]] indirect:%[[IDX]][1] direct:%[[B]][0, 0] multicast_info = %[[U]] {store_order = {{.*}}} : vector<64xf16>, memref<4xi32>, memref<4x64xf16>
// CHECK-NEXT:    agen.composite_indirect_load_and_store indirect_src:%[[IDX]][0] direct_src:%[[A]][0, 0] direct_dst:%[[B]][0, 0]
// CHECK-NEXT:     time_symbols(), load_iv(%{{.*}}:vector<64xf16>)
// CHECK-NEXT:     {load_indirect_time_addr_map = affine_map<() -> (0)>, indirect_src_dims = array<i64: 1>, load_direct_time_addr_map = affine_map<() -> (0, 0)>, {{.*}}}
// CHECK:         } : memref<4xi32>, memref<4x64xf16>, memref<4x64xf16>
// CHECK-NEXT:    agen.composite_indirect_load_and_store direct_src:%[[A]][0, 0] indirect_dst:%[[IDX]][0] direct_dst:%[[B]][0, 0]
// CHECK-NEXT:     multicast_info = %[[U]] time_symbols(), load_iv(%{{.*}}:vector<64xf16>)
// CHECK:         } : memref<4x64xf16>, memref<4xi32>, memref<4x64xf16>
// CHECK-NEXT:    agen.composite_indirect_load indirect:%[[IDX]][0] direct:%[[A]][0, 0] multicast_info = %[[U]]
// CHECK-NEXT:     time_symbols(), load_iv(%{{.*}}:vector<64xf16>)
// CHECK:         } : memref<4xi32>, memref<4x64xf16>
// CHECK-NEXT:    agen.composite_indirect_store indirect:%[[IDX]][0] direct:%[[B]][0, 0]
// CHECK-NEXT:     time_symbols()
// CHECK-NEXT:     {store_order = {{.*}}}
// CHECK-NEXT:    {
// CHECK-NEXT:      agen.yield %[[V]] : vector<64xf16>
// CHECK-NEXT:    } : memref<4xi32>, memref<4x64xf16>
func.func @indirect(%idx: memref<4xi32>, %a: memref<4x64xf16>, %b: memref<4x64xf16>, %u: index) {
  %v = agen.indirect_vector_load indirect:%idx[0] direct:%a[0, 0] {indirect_dims = array<i64: 1>, load_order = #id, load_set = #row} : memref<4xi32>, memref<4x64xf16>, vector<64xf16>
  agen.indirect_vector_store %v indirect:%idx[1] direct:%b[0, 0] multicast_info = %u {store_order = #id, store_set = #row} : vector<64xf16>, memref<4xi32>, memref<4x64xf16>
  agen.composite_indirect_load_and_store indirect_src:%idx[0] direct_src:%a[0, 0] direct_dst:%b[0, 0] time_symbols(), load_iv(%x:vector<64xf16>) {load_indirect_time_addr_map = affine_map<() -> (0)>, indirect_src_dims = array<i64: 1>, load_direct_time_addr_map = #zero, store_direct_time_addr_map = #zero, load_order = #id, load_set = #row, store_order = #id, store_set = #row, time_order = #none, time_set = #one} {
  } : memref<4xi32>, memref<4x64xf16>, memref<4x64xf16>
  agen.composite_indirect_load_and_store direct_src:%a[0, 0] indirect_dst:%idx[0] direct_dst:%b[0, 0] multicast_info = %u time_symbols(), load_iv(%y:vector<64xf16>) {store_indirect_time_addr_map = affine_map<() -> (0)>, load_direct_time_addr_map = #zero, store_direct_time_addr_map = #zero, load_order = #id, load_set = #row, store_order = #id, store_set = #row, time_order = #none, time_set = #one} {
  } : memref<4x64xf16>, memref<4xi32>, memref<4x64xf16>
  agen.composite_indirect_load indirect:%idx[0] direct:%a[0, 0] multicast_info = %u time_symbols(), load_iv(%w:vector<64xf16>) {load_order = #id, load_set = #row, time_addr_map = #zero, time_order = #none, time_set = #one} {
  } : memref<4xi32>, memref<4x64xf16>
  agen.composite_indirect_store indirect:%idx[0] direct:%b[0, 0] time_symbols() {store_order = #id, store_set = #row, time_addr_map = #zero, time_order = #none, time_set = #one} {
    agen.yield %v : vector<64xf16>
  } : memref<4xi32>, memref<4x64xf16>
  return
}

// CHECK-LABEL: func.func @symbolic_and_mask(
// CHECK-SAME:    %[[U:[^:]*]]: index, %[[I:[^:]*]]: index, %[[S:[^:]*]]: index)
// CHECK-NEXT:    %[[VIEW:.*]] = dataflow.get_logical_memory_view
// CHECK-NEXT:    %[[D:.*]] = agen.symbolic_vector_load %[[VIEW]][indices:(%[[I]], %[[S]]), strides:(%[[S]], %[[S]])], multicast_info(%[[U]]) : memref<128xi8>, vector<128xi8>
// CHECK-NEXT:    agen.symbolic_vector_store %[[D]], %[[VIEW]][indices:(%[[I]]), strides:(%[[S]])] {store_order = affine_map<(d0) -> (d0)>, store_set = {{.*}}} : memref<128xi8>, vector<128xi8>
// CHECK-NEXT:    %{{.*}} = agen.set_transfer_mask_state mask_value(%[[I]]) {num_slices = 4 : i32, slice_mask_map = "(A)(A|B)(1)(0)", maskA = "(unmasked = 6, masked = 2)", maskB = "(unmasked = 1, masked = 1)"} : index, vector<64xi1>
// CHECK-NEXT:    %{{.*}} = agen.set_transfer_mask_state mask_value(%[[I]]) {num_slices = 1 : i32, slice_mask_map = "(0)"} : index, vector<64xi1>
func.func @symbolic_and_mask(%u: index, %i: index, %s: index) {
  %view = dataflow.get_logical_memory_view %u, %i {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<128xi8>
  %d = agen.symbolic_vector_load %view[indices:(%i, %s), strides:(%s, %s)], multicast_info(%u) : memref<128xi8>, vector<128xi8>
  agen.symbolic_vector_store %d, %view[indices:(%i), strides:(%s)] {store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>} : memref<128xi8>, vector<128xi8>
  %mk = agen.set_transfer_mask_state mask_value(%i) {num_slices = 4 : i32, slice_mask_map = "(A)(A|B)(1)(0)", maskA = "(unmasked = 6 : i32, masked = 2 : i32)", maskB = "(unmasked = 1, masked = 1)"} : index, vector<64xi1>
  %nomask = agen.set_transfer_mask_state mask_value(%i) {num_slices = 1 : i32, slice_mask_map = "(0)"} : index, vector<64xi1>
  return
}
