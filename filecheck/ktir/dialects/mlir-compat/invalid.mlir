// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// The element-wise tensor forms of mlir_compat keep MLIR's rules: a condition tensor has the
/// values' shape, a cast keeps the shape, integer casts keep their width rule per element.

func.func @negative_select_shape(%c: tensor<3xi1>, %a: tensor<4xf16>) {
  %s = arith.select %c, %a, %a : tensor<3xi1>, tensor<4xf16>
  return
}
// CHECK: error: 'arith.select' op a condition of type tensor<3xi1> needs values of its shape, got tensor<4xf16>

// -----

func.func @negative_select_condition(%c: tensor<4xi8>, %a: tensor<4xf16>) {
  %s = arith.select %c, %a, %a : tensor<4xi8>, tensor<4xf16>
  return
}
// CHECK: error: 'arith.select' op the condition must be i1 or a tensor of i1, got tensor<4xi8>

// -----

func.func @negative_cast_shape(%x: tensor<4xi8>) {
  %f = arith.sitofp %x : tensor<4xi8> to tensor<3xf16>
  return
}
// CHECK: error: 'arith.sitofp' op casts between types of one shape, got tensor<4xi8> and tensor<3xf16>

// -----

func.func @negative_trunci_width(%x: tensor<4xi8>) {
  %t = arith.trunci %x : tensor<4xi8> to tensor<4xi32>
  return
}
// CHECK: error: 'arith.trunci' op Destination bit-width must be smaller than the input bit-width

// -----

func.func @negative_generic_maps(%a: tensor<4xf32>) {
  %r = linalg.generic {iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return
}
// CHECK: error: Expected indexing_maps for linalg.generic

// -----

func.func @negative_generic_iterator(%a: tensor<4xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["sideways"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return
}
// CHECK: error: Unknown iterator type "sideways"

// -----

func.func @negative_generic_results(%a: tensor<4xf32>) {
  %r, %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a, %a : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    linalg.yield %x, %x : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: error: Expected ')'
