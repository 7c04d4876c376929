// RUN: ktir-opt %s -p normalize-scf-for-loops,normalize-scf-for-loops | filecheck %s

/// Twice is once: a normalised loop runs from 0 by 1, and the folded subscript keeps its
/// scale (`%v * 64`, not `%v * 64 * 64`).

// CHECK-LABEL: func.func @twice(
// CHECK:         scf.for %[[V:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf.data_transfer from %src[%[[V]] * 64] size [64] to %dst[0] size [64]
// CHECK-NOT:     arith.muli

func.func @twice(%src: memref<256xf16, "DDR">, %dst: memref<64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c64 = arith.constant 64 : index
  scf.for %v = %c0 to %c256 step %c64 {
    ktdf.data_transfer from %src[%v] size [64] to %dst[0] size [64] : memref<256xf16, "DDR">, memref<64xf16, "L1">
  }
  func.return
}
