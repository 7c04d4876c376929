// RUN: ktir-opt %s --split-input-file -p fold-constant-bitcasts | filecheck %s
// RUN: ktir-opt %s --split-input-file -p fold-constant-bitcasts,fold-constant-bitcasts | filecheck %s

/// A bitcast of a constant is the constant with the same bits: Triton's -inf (0xFF800000 as
/// an i32) becomes the f32 -inf, an f16 1.0 the i16 15360; dense tensors fold the same way
/// (splat or not). The integer constant only the bitcast read goes; one still read stays.
/// Running it twice changes nothing more (second RUN).

// CHECK-LABEL: func.func @scalars(
// CHECK-SAME:      %[[X:.*]]: f32)
// CHECK-NOT:     arith.bitcast
// CHECK:         %[[NEG_INF:.*]] = arith.constant 0xff800000 : f32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 15360 : i16
// CHECK-NEXT:    %[[KEPT:.*]] = arith.constant 1065353216 : i32
// CHECK-NEXT:    %[[ONE_F:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[M:.*]] = arith.maximumf %[[X]], %[[NEG_INF]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[M]], %[[ONE_F]] : f32
// CHECK-NEXT:    func.return %[[S]], %[[ONE]], %[[KEPT]] : f32, i16, i32
func.func @scalars(%x: f32) -> (f32, i16, i32) {
  %bits = arith.constant 0xFF800000 : i32
  %neg_inf = arith.bitcast %bits : i32 to f32
  %h = arith.constant 1.0 : f16
  %one = arith.bitcast %h : f16 to i16
  %kept = arith.constant 1065353216 : i32
  %one_f = arith.bitcast %kept : i32 to f32
  %m = arith.maximumf %x, %neg_inf : f32
  %s = arith.addf %m, %one_f : f32
  func.return %s, %one, %kept : f32, i16, i32
}

// -----

// CHECK-LABEL: func.func @tensors(
// CHECK-NOT:     arith.bitcast
// CHECK:         %[[SPLAT:.*]] = arith.constant dense<-1077936128> : tensor<4xi32>
// CHECK-NEXT:    %[[FULL:.*]] = arith.constant dense<[0xff800000, 1.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    func.return %[[SPLAT]], %[[FULL]] : tensor<4xi32>, tensor<2xf32>
func.func @tensors() -> (tensor<4xi32>, tensor<2xf32>) {
  %f = arith.constant dense<-1.5> : tensor<4xf32>
  %i = arith.bitcast %f : tensor<4xf32> to tensor<4xi32>
  %b = arith.constant dense<[-8388608, 1065353216]> : tensor<2xi32>
  %g = arith.bitcast %b : tensor<2xi32> to tensor<2xf32>
  func.return %i, %g : tensor<4xi32>, tensor<2xf32>
}

// -----

/// Not folded: a bitcast of a value that is not a constant, and one to `index` (no fixed
/// width), and a signalling NaN, whose payload a float attribute does not keep.

// CHECK-LABEL: func.func @kept(
// CHECK-SAME:      %[[A:.*]]: i32)
// CHECK:         %[[B:.*]] = arith.bitcast %[[A]] : i32 to f32
// CHECK:         %[[C:.*]] = arith.constant 7 : i64
// CHECK-NEXT:    %[[I:.*]] = arith.bitcast %[[C]] : i64 to index
// CHECK:         %[[SNAN:.*]] = arith.constant 2139095041 : i32
// CHECK-NEXT:    %[[N:.*]] = arith.bitcast %[[SNAN]] : i32 to f32
// CHECK-NEXT:    func.return %[[B]], %[[I]], %[[N]] : f32, index, f32
func.func @kept(%a: i32) -> (f32, index, f32) {
  %b = arith.bitcast %a : i32 to f32
  %c = arith.constant 7 : i64
  %i = arith.bitcast %c : i64 to index
  %snan = arith.constant 0x7F800001 : i32
  %n = arith.bitcast %snan : i32 to f32
  func.return %b, %i, %n : f32, index, f32
}
