// RUN: ktir-opt %s -p tile-size-selection | filecheck %s

/// Two sizes tying one scratchpad buffer (upstream's form for a buffer that grows with the
/// tile): `memref<?x?x1024xf16, "L1">` on sample_device (1 MiB L1). Two copies of it must fit
/// half the L1, so s0 x s1 x 2 KiB x 2 <= 512 KiB: s0 x s1 <= 128, although both loops run 64
/// times. The sizes are chosen together: the fewest tiles that fit, whole inner rows first
/// (2 x 64). The alloc reads the constants.

module {
  ktdf_arch.device @sample_device import("sample_device.mlir")

  // CHECK-LABEL: func.func @tied(
  // CHECK:         %[[S0:.*]] = arith.constant 2 : index
  // CHECK:         %[[S1:.*]] = arith.constant 64 : index
  // CHECK:         memref.alloc(%[[S0]], %[[S1]]) : memref<?x?x1024xf16, "L1">
  // CHECK:         %[[N0:.*]] = arith.constant 32 : index
  // CHECK:         scf.for %{{.*}} = %{{.*}} to %[[N0]] step %{{.*}} {
  // CHECK:           %[[N1:.*]] = arith.constant 1 : index
  // CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %[[N1]] step %{{.*}} {
  func.func @tied() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %ts0 = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %ts1 = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %buf = memref.alloc(%ts0, %ts1) : memref<?x?x1024xf16, "L1">
    %n0 = arith.ceildivui %c64, %ts0 : index
    scf.for %t0 = %c0 to %n0 step %c1 {
      %n1 = arith.ceildivui %c64, %ts1 : index
      scf.for %t1 = %c0 to %n1 step %c1 {
        %s0 = ktdf.tiling.derive_size [%t0 : %ts0], total_size = %c64 : index
        %s1 = ktdf.tiling.derive_size [%t1 : %ts1], total_size = %c64 : index
        scf.for %p0 = %c0 to %s0 step %c1 {
          scf.for %p1 = %c0 to %s1 step %c1 {
            %v = memref.load %buf[%p0, %p1, %c0] : memref<?x?x1024xf16, "L1">
          } {loop_type = #ktdf.loop_type<parallel_loop>}
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    memref.dealloc %buf : memref<?x?x1024xf16, "L1">
    func.return
  }
}
