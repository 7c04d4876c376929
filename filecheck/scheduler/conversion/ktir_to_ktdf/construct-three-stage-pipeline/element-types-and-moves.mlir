// RUN: ktir-opt %s --split-input-file -p 'compute-group-extraction,construct-three-stage-pipeline' | filecheck %s

/// Element types and element moves in the pipeline: each FIFO slot carries the element type of
/// its load or store; a group mixing i8, f16 and f32 is tiled to the lanes of its narrowest-lane
/// type (32: f32 on the sample device's 64 f16 lanes). A column broadcast along the vectorised
/// dimension is read one element per vector (a 1-element slot) and the compute generic reads it
/// through `(d0, d1) -> (d0, 0)`; a strided slice becomes the transfer's `2 * row + 1` and
/// `+ 64`, an element extracted at constant indices a 1-element transfer from them, a transpose
/// a column read (`size [64, 1]`).

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:         ktdf.data_transfer from %{{.*}}[%row0 + %[[I:.*]], %[[J:.*]]] size [1, 64] to %{{.*}} size [64]
// CHECK-NEXT:    ktdf.data_transfer from %{{.*}}[%[[I]]] size [1] to %{{.*}} size [1] : memref<4xf16, "DDR">
// CHECK:         %[[A:.*]] = ktdf.read_from_fifo %{{.*}} : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:    %[[B:.*]] = ktdf.read_from_fifo %{{.*}} : <"DDR" -> "SFU", 1xf16> -> tensor<1x1xf16>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}}} ins(%[[A]], %[[B]] : tensor<1x64xf16>, tensor<1x1xf16>)
// CHECK-NEXT:    ^{{.*}}(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      arith.subf %[[X]], %[[Y]] : f16
ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @broadcast_column(%in0: index, %in1: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 4 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %rows : index
  %x0v = ktdp.construct_memory_view %in0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %x0t = ktdp.construct_access_tile %x0v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x0 = ktdp.load %x0t : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %x1v = ktdp.construct_memory_view %in1, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %x1t = ktdp.construct_access_tile %x1v[%c0] {access_tile_order = affine_map<(d0) -> (d0)>, access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %x1 = ktdp.load %x1t : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %b = linalg.broadcast ins(%x1 : tensor<4xf16>) outs(%e : tensor<4x64xf16>) dimensions = [1]
  %r = arith.subf %x0, %b : tensor<4x64xf16>
  %ov = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ot = ktdp.construct_access_tile %ov[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %r, %ot : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

// -----

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP:.*]] {
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 32xi8>, !ktdf.fifo.slot<"DDR" -> "SFU", 32xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 32xf32>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:         ktdf.read_from_fifo %{{.*}} : <"DDR" -> "SFU", 32xi8> -> tensor<1x32xi8>
// CHECK-NEXT:    ktdf.read_from_fifo %{{.*}} : <"DDR" -> "SFU", 32xf16> -> tensor<1x32xf16>
// CHECK:         ^{{.*}}(%[[X:.*]]: i8, %[[Y:.*]]: f16, %{{.*}}: f32):
// CHECK-NEXT:      %[[W:.*]] = arith.sitofp %[[X]] : i8 to f32
// CHECK-NEXT:      %[[H:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[W]], %[[H]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK-NEXT:    } -> tensor<1x32xf32>
// CHECK:         ktdf.data_transfer from %{{.*}} size [32] to %{{.*}} size [1, 32] : !ktdf.fifo.slot<"SFU" -> "DDR", 32xf32>, memref<4x64xf32, "DDR">
ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @mixed_types(%in0: index, %in1: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 4 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %rows : index
  %x0v = ktdp.construct_memory_view %in0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xi8>
  %x0t = ktdp.construct_access_tile %x0v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xi8> -> !ktdp.access_tile<4x64xindex>
  %x0 = ktdp.load %x0t : !ktdp.access_tile<4x64xindex> -> tensor<4x64xi8>
  %x1v = ktdp.construct_memory_view %in1, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %x1t = ktdp.construct_access_tile %x1v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x1 = ktdp.load %x1t : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %w = arith.sitofp %x0 : tensor<4x64xi8> to tensor<4x64xf32>
  %h = arith.extf %x1 : tensor<4x64xf16> to tensor<4x64xf32>
  %r = arith.mulf %w, %h : tensor<4x64xf32>
  %ov = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %ot = ktdp.construct_access_tile %ov[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %r, %ot : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  return
}

// -----

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.data_transfer from %{{.*}}[%[[I:.*]] * 2 + 1, %[[J:.*]] + 64] size [1, 64] to %{{.*}} size [64] : memref<8x128xf16, "DDR">
// CHECK-NEXT:    ktdf.data_transfer from %{{.*}}[5, 0] size [1, 1] to %{{.*}} size [1] : memref<64x4xf16, "DDR">
// CHECK-NEXT:    ktdf.data_transfer from %{{.*}}[%[[J]], %[[I]]] size [64, 1] to %{{.*}} size [64] : memref<64x4xf16, "DDR">
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @moved_elements(%in0: index, %in1: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 4 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %rows : index
  %x0v = ktdp.construct_memory_view %in0, sizes: [8, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %x0t = ktdp.construct_access_tile %x0v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>} : memref<8x128xf16> -> !ktdp.access_tile<8x128xindex>
  %x0 = ktdp.load %x0t : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %x1v = ktdp.construct_memory_view %in1, sizes: [64, 4], strides: [4, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x4xf16>
  %x1t = ktdp.construct_access_tile %x1v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 3 >= 0)>} : memref<64x4xf16> -> !ktdp.access_tile<64x4xindex>
  %x1 = ktdp.load %x1t : !ktdp.access_tile<64x4xindex> -> tensor<64x4xf16>
  %s = tensor.extract_slice %x0[1, 64] [4, 64] [2, 1] : tensor<8x128xf16> to tensor<4x64xf16>
  %i0 = arith.constant 0 : index
  %i5 = arith.constant 5 : index
  %v = tensor.extract %x1[%i5, %i0] : tensor<64x4xf16>
  %k = tensor.splat %v : tensor<4x64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %t = linalg.transpose ins(%x1 : tensor<64x4xf16>) outs(%e : tensor<4x64xf16>) permutation = [1, 0]
  %m = arith.mulf %s, %k : tensor<4x64xf16>
  %r = arith.addf %m, %t : tensor<4x64xf16>
  %ov = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ot = ktdp.construct_access_tile %ov[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %r, %ot : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

