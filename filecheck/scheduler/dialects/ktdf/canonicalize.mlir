// RUN: ktir-opt %s -p canonicalize --split-input-file | filecheck %s

/// The ktdf folds and canonicalizations: derive_size folds only one level with constant
/// operands and iv == 0, buffer_phase drops constant operands (all constant -> 0),
/// select_memref with a constant phase picks its candidate, an unused fifo.allocate goes
/// away; FIFO accesses, transfers, stages and pipelines stay even when nothing uses them.

// CHECK-LABEL: func.func @derive_size(
// CHECK-SAME:    %[[IV:.*]]: index)
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[SHORT:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[FULL:.*]] = arith.constant 5 : index
// CHECK-NEXT:    %[[NZ:.*]] = ktdf.tiling.derive_size [%[[C1]] : %[[C8]]], total_size = %[[C3]] : index
// CHECK-NEXT:    %[[LIVE:.*]] = ktdf.tiling.derive_size [%[[IV]] : %[[C8]]], total_size = %[[C3]] : index
// CHECK-NEXT:    %[[TWO:.*]] = ktdf.tiling.derive_size [%{{.*}} : %[[C8]]], [%{{.*}} : %{{.*}}], total_size = %[[C3]] : index
// CHECK-NEXT:    func.return %[[SHORT]], %[[FULL]], %[[NZ]], %[[LIVE]], %[[TWO]]
func.func @derive_size(%iv: index) -> (index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %short = ktdf.tiling.derive_size [%c0 : %c8], total_size = %c3 : index
  %full = ktdf.tiling.derive_size [%c0 : %c5], total_size = %c9 : index
  %nonzero = ktdf.tiling.derive_size [%c1 : %c8], total_size = %c3 : index
  %live = ktdf.tiling.derive_size [%iv : %c8], total_size = %c3 : index
  %two = ktdf.tiling.derive_size [%c0 : %c8], [%c0 : %c2], total_size = %c3 : index
  return %short, %full, %nonzero, %live, %two : index, index, index, index, index
}

// -----

// CHECK-LABEL: func.func @phases(
// CHECK-SAME:    %[[A:[^:]*]]: memref<4xf16>, %[[B:[^:]*]]: memref<4xf16>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index)
// CHECK-NEXT:    %[[P:.*]] = ktdf.buffer_phase(%[[I]], %[[J]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[SEL:.*]] = ktdf.select_memref %[[P]][%[[A]], %[[B]]] : memref<4xf16>
// CHECK-NEXT:    func.return %[[P]], %[[ZERO]], %[[A]], %[[B]], %[[SEL]]
func.func @phases(%a: memref<4xf16>, %b: memref<4xf16>, %i: index, %j: index) -> (index, index, memref<4xf16>, memref<4xf16>, memref<4xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %p = ktdf.buffer_phase(%i, %c0, %j, %c7) {num_phases = 2 : i64} : index
  %all = ktdf.buffer_phase(%c0, %c7) {num_phases = 2 : i64} : index
  %first = ktdf.select_memref %all[%a, %b] : memref<4xf16>
  %second = ktdf.select_memref %c1[%a, %b] : memref<4xf16>
  %live = ktdf.select_memref %p[%a, %b] : memref<4xf16>
  return %p, %all, %first, %second, %live : index, index, memref<4xf16>, memref<4xf16>, memref<4xf16>
}

// -----

// CHECK-LABEL: func.func @kept(
// CHECK-SAME:    %[[M:[^:]*]]: memref<64xf16, "L1">, %[[R:[^:]*]]: memref<64xf16, "SFU_REG">)
// CHECK-NEXT:    %[[S:.*]] = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:    %{{.*}} = ktdf.read_from_fifo %[[S]]
// CHECK-NEXT:    ktdf.data_transfer from %[[M]][0] size [64] to %[[R]][0] size [64]
// CHECK-NEXT:    ktdf.opaque "SIDE" ins(%[[M]] : memref<64xf16, "L1">) outs(%[[R]] : memref<64xf16, "SFU_REG">)
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @kept(%m: memref<64xf16, "L1">, %r: memref<64xf16, "SFU_REG">) {
  %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  %unused = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  %d = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
  ktdf.data_transfer from %m[0] size [64] to %r[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "SFU_REG">
  %o = tensor.empty() : tensor<64xf16>
  %pure = ktdf.opaque "PURE" -> tensor<64xf16> ins(%o : tensor<64xf16>) outs(%o : tensor<64xf16>)
  ktdf.opaque "SIDE" ins(%m : memref<64xf16, "L1">) outs(%r : memref<64xf16, "SFU_REG">)
  %dead_token = ktdf.create_token : !ktdf.token
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
    }
  }
  return
}
