// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// A string that never ends, followed by a long line: an error at once (xDSL's own pattern
/// backtracks exponentially here), never a hang.
// CHECK-NOT: Traceback
// CHECK: negative-unterminated-string.mlir:[[# @LINE + 1]]:35: error: End of file reached before closing string literal.
func.func @f() attributes {note = "this string is never closed a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h
