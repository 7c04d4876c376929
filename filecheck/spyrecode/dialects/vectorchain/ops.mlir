// RUN: ktir-opt %s | ktir-opt | filecheck %s
// RUN: KTIR_GENERIC_ROUNDTRIP | filecheck %s

/// Every vectorchain op and enum attribute survives print -> parse -> print, custom and
/// generic, with and without the optional `[%mask : vector<Nxi1>]`.

// CHECK-LABEL: func.func @arithmetic(
// CHECK-SAME:    %[[A:[^:]*]]: vector<64xf16>, %[[B:[^:]*]]: vector<64xf16>, %[[M:[^:]*]]: vector<64xi1>)
// CHECK-NEXT:    %[[S:.*]] = vectorchain.binary %[[A]], %[[B]] {binary_op = #vectorchain<binary_operator add>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    %{{.*}} = vectorchain.binary %[[A]], %[[B]] [%[[M]] : vector<64xi1>] {binary_op = #vectorchain<binary_operator mul_div2>, op_specific_map = affine_map<(d0) -> (d0)>, dbgName = "x"} : vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    %[[P:.*]] = vectorchain.multiply %[[A]], %[[B]] {reduction_map = affine_map<(d0) -> ((d0 floordiv 2))>} : vector<64xf16>, vector<64xf16>, vector<32xf16>
// CHECK-NEXT:    %{{.*}} = vectorchain.multiply_and_accumulate %[[A]], %[[B]], %[[P]] {reduction_map = {{.*}}} : vector<64xf16>, vector<64xf16>, vector<32xf16>, vector<32xf16>
// CHECK-NEXT:    %[[LT:.*]] = vectorchain.element_wise_compare %[[A]], %[[B]] {compare_op = #vectorchain<element_wise_compare_operator compare_lt>} : vector<64xf16>, vector<64xf16>, vector<64xi1>
// CHECK-NEXT:    %{{.*}} = vectorchain.element_wise_selection %[[LT]] ? %[[A]] : %[[B]] : vector<64xi1>, vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    %{{.*}} = vectorchain.cast %[[A]] : vector<64xf16>, vector<64xf32>
func.func @arithmetic(%a: vector<64xf16>, %b: vector<64xf16>, %m: vector<64xi1>) {
  %s = vectorchain.binary %a, %b {binary_op = #vectorchain<binary_operator add>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<64xf16>
  %t = vectorchain.binary %a, %b [%m : vector<64xi1>] {binary_op = #vectorchain<binary_operator mul_div2>, op_specific_map = affine_map<(d0) -> (d0)>, dbgName = "x"} : vector<64xf16>, vector<64xf16>, vector<64xf16>
  %p = vectorchain.multiply %a, %b {reduction_map = affine_map<(d0) -> (d0 floordiv 2)>} : vector<64xf16>, vector<64xf16>, vector<32xf16>
  %q = vectorchain.multiply_and_accumulate %a, %b, %p {reduction_map = affine_map<(d0) -> (d0 floordiv 2)>} : vector<64xf16>, vector<64xf16>, vector<32xf16>, vector<32xf16>
  %lt = vectorchain.element_wise_compare %a, %b {compare_op = #vectorchain<element_wise_compare_operator compare_lt>} : vector<64xf16>, vector<64xf16>, vector<64xi1>
  %sel = vectorchain.element_wise_selection %lt ? %a : %b : vector<64xi1>, vector<64xf16>, vector<64xf16>, vector<64xf16>
  %c = vectorchain.cast %a : vector<64xf16>, vector<64xf32>
  return
}

// CHECK-LABEL: func.func @unary(
// CHECK-SAME:    %[[A:[^:]*]]: vector<64xf16>, %[[M:[^:]*]]: vector<64xi1>)
// CHECK-NEXT:    vectorchain.fast_exp %[[A]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.floor %[[A]] [%[[M]] : vector<64xi1>] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.neg %[[A]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.rec_estimate %[[A]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.ln_estimate %[[A]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.rsqrt_estimate %[[A]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.exp_estimate %[[A]] {version = #vectorchain<exp_estimate b>} : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.sigmoid_estimate %[[A]] {version = #vectorchain<estimate_versions slope>} : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.tanh_estimate %[[A]] {version = #vectorchain<estimate_versions offset>} : vector<64xf16>, vector<64xf16>
func.func @unary(%a: vector<64xf16>, %m: vector<64xi1>) {
  %0 = vectorchain.fast_exp %a : vector<64xf16>, vector<64xf16>
  %1 = vectorchain.floor %a [%m : vector<64xi1>] : vector<64xf16>, vector<64xf16>
  %2 = vectorchain.neg %a : vector<64xf16>, vector<64xf16>
  %3 = vectorchain.rec_estimate %a : vector<64xf16>, vector<64xf16>
  %4 = vectorchain.ln_estimate %a : vector<64xf16>, vector<64xf16>
  %5 = vectorchain.rsqrt_estimate %a : vector<64xf16>, vector<64xf16>
  %6 = vectorchain.exp_estimate %a {version = #vectorchain<exp_estimate b>} : vector<64xf16>, vector<64xf16>
  %7 = vectorchain.sigmoid_estimate %a {version = #vectorchain<estimate_versions slope>} : vector<64xf16>, vector<64xf16>
  %8 = vectorchain.tanh_estimate %a {version = #vectorchain<estimate_versions offset>} : vector<64xf16>, vector<64xf16>
  return
}

/// Bit patterns print as upper-case hex; `0xbc00` and `-1` (64-bit lanes) read back as such.
// CHECK-LABEL: func.func @lanes(
// CHECK-SAME:    %[[A:[^:]*]]: vector<64xf16>, %[[P:[^:]*]]: index, %[[F:[^:]*]]: f16, %[[M:[^:]*]]: vector<64xi1>)
// CHECK-NEXT:    %[[Z:.*]] = vectorchain.constant_bitstream {value = [0x0]} : vector<1xf16>
// CHECK-NEXT:    %[[TWO:.*]] = vectorchain.constant_bitstream {value = [0x3C00, 0xBC00]} : vector<2xf16>
// CHECK-NEXT:    vectorchain.constant_bitstream {value = [0xFFFFFFFFFFFFFFFF]} : vector<1xi64>
// CHECK-NEXT:    vectorchain.constant_bitstream {value = [0x7]} : !dataflow.custom_vector<1x!dataflow.custom<mxfp4>>
// CHECK-NEXT:    vectorchain.shuffle input(%[[Z]]) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.shuffle input(%[[TWO]]), variable(%[[P]]), pad(%[[F]]), mask(%[[M]]) {indices = [0 : i32, 1 : i32, -1 : i32, -2 : i32], repetition = 16 : i32} : vector<2xf16>, index, f16, vector<64xi1>, vector<64xf16>
// CHECK-NEXT:    vectorchain.select %[[A]] {selection_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.pack %[[A]], %[[A]] {indices = [0 : i32, 64 : i32], repetition = 64 : index} : vector<64xf16>, vector<64xf16>, vector<128xf16>
// CHECK-NEXT:    vectorchain.pack %[[A]], %[[A]] {indices = [0 : i32], repetition = 128 : index, sign_extend = true} : vector<64xf16>, vector<64xf16>, vector<128xf16>
// CHECK-NEXT:    vectorchain.merge %[[A]], %[[A]] {iteration_space_CA = {{.*}}, access_function_B = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<128xf16>
// CHECK-NEXT:    vectorchain.rotate %[[A]], %[[P]] {right_shift = false} : vector<64xf16>, index, vector<64xf16>
// CHECK-NEXT:    vectorchain.rotate %[[A]], %[[P]] : vector<64xf16>, index, vector<64xf16>
// CHECK-NEXT:    vectorchain.scan_with_gap %[[A]] {reduction_op = #vectorchain<binary_operator add>, gap = 2 : index, eval_order = #vectorchain<eval_order right_to_left>} : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.create_affine_mask %[[P]] {mask_set = affine_set<(d0)[s0] : (d0 >= 0, (((d0 * -1) + s0) + -1) >= 0)>} : vector<64xi1>
// CHECK-NEXT:    vectorchain.create_affine_mask {mask_set = {{.*}}} : vector<64xi1>
func.func @lanes(%a: vector<64xf16>, %p: index, %f: f16, %m: vector<64xi1>) {
  %z = vectorchain.constant_bitstream {value = [0x0]} : vector<1xf16>
  %two = vectorchain.constant_bitstream {value = [0x3C00, 0xbc00]} : vector<2xf16>
  %all = vectorchain.constant_bitstream {value = [-1]} : vector<1xi64>
  %mx = vectorchain.constant_bitstream {value = [0x7]} : !dataflow.custom_vector<1x!dataflow.mxfp<4>>
  %splat = vectorchain.shuffle input(%z) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
  %mix = vectorchain.shuffle input(%two), variable(%p), pad(%f), mask(%m) {indices = [0 : i32, 1 : i32, -1 : i32, -2 : i32], repetition = 16 : i32} : vector<2xf16>, index, f16, vector<64xi1>, vector<64xf16>
  %sel = vectorchain.select %a {selection_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>
  %pk = vectorchain.pack %a, %a {indices = [0 : i32, 64 : i32], repetition = 64 : index, sign_extend = false} : vector<64xf16>, vector<64xf16>, vector<128xf16>
  %pk2 = vectorchain.pack %a, %a {indices = [0 : i32], repetition = 128 : index, sign_extend = true} : vector<64xf16>, vector<64xf16>, vector<128xf16>
  %mg = vectorchain.merge %a, %a {iteration_space_CA = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, access_function_CA = affine_map<(d0) -> (d0)>, access_function_A = affine_map<(d0) -> (d0)>, iteration_space_CB = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, access_function_CB = affine_map<(d0) -> (d0 + 64)>, access_function_B = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<128xf16>
  %rl = vectorchain.rotate %a, %p {right_shift = false} : vector<64xf16>, index, vector<64xf16>
  %rr = vectorchain.rotate %a, %p {right_shift = true} : vector<64xf16>, index, vector<64xf16>
  %sc = vectorchain.scan_with_gap %a {reduction_op = #vectorchain<binary_operator add>, gap = 2 : index, eval_order = #vectorchain<eval_order right_to_left>} : vector<64xf16>, vector<64xf16>
  %mk = vectorchain.create_affine_mask %p {mask_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>} : vector<64xi1>
  %mk2 = vectorchain.create_affine_mask {mask_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>} : vector<64xi1>
  return
}

// The project's extension op `lane_function`: a named element-wise function (its definition is
// in ktir.semantics), one to five operands, parameters for softplus, an optional mask.
// CHECK-LABEL: func.func @lane_functions(
// CHECK-SAME:    %[[A:[^:]*]]: vector<64xf16>, %[[B:[^:]*]]: vector<64xf16>, %[[I:[^:]*]]: vector<32xi32>, %[[M:[^:]*]]: vector<64xi1>)
// CHECK-NEXT:    vectorchain.lane_function "sqrt" %[[A]] : vector<64xf16> -> vector<64xf16>
// CHECK-NEXT:    vectorchain.lane_function "div" %[[A]], %[[B]] [%[[M]] : vector<64xi1>] : vector<64xf16>, vector<64xf16> -> vector<64xf16>
// CHECK-NEXT:    vectorchain.lane_function "softplus" %[[A]] {parameters = [5.000000e-01 : f32, 2.000000e+01 : f32]} : vector<64xf16> -> vector<64xf16>
// CHECK-NEXT:    vectorchain.lane_function "layernormnorm" %[[A]], %[[B]], %[[A]], %[[B]], %[[A]] : vector<64xf16>, vector<64xf16>, vector<64xf16>, vector<64xf16>, vector<64xf16> -> vector<64xf16>
// CHECK-NEXT:    vectorchain.lane_function "shrui" %[[I]], %[[I]] : vector<32xi32>, vector<32xi32> -> vector<32xi32>
func.func @lane_functions(%a: vector<64xf16>, %b: vector<64xf16>, %i: vector<32xi32>, %m: vector<64xi1>) {
  %0 = vectorchain.lane_function "sqrt" %a : vector<64xf16> -> vector<64xf16>
  %1 = vectorchain.lane_function "div" %a, %b [%m : vector<64xi1>] : vector<64xf16>, vector<64xf16> -> vector<64xf16>
  %2 = vectorchain.lane_function "softplus" %a {parameters = [0.5 : f32, 20.0 : f32]} : vector<64xf16> -> vector<64xf16>
  %3 = vectorchain.lane_function "layernormnorm" %a, %b, %a, %b, %a : vector<64xf16>, vector<64xf16>, vector<64xf16>, vector<64xf16>, vector<64xf16> -> vector<64xf16>
  %4 = vectorchain.lane_function "shrui" %i, %i : vector<32xi32>, vector<32xi32> -> vector<32xi32>
  return
}
