// RUN: ktir-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s
// RUN: ktir-opt %s --split-input-file --verify-diagnostics --max-elements 100 2>&1 | filecheck %s --check-prefix=LOWER
// RUN: not ktir interpret %S/Inputs/huge-tensor.mlir 2>&1 | filecheck %s --check-prefix=TENSOR
/// A dense splat is materialised element by element: one beyond the element limit (2^28,
/// --max-elements) is refused at its type before anything is built, and so is a tensor the
/// interpreter would allocate.
// CHECK-NOT: Traceback
// CHECK: negative-huge-constant.mlir:[[# @LINE + 2]]:36: error: a dense constant of type tensor<1x2147483648xf32> needs 2,147,483,648 elements, more than the limit of 268,435,456 (raise it with --max-elements)
func.func @negative_huge_splat() -> tensor<1x2147483648xf32> {
  %0 = arith.constant dense<0.0> : tensor<1x2147483648xf32>
  return %0 : tensor<1x2147483648xf32>
}

// -----

// LOWER: negative-huge-constant.mlir:[[# @LINE + 2]]:36: error: a dense constant of type tensor<16x16xf32> needs 256 elements, more than the limit of 100 (raise it with --max-elements)
func.func @negative_lowered_limit() -> tensor<16x16xf32> {
  %0 = arith.constant dense<1.0> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
// TENSOR: huge-tensor.mlir:{{[0-9]+}}:3: error: 'tensor.empty' op a result of type tensor<65536x65536xf32> needs 4,294,967,296 elements, more than the limit of 268,435,456 (raise it with --max-elements)
