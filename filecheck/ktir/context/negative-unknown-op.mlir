// RUN: not ktir-opt %s 2>&1 | filecheck %s

/// Any other unknown op stays an error.
func.func @typo() {
  // CHECK: negative-unknown-op.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Operation tset.use is not registered
  "tset.use"() : () -> ()
  return
}
