// RUN: ktir-opt %s -p subsume-linearize-index,subsume-linearize-index | filecheck %s

/// Twice is once: the rewritten transfer reads no `linearize_index`.

// CHECK-LABEL: func.func @twice(
// CHECK:         ktdf.data_transfer from %src[%t * 64 + %p] size [64] to %dst[0] size [64]
// CHECK-NOT:     linearize_index
// CHECK:         func.return

func.func @twice(%src: memref<768xf16, "DDR">, %dst: memref<64xf16, "L1">, %t: index, %p: index) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %x = ktdf.tiling.linearize_index [%t : %c64], [%p : %c1] : index
  ktdf.data_transfer from %src[%x] size [64] to %dst[0] size [64] : memref<768xf16, "DDR">, memref<64xf16, "L1">
  func.return
}
