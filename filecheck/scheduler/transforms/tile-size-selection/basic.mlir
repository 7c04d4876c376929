// RUN: ktir-opt %s -p tile-size-selection | filecheck %s

/// A reserved size tiling a loop of 12 iterations, nothing sized by it: every divisor of 12
/// fits, and the largest tile pays the per-tile handshake and route latency fewest times, so
/// 12 is chosen. The tile count and the tile extent fold to constants. The rebuilt index
/// becomes `arith` for a reader that is not a transfer subscript (the backend lowers no
/// `linearize_index`) and stays for one that is (subsume-linearize-index folds it into the
/// map). A size with `min_value = 4, divisibility = 2` over a trip count of 6 can only be 6.

module {
  ktdf_arch.device @stream_device import("stream_device.mlir")

  // CHECK-LABEL: func.func @one_size(
  // CHECK-NOT:     ktdf.tiling.reserve_size
  // CHECK:         %c12 = arith.constant 12 : index
  // CHECK-NEXT:    %[[TS:.*]] = arith.constant 12 : index
  // CHECK-NEXT:    %[[N:.*]] = arith.constant 1 : index
  // CHECK-NEXT:    scf.for %[[T:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
  // CHECK-NEXT:      %[[S:.*]] = arith.constant 12 : index
  // CHECK-NEXT:      scf.for %[[P:.*]] = %{{.*}} to %[[S]] step %{{.*}} {
  // CHECK-NEXT:        %[[M:.*]] = arith.muli %[[T]], %[[TS]] : index
  // CHECK-NEXT:        %[[I:.*]] = arith.addi %[[M]], %[[P]] : index
  // CHECK-NEXT:        %[[J:.*]] = ktdf.tiling.linearize_index [%[[T]] : %[[TS]]], [%[[P]] : %{{.*}}] : index
  // CHECK-NEXT:        memref.store %[[I]], %{{.*}}[%[[I]]] : memref<12xindex>
  // CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[%[[J]]] size [1] to %{{.*}}[%[[J]]] size [1]
  func.func @one_size(%out: memref<12xindex>, %src: memref<12xf16, "HBM">, %dst: memref<12xf16, "HBM">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c12 = arith.constant 12 : index
    %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %n = arith.ceildivui %c12, %ts : index
    scf.for %t = %c0 to %n step %c1 {
      %s = ktdf.tiling.derive_size [%t : %ts], total_size = %c12 : index
      scf.for %p = %c0 to %s step %c1 {
        %i = ktdf.tiling.linearize_index [%t : %ts], [%p : %c1] : index
        memref.store %i, %out[%i] : memref<12xindex>
        ktdf.data_transfer from %src[%i] size [1] to %dst[%i] size [1] : memref<12xf16, "HBM">, memref<12xf16, "HBM">
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    func.return
  }

  // CHECK-LABEL: func.func @constrained(
  // CHECK:         %c6 = arith.constant 6 : index
  // CHECK-NEXT:    arith.constant 6 : index
  // CHECK-NEXT:    arith.constant 1 : index
  func.func @constrained(%out: memref<6xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %ts = ktdf.tiling.reserve_size {divisibility = 2 : index, min_value = 4 : index} : index
    %n = arith.ceildivui %c6, %ts : index
    scf.for %t = %c0 to %n step %c1 {
      %s = ktdf.tiling.derive_size [%t : %ts], total_size = %c6 : index
      scf.for %p = %c0 to %s step %c1 {
        memref.store %p, %out[%p] : memref<6xindex>
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    func.return
  }
}
