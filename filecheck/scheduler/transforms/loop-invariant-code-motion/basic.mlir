// RUN: ktir-opt %s -p loop-invariant-code-motion --split-input-file | filecheck %s

/// rmsnorm's second pass: per vector, the generic derives rsqrt(s / N + eps) from the row
/// statistic %s (defined before the loop, read through a broadcasting map) and scales the
/// vector by it. The divide, add and rsqrt move into a generic over %s alone, before the
/// loop; the loop's generic reads its result through the same map, and keeps the multiply.
/// The constants the chain reads go with it.

// CHECK-LABEL: func.func @rstd(
// CHECK-SAME:      %[[X:.*]]: tensor<1x64xf16>, %[[S:.*]]: tensor<1xf16>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1xf16>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[S]] : tensor<1xf16>) outs(%[[E]] : tensor<1xf16>) {
// CHECK-NEXT:    ^bb0(%[[B:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[N:.*]] = arith.constant 4.096000e+03 : f16
// CHECK-NEXT:      %[[Q:.*]] = arith.divf %[[B]], %[[N]] : f16
// CHECK-NEXT:      %[[EPS:.*]] = arith.constant
// CHECK-NEXT:      %[[A:.*]] = arith.addf %[[Q]], %[[EPS]] : f16
// CHECK-NEXT:      %[[RS:.*]] = math.rsqrt %[[A]] : f16
// CHECK-NEXT:      linalg.yield %[[RS]] : f16
// CHECK:         scf.for
// CHECK:           %[[Y:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[R]] : tensor<1x64xf16>, tensor<1xf16>)
// CHECK-NEXT:      ^bb0(%[[XA:.*]]: f16, %[[RA:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[XA]], %[[RA]] : f16
// CHECK-NEXT:        linalg.yield %[[M]] : f16
// CHECK:           func.call @use(%[[Y]])

func.func private @use(tensor<1x64xf16>) -> ()
func.func @rstd(%x: tensor<1x64xf16>, %s: tensor<1xf16>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %e = tensor.empty() : tensor<1x64xf16>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<1x64xf16>, tensor<1xf16>) outs(%e : tensor<1x64xf16>) {
    ^bb0(%a: f16, %b: f16, %o: f16):
      %n = arith.constant 4.096000e+03 : f16
      %q = arith.divf %b, %n : f16
      %eps = arith.constant 1.001360e-05 : f16
      %p = arith.addf %q, %eps : f16
      %r = math.rsqrt %p : f16
      %m = arith.mulf %a, %r : f16
      linalg.yield %m : f16
    } -> tensor<1x64xf16>
    func.call @use(%y) : (tensor<1x64xf16>) -> ()
  }
  func.return
}

// -----

/// The invariant input is also read by the ops that stay: it stays an input of the loop's
/// generic beside the hoisted result. Two loops: the chain goes before the outer one, as
/// neither index is read by it.

// CHECK-LABEL: func.func @kept_input(
// CHECK-SAME:      %[[X:.*]]: tensor<1x64xf16>, %[[S:.*]]: tensor<1xf16>)
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<1xf16>)
// CHECK:           %[[NEG:.*]] = arith.negf
// CHECK:         scf.for %{{.*}} = {{.*}} {
// CHECK-NEXT:      scf.for
// CHECK:             linalg.generic {{.*}} ins(%[[X]], %[[S]], %[[R]] : tensor<1x64xf16>, tensor<1xf16>, tensor<1xf16>)
// CHECK-NEXT:        ^bb0(%[[XA:.*]]: f16, %[[SA:.*]]: f16, %[[RA:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:          %[[M:.*]] = arith.mulf %[[XA]], %[[RA]] : f16
// CHECK-NEXT:          %[[T:.*]] = arith.addf %[[M]], %[[SA]] : f16
// CHECK-NEXT:          linalg.yield %[[T]] : f16

func.func private @use(tensor<1x64xf16>) -> ()
func.func @kept_input(%x: tensor<1x64xf16>, %s: tensor<1xf16>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %c4 step %c1 {
    scf.for %i = %c0 to %c4 step %c1 {
      %e = tensor.empty() : tensor<1x64xf16>
      %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<1x64xf16>, tensor<1xf16>) outs(%e : tensor<1x64xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %r = arith.negf %b : f16
        %m = arith.mulf %a, %r : f16
        %t = arith.addf %m, %b : f16
        linalg.yield %t : f16
      } -> tensor<1x64xf16>
      func.call @use(%y) : (tensor<1x64xf16>) -> ()
    }
  }
  func.return
}

// -----

/// Left alone: a generic outside any loop, and one whose broadcast input is defined in the
/// loop (recomputed per iteration anyway).

// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x64xf16>, tensor<1xf16>)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      arith.negf
// CHECK:         scf.for
// CHECK:           %[[S:.*]] = func.call @stat()
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      linalg.generic {{.*}} ins(%{{.*}}, %[[S]] : tensor<1x64xf16>, tensor<1xf16>)
// CHECK-NEXT:      ^bb0(
// CHECK-NEXT:        arith.negf

func.func private @use(tensor<1x64xf16>) -> ()
func.func private @stat() -> tensor<1xf16>
func.func @left_alone(%x: tensor<1x64xf16>, %s: tensor<1xf16>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<1x64xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<1x64xf16>, tensor<1xf16>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %r = arith.negf %b : f16
    %m = arith.mulf %a, %r : f16
    linalg.yield %m : f16
  } -> tensor<1x64xf16>
  func.call @use(%y) : (tensor<1x64xf16>) -> ()
  scf.for %i = %c0 to %c4 step %c1 {
    %s2 = func.call @stat() : () -> tensor<1xf16>
    %e2 = tensor.empty() : tensor<1x64xf16>
    %y2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s2 : tensor<1x64xf16>, tensor<1xf16>) outs(%e2 : tensor<1x64xf16>) {
    ^bb0(%a: f16, %b: f16, %o: f16):
      %r = arith.negf %b : f16
      %m = arith.mulf %a, %r : f16
      linalg.yield %m : f16
    } -> tensor<1x64xf16>
    func.call @use(%y2) : (tensor<1x64xf16>) -> ()
  }
  func.return
}
