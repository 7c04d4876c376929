// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// One case per spyreop verifier/parser rule; the message names the rule.

func.func @negative_unary_type(%x: i32) {
  %0 = spyreop.exp %x : i32
  return
}
// CHECK: error: 'spyreop.exp' op expects f16, !spyreop.df16 or f32 operands, got i32

// -----

func.func @negative_gelu_f32(%x: f32) {
  %0 = spyreop.gelu %x : f32
  return
}
// CHECK: error: 'spyreop.gelu' op expects f16, !spyreop.df16 operands, got f32

// -----

func.func @negative_unary_mismatch(%x: f16) {
  %0 = "spyreop.sqrt"(%x) : (f16) -> f32
  return
}
// CHECK: error: 'spyreop.sqrt' op operand and result types must be equal

// -----

func.func @negative_realdiv_mismatch(%x: f16, %y: f32) {
  %0 = "spyreop.realdiv"(%x, %y) : (f16, f32) -> f16
  return
}
// CHECK: error: 'spyreop.realdiv' op operand and result types must be equal

// -----

func.func @negative_softplus_beta(%x: f16) {
  %0 = spyreop.softplus %x beta 0.0 threshold 20.0 : f16
  return
}
// CHECK: error: 'spyreop.softplus' op beta must be non-zero

// -----

func.func @negative_softplus_f32(%x: f32) {
  %0 = spyreop.softplus %x beta 1.0 threshold 20.0 : f32
  return
}
// CHECK: error: {{.*}}expects f16, !spyreop.df16 operands, got f32

// -----

func.func @negative_int_width(%a: i64) {
  %0 = "spyreop.addi32toi32"(%a, %a) : (i64, i64) -> i64
  return
}
// CHECK: error: 'spyreop.addi32toi32' op operands and result must be i32

// -----

func.func @negative_idx32_mixed(%a: i32) {
  %0 = spyreop.idx32toaddr %a base %a stride 4
  return
}
// CHECK: error: {{.*}}give both base and stride as operands, or both as literals

// -----

func.func @negative_idx32_both(%a: i32) {
  %0 = "spyreop.idx32toaddr"(%a, %a, %a) <{base_value = 1 : i64, stride_value = 2 : i64}> : (i32, i32, i32) -> i32
  return
}
// CHECK: error: 'spyreop.idx32toaddr' op expects base and stride either as operands or as literals

// -----

func.func @negative_layernormscale_types(%x: f16, %q: f32) {
  %0 = "spyreop.layernormscale"(%x, %q) : (f16, f32) -> f16
  return
}
// CHECK: error: 'spyreop.layernormscale' op operand and result types must be equal

// -----

func.func @negative_layernormnorm_types(%x: f16, %q: f32) {
  %0 = "spyreop.layernormnorm"(%x, %q, %x, %x, %x) : (f16, f32, f16, f16, f16) -> f16
  return
}
// CHECK: error: 'spyreop.layernormnorm' op operand and result types must be equal

// -----

func.func @negative_exx2_types(%x: f16) {
  %0, %1 = "spyreop.exx2"(%x) : (f16) -> (f16, f32)
  return
}
// CHECK: error: 'spyreop.exx2' op operand and result types must be equal

// -----

func.func @negative_exx2_fused_type(%x: f16) {
  %0 = spyreop.exx2_fused %x : f16 -> !spyreop.fp32_fused
  return
}
// CHECK: error: 'spyreop.exx2_fused' op the fused type of f16 is spyreop.fp16_fused, got !spyreop.fp32_fused

// -----

func.func @negative_scale_fused_type(%f: !spyreop.df16_fused) {
  %0 = spyreop.layernormscale_fused %f : !spyreop.df16_fused -> f16
  return
}
// CHECK: error: 'spyreop.layernormscale_fused' op a f16 result needs a spyreop.fp16_fused operand

// -----

func.func @negative_slice_rank(%t: tensor<2x64xf16>) {
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<2x64xf16> -> tensor<2x64xf16>
  return
}
// CHECK: error: 'spyreop.slice_reduction' op slice_reduction works on one stick-wide 1-D tensor

// -----

func.func @negative_slice_types(%t: tensor<64xf16>) {
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf32>
  return
}
// CHECK: error: 'spyreop.slice_reduction' op operand and result types must be equal

// -----

func.func @negative_reduction_kind(%t: tensor<64xf16>) {
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<avg>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  return
}
// CHECK: error: {{.*}}Expected `add`, `sub`, `max`, `min`, `mul`, or `abs_max`

// -----

func.func @negative_compare_predicate(%a: f32) {
  %0 = spyreop.compare <less> %a, %a : f32
  return
}
// CHECK: error: {{.*}}as the comparison predicate

// -----

func.func @negative_select_types(%a: f32, %b: i32) {
  %0 = "spyreop.select"(%a, %a, %b) : (f32, f32, i32) -> f32
  return
}
// CHECK: error: 'spyreop.select' op operand 'false_value' at position 2 does not verify
