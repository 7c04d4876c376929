// RUN: ktir-opt %s --split-input-file -p generalize-contractions,ktir-legality-check --verify-diagnostics | filecheck %s

/// An integer matmul is not generalized (its body would need muli/addi with MLIR's
/// sign-extension rules, not written yet): it stays a linalg.matmul, and the legality check
/// refuses it by name.

// CHECK: 'linalg.matmul' op no DataflowIR lowering yet
func.func @negative_integer(%a: tensor<8x32xi32>, %b: tensor<32x16xi32>, %i: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %c = linalg.matmul ins(%a, %b : tensor<8x32xi32>, tensor<32x16xi32>) outs(%i : tensor<8x16xi32>) -> tensor<8x16xi32>
  func.return %c : tensor<8x16xi32>
}
