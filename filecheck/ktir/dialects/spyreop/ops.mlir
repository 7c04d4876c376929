// RUN: ktir-opt %s | ktir-opt | filecheck %s
// RUN: KTIR_GENERIC_ROUNDTRIP | filecheck %s

/// Every spyreop intrinsic and type round-trips, and the intrinsics are usable as scalar ops
/// inside a linalg.generic body.

// CHECK-LABEL: func.func @unary(
// CHECK-SAME:    %[[H:[^:]*]]: f16, %[[D:[^:]*]]: !spyreop.df16, %[[F:[^:]*]]: f32)
// CHECK-NEXT:    spyreop.exp %[[H]] : f16
// CHECK-NEXT:    spyreop.reciprocal %[[D]] : !spyreop.df16
// CHECK-NEXT:    spyreop.sqrt %[[F]] : f32
// CHECK-NEXT:    spyreop.rsqrt %[[H]] : f16
// CHECK-NEXT:    spyreop.sigmoid %[[D]] : !spyreop.df16
// CHECK-NEXT:    spyreop.silu %[[F]] : f32
// CHECK-NEXT:    spyreop.gelu %[[D]] : !spyreop.df16
// CHECK-NEXT:    spyreop.realdiv %[[H]], %[[H]] : f16
// CHECK-NEXT:    spyreop.softplus %[[H]] beta 2.000000e-01 threshold 2.000000e+01 : f16
func.func @unary(%h: f16, %d: !spyreop.df16, %f: f32) {
  %0 = spyreop.exp %h : f16
  %1 = spyreop.reciprocal %d : !spyreop.df16
  %2 = spyreop.sqrt %f : f32
  %3 = spyreop.rsqrt %h : f16
  %4 = spyreop.sigmoid %d : !spyreop.df16
  %5 = spyreop.silu %f : f32
  %6 = spyreop.gelu %d : !spyreop.df16
  %7 = spyreop.realdiv %h, %h : f16
  %8 = spyreop.softplus %h beta 0.2 threshold 20.0 : f16
  return
}

// CHECK-LABEL: func.func @integer(
// CHECK-SAME:    %[[A:[^:]*]]: i32, %[[B:[^:]*]]: i32, %[[L:[^:]*]]: i64)
// CHECK-NEXT:    spyreop.addi32toi32 %[[A]], %[[B]]
// CHECK-NEXT:    spyreop.muli32toi32 %[[A]], %[[B]]
// CHECK-NEXT:    spyreop.addi64toi64 %[[L]], %[[L]]
// CHECK-NEXT:    spyreop.idx32toaddr %[[A]] base %[[B]] stride %[[A]]
// CHECK-NEXT:    spyreop.idx32toaddr %[[A]] base 0xDEADBEEF stride 4
func.func @integer(%a: i32, %b: i32, %l: i64) {
  %0 = spyreop.addi32toi32 %a, %b
  %1 = spyreop.muli32toi32 %a, %b
  %2 = spyreop.addi64toi64 %l, %l
  %3 = spyreop.idx32toaddr %a base %b stride %a
  %4 = spyreop.idx32toaddr %a base 0xDEADBEEF stride 4
  return
}

// CHECK-LABEL: func.func @layernorm(
// CHECK-SAME:    %[[X:[^:]*]]: f16, %[[D:[^:]*]]: !spyreop.df16, %[[F:[^:]*]]: f32)
// CHECK-NEXT:    %[[M:.*]], %[[SQ:.*]] = spyreop.exx2 %[[X]] : f16
// CHECK-NEXT:    %[[S:.*]] = spyreop.layernormscale %[[M]] squares %[[SQ]] : f16
// CHECK-NEXT:    spyreop.layernormscale %[[X]] : f16
// CHECK-NEXT:    spyreop.layernormnorm %[[X]] squares %[[SQ]] scale %[[S]] weight %[[X]] bias %[[X]] : f16
// CHECK-NEXT:    %[[FU:.*]] = spyreop.exx2_fused %[[X]] : f16 -> !spyreop.fp16_fused
// CHECK-NEXT:    spyreop.layernormscale_fused %[[FU]] : !spyreop.fp16_fused -> f16
// CHECK-NEXT:    %[[FD:.*]] = spyreop.exx2_fused %[[D]] : !spyreop.df16 -> !spyreop.df16_fused
// CHECK-NEXT:    spyreop.layernormscale_fused %[[FD]] : !spyreop.df16_fused -> !spyreop.df16
// CHECK-NEXT:    spyreop.exx2_fused %[[F]] : f32 -> !spyreop.fp32_fused
func.func @layernorm(%x: f16, %d: !spyreop.df16, %f: f32) {
  %m, %sq = spyreop.exx2 %x : f16
  %s = spyreop.layernormscale %m squares %sq : f16
  %s1 = spyreop.layernormscale %x : f16
  %y = spyreop.layernormnorm %x squares %sq scale %s weight %x bias %x : f16
  %fu = spyreop.exx2_fused %x : f16 -> !spyreop.fp16_fused
  %s2 = spyreop.layernormscale_fused %fu : !spyreop.fp16_fused -> f16
  %fd = spyreop.exx2_fused %d : !spyreop.df16 -> !spyreop.df16_fused
  %s3 = spyreop.layernormscale_fused %fd : !spyreop.df16_fused -> !spyreop.df16
  %ff = spyreop.exx2_fused %f : f32 -> !spyreop.fp32_fused
  return
}

// CHECK-LABEL: func.func @slices(
// CHECK-SAME:    %[[T:[^:]*]]: tensor<64xf16>, %[[A:[^:]*]]: f32, %[[B:[^:]*]]: f32)
// CHECK-NEXT:    spyreop.slice_reduction %[[T]] {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
// CHECK-NEXT:    spyreop.slice_reduction %[[T]] {reduction_kind = #spyreop.reduction_kind<abs_max>, reduction_scope = #spyreop.reduction_scope<across_slice>} : tensor<64xf16> -> tensor<64xf16>
// CHECK-NEXT:    %[[C:.*]] = spyreop.compare <greaterthan> %[[A]], %[[B]] : f32
// CHECK-NEXT:    spyreop.select %[[C]], %[[A]], %[[B]] : f32
func.func @slices(%t: tensor<64xf16>, %a: f32, %b: f32) {
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  %1 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<abs_max>, reduction_scope = #spyreop.reduction_scope<across_slice>} : tensor<64xf16> -> tensor<64xf16>
  %c = spyreop.compare <greaterthan> %a, %b : f32
  %s = spyreop.select %c, %a, %b : f32
  return
}

// CHECK-LABEL: func.func @in_generic(
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[E:.*]] = spyreop.exp %[[X]] : f16
// CHECK-NEXT:      %[[R:.*]] = spyreop.realdiv %[[E]], %[[Y]] : f16
// CHECK-NEXT:      linalg.yield %[[R]] : f16
#map = affine_map<(d0) -> (d0)>
func.func @in_generic(%a: tensor<64xf16>, %b: tensor<64xf16>, %o: tensor<64xf16>) -> tensor<64xf16> {
  %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a, %b : tensor<64xf16>, tensor<64xf16>) outs(%o : tensor<64xf16>) {
  ^bb0(%x: f16, %y: f16, %out: f16):
    %e = spyreop.exp %x : f16
    %s = spyreop.realdiv %e, %y : f16
    linalg.yield %s : f16
  } -> tensor<64xf16>
  return %r : tensor<64xf16>
}
