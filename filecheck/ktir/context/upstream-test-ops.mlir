// RUN: ktir-opt %s | filecheck %s

/// Upstream's tests use MLIR's `test` dialect ops as opaque users of a value; they parse and
/// print back in generic form without --allow-unregistered-dialect.

// CHECK-LABEL: func.func @uses(
// CHECK-SAME:    %[[M:.*]]: memref<64xf16, "L1">)
// CHECK-NEXT:    "test.use"(%[[M]]) : (memref<64xf16, "L1">) -> ()
// CHECK-NEXT:    %[[V:.*]] = "test.source"() : () -> index
// CHECK-NEXT:    "test.body"(%[[V]]) : (index) -> ()
func.func @uses(%m: memref<64xf16, "L1">) {
  "test.use"(%m) : (memref<64xf16, "L1">) -> ()
  %v = "test.source"() : () -> index
  "test.body"(%v) : (index) -> ()
  return
}
