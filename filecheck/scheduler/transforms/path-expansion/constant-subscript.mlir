// RUN: ktir-opt %s -p path-expansion | filecheck %s

/// A load from the tile's own scratchpad at a constant subscript (rmsnorm_4core_2x2's
/// partial sums in a fixed LX slot): the route is one hop (LX -> LX_LOAD -> PE), so the
/// transfer keeps the view and its map, which reads no index at all. Path expansion used to
/// give it the indices [0, 0] beside that map (a TypeError, seen as "internal error", once
/// transfers stopped carrying index operands their maps do not read).

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.stage depends_in(none)
// CHECK-NEXT:      ktdf.data_transfer from %[[P:.*]][0, 64] size [1, 64] to %{{.*}} size [64] : memref<2x128xf16, "LX">, !ktdf.fifo.slot<"LX_LOAD" -> "PE", 64xf16>
// CHECK-NEXT:    } {applicable_units = ["LX_LOAD"]}
module {
  ktdf_arch.device @spyre import("spyre.mlir")
  module @local_schedule_0 {
    func.func @local_schedule_0(%y: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %pv = ktdp.construct_memory_view %c0, sizes: [2, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<2x128xf16>
      %pc = memref.memory_space_cast %pv : memref<2x128xf16> to memref<2x128xf16, "LX">
      %yv = ktdp.construct_memory_view %y, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
      %yc = memref.memory_space_cast %yv : memref<1x64xf16> to memref<1x64xf16, "DDR">
      ktdf.pipeline {
        %s, %r, %t0, %t1, %t2 = ktdf.private -> (!ktdf.fifo.slot<"LX" -> "PE", 64xf16>, !ktdf.fifo.slot<"PE" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %s0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LX" -> "PE", 64xf16>
          %r0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "DDR", 64xf16>
          %k0 = ktdf.create_token : !ktdf.token
          %k1 = ktdf.create_token : !ktdf.token
          %k2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %s0, %r0, %k0, %k1, %k2 : !ktdf.fifo.slot<"LX" -> "PE", 64xf16>, !ktdf.fifo.slot<"PE" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t0) {
          ktdf.data_transfer from %pc[0, 64] size [1, 64] to %s size [64] : memref<2x128xf16, "LX">, !ktdf.fifo.slot<"LX" -> "PE", 64xf16>
        }
        ktdf.stage depends_in(%t0) depends_out(%t1) {
          %a = ktdf.read_from_fifo %s : <"LX" -> "PE", 64xf16> -> tensor<1x64xf16>
          ktdf.write_to_fifo %a, %r : tensor<1x64xf16>, <"PE" -> "DDR", 64xf16>
        } {applicable_units = ["PE"]}
        ktdf.stage depends_in(%t1) depends_out(%t2) {
          ktdf.data_transfer from %r size [64] to %yc[0, 0] size [1, 64] : !ktdf.fifo.slot<"PE" -> "DDR", 64xf16>, memref<1x64xf16, "DDR">
        }
      }
      func.return
    }
  }
}
