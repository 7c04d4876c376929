// RUN: ktir-opt %s -p ktir-legality-check --split-input-file --verify-diagnostics | filecheck %s

/// ktir-legality-check stops at the first op outside what the scheduler lowers end to end and
/// says which op and why; one chunk per condition.

#m = affine_map<(d0) -> (d0)>
func.func @negative_fpowi_in_generic(%a: tensor<64xf16>, %o: tensor<64xf16>) -> tensor<64xf16> {
  %two = arith.constant 2 : i32
  %r = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%a : tensor<64xf16>) outs(%o : tensor<64xf16>) {
  ^bb0(%x: f16, %y: f16):
    %s = math.fpowi %x, %two : f16, i32
    linalg.yield %s : f16
  } -> tensor<64xf16>
  return %r : tensor<64xf16>
}
// CHECK: error: {{.*}}'math.fpowi' op 'math.fpowi' has no DataflowIR lowering yet (supported element-wise ops: arith addf, addi, {{.*}}; linalg add, broadcast, {{.*}}; math absf, {{.*}}; spyreop addi32toi32, {{.*}})

// -----

#m = affine_map<(d0) -> (d0)>
func.func @negative_index_in_generic(%o: tensor<64xi32>) -> tensor<64xi32> {
  %r = linalg.generic {indexing_maps = [#m], iterator_types = ["parallel"]} outs(%o : tensor<64xi32>) {
  ^bb0(%y: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<64xi32>
  return %r : tensor<64xi32>
}
// CHECK: error: {{.*}}'linalg.index' op no DataflowIR lowering yet

// -----

func.func @negative_matmul(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %o: tensor<4x4xf16>) -> tensor<4x4xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%o : tensor<4x4xf16>) -> tensor<4x4xf16>
  return %r : tensor<4x4xf16>
}
// CHECK: error: {{.*}}'linalg.matmul' op no DataflowIR lowering yet

// -----

func.func @negative_bitcast_on_tensors(%a: tensor<64xf16>) -> tensor<64xi16> {
  %r = arith.bitcast %a : tensor<64xf16> to tensor<64xi16>
  return %r : tensor<64xi16>
}
// CHECK: error: {{.*}}'arith.bitcast' op 'arith.bitcast' has no DataflowIR lowering yet

// -----

func.func @negative_f64(%a: tensor<64xf64>) -> tensor<64xf64> {
  %r = arith.addf %a, %a : tensor<64xf64>
  return %r : tensor<64xf64>
}
// CHECK: error: {{.*}}'arith.addf' op element type f64 in compute: not supported by the scheduler yet (supported: f16, bf16, f32, i1, i8, i16, i32)

// -----

func.func @negative_fused_exx2(%a: f16) -> f16 {
  %f = spyreop.exx2_fused %a : f16 -> !spyreop.fp16_fused
  %r = spyreop.layernormscale_fused %f : !spyreop.fp16_fused -> f16
  return %r : f16
}
// CHECK: error: {{.*}}'spyreop.exx2_fused' op fused (mean, mean of squares) values have no vector form: not supported by the scheduler yet

// -----

func.func @negative_non_splat_constant() -> tensor<2xf16> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf16>
  return %c : tensor<2xf16>
}
// CHECK: error: {{.*}}non-splat tensor constants: not supported by the scheduler yet

// -----

func.func @negative_dynamic_extract_slice(%a: tensor<4x64xf16>, %i: index) -> tensor<1x64xf16> {
  %s = tensor.extract_slice %a[%i, 0] [1, 64] [1, 1] : tensor<4x64xf16> to tensor<1x64xf16>
  return %s : tensor<1x64xf16>
}
// CHECK: error: {{.*}}'tensor.extract_slice' op tensor.extract_slice with dynamic offsets, sizes or strides: not supported by the scheduler yet

// -----

func.func @negative_merging_reshape(%a: tensor<2x64xf16>) -> tensor<128xf16> {
  %s = tensor.collapse_shape %a [[0, 1]] : tensor<2x64xf16> into tensor<128xf16>
  return %s : tensor<128xf16>
}
// CHECK: error: {{.*}}'tensor.collapse_shape' op a reshape that merges or splits dimensions larger than 1 (2x64): not supported by the scheduler yet

// -----

func.func @negative_extract_at_variable(%a: tensor<64xf16>, %i: index) -> f16 {
  %s = tensor.extract %a[%i] : tensor<64xf16>
  return %s : f16
}
// CHECK: error: {{.*}}'tensor.extract' op tensor.extract at indices that are not constants: not supported by the scheduler yet

// -----

func.func @negative_insert_slice(%a: tensor<1x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %s = tensor.insert_slice %a into %b[0, 0] [1, 64] [1, 1] : tensor<1x64xf16> into tensor<4x64xf16>
  return %s : tensor<4x64xf16>
}
// CHECK: error: {{.*}}'tensor.insert_slice' op 'tensor.insert_slice' in compute (each stored element is computed from loaded elements; a slice written over another value needs per-lane masks): not supported by the scheduler yet

// -----

func.func @negative_slice_reduction(%a: tensor<64xf16>) -> tensor<64xf16> {
  %r = spyreop.slice_reduction %a {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  return %r : tensor<64xf16>
}
// CHECK: error: {{.*}}'spyreop.slice_reduction' op reductions across the lanes of a stick (spyreop.slice_reduction): not supported by the scheduler yet

// -----

func.func @negative_from_elements(%a: f16, %b: f16) -> tensor<2xf16> {
  %t = tensor.from_elements %a, %b : tensor<2xf16>
  return %t : tensor<2xf16>
}
// CHECK: error: {{.*}}'tensor.from_elements' op tensor.from_elements of 2 elements (one element, a splat, is fused): not supported by the scheduler yet
