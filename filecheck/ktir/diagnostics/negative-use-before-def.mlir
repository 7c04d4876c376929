// RUN: ktir-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s
// RUN: not ktir interpret %s 2>&1 | filecheck %s --check-prefix=INTERPRET
/// A value used before its definition in the same block parses (xDSL resolves the forward
/// reference) but is an error at the use, as is an op using its own result; the interpreter
/// never runs such a function.
// CHECK-NOT: Traceback
// CHECK: negative-use-before-def.mlir:[[# @LINE + 2]]:3: error: 'arith.addi' op operand 0 is a result of 'arith.constant' (line [[# @LINE + 3]]), which is defined after this use: define a value before using it
func.func @negative_use_before_def() attributes {grid = [1]} {
  %s = arith.addi %c, %c : index
  %c = arith.constant 1 : index
  return
}
// INTERPRET: negative-use-before-def.mlir:[[# @LINE - 4]]:3: error: 'arith.addi' op operand 0 is a result of 'arith.constant'

// -----

// CHECK: negative-use-before-def.mlir:[[# @LINE + 2]]:3: error: 'arith.addi' op operand 0 is a result of 'arith.addi' (line [[# @LINE + 2]]), which is defined after this use
func.func @negative_use_of_own_result() {
  %s = arith.addi %s, %s : index
  return
}
