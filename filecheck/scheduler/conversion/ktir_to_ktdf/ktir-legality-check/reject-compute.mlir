// RUN: ktir-opt %s -p ktir-legality-check --split-input-file --verify-diagnostics | filecheck %s

/// ktir-legality-check stops at the first op outside what the scheduler lowers end to end and
/// says which op and why; one chunk per condition.

#m = affine_map<(d0) -> (d0)>
func.func @negative_sqrt_in_generic(%a: tensor<64xf16>, %o: tensor<64xf16>) -> tensor<64xf16> {
  %r = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%a : tensor<64xf16>) outs(%o : tensor<64xf16>) {
  ^bb0(%x: f16, %y: f16):
    %s = math.sqrt %x : f16
    linalg.yield %s : f16
  } -> tensor<64xf16>
  return %r : tensor<64xf16>
}
// CHECK: error: {{.*}}'math.sqrt' op no DataflowIR lowering yet (supported element-wise ops: arith.addf, arith.maximumf, arith.minimumf, arith.mulf, arith.negf, arith.subf, linalg.add, linalg.max, linalg.min, linalg.mul, linalg.sub)

// -----

func.func @negative_matmul(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %o: tensor<4x4xf16>) -> tensor<4x4xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%o : tensor<4x4xf16>) -> tensor<4x4xf16>
  return %r : tensor<4x4xf16>
}
// CHECK: error: {{.*}}'linalg.matmul' op no DataflowIR lowering yet

// -----

#m = affine_map<(d0) -> (d0)>
#r = affine_map<(d0) -> ()>
func.func @negative_reduction(%a: tensor<64xf16>, %o: tensor<f16>) -> tensor<f16> {
  %r = linalg.generic {indexing_maps = [#m, #r], iterator_types = ["reduction"]} ins(%a : tensor<64xf16>) outs(%o : tensor<f16>) {
  ^bb0(%x: f16, %y: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  } -> tensor<f16>
  return %r : tensor<f16>
}
// CHECK: error: {{.*}}linalg.generic with reduction iterators: not supported by the scheduler yet

// -----

func.func @negative_divf_on_tensors(%a: tensor<64xf16>) -> tensor<64xf16> {
  %r = arith.divf %a, %a : tensor<64xf16>
  return %r : tensor<64xf16>
}
// CHECK: error: {{.*}}'arith.divf' op no DataflowIR lowering yet

// -----

func.func @negative_non_splat_constant() -> tensor<2xf16> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf16>
  return %c : tensor<2xf16>
}
// CHECK: error: {{.*}}non-splat tensor constants: not supported by the scheduler yet

// -----

func.func @negative_extract_slice(%a: tensor<4x64xf16>) -> tensor<1x64xf16> {
  %s = tensor.extract_slice %a[0, 0] [1, 64] [1, 1] : tensor<4x64xf16> to tensor<1x64xf16>
  return %s : tensor<1x64xf16>
}
// CHECK: error: {{.*}}'tensor.extract_slice' op not supported by the scheduler yet
