// RUN: ktir-opt %s --split-input-file -p generalize-contractions | filecheck %s

/// A float linalg.matmul on tensors becomes the linalg.generic contraction of MLIR's
/// definition: maps (m, k), (k, n), (m, n), iterators parallel, parallel, reduction, and a
/// body that multiplies the operands and adds the product to the accumulator.

// CHECK-LABEL: func.func @same_type
// CHECK:       %[[C:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A:.*]], %[[B:.*]] : tensor<8x32xf16>, tensor<32x16xf16>) outs(%[[I:.*]] : tensor<8x16xf16>)
// CHECK-NEXT:  ^{{.*}}(%[[X:.*]]: f16, %[[Y:.*]]: f16, %[[ACC:.*]]: f16):
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f16
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f16
// CHECK-NEXT:    linalg.yield %[[S]] : f16
// CHECK:       func.return %[[C]]
// CHECK-NOT:   linalg.matmul
func.func @same_type(%a: tensor<8x32xf16>, %b: tensor<32x16xf16>, %i: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %c = linalg.matmul ins(%a, %b : tensor<8x32xf16>, tensor<32x16xf16>) outs(%i : tensor<8x16xf16>) -> tensor<8x16xf16>
  func.return %c : tensor<8x16xf16>
}
