// RUN: ktir-opt %s -p ktdf-to-ktdflowering | filecheck %s

/// The tile id may be the first op of the function: it stays first, followed by the units and
/// the tables keyed by it.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-NEXT:    %[[TID:.*]] = ktdp.get_compute_tile_id : index
// CHECK:         %[[MNILU:.*]] = uniform.query_map(map:%{{.*}}, key:%[[TID]]) : index
// CHECK:         ktdf_lowering.execute_on %[[MNILU]] {
module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  module @local_schedule_0 {
    func.func @local_schedule_0(%x: index) attributes {grid = [2]} {
      %tid = ktdp.get_compute_tile_id : index
      %c0 = arith.constant 0 : index
      %xv = ktdp.construct_memory_view %x, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
      %xc = memref.memory_space_cast %xv : memref<2x64xf16> to memref<2x64xf16, "DDR">
      ktdf.pipeline {
        %buf, %t0 = ktdf.private -> (memref<1x64xf16, "L1">, !ktdf.token) {
          %a = arith.constant 0 : index
          %b = builtin.unrealized_conversion_cast %a : index to memref<1x64xf16, "L1">
          %k0 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %b, %k0 : memref<1x64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t0) {
          ktdf.data_transfer from %xc[%tid, %c0] size [1, 64] to %buf[0, 0] size [1, 64] : memref<2x64xf16, "DDR">, memref<1x64xf16, "L1">
        } {applicable_units = ["MNILU"]}
      }
      func.return
    }
  }
}
