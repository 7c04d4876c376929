// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// One case per matrixchain.matmul verifier rule: lanes that match the block sizes, f16 or bf16
/// operands of one type, an f32 accumulator and result, sizes > 0.

func.func @negative_lhs_lanes(%a: vector<64xf16>, %b: vector<64xf16>, %c: vector<64xf32>) {
  %r = matrixchain.matmul %a, %b, %c {k = 4 : i64, m = 8 : i64, n = 8 : i64} : vector<64xf16>, vector<64xf16>, vector<64xf32> -> vector<64xf32>
  return
}
// CHECK: error: 'matrixchain.matmul' op lhs has 64 lanes; a 8 x 4 x 8 block product needs 32

// -----

func.func @negative_mixed_operands(%a: vector<64xf16>, %b: vector<64xbf16>, %c: vector<64xf32>) {
  %r = matrixchain.matmul %a, %b, %c {k = 8 : i64, m = 8 : i64, n = 8 : i64} : vector<64xf16>, vector<64xbf16>, vector<64xf32> -> vector<64xf32>
  return
}
// CHECK: error: 'matrixchain.matmul' op operands must both be f16 or both bf16, got f16 and bf16

// -----

func.func @negative_f16_accumulator(%a: vector<64xf16>, %b: vector<64xf16>, %c: vector<64xf16>) {
  %r = matrixchain.matmul %a, %b, %c {k = 8 : i64, m = 8 : i64, n = 8 : i64} : vector<64xf16>, vector<64xf16>, vector<64xf16> -> vector<64xf16>
  return
}
// CHECK: error: 'matrixchain.matmul' op the accumulator must be f32, got f16

// -----

func.func @negative_zero_size(%a: vector<64xf16>, %b: vector<64xf16>, %c: vector<64xf32>) {
  %r = matrixchain.matmul %a, %b, %c {k = 0 : i64, m = 8 : i64, n = 8 : i64} : vector<64xf16>, vector<64xf16>, vector<64xf32> -> vector<64xf32>
  return
}
// CHECK: error: 'matrixchain.matmul' op block sizes must be > 0, got m = 8, k = 0, n = 8
