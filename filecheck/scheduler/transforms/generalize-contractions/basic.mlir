// RUN: ktir-opt %s --split-input-file -p generalize-contractions | filecheck %s

/// A float linalg.matmul on tensors becomes a linalg.generic contraction over (m, k, n): maps
/// (m, k), (k, n), (m, n), iterators parallel, reduction, parallel (n innermost, so that the
/// pipeline vectorises the output's contiguous dim and steps by outer products), a body that adds the product to the
/// accumulator. An f16 matmul sums the exact f32 products in an f32 accumulator from 0, then
/// one element-wise generic adds the init and rounds once (the interpreter's precision rule).

// CHECK-LABEL: func.func @narrow
// CHECK:       %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
// CHECK:       %[[S:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[A:.*]], %[[B:.*]] : tensor<8x32xf16>, tensor<32x16xf16>) outs(%[[Z]] : tensor<8x16xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[X:.*]]: f16, %[[Y:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[XW:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:    %[[YW:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %[[XW]], %[[YW]] : f32
// CHECK-NEXT:    %[[T:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:    linalg.yield %[[T]] : f32
// CHECK:       %[[C:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[S]], %[[I:.*]] : tensor<8x16xf32>, tensor<8x16xf16>) outs(%[[I]] : tensor<8x16xf16>)
// CHECK:         arith.extf
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    arith.truncf {{.*}} : f32 to f16
// CHECK:       func.return %[[C]]
func.func @narrow(%a: tensor<8x32xf16>, %b: tensor<32x16xf16>, %i: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %c = linalg.matmul ins(%a, %b : tensor<8x32xf16>, tensor<32x16xf16>) outs(%i : tensor<8x16xf16>) -> tensor<8x16xf16>
  func.return %c : tensor<8x16xf16>
}

// -----

/// An f32 matmul accumulates in its own init: one generic, no casts.

// CHECK-LABEL: func.func @wide
// CHECK:       %[[C:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<8x32xf32>, tensor<32x16xf32>) outs(%[[I:.*]] : tensor<8x16xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:    %[[T:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:    linalg.yield %[[T]] : f32
// CHECK:       func.return %[[C]]
// CHECK-NOT:   linalg.matmul
func.func @wide(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>, %i: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = linalg.matmul ins(%a, %b : tensor<8x32xf32>, tensor<32x16xf32>) outs(%i : tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %c : tensor<8x16xf32>
}

// -----

/// An f32 matmul whose init is computed and not one value on every element (flash
/// attention's `acc * alpha + P·V`): the products are summed from 0, then one element-wise
/// generic adds the init, as the interpreter adds it (a reduction starts from one value).
/// A splat init stays the contraction's own (second function).

// CHECK-LABEL: func.func @computed_init(
// CHECK-SAME:      %[[A:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<16x32xf32>, %[[ACC0:.*]]: tensor<8x32xf32>)
// CHECK:         %[[I:.*]] = arith.negf %[[ACC0]] : tensor<8x32xf32>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x32xf32>
// CHECK-NEXT:    %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[A]], %[[B]] : tensor<8x16xf32>, tensor<16x32xf32>) outs(%[[Z]] : tensor<8x32xf32>)
// CHECK-NEXT:    ^{{.*}}(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[P0:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[P0]], %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[T]] : f32
// CHECK:         %[[C:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[S]], %[[I]] : tensor<8x32xf32>, tensor<8x32xf32>) outs(%[[I]] : tensor<8x32xf32>)
// CHECK-NEXT:    ^{{.*}}(%[[SV:.*]]: f32, %[[IV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[IV]], %[[SV]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
// CHECK:         func.return %[[C]]
func.func @computed_init(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %acc: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %i = arith.negf %acc : tensor<8x32xf32>
  %c = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%i : tensor<8x32xf32>) -> tensor<8x32xf32>
  func.return %c : tensor<8x32xf32>
}

// CHECK-LABEL: func.func @splat_init(
// CHECK:         %[[I:.*]] = tensor.splat %{{.*}} : tensor<8x32xf32>
// CHECK-NEXT:    %[[C:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x32xf32>) outs(%[[I]] : tensor<8x32xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         func.return %[[C]]
func.func @splat_init(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %x: f32) -> tensor<8x32xf32> {
  %i = tensor.splat %x : tensor<8x32xf32>
  %c = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%i : tensor<8x32xf32>) -> tensor<8x32xf32>
  func.return %c : tensor<8x32xf32>
}
