// RUN: ktir-opt %s --split-input-file -p split-compute-chains | filecheck %s
// RUN: ktir-opt %s --split-input-file -p split-compute-chains,split-compute-chains | filecheck %s

/// A reshape that merges dimensions larger than 1 of a tile that is not one strided run (2
/// tokens x 4 heads of a [4, 8, 16] tensor, collapsed to 8 rows): the loaded tile is stored
/// into a slot of the tile's own scratchpad (element 0, viewed 2x4x16) and the slot is loaded
/// back viewed 8x16 for the reshape's uses; the expand back to 2x4x16 before the store goes
/// through a second slot (after the first's 256 bytes: element 128, viewed 8x16 to store,
/// 2x4x16 to load). No reshape is left. Idempotent (second RUN).

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#q = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#t = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0)>

// CHECK-LABEL: func.func @heads(
// CHECK-SAME:      %[[QP:.*]]: index, %[[OP:.*]]: index)
// CHECK-NOT:     tensor.collapse_shape
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[Q3:.*]] = ktdp.load %{{.*}} : <2x4x16xindex> -> tensor<2x4x16xf16>
// CHECK:         %[[A0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[SV:.*]] = ktdp.construct_memory_view %[[A0]], sizes: [2, 4, 16], strides: [64, 16, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>
// CHECK-NEXT:    %[[ST:.*]] = ktdp.construct_access_tile %[[SV]][0, 0, 0]
// CHECK-NEXT:    ktdp.store %[[Q3]], %[[ST]] : tensor<2x4x16xf16>, <2x4x16xindex>
// CHECK-NEXT:    %[[A0B:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[LV:.*]] = ktdp.construct_memory_view %[[A0B]], sizes: [8, 16], strides: [16, 1] {{.*}}ct_local
// CHECK-NEXT:    %[[LT:.*]] = ktdp.construct_access_tile %[[LV]][0, 0]
// CHECK-NEXT:    %[[Q2:.*]] = ktdp.load %[[LT]] : <8x16xindex> -> tensor<8x16xf16>
// CHECK-NEXT:    %[[N:.*]] = arith.negf %[[Q2]] : tensor<8x16xf16>
// CHECK-NEXT:    %[[A1:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[SV2:.*]] = ktdp.construct_memory_view %[[A1]], sizes: [8, 16], strides: [16, 1] {{.*}}ct_local
// CHECK-NEXT:    %[[ST2:.*]] = ktdp.construct_access_tile %[[SV2]][0, 0]
// CHECK-NEXT:    ktdp.store %[[N]], %[[ST2]] : tensor<8x16xf16>, <8x16xindex>
// CHECK-NEXT:    %[[A1B:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[LV2:.*]] = ktdp.construct_memory_view %[[A1B]], sizes: [2, 4, 16], strides: [64, 16, 1] {{.*}}ct_local
// CHECK-NEXT:    %[[LT2:.*]] = ktdp.construct_access_tile %[[LV2]][0, 0, 0]
// CHECK-NEXT:    %[[Y3:.*]] = ktdp.load %[[LT2]] : <2x4x16xindex> -> tensor<2x4x16xf16>
// CHECK:         ktdp.store %[[Y3]], %{{.*}} : tensor<2x4x16xf16>, <2x4x16xindex>
func.func @heads(%qp: index, %op: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %qv = ktdp.construct_memory_view %qp, sizes: [4, 8, 16], strides: [128, 16, 1] {
    coordinate_set = #q, memory_space = #ktdp.memory_space<global>} : memref<4x8x16xf16>
  %ov = ktdp.construct_memory_view %op, sizes: [4, 8, 16], strides: [128, 16, 1] {
    coordinate_set = #q, memory_space = #ktdp.memory_space<global>} : memref<4x8x16xf16>
  %qt = ktdp.construct_access_tile %qv[%c0, %c4, %c0] {access_tile_set = #t,
      access_tile_order = #id3} : memref<4x8x16xf16> -> !ktdp.access_tile<2x4x16xindex>
  %q3 = ktdp.load %qt : !ktdp.access_tile<2x4x16xindex> -> tensor<2x4x16xf16>
  %q2 = tensor.collapse_shape %q3 [[0, 1], [2]] : tensor<2x4x16xf16> into tensor<8x16xf16>
  %n = arith.negf %q2 : tensor<8x16xf16>
  %y3 = tensor.expand_shape %n [[0, 1], [2]] output_shape [2, 4, 16]
      : tensor<8x16xf16> into tensor<2x4x16xf16>
  %ot = ktdp.construct_access_tile %ov[%c0, %c4, %c0] {access_tile_set = #t,
      access_tile_order = #id3} : memref<4x8x16xf16> -> !ktdp.access_tile<2x4x16xindex>
  ktdp.store %y3, %ot : tensor<2x4x16xf16>, !ktdp.access_tile<2x4x16xindex>
  return
}

// -----

/// Reshapes that only add or drop unit dimensions are the fusion's (it folds them into its
/// indexing): left as they are, and nothing is stored.

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#q = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 15 >= 0)>

// CHECK-LABEL: func.func @unit_dims(
// CHECK-NOT:     ct_local
// CHECK:         %[[C:.*]] = tensor.collapse_shape %{{.*}} {{.*}} : tensor<1x4x16xf16> into tensor<4x16xf16>
// CHECK-NEXT:    %[[N:.*]] = arith.negf %[[C]] : tensor<4x16xf16>
// CHECK-NEXT:    %[[E:.*]] = tensor.expand_shape %[[N]] {{.*}} output_shape [1, 4, 16]
// CHECK-NOT:     ct_local
func.func @unit_dims(%qp: index, %op: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %qv = ktdp.construct_memory_view %qp, sizes: [4, 8, 16], strides: [128, 16, 1] {
    coordinate_set = #q, memory_space = #ktdp.memory_space<global>} : memref<4x8x16xf16>
  %qt = ktdp.construct_access_tile %qv[%c0, %c4, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0)>,
      access_tile_order = #id3} : memref<4x8x16xf16> -> !ktdp.access_tile<1x4x16xindex>
  %q3 = ktdp.load %qt : !ktdp.access_tile<1x4x16xindex> -> tensor<1x4x16xf16>
  %q2 = tensor.collapse_shape %q3 [[0, 1], [2]] : tensor<1x4x16xf16> into tensor<4x16xf16>
  %n = arith.negf %q2 : tensor<4x16xf16>
  %y3 = tensor.expand_shape %n [[0, 1], [2]] output_shape [1, 4, 16]
      : tensor<4x16xf16> into tensor<1x4x16xf16>
  %ot = ktdp.construct_access_tile %qv[%c0, %c4, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0)>,
      access_tile_order = #id3} : memref<4x8x16xf16> -> !ktdp.access_tile<1x4x16xindex>
  ktdp.store %y3, %ot : tensor<1x4x16xf16>, !ktdp.access_tile<1x4x16xindex>
  return
}
