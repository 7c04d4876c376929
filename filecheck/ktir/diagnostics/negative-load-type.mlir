// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// A load whose tensor does not match its tile.
// CHECK-NOT: Traceback
// CHECK: negative-load-type.mlir:[[# @LINE + 2]]:3: error: 'ktdp.load' op access tile shape must match result tensor shape
func.func @negative_load_type(%t: !ktdp.access_tile<32x64xindex>) {
  %d = ktdp.load %t : !ktdp.access_tile<32x64xindex> -> tensor<16x64xf16>
  return
}
