// RUN: ktir-opt %s -p ktir-to-ktdf | filecheck %s

/// The frontend group on a kernel that declares its device (the stream device): legality
/// check, one compute group in `module @local_schedule_0` called from the kernel, and one
/// Load -> Compute -> Store pipeline per 32-lane vector, FIFOs from HBM to the VPU and back.
/// Nothing is routed or placed yet.

// CHECK:       ktdf_arch.device @stream_device import("stream_device.mlir")
// CHECK-LABEL: func.func @scale_rows(
// CHECK-SAME:    %[[X:[^:]*]]: index, %[[Y:[^:]*]]: index)
// CHECK-NEXT:    func.call @local_schedule_0(%[[X]], %[[Y]]) : (index, index) -> ()
// CHECK:       builtin.module @local_schedule_0 {
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          ktdf.private -> (!ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:               arith.mulf %{{.*}}, %{{.*}} : f16
// CHECK:             } {applicable_units = ["VPU"]}
// CHECK-NOT:     ktdp.load
// CHECK-NOT:     memref.alloc

ktdf_arch.device @stream_device import("stream_device.mlir")
func.func @scale_rows(%x: index, %y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %id = ktdp.get_compute_tile_id : index
  %row = arith.muli %id, %c2 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %xt = ktdp.construct_access_tile %xv[%row, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %yt = ktdp.construct_access_tile %yv[%row, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %b = ktdp.load %yt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %p = arith.mulf %a, %b : tensor<2x64xf16>
  ktdp.store %p, %yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
