"""spyreop intrinsics against numpy definitions, and the df16 / bf16 / erf numerics."""

import math

import numpy as np
import pytest

from ktir.interpreter import dtypes
from tests.ktir.interpreter.kernels import run_snippet

X = np.array([[-2.0, -0.5, 0.25, 1.0, 3.0, 0.1, -0.1, 2.5]], dtype=np.float32)

GEN = """  %e = tensor.empty() : tensor<1x8x{t}>
  %y = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%x : tensor<1x8x{t}>) outs(%e : tensor<1x8x{t}>) {{
  ^bb0(%v: {t}, %o: {t}):
{body}
  }} -> tensor<1x8x{t}>"""


def erf(v):
    return np.vectorize(math.erf)(v)


UNARY = [
    ("exp", np.exp), ("reciprocal", lambda v: 1 / v), ("sqrt", np.sqrt),
    ("rsqrt", lambda v: 1 / np.sqrt(v)), ("sigmoid", lambda v: 1 / (1 + np.exp(-v))),
    ("silu", lambda v: v / (1 + np.exp(-v))), ("gelu", lambda v: 0.5 * v * (1 + erf(v / 2**0.5))),
]


@pytest.mark.parametrize(("op", "fn"), UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("ty", ["f16", "!spyreop.df16"])
def test_unary_intrinsics_in_a_generic_body(op, fn, ty):
    body = f"    %r = spyreop.{op} %v : {{t}}\n    linalg.yield %r : {{t}}"
    t = ty
    data = np.abs(X) if op in ("sqrt", "rsqrt") else X
    x = data.astype(np.float16) if ty == "f16" else dtypes.round_df16(data)
    got = run_snippet(GEN.format(t=t, body=body.format(t=t)), x, t, (1, 8), t)
    expected = fn(x.astype(np.float64))
    rnd = (lambda v: v.astype(np.float16)) if ty == "f16" else dtypes.round_df16
    np.testing.assert_allclose(got.astype(np.float64),
                               rnd(expected.astype(np.float32)).astype(np.float64), rtol=2e-3)
    if ty == "!spyreop.df16":  # every result is a df16 value
        np.testing.assert_array_equal(got, dtypes.round_df16(got))


def test_layernorm_intrinsics():
    body = """  %m, %sq = spyreop.exx2 %x : tensor<1x8xf32>
  %s = spyreop.layernormscale %m squares %sq : tensor<1x8xf32>
  %one = arith.constant dense<2.0> : tensor<1x8xf32>
  %n = spyreop.layernormnorm %x squares %one scale %s weight %one bias %one : tensor<1x8xf32>
  %y = spyreop.realdiv %n, %one : tensor<1x8xf32>"""
    got = run_snippet(body, X, "f32", (1, 8), "f32")
    # exx2 of one element: mean x, mean of squares x*x, so the variance is 0 and the scale inf
    assert np.all(np.isinf(got[X != 2]) | np.isnan(got[X != 2]))
    body2 = """  %c = arith.constant dense<0.5> : tensor<1x8xf32>
  %sq = arith.constant dense<1.25> : tensor<1x8xf32>
  %s = spyreop.layernormscale %c squares %sq : tensor<1x8xf32>
  %w = arith.constant dense<3.0> : tensor<1x8xf32>
  %b = arith.constant dense<1.0> : tensor<1x8xf32>
  %y = spyreop.layernormnorm %x squares %c scale %s weight %w bias %b : tensor<1x8xf32>"""
    got = run_snippet(body2, X, "f32", (1, 8), "f32")
    np.testing.assert_allclose(got[0], (X[0] - 0.5) * 1.0 * 3.0 + 1.0, rtol=1e-6)


def test_softplus_compare_select_and_integer_intrinsics():
    body = """    %s = spyreop.softplus %v beta 2.0 threshold 4.0 : f16
    %z = arith.constant 0.0 : f16
    %k = spyreop.compare <greaterthan> %v, %z : f16
    %r = spyreop.select %k, %s, %v : f16
    linalg.yield %r : f16"""
    h = X.astype(np.float16)
    got = run_snippet(GEN.format(t="f16", body=body), h, "f16", (1, 8), "f16")
    x = h.astype(np.float64)
    sp = np.where(2 * x > 4, x, np.log1p(np.exp(2 * x)) / 2)
    np.testing.assert_allclose(got.astype(np.float64), np.where(x > 0, sp, x), rtol=1e-3)
    ints = """  %a = arith.constant 2147483647 : i32
  %b = arith.constant 2 : i32
  %s = spyreop.addi32toi32 %a, %b
  %m = spyreop.muli32toi32 %a, %b
  %p = spyreop.idx32toaddr %b base %a stride %b
  %q = spyreop.idx32toaddr %b base 0x10 stride 4
  %t = tensor.from_elements %s, %m, %p, %q : tensor<1x4xi32>
  %e = tensor.empty() : tensor<1x4xi64>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<1x4xi32>) outs(%e : tensor<1x4xi64>) {
  ^bb0(%v: i32, %o: i64):
    %w = arith.extsi %v : i32 to i64
    linalg.yield %w : i64
  } -> tensor<1x4xi64>"""
    got = run_snippet(ints, X, "f32", (1, 4), "i64")
    assert list(got[0]) == [-2147483647, -2, -2147483645, 24]  # i32 wrap-around


def test_slice_reduction():
    x = np.arange(64, dtype=np.float16).reshape(1, 64)
    body = """  %v = tensor.collapse_shape %x [[0, 1]] : tensor<1x64xf16> into tensor<64xf16>
  %r = spyreop.slice_reduction %v {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  %y = tensor.expand_shape %r [[0, 1]] output_shape [1, 64] : tensor<64xf16> into tensor<1x64xf16>"""
    got = run_snippet(body, x, "f16", (1, 64), "f16")[0]
    expected = x[0].copy()
    expected[::16] = x[0].reshape(4, 16).astype(np.float32).sum(axis=1)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize(("value", "expected"), [
    (1.0, 1.0), (1.0 + 2**-10, 1.0), (1.0 + 3 * 2**-10, 1.0 + 2**-8), (2.0**-35, 2.0**-35),
    (3 * 2.0**-40, 2 * 2.0**-39), (2.0**32, np.inf), (-(2.0**31) * 1.5, -(2.0**31) * 1.5)])
def test_df16_rounding(value, expected):
    got = dtypes.round_df16(np.array([value], np.float32))[0]
    assert got == np.float32(expected)


def test_df16_and_bf16_encode_decode_round_trip():
    bits = np.arange(0, 1 << 16, dtype=np.uint32).astype(np.uint16)
    vals = dtypes.decode_df16(bits)
    finite = np.isfinite(vals)
    np.testing.assert_array_equal(dtypes.round_df16(vals[finite]), vals[finite])
    again = dtypes.encode_df16(vals)
    np.testing.assert_array_equal(again[finite & (vals != 0)], bits[finite & (vals != 0)])
    bvals = dtypes.decode_bf16(bits)
    ok = ~np.isnan(bvals)
    np.testing.assert_array_equal(dtypes.encode_bf16(bvals)[ok], bits[ok])


def test_erf_matches_math_erf():
    x = np.linspace(-7, 7, 20001)
    got = dtypes.erf(x)
    expected = np.vectorize(math.erf)(x)
    assert np.max(np.abs(got - expected)) < 1e-15


def test_narrow_f16_is_numpys_conversion_bit_for_bit():
    """(All 2**32 float32 patterns were checked once; here edges and a random sample.)"""
    rng = np.random.default_rng(0)
    edges = np.array([0, 0x80000000, 0x33000000, 0x33000001, 0x337FFFFF, 0x38000000,
                      0x387FC000, 0x387FE000, 0x38800000, 0x477FE000, 0x477FEFFF, 0x477FF000,
                      0x7F800000, 0x7F800001, 0x7FC00000, 0xFF800000, 0xFFFFFFFF, 0x3F801000,
                      0x3F803000, 0x3F802FFF], dtype=np.uint32)
    u = np.concatenate([edges, rng.integers(0, 1 << 32, 1 << 21, dtype=np.uint64).astype(
        np.uint32)])
    x = u.view(np.float32)
    with np.errstate(all="ignore"):
        want = x.astype(np.float16).view(np.uint16)
    np.testing.assert_array_equal(dtypes.narrow_f16(x).view(np.uint16), want)
    np.testing.assert_array_equal(dtypes.widen_f16(want.view(np.float16)),
                                  want.view(np.float16).astype(np.float32))
    # no zero or value below the smallest normal half: the integer route (the one above
    # takes the rounded one), infinities and NaNs included; and a strided input
    big = x[~(np.abs(x) < 2.0**-14)]  # NaNs kept
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(dtypes.narrow_f16(big).view(np.uint16),
                                      big.astype(np.float16).view(np.uint16))
        grid = x[: 1 << 20].reshape(1024, 1024)[1::2, ::3]
        np.testing.assert_array_equal(dtypes.narrow_f16(grid).view(np.uint16),
                                      grid.astype(np.float16).view(np.uint16))


def test_widen_f16_is_exact_on_every_pattern_bit_for_bit():
    """The integer route (large arrays) against numpy's conversion on all 2**16 halves, NaN
    payloads and signed zeros included; in any layout, C-ordered out; small arrays too."""
    halves = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    want = halves.astype(np.float32).view(np.uint32)
    assert halves.size >= dtypes._WIDEN_MIN
    np.testing.assert_array_equal(dtypes.widen_f16(halves).view(np.uint32), want)
    grid = halves.reshape(256, 256)
    for x in (grid.T, grid[::2, 1::3], np.stack([grid, grid[::-1]], axis=1)):
        got = dtypes.widen_f16(x)
        assert got.flags.c_contiguous and got.shape == x.shape and got.dtype == np.float32
        np.testing.assert_array_equal(got.view(np.uint32), x.astype(np.float32).view(np.uint32))
    finite = halves[np.isfinite(halves)].reshape(-1)[: 1 << 14]  # no inf/NaN: no fix-up pass
    np.testing.assert_array_equal(dtypes.widen_f16(finite).view(np.uint32),
                                  finite.astype(np.float32).view(np.uint32))
    small = halves[::7][:100]
    np.testing.assert_array_equal(dtypes.widen_f16(small).view(np.uint32),
                                  small.astype(np.float32).view(np.uint32))


def test_round_f16_is_narrowing_and_widening_again():
    rng = np.random.default_rng(1)
    u = rng.integers(0, 1 << 32, 1 << 20, dtype=np.uint64).astype(np.uint32)
    with np.errstate(all="ignore"):
        for x in (u.view(np.float32), (rng.standard_normal(1 << 16) * 3).astype(np.float32),
                  np.zeros(5000, np.float32), np.float32([1e-6, 65519.0, 65520.0, -0.0])):
            want = dtypes.widen_f16(x.astype(np.float16)).view(np.uint32)
            np.testing.assert_array_equal(dtypes.round_f16(x).view(np.uint32), want)
        # overflow and infinities without NaNs (the scaling route), then with every kind
        edge = np.array([65504.0, 65519.996, 65520.0, -65520.0, 3.4028235e38, -3.4028235e38,
                         np.inf, -np.inf, 1e5, -1e-8, 2.0**-25, -0.0], np.float32)
        rows = np.concatenate([(rng.standard_normal(1 << 14) * 3).astype(np.float32), edge])
        nans = np.array([0x7F800001, 0x7FC00000, 0xFFFFFFFF, 0x7F801FFF, 0xFFA00000],
                        np.uint32).view(np.float32)
        for x in (rows, np.concatenate([rows, nans]), rows[::-3]):
            want = dtypes.widen_f16(x.astype(np.float16)).view(np.uint32)
            np.testing.assert_array_equal(dtypes.round_f16(x).view(np.uint32), want)
        x64 = np.array([1 + 2.0**-11 + 2.0**-40, 0.1, 1e300], dtype=np.float64)  # once, directly
        np.testing.assert_array_equal(dtypes.round_f16(x64), x64.astype(np.float16))


@pytest.mark.parametrize("f", [np.add, np.subtract, np.multiply, np.divide, np.maximum,
                               np.minimum, np.fmax, np.fmin])
def test_f16_ufunc_on_carriers_is_numpys_float16_arithmetic_bit_for_bit(f):
    """Every fp16 value against fp16 values of every kind (NaN payloads included)."""
    a = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    bs = np.array([0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x7BFF, 0x7C00,
                   0xFC00, 0x7C01, 0x7E00, 0xFE01, 0x5A3C, 0x1234], dtype=np.uint16).view(
        np.float16)
    wa = dtypes.widen_f16(a)
    with np.errstate(all="ignore"):
        for b in bs:
            wb = dtypes.widen_f16(np.full_like(a, b))
            for (x, y), (wx, wy) in (((a, b), (wa, np.float32(b))), ((b, a), (np.float32(b), wa)),
                                     ((np.full_like(a, b), a), (wb, wa))):
                got = dtypes.narrow_f16(dtypes.f16_ufunc(f, wx, wy))
                np.testing.assert_array_equal(got.view(np.uint16), f(x, y).view(np.uint16))
