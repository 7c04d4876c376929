"""scf control flow and tensor slicing/reshaping ops."""

import numpy as np

from tests.ktir.interpreter.kernels import run_snippet

X = np.arange(24, dtype=np.float32).reshape(4, 6)


def test_for_with_iter_args_and_if_and_while():
    body = """  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant dense<0.0> : tensor<4x6xf32>
  %sum, %n = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z, %k = %c0) -> (tensor<4x6xf32>, index) {
    %two = arith.constant 2 : index
    %r = arith.remui %i, %two : index
    %even = arith.cmpi eq, %r, %c0 : index
    %next = scf.if %even -> (tensor<4x6xf32>) {
      %a = arith.addf %acc, %x : tensor<4x6xf32>
      scf.yield %a : tensor<4x6xf32>
    } else {
      scf.yield %acc : tensor<4x6xf32>
    }
    %k1 = arith.addi %k, %c1 : index
    scf.yield %next, %k1 : tensor<4x6xf32>, index
  }
  %w = scf.while (%j = %c0) : (index) -> index {
    %more = arith.cmpi slt, %j, %n : index
    scf.condition(%more) %j : index
  } do {
  ^bb0(%j2: index):
    %c3 = arith.constant 3 : index
    %j3 = arith.addi %j2, %c3 : index
    scf.yield %j3 : index
  }
  %wi = arith.index_cast %w : index to i64
  %wf = arith.sitofp %wi : i64 to f32
  %ws = tensor.splat %wf : tensor<4x6xf32>
  %y = arith.addf %sum, %ws : tensor<4x6xf32>"""
    got = run_snippet(body, X, "f32", (4, 6), "f32")
    np.testing.assert_array_equal(got, 2 * X + 6)  # iterations 0 and 2 add X; while: 0,3,6


def test_for_with_zero_trips_returns_inits():
    body = """  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %y = scf.for %i = %c5 to %c1 step %c1 iter_args(%a = %x) -> (tensor<4x6xf32>) {
    %b = arith.addf %a, %a : tensor<4x6xf32>
    scf.yield %b : tensor<4x6xf32>
  }"""
    np.testing.assert_array_equal(run_snippet(body, X, "f32", (4, 6), "f32"), X)


def test_extract_slice_insert_slice_rank_reducing():
    body = """  %s = tensor.extract_slice %x[1, 2] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
  %r = tensor.extract_slice %x[3, 0] [1, 6] [1, 1] : tensor<4x6xf32> to tensor<6xf32>
  %q = tensor.extract_slice %x[0, 0] [2, 3] [2, 2] : tensor<4x6xf32> to tensor<2x3xf32>
  %a = arith.addf %s, %q : tensor<2x3xf32>
  %z = arith.constant dense<0.0> : tensor<4x6xf32>
  %i1 = tensor.insert_slice %a into %z[2, 3] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x6xf32>
  %y = tensor.insert_slice %r into %i1[0, 0] [1, 6] [1, 1] : tensor<6xf32> into tensor<4x6xf32>"""
    got = run_snippet(body, X, "f32", (4, 6), "f32")
    expected = np.zeros_like(X)
    expected[2:4, 3:6] = X[1:3, 2:5] + X[0:4:2, 0:6:2]
    expected[0] = X[3]
    np.testing.assert_array_equal(got, expected)


def test_extract_insert_splat_from_elements():
    body = """  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %e = tensor.extract %x[%c1, %c5] : tensor<4x6xf32>
  %s = tensor.splat %e : tensor<4x6xf32>
  %f = tensor.from_elements %e, %e : tensor<2xf32>
  %f0 = arith.constant 0 : index
  %g = tensor.extract %f[%f0] : tensor<2xf32>
  %h = arith.addf %g, %e : f32
  %y = tensor.insert %h into %s[%c1, %c1] : tensor<4x6xf32>"""
    got = run_snippet(body, X, "f32", (4, 6), "f32")
    expected = np.full_like(X, X[1, 5])
    expected[1, 1] = 2 * X[1, 5]
    np.testing.assert_array_equal(got, expected)


def test_collapse_and_expand_shape():
    body = """  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %e = tensor.expand_shape %c [[0, 1, 2]] output_shape [2, 2, 6] : tensor<24xf32> into tensor<2x2x6xf32>
  %y = tensor.collapse_shape %e [[0, 1], [2]] : tensor<2x2x6xf32> into tensor<4x6xf32>"""
    np.testing.assert_array_equal(run_snippet(body, X, "f32", (4, 6), "f32"), X)


def test_empty_is_zeros():
    body = "  %y = tensor.empty() : tensor<4x6xf32>"
    np.testing.assert_array_equal(run_snippet(body, X, "f32", (4, 6), "f32"), 0 * X)
