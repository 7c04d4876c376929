// RUN: ktir-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s
// RUN: not ktir interpret %s 2>&1 | filecheck %s --check-prefix=INTERPRET
/// An `index` literal must fit in 64 bits: xDSL keeps any integer, which the interpreter would
/// wrap and the compiler keep. Up to 2^64 - 1 (the unsigned spelling) is accepted.
// CHECK-NOT: Traceback
// CHECK: negative-index-literal.mlir:[[# @LINE + 2]]:3: error: 'arith.constant' op index literal 18446744073709551616 does not fit in 64 bits
func.func @negative_index_literal() attributes {grid = [1]} {
  %c = arith.constant 18446744073709551616 : index
  return
}
// INTERPRET: negative-index-literal.mlir:[[# @LINE - 3]]:3: error: 'arith.constant' op index literal 18446744073709551616 does not fit in 64 bits

// -----

// CHECK: negative-index-literal.mlir:[[# @LINE + 2]]:3: error: 'arith.constant' op index literal -9223372036854775809 does not fit in 64 bits
func.func @negative_index_literal_low() {
  %c = arith.constant -9223372036854775809 : index
  return
}
