// RUN: ktir-opt %s -p 'ktir-to-dfir{device=sample_device}' | filecheck %s
// RUN: ktir-opt %s -p 'ktir-to-dfir{device=sample_device stop_at=path-expansion}' | filecheck %s --check-prefix=ROUTED

/// A Triton-style vector of %n elements (an i32 argument), 64 per block: path-expansion gives
/// the load's mask to the DDR -> L1 hop and the store's to L1 -> DDR; in DataflowIR each masked
/// DMA moves its 32-element box whole when 0 <= 32 v0 and 32 v0 + 31 <= n - 1 (v0 counts
/// boxes after normalize-scf-for-loops, the subscript `%v0 * 32`), and otherwise zeroes
/// the L1 box (loads: the padding) and moves the box's points inside the view one element per
/// time step (time_symbols: the box index, then n). n stays the argument's symbol.

// ROUTED:      ktdf.data_transfer from %{{.*}}[%v0] size [32] to %{{.*}}[0] size [32] source_mask affine_set<(d0)[s0] : {{.*}}> mask_symbols(%n) : memref<?xf32, "DDR">, memref<32xf32, "L1">
// ROUTED:      ktdf.data_transfer from %{{.*}}[0] size [32] to %{{.*}} size [32] : memref<32xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>
// ROUTED:      ktdf.data_transfer from %{{.*}} size [32] to %{{.*}}[0] size [32] : !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf32>, memref<32xf32, "L1">
// ROUTED:      ktdf.data_transfer from %{{.*}}[0] size [32] to %{{.*}}[%v0] size [32] dest_mask affine_set<(d0)[s0] : {{.*}}> mask_symbols(%n) : memref<32xf32, "L1">, memref<?xf32, "DDR">

// CHECK:       symbol.create_id %n_elements {symbol_id = -3 : si64} : i32
// CHECK:       dataflow.program_unit iter_arg : %mnilu_1
// CHECK:         %[[N:.*]] = symbol.create_symbol {SymbolId = -3 : i64} : index
// CHECK:         %[[NI:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK:         %[[LEN:.*]] = arith.index_cast %[[NI]] : i32 to index
// CHECK:         scf.for %[[V0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[OFF:.*]] = arith.muli %[[V0]], %{{.*}} : index
// CHECK-NEXT:      %[[LO:.*]] = arith.cmpi sge, %[[OFF]], %[[Z:[0-9]+]] : index
// CHECK-NEXT:      %[[M1:.*]] = arith.constant -32 : index
// CHECK-NEXT:      %[[NEG:.*]] = arith.muli %[[V0]], %[[M1]] : index
// CHECK-NEXT:      %[[R:.*]] = arith.addi %[[NEG]], %[[LEN]] : index
// CHECK-NEXT:      %[[M32:.*]] = arith.constant -32 : index
// CHECK-NEXT:      %[[ROOM:.*]] = arith.addi %[[R]], %[[M32]] : index
// CHECK-NEXT:      %[[HI:.*]] = arith.cmpi sge, %[[ROOM]], %[[Z]] : index
// CHECK-NEXT:      %[[IN:.*]] = arith.andi %[[LO]], %[[HI]] : i1
// CHECK-NEXT:      scf.if %[[IN]] {
// CHECK-NEXT:        agen.composite_load_and_store src:%{{.*}}[%[[V0]] * 32] dst:%[[BUF:.*]][0]
// CHECK-NEXT:         time_symbols(), load_iv(%{{.*}}:vector<32xf32>)
// CHECK:           } else {
// CHECK-NEXT:        %[[Z1:.*]] = vectorchain.constant_bitstream {value = [0x0]} : vector<1xf32>
// CHECK-NEXT:        %[[ZV:.*]] = vectorchain.shuffle input(%[[Z1]]) {indices = [0 : i32], repetition = 32 : i32} : vector<1xf32>, vector<32xf32>
// CHECK-NEXT:        agen.vector_store %[[ZV]], %[[BUF]][0] {{.*}} : memref<32xf32>, vector<32xf32>
// CHECK-NEXT:        agen.composite_load_and_store src:%{{.*}}[%[[V0]] * 32] dst:%[[BUF]][0]
// CHECK-NEXT:         time_symbols(%[[V0]], %[[LEN]]), load_iv(%{{.*}}:vector<1xf32>)
// CHECK-NEXT:         {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>, load_time_addr_map = affine_map<(d0) -> (d0)>, {{.*}}, time_set = affine_set<(d0)[s0, s1] : (d0 >= 0, ((d0 * -1) + 31) >= 0, ((s0 * 32) + d0) >= 0, ((((s0 * -32) + (d0 * -1)) + s1) + -1) >= 0)>}
// CHECK:       dataflow.program_unit iter_arg : %mnisu_1
// CHECK:           scf.if
// CHECK:           } else {
// CHECK-NOT:         vectorchain.constant_bitstream
// CHECK:             agen.composite_load_and_store src:%{{.*}}[0] dst:%{{.*}}[%{{.*}}]
// CHECK-NEXT:         time_symbols(%{{.*}}, %{{.*}}), load_iv(%{{.*}}:vector<1xf32>)

#id = affine_map<(d0) -> (d0)>
#n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
module {
  func.func @neg(%x: index, %y: index, %n_elements: i32) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %n = arith.index_cast %n_elements : i32 to index
    %xv = ktdp.construct_memory_view %x, sizes: [%n], strides: [1] {coordinate_set = #n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %yv = ktdp.construct_memory_view %y, sizes: [%n], strides: [1] {coordinate_set = #n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %xt = ktdp.construct_access_tile %xv[%c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?xf32> -> !ktdp.access_tile<64xindex>
    %yt = ktdp.construct_access_tile %yv[%c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?xf32> -> !ktdp.access_tile<64xindex>
    %a = ktdp.load %xt : <64xindex> -> tensor<64xf32>
    %b = arith.negf %a : tensor<64xf32>
    ktdp.store %b, %yt : tensor<64xf32>, <64xindex>
    return
  }
}
