// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// One case per vectorchain verifier rule (shared/spec/dataflow-ir.md §4): lane counts,
/// element types, masks, constant bit patterns and shuffle patterns.

func.func @negative_binary_lanes(%a: vector<64xf16>, %b: vector<32xf16>) {
  %s = vectorchain.binary %a, %b {binary_op = #vectorchain<binary_operator add>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<32xf16>, vector<64xf16>
  return
}
// CHECK: error: 'vectorchain.binary' op operands and result must have the same number of lanes, got 64, 32, 64

// -----

func.func @negative_binary_operator(%a: vector<64xf16>) {
  %s = vectorchain.binary %a, %a {binary_op = #vectorchain<binary_operator div>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<64xf16>
  return
}
// CHECK: error: Expected `and0`, `or0`, `xnor`, `and_not`, `min`, `max`, `abs_min`, `abs_max`, `add`, `mul`, `sub`, or `mul_div2`.

// -----

func.func @negative_mask_element(%a: vector<64xf16>, %m: vector<64xi8>) {
  %s = vectorchain.neg %a [%m : vector<64xi8>] : vector<64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'vectorchain.neg' op the mask must be a 1-D vector of i1, got vector<64xi8>

// -----

func.func @negative_mask_lanes(%a: vector<64xf16>, %m: vector<32xi1>) {
  %s = vectorchain.fast_exp %a [%m : vector<32xi1>] : vector<64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'vectorchain.fast_exp' op the mask has 32 lanes, the result 64

// -----

func.func @negative_unary_lanes(%a: vector<64xf16>) {
  %s = vectorchain.floor %a : vector<64xf16>, vector<32xf16>
  return
}
// CHECK: error: 'vectorchain.floor' op operands and result must have the same number of lanes, got 64, 32

// -----

func.func @negative_cast_lanes(%a: vector<64xf16>) {
  %s = vectorchain.cast %a : vector<64xf16>, vector<32xf32>
  return
}
// CHECK: error: 'vectorchain.cast' op operands and result must have the same number of lanes, got 64, 32

// -----

func.func @negative_compare_result(%a: vector<64xf16>) {
  %s = vectorchain.element_wise_compare %a, %a {compare_op = #vectorchain<element_wise_compare_operator compare_eq>} : vector<64xf16>, vector<64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'vectorchain.element_wise_compare' op the result lanes must be i1

// -----

func.func @negative_compare_elements(%a: vector<64xf16>, %b: vector<64xf32>) {
  %s = vectorchain.element_wise_compare %a, %b {compare_op = #vectorchain<element_wise_compare_operator compare_eq>} : vector<64xf16>, vector<64xf32>, vector<64xi1>
  return
}
// CHECK: error: 'vectorchain.element_wise_compare' op operands and result must have the same element type, got f16, f32

// -----

func.func @negative_selection_condition(%c: vector<64xi8>, %a: vector<64xf16>) {
  %s = vectorchain.element_wise_selection %c ? %a : %a : vector<64xi8>, vector<64xf16>, vector<64xf16>, vector<64xf16>
  return
}
// CHECK: error: 'vectorchain.element_wise_selection' op the condition lanes must be i1

// -----

func.func @negative_multiply_lanes(%a: vector<64xf16>, %b: vector<32xf16>) {
  %s = vectorchain.multiply %a, %b {reduction_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<32xf16>, vector<32xf16>
  return
}
// CHECK: error: 'vectorchain.multiply' op operands and result must have the same number of lanes, got 64, 32

// -----

func.func @negative_bitstream_count() {
  %c = vectorchain.constant_bitstream {value = [0x0, 0x1]} : vector<1xf16>
  return
}
// CHECK: error: 'vectorchain.constant_bitstream' op 2 values for 1 lanes

// -----

func.func @negative_bitstream_width() {
  %c = vectorchain.constant_bitstream {value = [0x100]} : vector<1xi8>
  return
}
// CHECK: error: 'vectorchain.constant_bitstream' op value 0x100 does not fit the 8-bit element type

// -----

func.func @negative_bitstream_element() {
  %c = vectorchain.constant_bitstream {value = [0x0]} : vector<1xindex>
  return
}
// CHECK: error: 'vectorchain.constant_bitstream' op the result lanes must be integers or floats, got index

// -----

func.func @negative_bitstream_not_integers() {
  %c = vectorchain.constant_bitstream {value = [1.0]} : vector<1xf16>
  return
}
// CHECK: error: expected {value = [0x..., ...]}: an array of integer bit patterns

// -----

func.func @negative_shuffle_lanes(%x: vector<1xf16>) {
  %s = vectorchain.shuffle input(%x) {indices = [0 : i32], repetition = 32 : i32} : vector<1xf16>, vector<64xf16>
  return
}
// CHECK: error: 'vectorchain.shuffle' op 1 indices x 32 repetitions do not make the 64 result lanes

// -----

func.func @negative_shuffle_index(%x: vector<2xf16>, %p: f16) {
  %s = vectorchain.shuffle input(%x), pad(%p) {indices = [0 : i32, -2 : i32], repetition = 2 : i32} : vector<2xf16>, f16, vector<4xf16>
  return
}
// CHECK: error: 'vectorchain.shuffle' op index -2 is outside [-1, 1]

// -----

func.func @negative_shuffle_element(%x: vector<2xf16>) {
  %s = vectorchain.shuffle input(%x) {indices = [0 : i32, 1 : i32], repetition = 1 : i32} : vector<2xf16>, vector<2xf32>
  return
}
// CHECK: error: 'vectorchain.shuffle' op operands and result must have the same element type, got f16, f32

// -----

func.func @negative_shuffle_repetition(%x: vector<2xf16>) {
  %s = vectorchain.shuffle input(%x) {indices = [], repetition = 0 : i32} : vector<2xf16>, vector<2xf16>
  return
}
// CHECK: error: 'vectorchain.shuffle' op repetition must be >= 1

// -----

func.func @negative_shuffle_pad_vector(%x: vector<2xf16>, %p: vector<2xf16>) {
  %s = vectorchain.shuffle input(%x), pad(%p) {indices = [-1 : i32], repetition = 2 : i32} : vector<2xf16>, vector<2xf16>, vector<2xf16>
  return
}
// CHECK: error: 'vectorchain.shuffle' op variable and pad operands must be scalars, got vector<2xf16>

// -----

func.func @negative_shuffle_keywords(%x: vector<2xf16>, %p: f16) {
  %s = vectorchain.shuffle input(%x), pad(%p), variable(%p) {indices = [0 : i32], repetition = 2 : i32} : vector<2xf16>, f16, f16, vector<2xf16>
  return
}
// CHECK: error: expected 'variable', 'pad' or 'mask' (each once, in this order)

// -----

func.func @negative_shuffle_types(%x: vector<2xf16>, %p: f16) {
  %s = vectorchain.shuffle input(%x), pad(%p) {indices = [0 : i32], repetition = 2 : i32} : vector<2xf16>, vector<2xf16>
  return
}
// CHECK: error: expected 3 types (one per operand, then the result)

// -----

func.func @negative_pack_repetition(%a: vector<4xf16>) {
  %s = vectorchain.pack %a, %a {indices = [0 : i32], repetition = 0 : index} : vector<4xf16>, vector<4xf16>, vector<8xf16>
  return
}
// CHECK: error: 'vectorchain.pack' op repetition must be >= 1

// -----

func.func @negative_merge_access(%a: vector<4xf16>) {
  %s = vectorchain.merge %a, %a {iteration_space_CA = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_function_CA = affine_map<(d0, d1) -> (d0)>, access_function_A = affine_map<(d0) -> (d0)>, iteration_space_CB = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_function_CB = affine_map<(d0) -> (d0 + 4)>, access_function_B = affine_map<(d0) -> (d0)>} : vector<4xf16>, vector<4xf16>, vector<8xf16>
  return
}
// CHECK: error: 'vectorchain.merge' op the access functions of A must take the 1 dimensions of its space

// -----

func.func @negative_rotate_elements(%a: vector<4xf16>, %p: index) {
  %s = vectorchain.rotate %a, %p : vector<4xf16>, index, vector<4xf32>
  return
}
// CHECK: error: 'vectorchain.rotate' op operands and result must have the same element type, got f16, f32

// -----

func.func @negative_scan_gap(%a: vector<4xf16>) {
  %s = vectorchain.scan_with_gap %a {reduction_op = #vectorchain<binary_operator add>, gap = 0 : index, eval_order = #vectorchain<eval_order left_to_right>} : vector<4xf16>, vector<4xf16>
  return
}
// CHECK: error: 'vectorchain.scan_with_gap' op gap must be >= 1

// -----

func.func @negative_affine_mask_symbols() {
  %m = vectorchain.create_affine_mask {mask_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 >= 0)>} : vector<64xi1>
  return
}
// CHECK: error: 'vectorchain.create_affine_mask' op mask_set ranges over the lane index (one dimension), with one symbol exactly when a parameter is given

// -----

func.func @negative_affine_mask_type() {
  %m = vectorchain.create_affine_mask {mask_set = affine_set<(d0) : (d0 >= 0)>} : vector<64xi8>
  return
}
// CHECK: error: 'vectorchain.create_affine_mask' op the mask must be a 1-D vector of i1

// -----

func.func @negative_lane_function_unknown(%a: vector<64xf16>) {
  %0 = vectorchain.lane_function "sqrtt" %a : vector<64xf16> -> vector<64xf16>
  return
}
// CHECK: error: 'vectorchain.lane_function' op unknown lane function 'sqrtt' (known: abs, acos, {{.*}}, trunc)

// -----

func.func @negative_lane_function_arity(%a: vector<64xf16>) {
  %0 = vectorchain.lane_function "div" %a : vector<64xf16> -> vector<64xf16>
  return
}
// CHECK: error: 'vectorchain.lane_function' op 'div' takes 2 operand(s), got 1

// -----

func.func @negative_lane_function_parameters(%a: vector<64xf16>) {
  %0 = vectorchain.lane_function "softplus" %a : vector<64xf16> -> vector<64xf16>
  return
}
// CHECK: error: 'vectorchain.lane_function' op 'softplus' takes 2 parameter(s), got 0

// -----

func.func @negative_lane_function_kind(%a: vector<64xi16>) {
  %0 = vectorchain.lane_function "sqrt" %a : vector<64xi16> -> vector<64xi16>
  return
}
// CHECK: error: 'vectorchain.lane_function' op 'sqrt' takes float lanes, got i16

// -----

func.func @negative_lane_function_types(%a: vector<64xf16>, %b: vector<64xf32>) {
  %0 = vectorchain.lane_function "div" %a, %b : vector<64xf16>, vector<64xf32> -> vector<64xf16>
  return
}
// CHECK: error: 'vectorchain.lane_function' op operands and result must have the same element type, got f16, f32, f16
