// RUN: ktir-opt %s -p ktir-to-ktdf,ktdf-schedule,ktdf-to-dfir > %t.groups.mlir
// RUN: ktir-opt %s -p ktir-to-dfir > %t.full.mlir
// RUN: diff %t.groups.mlir %t.full.mlir
// RUN: filecheck %s < %t.groups.mlir

/// The backend group completes the chain: the three groups run one after the other give
/// exactly what ktir-to-dfir gives (here on the stream device): one two-level group whose body
/// holds the three programs of the stream device, the VPU negating 32-lane vectors.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-COUNT-2: symbol.create_id
// CHECK-NEXT:    func.call @local_schedule_0_body() : () -> ()
// CHECK-LABEL: func.func @local_schedule_0_body()
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%vlu, %vlu_1) : {
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%vpu, %vpu_1) : {
// CHECK:           vectorchain.neg %{{.*}} : vector<32xf16>, vector<32xf16>
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%vsu, %vsu_1) : {
// CHECK-NOT:     dataflow.program_unit

ktdf_arch.device @stream_device import("stream_device.mlir")
func.func @neg_rows(%x: index, %y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %id = ktdp.get_compute_tile_id : index
  %row = arith.muli %id, %c2 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %xt = ktdp.construct_access_tile %xv[%row, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>} : memref<4x128xf16> -> !ktdp.access_tile<2x128xindex>
  %yt = ktdp.construct_access_tile %yv[%row, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>} : memref<4x128xf16> -> !ktdp.access_tile<2x128xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
  %n = arith.negf %a : tensor<2x128xf16>
  ktdp.store %n, %yt : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
  return
}
