// RUN: ktir-opt %s --split-input-file -p fold-reshapes-into-views | filecheck %s
// RUN: ktir-opt %s --split-input-file -p fold-reshapes-into-views,fold-reshapes-into-views | filecheck %s

/// A computed 4x8 tensor flattened to 32 and stored into a whole contiguous 32-element view is stored
/// as it is into the same memory viewed 4x8 (same offset, row-major strides); a 32-element
/// load expanded to 4x8 becomes a load of that memory viewed 4x8. The reshapes go. Running
/// it twice changes nothing more (second RUN).

#id = affine_map<(d0, d1) -> (d0, d1)>
#m = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#f = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>

// CHECK-LABEL: func.func @flat_round_trip(
// CHECK-SAME:      %[[A:.*]]: index, %[[B:.*]]: index, %[[C:.*]]: index)
// CHECK-NOT:     tensor.collapse_shape
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[X:.*]] = arith.negf %{{.*}} : tensor<4x8xf16>
// CHECK:         %[[BV:.*]] = ktdp.construct_memory_view %[[B]], sizes: [4, 8], strides: [8, 1]
// CHECK-NEXT:    %[[BT:.*]] = ktdp.construct_access_tile %[[BV]][0, 0]
// CHECK-NEXT:    ktdp.store %[[X]], %[[BT]] : tensor<4x8xf16>, <4x8xindex>
// CHECK:         %[[CV:.*]] = ktdp.construct_memory_view %[[C]], sizes: [4, 8], strides: [8, 1]
// CHECK-NEXT:    %[[CT:.*]] = ktdp.construct_access_tile %[[CV]][0, 0]
// CHECK-NEXT:    %[[Y:.*]] = ktdp.load %[[CT]] : <4x8xindex> -> tensor<4x8xf16>
// CHECK:         ktdp.store %[[Y]], %{{.*}} : tensor<4x8xf16>
func.func @flat_round_trip(%a: index, %b: index, %c: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %av = ktdp.construct_memory_view %a, sizes: [4, 8], strides: [8, 1] {
    coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_set = #m, access_tile_order = #id}
      : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  %l = ktdp.load %at : !ktdp.access_tile<4x8xindex> -> tensor<4x8xf16>
  %x = arith.negf %l : tensor<4x8xf16>
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<4x8xf16> into tensor<32xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [32], strides: [1] {
    coordinate_set = #f, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  %bt = ktdp.construct_access_tile %bv[%c0] {access_tile_set = #f, access_tile_order = affine_map<(d0) -> (d0)>}
      : memref<32xf16> -> !ktdp.access_tile<32xindex>
  ktdp.store %flat, %bt : tensor<32xf16>, !ktdp.access_tile<32xindex>
  %cv = ktdp.construct_memory_view %c, sizes: [32], strides: [1] {
    coordinate_set = #f, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  %ct = ktdp.construct_access_tile %cv[%c0] {access_tile_set = #f, access_tile_order = affine_map<(d0) -> (d0)>}
      : memref<32xf16> -> !ktdp.access_tile<32xindex>
  %y = ktdp.load %ct : !ktdp.access_tile<32xindex> -> tensor<32xf16>
  %back = tensor.expand_shape %y [[0, 1]] output_shape [4, 8] : tensor<32xf16> into tensor<4x8xf16>
  ktdp.store %back, %at : tensor<4x8xf16>, !ktdp.access_tile<4x8xindex>
  return
}

// -----

/// Not a whole contiguous view: a tile at offset 32 of a 64-element view, and a view with a
/// stride of 2. The reshapes stay (for the fusion and the legality check).

#id = affine_map<(d0, d1) -> (d0, d1)>
#m = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#f = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>

// CHECK-LABEL: func.func @partial_and_strided(
// CHECK:         %[[F1:.*]] = tensor.collapse_shape
// CHECK:         ktdp.store %[[F1]]
// CHECK:         %[[F2:.*]] = tensor.collapse_shape
// CHECK:         ktdp.store %[[F2]]
func.func @partial_and_strided(%a: index, %b: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %av = ktdp.construct_memory_view %a, sizes: [4, 8], strides: [8, 1] {
    coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_set = #m, access_tile_order = #id}
      : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  %l = ktdp.load %at : !ktdp.access_tile<4x8xindex> -> tensor<4x8xf16>
  %x = arith.negf %l : tensor<4x8xf16>
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<4x8xf16> into tensor<32xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %bt = ktdp.construct_access_tile %bv[%c32] {access_tile_set = #f, access_tile_order = affine_map<(d0) -> (d0)>}
      : memref<64xf16> -> !ktdp.access_tile<32xindex>
  ktdp.store %flat, %bt : tensor<32xf16>, !ktdp.access_tile<32xindex>
  %flat2 = tensor.collapse_shape %x [[0, 1]] : tensor<4x8xf16> into tensor<32xf16>
  %sv = ktdp.construct_memory_view %b, sizes: [32], strides: [2] {
    coordinate_set = #f, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  %st = ktdp.construct_access_tile %sv[%c0] {access_tile_set = #f, access_tile_order = affine_map<(d0) -> (d0)>}
      : memref<32xf16> -> !ktdp.access_tile<32xindex>
  ktdp.store %flat2, %st : tensor<32xf16>, !ktdp.access_tile<32xindex>
  return
}

// -----

/// A reshape of unit dimensions only (ktir-cpu's scalar_broadcast: a 1x1 load collapsed to a
/// 0-d tensor) stays for the fusion: no 0-d view is made.

// CHECK-LABEL: func.func @unit_dims_only(
// CHECK:         %[[L:.*]] = ktdp.load %{{.*}} : <1x1xindex> -> tensor<1x1xf16>
// CHECK-NEXT:    %[[S:.*]] = tensor.collapse_shape %[[L]] [] : tensor<1x1xf16> into tensor<f16>
// CHECK-NOT:     memref<f16>
#m2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @unit_dims_only(%a: index, %o: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %av = ktdp.construct_memory_view %a, sizes: [1, 1], strides: [1, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<1x1xf16>
  %at = ktdp.construct_access_tile %av[%c0, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}
      : memref<1x1xf16> -> !ktdp.access_tile<1x1xindex>
  %l = ktdp.load %at : !ktdp.access_tile<1x1xindex> -> tensor<1x1xf16>
  %s = tensor.collapse_shape %l [] : tensor<1x1xf16> into tensor<f16>
  %e = tensor.empty() : tensor<2x64xf16>
  %b = linalg.broadcast ins(%s : tensor<f16>) outs(%e : tensor<2x64xf16>) dimensions = [0, 1]
  %ov = ktdp.construct_memory_view %o, sizes: [2, 64], strides: [64, 1] {
    coordinate_set = #m2, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %ot = ktdp.construct_access_tile %ov[%c0, %c0] {access_tile_set = #m2, access_tile_order = #id}
      : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
  ktdp.store %b, %ot : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
