// RUN: ktir-opt %s -p subsume-linearize-index --split-input-file | filecheck %s

/// A constant-stride `linearize_index` read as a subscript becomes the weighted sum in the
/// transfer's map, over the tile and point indices; the `linearize_index` goes once nothing
/// reads it. The other subscripts of that side stay, constants folded in (`0`); a side without
/// one is left as it is (`%dst[%c0]`).

// CHECK-LABEL: func.func @one_subscript(
// CHECK-NOT:     ktdf.tiling.linearize_index
// CHECK:         ktdf.data_transfer from %src[%t * 12 + %p] size [64] to %dst[%c0] size [64]
// CHECK-NOT:     ktdf.tiling.linearize_index

func.func @one_subscript(%src: memref<768xf16, "DDR">, %dst: memref<64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  scf.for %t = %c0 to %c12 step %c1 {
    scf.for %p = %c0 to %c12 step %c1 {
      %x = ktdf.tiling.linearize_index [%t : %c12], [%p : %c1] : index
      ktdf.data_transfer from %src[%x] size [64] to %dst[%c0] size [64] : memref<768xf16, "DDR">, memref<64xf16, "L1">
    }
  }
  func.return
}

// -----

// CHECK-LABEL: func.func @two_subscripts_and_a_constant(
// CHECK:         ktdf.data_transfer from %src[%a * 12 + %c, %b * 4 + %d, 0] size [1, 1, 64] to
// CHECK-NOT:     ktdf.tiling.linearize_index

func.func @two_subscripts_and_a_constant(%src: memref<12x64x64xf16, "DDR">, %dst: memref<64xf16, "L1">, %a: index, %b: index, %c: index, %d: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %x = ktdf.tiling.linearize_index [%a : %c12], [%c : %c1] : index
  %y = ktdf.tiling.linearize_index [%b : %c4], [%d : %c1] : index
  ktdf.data_transfer from %src[%x, %y, %c0] size [1, 1, 64] to %dst[0] size [64] : memref<12x64x64xf16, "DDR">, memref<64xf16, "L1">
  func.return
}

// -----

/// The destination side alone (the source a FIFO slot, without subscripts).

// CHECK-LABEL: func.func @fifo_to_memref(
// CHECK:         ktdf.data_transfer from %{{.*}} size [64] to %dst[%t * 12 + %p] size [64]

func.func @fifo_to_memref(%dst: memref<768xf16, "DDR">, %t: index, %p: index) {
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %fifo = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  %x = ktdf.tiling.linearize_index [%t : %c12], [%p : %c1] : index
  ktdf.data_transfer from %fifo size [64] to %dst[%x] size [64] : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<768xf16, "DDR">
  func.return
}

// -----

/// Left alone: a stride that is not a constant (the transfer keeps reading the op).

// CHECK-LABEL: func.func @negative_dynamic_stride(
// CHECK:         %[[X:.*]] = ktdf.tiling.linearize_index
// CHECK:         ktdf.data_transfer from %src[%[[X]]] size [64]

func.func @negative_dynamic_stride(%src: memref<768xf16, "DDR">, %dst: memref<64xf16, "L1">, %n: index, %t: index, %p: index) {
  %c1 = arith.constant 1 : index
  %x = ktdf.tiling.linearize_index [%t : %n], [%p : %c1] : index
  ktdf.data_transfer from %src[%x] size [64] to %dst[0] size [64] : memref<768xf16, "DDR">, memref<64xf16, "L1">
  func.return
}
