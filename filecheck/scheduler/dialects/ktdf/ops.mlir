// RUN: ktir-opt %s | ktir-opt | filecheck %s
// RUN: KTIR_GENERIC_ROUNDTRIP | filecheck %s
// RUN: ktir-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

/// Every ktdf op, type and attribute survives print -> parse -> print, in the custom form and
/// through the generic form. FIFO slot types print unqualified in read/write_to_fifo (both
/// spellings parse), `modulo(size: N)` prints as `size : N`, create_token's unique_id shows
/// only in the generic form, bare direct subscripts of ind_data_transfer print in parens beside an
/// `ind(...)`, and a scatter's destination is written like a gather's source.

// CHECK-LABEL: func.func @types(
// CHECK-SAME:    %{{.*}}: !ktdf.token, %{{.*}}: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>,
// CHECK-SAME:    %{{.*}}: !ktdf.fifo.slot<"SFU" -> "L1SU", ?xf32>,
// CHECK-SAME:    %{{.*}}: !ktdf.fifo.slot<#ktdp.memory_space<global> -> "SFU", 8xbf16>
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<reduction_loop>}
func.func @types(%tok: !ktdf.token, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %d: !ktdf.fifo.slot<"SFU" -> "L1SU", ?xf32>, %g: !ktdf.fifo.slot<#ktdp.memory_space<global> -> "SFU", 8xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %n {
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  scf.for %j = %c0 to %n step %n {
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  return
}

// CHECK-LABEL: func.func @pipeline(
// CHECK-SAME:    %[[X:.*]]: memref<4x64xf16, "DDR">)
// CHECK:         %[[OUTER:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:    ktdf.pipeline modulo(size : 3) {
// CHECK-NEXT:      %[[BUF:.*]], %[[T0:.*]], %[[T1:.*]] = ktdf.private -> (memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token) {
// CHECK-NEXT:        %[[A:.*]] = memref.alloc() : memref<1x64xf16, "L1">
// CHECK-NEXT:        %[[C0:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:        %[[C1:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:        ktdf.private_yield %[[A]], %[[C0]], %[[C1]] : memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token
// CHECK-NEXT:      }
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(%[[T0]], %[[OUTER]]) {
// CHECK-NEXT:        ktdf.data_transfer from %[[X]][%{{.*}}, %{{.*}}] size [1, 64] to %[[BUF]][0, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<1x64xf16, "L1">
// CHECK-NEXT:      } {applicable_units = ["MNILU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T0]], %[[OUTER]]) depends_out(%[[T1]]) {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          ktdf.private {
// CHECK-NEXT:          }
// CHECK-NEXT:          ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:      } {applicable_units = ["L1LU", "SFU"], note = "nested"}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T1]]) depends_out(none) {
// CHECK-NEXT:      }
// CHECK-NEXT:    } {tag = 1 : i64}
// GENERIC-LABEL: sym_name = "pipeline"
// GENERIC:       "ktdf.create_token"() <{unique_id = [[ID:[0-9]+]] : index}> : () -> !ktdf.token
// GENERIC-NEXT:  "ktdf.pipeline"() <{modulo = 3 : i64}> ({
// GENERIC-NOT:   unique_id = [[ID]] :
// GENERIC:       "ktdf.stage"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 0, 2>}> ({
// GENERIC:       }) {applicable_units = ["MNILU"]} : (!ktdf.token, !ktdf.token) -> ()
func.func @pipeline(%x: memref<4x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %outer = ktdf.create_token : !ktdf.token
  ktdf.pipeline modulo(size: 3) {
    %res:3 = ktdf.private -> (memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token) {
      %buf = memref.alloc() : memref<1x64xf16, "L1">
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %buf, %t0, %t1 : memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%res#1, %outer) {
      ktdf.data_transfer from %x[%c0, %c0] size [1, 64] to %res#0[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<1x64xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%res#1, %outer) depends_out(%res#2) {
      ktdf.pipeline {
        ktdf.private {
        }
        ktdf.stage depends_in(none) depends_out(none) {
        }
      }
    } {applicable_units = ["L1LU", "SFU"], note = "nested"}
    ktdf.stage depends_in(%res#2) depends_out(none) {
    }
  } {tag = 1 : i64}
  return
}

// CHECK-LABEL: func.func @fifos(
// CHECK-SAME:    %[[N:.*]]: index, %[[M:.*]]: memref<64xf16, "SFU_REG">)
// CHECK-NEXT:    %[[A:.*]], %[[B:.*]] = ktdf.fifo.allocate(%[[N]]) -> !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:    %[[C:.*]] = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
// CHECK-NEXT:    %{{.*}} = ktdf.read_from_fifo %[[A]] : <"L1LU" -> "SFU", ?xf16> -> tensor<?xf16>
// CHECK-NEXT:    %[[TB:.*]] = ktdf.read_from_fifo %[[B]] : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:    %{{.*}} = ktdf.read_from_fifo %[[B]] {ping} : <"L1LU" -> "SFU", 64xf16> -> memref<2x32xf16>
// CHECK-NEXT:    ktdf.write_to_fifo %[[TB]], %[[C]] : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
// CHECK-NEXT:    ktdf.write_to_fifo %[[M]], %[[C]] : memref<64xf16, "SFU_REG">, <"SFU" -> "L1SU", 64xf16>
func.func @fifos(%n: index, %m: memref<64xf16, "SFU_REG">) {
  %a, %b = ktdf.fifo.allocate(%n) -> !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  %c = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
  %ta = ktdf.read_from_fifo %a : !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16> -> tensor<?xf16>
  %tb = ktdf.read_from_fifo %b : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
  %mb = ktdf.read_from_fifo %b {ping} : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16> -> memref<2x32xf16>
  ktdf.write_to_fifo %tb, %c : tensor<1x64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
  ktdf.write_to_fifo %m, %c : memref<64xf16, "SFU_REG">, <"SFU" -> "L1SU", 64xf16>
  return
}

// CHECK-LABEL: func.func @transfers(
// CHECK-SAME:    %[[A:[^:]*]]: memref<96x64xf16, "DDR">, %[[L1:[^:]*]]: memref<2x64xf16, "L1">, %[[REG:[^:]*]]: memref<64xf16, "SFU_REG">, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[N:[^:]*]]: index)
// CHECK-NEXT:    %[[S:.*]], %[[W:.*]] = ktdf.fifo.allocate()
// CHECK-NEXT:    ktdf.data_transfer from %[[A]][%[[I]] * 2 + 1, %[[J]] - %[[I]]] size [2, 64] to %[[L1]][0, 0] size [2, 64] : memref<96x64xf16, "DDR">, memref<2x64xf16, "L1">
// CHECK-NEXT:    ktdf.data_transfer from %[[A]][%[[I]] floordiv 4, %[[J]] mod 64] size [1, %[[N]]] to %[[L1]][%[[I]], %[[I]]] size [%[[N]], 1] : memref<96x64xf16, "DDR">, memref<2x64xf16, "L1">
// CHECK-NEXT:    ktdf.data_transfer from %[[L1]][%[[I]], 0] size [1, 1] to %[[S]] size [64] {transfer_mode = "splat"} : memref<2x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:    ktdf.data_transfer from %[[S]] to %[[REG]][0] size [64] : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "SFU_REG">
// CHECK-NEXT:    ktdf.data_transfer from %[[REG]][%[[J]]] size [64] to %[[W]] size [128] {transfer_mode = "pad"} : memref<64xf16, "SFU_REG">, !ktdf.fifo.slot<"SFU" -> "L1SU", 128xf16>
// GENERIC-LABEL: sym_name = "transfers"
// GENERIC:       "ktdf.data_transfer"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{static_source_sizes = array<i64: 2, 64>, static_dest_sizes = array<i64: 2, 64>, source_map = affine_map<(d0, d1) -> (((d0 * 2) + 1), (d1 + (d0 * -1)))>, dest_map = affine_map<() -> (0, 0)>, operandSegmentSizes = array<i32: 1, 2, 0, 1, 0, 0, 0>}>
// GENERIC:       operandSegmentSizes = array<i32: 1, 2, 1, 1, 1, 1, 0>
// GENERIC:       operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 0, 0>}> {transfer_mode = "splat"}
func.func @transfers(%A: memref<96x64xf16, "DDR">, %l1: memref<2x64xf16, "L1">, %reg: memref<64xf16, "SFU_REG">, %i: index, %j: index, %n: index) {
  %s, %w = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 128xf16>
  ktdf.data_transfer from %A[%i * 2 + 1, %j - %i] size [2, 64] to %l1[0, 0] size [2, 64] : memref<96x64xf16, "DDR">, memref<2x64xf16, "L1">
  ktdf.data_transfer from %A[%i floordiv 4, %j mod 64] size [1, %n] to %l1[%i, %i] size [%n, 1] : memref<96x64xf16, "DDR">, memref<2x64xf16, "L1">
  ktdf.data_transfer from %l1[%i, 0] size [1, 1] to %s size [64] {transfer_mode = "splat"} : memref<2x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  ktdf.data_transfer from %s to %reg[0] size [64] : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "SFU_REG">
  ktdf.data_transfer from %reg[%j] size [64] to %w size [128] {transfer_mode = "pad"} : memref<64xf16, "SFU_REG">, <"SFU" -> "L1SU", 128xf16>
  return
}

/// Masked transfers: the set of the masked side, its symbols after `mask_symbols`.
// CHECK-LABEL: func.func @masked(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x64xf16, "DDR">, %[[B:[^:]*]]: memref<1x64xf16, "L1">, %[[N:[^:]*]]: index, %[[I:[^:]*]]: index)
// CHECK-NEXT:    ktdf.data_transfer from %[[X]][%[[I]], 0] size [1, 64] to %[[B]][0, 0] size [1, 64] source_mask affine_set<(d0, d1)[s0] : (d0 >= 0, (((d0 * -1) + s0) + -1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)> mask_symbols(%[[N]]) : memref<?x64xf16, "DDR">, memref<1x64xf16, "L1">
// CHECK-NEXT:    ktdf.data_transfer from %[[B]][0, 0] size [1, 64] to %[[X]][%[[I]], 0] size [1, 64] dest_mask affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 9) >= 0, d1 >= 0)> : memref<1x64xf16, "L1">, memref<?x64xf16, "DDR">
// GENERIC-LABEL: sym_name = "masked"
// GENERIC:       source_mask = affine_set
// GENERIC-SAME:  operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 0, 1>
func.func @masked(%x: memref<?x64xf16, "DDR">, %b: memref<1x64xf16, "L1">, %n: index, %i: index) {
  ktdf.data_transfer from %x[%i, 0] size [1, 64] to %b[0, 0] size [1, 64] source_mask affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)> mask_symbols(%n) : memref<?x64xf16, "DDR">, memref<1x64xf16, "L1">
  ktdf.data_transfer from %b[0, 0] size [1, 64] to %x[%i, 0] size [1, 64] dest_mask affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0)> : memref<1x64xf16, "L1">, memref<?x64xf16, "DDR">
  return
}

// CHECK-LABEL: func.func @gather(
// CHECK-SAME:    %[[X:[^:]*]]: memref<1000x8x128xf16, "DDR">, %[[IDX:[^:]*]]: memref<4x16xi32, "L1">, %[[DST:[^:]*]]: memref<2x1x128xf16, "L1">, %[[B:[^:]*]]: index, %[[H:[^:]*]]: index)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[F:.*]] = ktdf.fifo.allocate()
// CHECK-NEXT:    ktdf.ind_data_transfer from %[[X]][ind(%[[IDX]][%[[B]], %[[H]] + 1]), (%[[H]]), (%[[C0]])] size [2, 1, 128] to %[[DST]][0, 0, 0] size [2, 1, 128] : memref<1000x8x128xf16, "DDR">, memref<4x16xi32, "L1">, memref<2x1x128xf16, "L1">
// CHECK-NEXT:    ktdf.ind_data_transfer from %[[X]][ind(%[[IDX]][%[[B]], %[[H]]]), (%[[H]] * 2), (0)] size [1, 1, %[[B]]] to %[[F]] {transfer_mode = "pad"} : memref<1000x8x128xf16, "DDR">, memref<4x16xi32, "L1">, !ktdf.fifo.slot<"MNILU" -> "SFU", 128xf16>
// GENERIC-LABEL: sym_name = "gather"
// GENERIC:       "ktdf.ind_data_transfer"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{per_dim_subscript_kinds = [true, false, false], per_dim_subscript_maps = [affine_map<(d0, d1, d2) -> (d0, (d1 + 1))>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d2)>], static_source_sizes = array<i64: 2, 1, 128>, static_dest_sizes = array<i64: 2, 1, 128>, dest_map = affine_map<() -> (0, 0, 0)>, operandSegmentSizes = array<i32: 1, 1, 3, 0, 1, 0, 0, 0>}>
func.func @gather(%X: memref<1000x8x128xf16, "DDR">, %idx: memref<4x16xi32, "L1">, %dst: memref<2x1x128xf16, "L1">, %b: index, %h: index) {
  %c0 = arith.constant 0 : index
  %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"MNILU" -> "SFU", 128xf16>
  ktdf.ind_data_transfer from %X[ind(%idx[%b, %h + 1]), (%h), (%c0)] size [2, 1, 128] to %dst[0, 0, 0] size [2, 1, 128] : memref<1000x8x128xf16, "DDR">, memref<4x16xi32, "L1">, memref<2x1x128xf16, "L1">
  ktdf.ind_data_transfer from %X[ind(%idx[%b, %h]), %h * 2, 0] size [1, 1, %b] to %f {transfer_mode = "pad"} : memref<1000x8x128xf16, "DDR">, memref<4x16xi32, "L1">, !ktdf.fifo.slot<"MNILU" -> "SFU", 128xf16>
  return
}

// CHECK-LABEL: func.func @scatter(
// CHECK-SAME:    %[[Y:[^:]*]]: memref<64x64xf16, "DDR">, %[[IDX:[^:]*]]: memref<2xi32, "LX">, %[[BUF:[^:]*]]: memref<1x64xf16, "LX">, %[[S:[^:]*]]: !ktdf.fifo.slot<"PE" -> "LX_STORE", 64xf16>, %[[V:[^:]*]]: index)
// CHECK-NEXT:    ktdf.ind_data_transfer from %[[BUF]][0, 0] size [1, 64] to %[[Y]][ind(%[[IDX]][0]), (%[[V]])] size [1, 64] : memref<1x64xf16, "LX">, memref<2xi32, "LX">, memref<64x64xf16, "DDR">
// CHECK-NEXT:    ktdf.ind_data_transfer from %[[S]] size [64] to %[[Y]][ind(%[[IDX]][0]), ind(%[[IDX]][1])] size [1, 64] {transfer_mode = "pad"} : !ktdf.fifo.slot<"PE" -> "LX_STORE", 64xf16>, memref<2xi32, "LX">, memref<2xi32, "LX">, memref<64x64xf16, "DDR">
// GENERIC-LABEL: sym_name = "scatter"
// GENERIC:       "ktdf.ind_data_transfer"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{per_dim_subscript_kinds = [false, false], per_dim_subscript_maps = [affine_map<() -> (0)>, affine_map<() -> (0)>], static_source_sizes = array<i64: 1, 64>, static_dest_sizes = array<i64: 1, 64>, dest_subscript_kinds = [true, false], dest_subscript_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 1, 0, 0, 0, 1, 1, 1, 0>}>
func.func @scatter(%Y: memref<64x64xf16, "DDR">, %idx: memref<2xi32, "LX">, %buf: memref<1x64xf16, "LX">, %s: !ktdf.fifo.slot<"PE" -> "LX_STORE", 64xf16>, %v: index) {
  ktdf.ind_data_transfer from %buf[0, 0] size [1, 64] to %Y[ind(%idx[0]), %v] size [1, 64] : memref<1x64xf16, "LX">, memref<2xi32, "LX">, memref<64x64xf16, "DDR">
  ktdf.ind_data_transfer from %s size [64] to %Y[ind(%idx[0]), ind(%idx[1])] size [1, 64] {transfer_mode = "pad"} : !ktdf.fifo.slot<"PE" -> "LX_STORE", 64xf16>, memref<2xi32, "LX">, memref<2xi32, "LX">, memref<64x64xf16, "DDR">
  return
}

// CHECK-LABEL: func.func @tiling(
// CHECK-SAME:    %[[N:.*]]: index)
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[TS:.*]] = ktdf.tiling.reserve_size {divisibility = 4 : index, min_value = 2 : index} : index
// CHECK-NEXT:    %[[TS2:.*]] = ktdf.tiling.reserve_size {hint = "inner", divisibility = 1 : index, min_value = 1 : index} : index
// CHECK:         scf.for %[[T:.*]] = {{.*}} {
// CHECK-NEXT:      %[[X:.*]] = ktdf.tiling.derive_size [%[[T]] : %[[TS]]], total_size = %[[N]] : index
// CHECK-NEXT:      scf.for %[[U:.*]] = %{{.*}} to %[[X]] step %{{.*}} {
// CHECK-NEXT:        %{{.*}} = ktdf.tiling.derive_size [%[[T]] : %[[TS]]], [%[[U]] : %[[TS2]]], total_size = %[[N]] : index
// CHECK-NEXT:        %{{.*}} = ktdf.tiling.linearize_index [%[[T]] : %[[TS]]], [%[[U]] : %[[C1]]] : index
// GENERIC-LABEL: sym_name = "tiling"
// GENERIC:       "ktdf.tiling.reserve_size"() <{divisibility = 4 : index, min_value = 2 : index, unique_id = {{[0-9]+}} : index}> : () -> index
func.func @tiling(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ts = ktdf.tiling.reserve_size {min_value = 2 : index, divisibility = 4 : index} : index
  %ts2 = ktdf.tiling.reserve_size {hint = "inner", divisibility = 1 : index, min_value = 1 : index} : index
  %trip = arith.ceildivui %n, %ts : index
  scf.for %t = %c0 to %trip step %c1 {
    %x = ktdf.tiling.derive_size [%t : %ts], total_size = %n : index
    scf.for %u = %c0 to %x step %c1 {
      %y = ktdf.tiling.derive_size [%t : %ts], [%u : %ts2], total_size = %n : index
      %lin = ktdf.tiling.linearize_index [%t : %ts], [%u : %c1] : index
    }
  }
  return
}

// CHECK-LABEL: func.func @parallel(
// CHECK-SAME:    %[[LO:.*]]: index, %[[HI:.*]]: index, %[[ST:.*]]: index)
// CHECK-NEXT:    ktdf.parallel (%[[M:.*]], %{{.*}}, %[[INST:.*]]) = (%[[LO]], %[[LO]]) to (%[[HI]], %[[HI]]) step (%[[ST]], %[[ST]]) distribute(num_instances = 4) {
// CHECK-NEXT:      arith.addi %[[M]], %[[INST]] : index
// CHECK-NEXT:      ktdf.parallel_yield
// CHECK-NEXT:    } {mapping = "corelet"}
// GENERIC-LABEL: sym_name = "parallel"
// GENERIC:       "ktdf.parallel"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{num_instances = 4 : i64}> ({
// GENERIC-NEXT:  ^{{.*}}(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
func.func @parallel(%lo: index, %hi: index, %st: index) {
  ktdf.parallel (%m, %k, %inst) = (%lo, %lo) to (%hi, %hi) step (%st, %st) distribute(num_instances = 4) {
    %sum = arith.addi %m, %inst : index
    ktdf.parallel_yield
  } {mapping = "corelet"}
  return
}

// CHECK-LABEL: func.func @buffering(
// CHECK-SAME:    %[[IV:.*]]: index, %[[JV:.*]]: index)
// CHECK-NEXT:    %[[X0:.*]] = memref.alloc()
// CHECK-NEXT:    %[[X1:.*]] = memref.alloc()
// CHECK-NEXT:    %[[X2:.*]] = memref.alloc()
// CHECK-NEXT:    %[[PH:.*]] = ktdf.buffer_phase(%[[IV]], %[[JV]]) {num_phases = 3 : i64} : index
// CHECK-NEXT:    ktdf.select_memref %[[PH]][%[[X0]], %[[X1]], %[[X2]]] : memref<64xf16, "L1">
func.func @buffering(%iv: index, %jv: index) {
  %x0 = memref.alloc() : memref<64xf16, "L1">
  %x1 = memref.alloc() : memref<64xf16, "L1">
  %x2 = memref.alloc() : memref<64xf16, "L1">
  %ph = ktdf.buffer_phase(%iv, %jv) {num_phases = 3 : i64} : index
  %sel = ktdf.select_memref %ph[%x0, %x1, %x2] : memref<64xf16, "L1">
  return
}

// CHECK-LABEL: func.func @opaque(
// CHECK-SAME:    %[[A:[^:]*]]: tensor<64xf16>, %[[M:[^:]*]]: memref<64xf16, "L1">, %[[R:[^:]*]]: memref<64xf16, "L1">, %[[EPS:[^:]*]]: f32)
// CHECK-NEXT:    %[[OUT:.*]] = tensor.empty() : tensor<64xf16>
// CHECK-NEXT:    %[[RMS:.*]] = ktdf.opaque "RMS" {variant = 2 : i64} -> tensor<64xf16> ins(%[[A]], %[[EPS]] : tensor<64xf16>, f32) outs(%[[OUT]] : tensor<64xf16>)
// CHECK-NEXT:    ktdf.opaque "COPY_L1" ins(%[[M]] : memref<64xf16, "L1">) outs(%[[R]] : memref<64xf16, "L1">)
// CHECK-NEXT:    ktdf.opaque "NOTHING" ins() outs()
// CHECK-NEXT:    func.return %[[RMS]] : tensor<64xf16>
func.func @opaque(%a: tensor<64xf16>, %m: memref<64xf16, "L1">, %r: memref<64xf16, "L1">, %eps: f32) -> tensor<64xf16> {
  %out = tensor.empty() : tensor<64xf16>
  %0 = ktdf.opaque "RMS" {variant = 2 : i64} -> tensor<64xf16> ins(%a, %eps : tensor<64xf16>, f32) outs(%out : tensor<64xf16>)
  ktdf.opaque "COPY_L1" ins(%m : memref<64xf16, "L1">) outs(%r : memref<64xf16, "L1">)
  ktdf.opaque "NOTHING" ins() outs()
  return %0 : tensor<64xf16>
}
