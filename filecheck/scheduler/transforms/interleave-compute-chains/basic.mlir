// RUN: ktir-opt %s -p interleave-compute-chains --split-input-file | filecheck %s

/// rmsnorm's vector step: four chains (a square and a sum per column block) written one
/// after the other. On spyre (mul 3 cycles, simple 2) the four squares start at 0, the sums
/// at 3, 5, 7, 9: the squares move to the front, the sums keep their order, the fold into the
/// f32 partial stays last.

// CHECK-LABEL: func.func @sum_of_squares(
// CHECK:         ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %[[C:.*]]: f16, %[[D:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:      %[[MA:.*]] = arith.mulf %[[A]], %[[A]] : f16
// CHECK-NEXT:      %[[MB:.*]] = arith.mulf %[[B]], %[[B]] : f16
// CHECK-NEXT:      %[[MC:.*]] = arith.mulf %[[C]], %[[C]] : f16
// CHECK-NEXT:      %[[MD:.*]] = arith.mulf %[[D]], %[[D]] : f16
// CHECK-NEXT:      %[[SA:.*]] = arith.addf %[[Z]], %[[MA]] : f16
// CHECK-NEXT:      %[[SB:.*]] = arith.addf %[[SA]], %[[MB]] : f16
// CHECK-NEXT:      %[[SC:.*]] = arith.addf %[[SB]], %[[MC]] : f16
// CHECK-NEXT:      %[[SD:.*]] = arith.addf %[[SC]], %[[MD]] : f16
// CHECK-NEXT:      %[[E:.*]] = arith.extf %[[SD]] : f16 to f32
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[E]], %[[ACC]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32

builtin.module {
  ktdf_arch.device @spyre import("spyre.mlir")
  func.func @sum_of_squares(%a: tensor<1x32xf16>, %b: tensor<1x32xf16>, %c: tensor<1x32xf16>, %d: tensor<1x32xf16>, %acc: tensor<1x32xf32>) -> tensor<1x32xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b, %c, %d : tensor<1x32xf16>, tensor<1x32xf16>, tensor<1x32xf16>, tensor<1x32xf16>) outs(%acc : tensor<1x32xf32>) {
    ^bb0(%x0: f16, %x1: f16, %x2: f16, %x3: f16, %o: f32):
      %z = arith.constant 0.000000e+00 : f16
      %m0 = arith.mulf %x0, %x0 : f16
      %s0 = arith.addf %z, %m0 : f16
      %m1 = arith.mulf %x1, %x1 : f16
      %s1 = arith.addf %s0, %m1 : f16
      %m2 = arith.mulf %x2, %x2 : f16
      %s2 = arith.addf %s1, %m2 : f16
      %m3 = arith.mulf %x3, %x3 : f16
      %s3 = arith.addf %s2, %m3 : f16
      %e = arith.extf %s3 : f16 to f32
      %t = arith.addf %e, %o : f32
      linalg.yield %t : f32
    } -> tensor<1x32xf32>
    func.return %r : tensor<1x32xf32>
  }
}

// -----

// CHECK-LABEL: func.func @one_chain(
// CHECK:         ^bb0(%[[X:.*]]: f16, %[[M:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[X]], %[[M]] : f16
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[D]] : f16
// CHECK-NEXT:      %[[Q:.*]] = arith.divf %[[E]], %[[M]] : f16
// CHECK-NEXT:      linalg.yield %[[Q]] : f16

/// One chain: already in order, left as it is.
builtin.module {
  ktdf_arch.device @spyre import("spyre.mlir")
  func.func @one_chain(%x: tensor<1x64xf16>, %m: tensor<1xf16>, %e: tensor<1x64xf16>) -> tensor<1x64xf16> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<1x64xf16>, tensor<1xf16>) outs(%e : tensor<1x64xf16>) {
    ^bb0(%a: f16, %b: f16, %o: f16):
      %d = arith.subf %a, %b : f16
      %x2 = math.exp %d : f16
      %q = arith.divf %x2, %b : f16
      linalg.yield %q : f16
    } -> tensor<1x64xf16>
    func.return %r : tensor<1x64xf16>
  }
}
