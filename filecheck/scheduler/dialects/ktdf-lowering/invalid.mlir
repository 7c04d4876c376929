// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// One case per ktdf_lowering rule: unit handles are `index` values, the body is one block,
/// and `applicable_units` is an array of unit-kind strings.

func.func @negative_unit_type(%u: i32) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:28: error: operand is used with type index, but has been previously used or defined with type i32
  ktdf_lowering.execute_on %u {
  }
  return
}

// -----

func.func @negative_signal_unit_type(%u: f32) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:24: error: operand is used with type index, but has been previously used or defined with type f32
  ktdf_lowering.signal %u
  return
}

// -----

func.func @negative_blocks(%u: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf_lowering.execute_on' op Region 'body' at position 0 expected a single block, but got 2 blocks
  ktdf_lowering.execute_on %u {
    cf.br ^next
  ^next:
    cf.br ^next
  }
  return
}

// -----

func.func @negative_execute_units(%u: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf_lowering.execute_on' op applicable_units must be an array of unit-kind strings, got "SFU"
  ktdf_lowering.execute_on %u {
  } {applicable_units = "SFU"}
  return
}

// -----

func.func @negative_signal_units(%u: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'ktdf_lowering.signal' op applicable_units must be an array of unit-kind strings, got [#ktdf.loop_type<parallel_loop>]
  ktdf_lowering.signal %u {applicable_units = [#ktdf.loop_type<parallel_loop>]}
  return
}
