"""linalg named ops and generic: broadcasts, transposes, reductions, contractions, index."""

import numpy as np
import pytest

from tests.ktir.interpreter.kernels import run_snippet

RNG = np.random.default_rng(3)
X = RNG.uniform(-1, 1, (4, 6)).astype(np.float32)
H = X.astype(np.float16)


@pytest.mark.parametrize(("op", "fn"), [("add", np.add), ("sub", np.subtract),
                                        ("mul", np.multiply), ("div", np.divide),
                                        ("max", np.maximum), ("min", np.minimum)])
def test_named_binary(op, fn):
    body = f"""  %c = arith.constant dense<0.5> : tensor<4x6xf16>
  %e = tensor.empty() : tensor<4x6xf16>
  %y = linalg.{op} ins(%x, %c : tensor<4x6xf16>, tensor<4x6xf16>) outs(%e : tensor<4x6xf16>) -> tensor<4x6xf16>"""
    got = run_snippet(body, H, "f16", (4, 6), "f16")
    np.testing.assert_array_equal(got, fn(H, np.float16(0.5)))


def test_named_unary_fill_broadcast_transpose():
    body = """  %e = tensor.empty() : tensor<4x6xf32>
  %ex = linalg.exp ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %two = arith.constant 2.0 : f32
  %f = linalg.fill ins(%two : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %row = tensor.extract_slice %x[0, 0] [1, 6] [1, 1] : tensor<4x6xf32> to tensor<6xf32>
  %b = linalg.broadcast ins(%row : tensor<6xf32>) outs(%e : tensor<4x6xf32>) dimensions = [0]
  %et = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x6xf32>) outs(%et : tensor<6x4xf32>) permutation = [1, 0]
  %tt = linalg.transpose ins(%t : tensor<6x4xf32>) outs(%e : tensor<4x6xf32>) permutation = [1, 0]
  %s1 = arith.addf %ex, %f : tensor<4x6xf32>
  %s2 = arith.addf %s1, %b : tensor<4x6xf32>
  %y = arith.addf %s2, %tt : tensor<4x6xf32>"""
    got = run_snippet(body, X, "f32", (4, 6), "f32")
    np.testing.assert_allclose(got, np.exp(X) + 2 + X[0][None, :] + X, rtol=1e-6)


def test_reduce_short_and_region_forms():
    body = """  %z = arith.constant dense<0.0> : tensor<4xf16>
  %s = linalg.reduce { arith.addf } ins(%x : tensor<4x6xf16>) outs(%z : tensor<4xf16>) dimensions = [1]
  %m = linalg.reduce ins(%x : tensor<4x6xf16>) outs(%z : tensor<4xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %r = arith.maximumf %in, %acc : f16
      linalg.yield %r : f16
    }
  %p = arith.addf %s, %m : tensor<4xf16>
  %y = tensor.expand_shape %p [[0, 1]] output_shape [4, 1] : tensor<4xf16> into tensor<4x1xf16>"""
    got = run_snippet(body, H, "f16", (4, 1), "f16")
    s = H.astype(np.float32).sum(axis=1).astype(np.float16)  # f32 accumulation, one rounding
    m = np.maximum(H.max(axis=1), np.float16(0))
    np.testing.assert_array_equal(got[:, 0], s + m)


def test_reduce_with_a_non_associative_body_folds_in_order():
    body = """  %z = arith.constant dense<0.0> : tensor<4xf32>
  %s = linalg.reduce ins(%x : tensor<4x6xf32>) outs(%z : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %h = arith.constant 0.5 : f32
      %a = arith.mulf %acc, %h : f32
      %r = arith.addf %a, %in : f32
      linalg.yield %r : f32
    }
  %y = tensor.expand_shape %s [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>"""
    got = run_snippet(body, X, "f32", (4, 1), "f32")
    acc = np.zeros(4, np.float32)
    for j in range(6):
        acc = acc * np.float32(0.5) + X[:, j]
    np.testing.assert_allclose(got[:, 0], acc, rtol=1e-6)


GEN = """  %e = tensor.empty() : tensor<{out}>
  %y = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{its}]}} ins({ins}) outs(%e : tensor<{out}>) {{
  ^bb0({args}):
{body}
  }} -> tensor<{out}>"""


def test_generic_transposed_and_broadcast_operands():
    body = GEN.format(
        out="6x4xf32", its='"parallel", "parallel"',
        maps="affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>",
        ins="%x, %col : tensor<4x6xf32>, tensor<4xf32>",
        args="%a: f32, %c: f32, %o: f32",
        body="    %s = arith.mulf %a, %c : f32\n    linalg.yield %s : f32")
    body = "  %col = tensor.extract_slice %x[0, 0] [4, 1] [1, 1] : tensor<4x6xf32> to tensor<4xf32>\n" + body
    got = run_snippet(body, X, "f32", (6, 4), "f32")
    np.testing.assert_allclose(got, X.T * X[:, 0][None, :], rtol=1e-7)


def test_generic_reduction_into_transposed_output_and_index():
    body = GEN.format(
        out="6x1xf32", its='"reduction", "parallel", "parallel"',
        maps="affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (j, k)>",
        ins="%x : tensor<4x6xf32>", args="%a: f32, %o: f32",
        body="    %i = linalg.index 0 : index\n    %ii = arith.index_cast %i : index to i64\n"
             "    %f = arith.sitofp %ii : i64 to f32\n    %m = arith.mulf %a, %f : f32\n"
             "    %s = arith.addf %o, %m : f32\n    linalg.yield %s : f32")
    body = body.replace("%e = tensor.empty() : tensor<6x1xf32>",
                        "%e = arith.constant dense<1.0> : tensor<6x1xf32>")
    got = run_snippet(body, X, "f32", (6, 1), "f32")
    expected = 1 + (X * np.arange(4, dtype=np.float32)[:, None]).sum(axis=0)
    np.testing.assert_allclose(got[:, 0], expected, rtol=1e-6)


def test_generic_contraction_is_a_matmul():
    b = RNG.uniform(-1, 1, (6, 5)).astype(np.float16)
    body = """  %bb = arith.constant dense<{b}> : tensor<6x5xf16>
  %z = arith.constant dense<0.0> : tensor<4x5xf16>
  %y = linalg.generic {{indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%x, %bb : tensor<4x6xf16>, tensor<6x5xf16>) outs(%z : tensor<4x5xf16>) {{
  ^bb0(%p: f16, %q: f16, %o: f16):
    %m = arith.mulf %p, %q : f16
    %s = arith.addf %o, %m : f16
    linalg.yield %s : f16
  }} -> tensor<4x5xf16>""".format(b=np.array2string(b.astype(np.float64), separator=", ",
                                                     threshold=10000))
    got = run_snippet(body, H, "f16", (4, 5), "f16")
    np.testing.assert_array_equal(got, (H.astype(np.float32) @ b.astype(np.float32))
                                  .astype(np.float16))


def test_matmul_accumulates_into_outs_and_batch_matmul():
    body = """  %t = tensor.empty() : tensor<6x4xf32>
  %xt = linalg.transpose ins(%x : tensor<4x6xf32>) outs(%t : tensor<6x4xf32>) permutation = [1, 0]
  %one = arith.constant dense<1.0> : tensor<4x4xf32>
  %m = linalg.matmul ins(%x, %xt : tensor<4x6xf32>, tensor<6x4xf32>) outs(%one : tensor<4x4xf32>) -> tensor<4x4xf32>
  %a3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 2, 6] : tensor<4x6xf32> into tensor<2x2x6xf32>
  %b3 = tensor.expand_shape %xt [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %z3 = arith.constant dense<0.0> : tensor<2x2x4xf32>
  %a3s = tensor.extract_slice %a3[0, 0, 0] [2, 2, 3] [1, 1, 1] : tensor<2x2x6xf32> to tensor<2x2x3xf32>
  %bm = linalg.batch_matmul ins(%a3s, %b3 : tensor<2x2x3xf32>, tensor<2x3x4xf32>) outs(%z3 : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  %bmc = tensor.collapse_shape %bm [[0, 1], [2]] : tensor<2x2x4xf32> into tensor<4x4xf32>
  %y = arith.addf %m, %bmc : tensor<4x4xf32>"""
    got = run_snippet(body, X, "f32", (4, 4), "f32")
    a3 = X.reshape(2, 2, 6)[:, :, :3]
    b3 = X.T.reshape(2, 3, 4)
    np.testing.assert_allclose(got, 1 + X @ X.T + np.matmul(a3, b3).reshape(4, 4), rtol=1e-5)
