// RUN: ktir-opt %s --split-input-file -p construct-three-stage-pipeline | filecheck %s

/// The same negation on the three shipped devices: the vector is the compute unit's SIMD width
/// for f16 (SFU and PE: 64 lanes, VPU: 32), tiled right to left by gcd over the tile shape;
/// FIFO endpoints are the device's memory kind for the KTIR space and its compute unit.
/// (Host functions are trimmed: the pass only rewrites the group functions.)

// A 2x32 tile in the scratchpad (ct_local -> "L1"): 64 lanes take both rows at once (2x32),
// so each loop runs once.
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[V:.*]] = memref.memory_space_cast %{{.*}} : memref<2x32xf16> to memref<2x32xf16, "L1">
// CHECK:         %[[O:.*]] = memref.memory_space_cast %{{.*}} : memref<4x32xf16> to memref<4x32xf16, "DDR">
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    arith.constant 2 : index
// CHECK-NEXT:    arith.constant 2 : index
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    arith.constant 32 : index
// CHECK-NEXT:    arith.constant 32 : index
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"L1" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:         ktdf.data_transfer from %[[V]][%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]] size [2, 32] to %{{.*}} size [64]
// CHECK:         ktdf.read_from_fifo %{{.*}} : <"L1" -> "SFU", 64xf16> -> tensor<2x32xf16>
// CHECK:         arith.negf %{{.*}} : f16
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK:         ktdf.data_transfer from %{{.*}} size [64] to %[[O]][%{{.*}} + %[[I]], %[[J]]] size [2, 32]
module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index) attributes {grid = [2]} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %tid = ktdp.get_compute_tile_id : index
      %row0 = arith.muli %tid, %c2 : index
      %xv = ktdp.construct_memory_view %x, sizes: [2, 32], strides: [32, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<2x32xf16>
      %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
      %a = ktdp.load %xt : !ktdp.access_tile<2x32xindex> -> tensor<2x32xf16>
      %n = arith.negf %a : tensor<2x32xf16>
      %yv = ktdp.construct_memory_view %y, sizes: [4, 32], strides: [32, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
      %yt = ktdp.construct_access_tile %yv[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>} : memref<4x32xf16> -> !ktdp.access_tile<2x32xindex>
      ktdp.store %n, %yt : tensor<2x32xf16>, !ktdp.access_tile<2x32xindex>
      func.return
    }
  }
}

// -----

// Spyre: a 1x128 row in two 64-lane vectors; the PE computes between DDR views.
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         memref.memory_space_cast %{{.*}} : memref<2x128xf16> to memref<2x128xf16, "DDR">
// CHECK:         arith.constant 0 : index
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    arith.constant 128 : index
// CHECK-NEXT:    arith.constant 64 : index
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "PE", 64xf16>, !ktdf.fifo.slot<"PE" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:         ktdf.data_transfer from %{{.*}} size [1, 64] to %{{.*}} size [64]
// CHECK:         } {applicable_units = ["PE"]}
module {
  ktdf_arch.device @spyre import("spyre.mlir")
  module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index) attributes {grid = [2]} {
      %c0 = arith.constant 0 : index
      %tid = ktdp.get_compute_tile_id : index
      %xv = ktdp.construct_memory_view %x, sizes: [2, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x128xf16>
      %xt = ktdp.construct_access_tile %xv[%tid, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>} : memref<2x128xf16> -> !ktdp.access_tile<1x128xindex>
      %a = ktdp.load %xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
      %n = arith.negf %a : tensor<1x128xf16>
      %yv = ktdp.construct_memory_view %y, sizes: [2, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x128xf16>
      %yt = ktdp.construct_access_tile %yv[%tid, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>} : memref<2x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %n, %yt : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
      func.return
    }
  }
}

// -----

// The stream device: HBM views and a 32-lane VPU, so a 64-wide row takes two vectors.
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         memref.memory_space_cast %{{.*}} : memref<2x64xf16> to memref<2x64xf16, "HBM">
// CHECK:         arith.constant 0 : index
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    arith.constant 64 : index
// CHECK-NEXT:    arith.constant 32 : index
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:         ktdf.data_transfer from %{{.*}} size [1, 32] to %{{.*}} size [32]
// CHECK:         ktdf.read_from_fifo %{{.*}} : <"HBM" -> "VPU", 32xf16> -> tensor<1x32xf16>
// CHECK:         } {applicable_units = ["VPU"]}
module {
  ktdf_arch.device @stream_device import("stream_device.mlir")
  module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index) attributes {grid = [2]} {
      %c0 = arith.constant 0 : index
      %tid = ktdp.get_compute_tile_id : index
      %xv = ktdp.construct_memory_view %x, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
      %xt = ktdp.construct_access_tile %xv[%tid, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
      %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %n = arith.negf %a : tensor<1x64xf16>
      %yv = ktdp.construct_memory_view %y, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
      %yt = ktdp.construct_access_tile %yv[%tid, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %n, %yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
      func.return
    }
  }
}
