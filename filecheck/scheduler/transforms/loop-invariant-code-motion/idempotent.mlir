// RUN: ktir-opt %s -p loop-invariant-code-motion,loop-invariant-code-motion | filecheck %s

/// A second run finds nothing to move: the hoisted generic is outside the loop, the loop's
/// generic has no invariant chain left (one rsqrt, one multiply).

// CHECK-LABEL: func.func @twice(
// CHECK:         math.rsqrt
// CHECK-NOT:     math.rsqrt
// CHECK:         scf.for
// CHECK:           linalg.generic
// CHECK-NEXT:      ^bb0(
// CHECK-NEXT:        arith.mulf
// CHECK-NEXT:        linalg.yield

func.func private @use(tensor<1x64xf16>) -> ()
func.func @twice(%x: tensor<1x64xf16>, %s: tensor<1xf16>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %e = tensor.empty() : tensor<1x64xf16>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<1x64xf16>, tensor<1xf16>) outs(%e : tensor<1x64xf16>) {
    ^bb0(%a: f16, %b: f16, %o: f16):
      %r = math.rsqrt %b : f16
      %m = arith.mulf %a, %r : f16
      linalg.yield %m : f16
    } -> tensor<1x64xf16>
    func.call @use(%y) : (tensor<1x64xf16>) -> ()
  }
  func.return
}
