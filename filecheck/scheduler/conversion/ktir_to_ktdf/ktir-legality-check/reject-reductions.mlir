// RUN: ktir-opt %s -p ktir-legality-check --split-input-file --verify-diagnostics | filecheck %s

/// Reductions the scheduler does not lower are stopped at the reduction, with the reason: a
/// body that does not fold its accumulator with a known combiner (add, mul, max, min, or a
/// compare-and-select of the accumulator and a value computed without it), an output map
/// other than the parallel dimensions in order, a reduce on memrefs.

#m = affine_map<(d0) -> (d0)>
#r = affine_map<(d0) -> ()>
func.func @negative_subtracting_reduction(%a: tensor<64xf16>, %o: tensor<f16>) -> tensor<f16> {
  %r = linalg.generic {indexing_maps = [#m, #r], iterator_types = ["reduction"]} ins(%a : tensor<64xf16>) outs(%o : tensor<f16>) {
  ^bb0(%x: f16, %y: f16):
    %s = arith.subf %y, %x : f16
    linalg.yield %s : f16
  } -> tensor<f16>
  return %r : tensor<f16>
}
// CHECK: error: {{.*}}'linalg.generic' op the reduction body must fold its accumulator with one of addf, addi, maximumf, maxnumf, maxsi, minimumf, minnumf, minsi, mulf, muli or a compare-and-select (max/min) of the accumulator and a value computed without it: not supported by the scheduler yet

// -----

func.func @negative_accumulator_in_contribution(%a: tensor<4x8xf16>, %o: tensor<4xf16>) -> tensor<4xf16> {
  %r = linalg.reduce ins(%a : tensor<4x8xf16>) outs(%o : tensor<4xf16>) dimensions = [1]
    (%x: f16, %y: f16) {
      %p = arith.mulf %x, %y : f16
      %s = arith.addf %p, %y : f16
      linalg.yield %s : f16
    }
  return %r : tensor<4xf16>
}
// CHECK: error: {{.*}}'linalg.reduce' op the reduction body must fold its accumulator with one of {{.*}}: not supported by the scheduler yet

// -----

#i = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#t = affine_map<(d0, d1, d2) -> (d1, d0)>
func.func @negative_transposed_output(%a: tensor<2x4x8xf16>, %o: tensor<4x2xf16>) -> tensor<4x2xf16> {
  %r = linalg.generic {indexing_maps = [#i, #t], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a : tensor<2x4x8xf16>) outs(%o : tensor<4x2xf16>) {
  ^bb0(%x: f16, %y: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  } -> tensor<4x2xf16>
  return %r : tensor<4x2xf16>
}
// CHECK: error: {{.*}}'linalg.generic' op a reducing linalg.generic whose output map is not the parallel dimensions in order ({{.*}}): not supported by the scheduler yet

// -----

func.func @negative_reduce_unsupported_body_op(%a: tensor<4x8xf16>, %o: tensor<4xf16>) -> tensor<4xf16> {
  %two = arith.constant 2 : i32
  %r = linalg.reduce ins(%a : tensor<4x8xf16>) outs(%o : tensor<4xf16>) dimensions = [1]
    (%x: f16, %y: f16) {
      %p = math.fpowi %x, %two : f16, i32
      %s = arith.addf %p, %y : f16
      linalg.yield %s : f16
    }
  return %r : tensor<4xf16>
}
// CHECK: error: {{.*}}'math.fpowi' op 'math.fpowi' has no DataflowIR lowering yet
