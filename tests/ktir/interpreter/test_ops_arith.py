"""arith and math: integer wrap-around, division flavours, comparisons, casts, float ops."""

import math

import numpy as np
import pytest

from tests.ktir.interpreter.kernels import run_snippet

X = np.array([[-7, -1, 0, 3], [5, 8, 127, -128]], dtype=np.int32)


def scalar_ops(exprs: list[str], ty: str = "index", n: int | None = None) -> np.ndarray:
    """Evaluate scalar expressions (over %a = -7 and %b = 2) and return them as i64."""
    n = n or len(exprs)
    lines = [f"  %a = arith.constant -7 : {ty}", f"  %b = arith.constant 2 : {ty}"]
    names = []
    for i, e in enumerate(exprs):
        lines.append(f"  %r{i} = {e} : {ty}")
        cast = (f"arith.index_cast %r{i} : index to i64" if ty == "index"
                else f"arith.extsi %r{i} : {ty} to i64" if ty != "i64" else None)
        if cast:
            lines.append(f"  %w{i} = {cast}")
            names.append(f"%w{i}")
        else:
            names.append(f"%r{i}")
    lines.append(f"  %y = tensor.from_elements {', '.join(names)} : tensor<1x{n}xi64>")
    return run_snippet("\n".join(lines), np.zeros((1, 1), np.float32), "f32", (1, n), "i64")[0]


def test_index_arithmetic_and_division_flavours():
    got = scalar_ops(["arith.addi %a, %b", "arith.subi %a, %b", "arith.muli %a, %b",
                      "arith.divsi %a, %b", "arith.floordivsi %a, %b", "arith.ceildivsi %a, %b",
                      "arith.remsi %a, %b", "arith.maxsi %a, %b", "arith.minsi %a, %b",
                      "arith.andi %a, %b", "arith.ori %a, %b", "arith.xori %a, %b",
                      "arith.shli %a, %b", "arith.shrsi %a, %b"])
    assert list(got) == [-5, -9, -14, -3, -4, -3, -1, 2, -7, -7 & 2, -7 | 2, -7 ^ 2, -28, -2]


def test_i8_wraps_and_unsigned_ops():
    got = scalar_ops(["arith.muli %a, %a", "arith.divui %a, %b", "arith.remui %a, %b",
                      "arith.shrui %a, %b", "arith.maxui %a, %b", "arith.addi %a, %a"], "i8")
    # -7 is 249 unsigned: 249 // 2 = 124, 249 % 2 = 1, 249 >> 2 = 62
    assert list(got) == [49, 124, 1, 62, -7, -14]
    assert list(scalar_ops(["arith.muli %a, %a"], "i8", 1)) == [49]


def test_integer_division_by_zero_is_an_error():
    from ktir.diagnostics import KtirDiagnostic

    body = """  %a = arith.constant 3 : index
  %z = arith.constant 0 : index
  %q = arith.divsi %a, %z : index
  %w = arith.index_cast %q : index to i64
  %y = tensor.from_elements %w : tensor<1x1xi64>"""
    with pytest.raises(KtirDiagnostic, match=r"'arith.divsi' op divides by zero on tile 0"):
        run_snippet(body, np.zeros((1, 1), np.float32), "f32", (1, 1), "i64")


def test_integer_tensor_ops_wrap_in_their_width():
    body = """  %s = arith.addi %x, %x : tensor<2x4xi32>
  %m = arith.muli %s, %x : tensor<2x4xi32>
  %d = arith.divsi %m, %x : tensor<2x4xi32>
  %y = arith.remsi %x, %d : tensor<2x4xi32>"""
    x = np.array([[-7, -1, 3, 3], [5, 8, 127, -128]], dtype=np.int32)
    got = run_snippet(body, x, "i32", (2, 4), "i32")
    m = (2 * x) * x
    d = np.trunc(m / x).astype(np.int32)
    np.testing.assert_array_equal(got, np.fmod(x, d))


def test_float_binary_ops_keep_f16():
    x = np.array([[0.1, -2.5, 3.0, np.nan]], dtype=np.float16)
    body = """  %c = arith.constant dense<1.5> : tensor<1x4xf16>
  %a = arith.addf %x, %c : tensor<1x4xf16>
  %b = arith.mulf %a, %x : tensor<1x4xf16>
  %d = arith.divf %b, %c : tensor<1x4xf16>
  %e = arith.subf %d, %x : tensor<1x4xf16>
  %f = arith.maxnumf %e, %x : tensor<1x4xf16>
  %y = arith.negf %f : tensor<1x4xf16>"""
    got = run_snippet(body, x, "f16", (1, 4), "f16")
    c = np.float16(1.5)
    expected = -np.fmax(((x + c) * x) / c - x, x)
    np.testing.assert_array_equal(got, expected)
    assert got.dtype == np.float16


def test_maximumf_propagates_nan_and_maxnumf_does_not():
    x = np.array([[1.0, np.nan, -1.0, 2.0]], dtype=np.float32)
    body = """  %r = arith.constant dense<[[0.0, 0.0, 0.0, 0.0]]> : tensor<1x4xf32>
  %a = arith.maximumf %x, %r : tensor<1x4xf32>
  %b = arith.minnumf %x, %r : tensor<1x4xf32>
  %y = arith.addf %a, %b : tensor<1x4xf32>"""
    got = run_snippet(body, x, "f32", (1, 4), "f32")
    assert np.isnan(got[0, 1])
    assert got[0, 0] == 1.0
    assert got[0, 2] == -1.0
    assert got[0, 3] == 2.0


GENERIC = """  %e = tensor.empty() : tensor<1x4x{yt}>
  %y = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%x : tensor<1x4x{xt}>) outs(%e : tensor<1x4x{yt}>) {{
  ^bb0(%v: {xt}, %o: {yt}):
{body}
  }} -> tensor<1x4x{yt}>"""


@pytest.mark.parametrize(("pred", "fn"), [("olt", np.less), ("oge", np.greater_equal),
                                          ("une", np.not_equal), ("ueq", None)])
def test_cmpf_and_select(pred, fn):
    x = np.array([[1.0, np.nan, -1.0, 0.0]], dtype=np.float32)
    body = f"""    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.cmpf {pred}, %v, %z : f32
    %r = arith.select %k, %one, %z : f32
    linalg.yield %r : f32"""
    got = run_snippet(GENERIC.format(xt="f32", yt="f32", body=body), x, "f32", (1, 4), "f32")
    expected = fn(x, 0) if fn is not None else (x == 0) | np.isnan(x)
    np.testing.assert_array_equal(got, expected.astype(np.float32))


def test_scalar_select():
    body = """  %a = arith.constant 4 : i64
  %b = arith.constant 9 : i64
  %k = arith.cmpi sgt, %a, %b : i64
  %s = arith.select %k, %a, %b : i64
  %y = tensor.from_elements %s : tensor<1x1xi64>"""
    got = run_snippet(body, np.zeros((1, 1), np.float32), "f32", (1, 1), "i64")
    assert got[0, 0] == 9


def test_cmpi_signed_and_unsigned():
    body = """  %a = arith.constant -7 : i32
  %b = arith.constant 2 : i32
  %p = arith.cmpi slt, %a, %b : i32
  %q = arith.cmpi ult, %a, %b : i32
  %r = arith.cmpi sge, %a, %b : i32
  %s = arith.cmpi ne, %a, %b : i32
  %t = tensor.from_elements %p, %q, %r, %s : tensor<1x4xi1>
  %e = tensor.empty() : tensor<1x4xi64>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<1x4xi1>) outs(%e : tensor<1x4xi64>) {
  ^bb0(%v: i1, %o: i64):
    %w = arith.extui %v : i1 to i64
    linalg.yield %w : i64
  } -> tensor<1x4xi64>"""
    got = run_snippet(body, np.zeros((1, 1), np.float32), "f32", (1, 4), "i64")
    assert list(got[0]) == [1, 0, 0, 1]


def test_casts():
    x = np.array([[-2.7, 2.5, 70000.0, 1.0e-8]], dtype=np.float32)
    body = """    %h = arith.truncf %v : f32 to f16
    %f = arith.extf %h : f16 to f32
    %i = arith.fptosi %v : f32 to i32
    %g = arith.sitofp %i : i32 to f32
    %r = arith.addf %f, %g : f32
    linalg.yield %r : f32"""
    got = run_snippet(GENERIC.format(xt="f32", yt="f32", body=body), x, "f32", (1, 4), "f32")
    with np.errstate(over="ignore"):
        h = x.astype(np.float16).astype(np.float32)
    np.testing.assert_array_equal(got, h + np.trunc(x))
    assert np.isinf(got[0, 2])  # 70000 overflows fp16


def test_unsigned_and_integer_width_casts():
    got = scalar_ops(["arith.addi %a, %b"], "i8", 1)
    assert list(got) == [-5]
    body = """  %v = arith.constant -1 : i8
  %u = arith.extui %v : i8 to i64
  %s = arith.extsi %v : i8 to i64
  %big = arith.constant 300 : i32
  %t = arith.trunci %big : i32 to i8
  %te = arith.extsi %t : i8 to i64
  %f = arith.uitofp %v : i8 to f32
  %fi = arith.fptosi %f : f32 to i64
  %y = tensor.from_elements %u, %s, %te, %fi : tensor<1x4xi64>"""
    got = run_snippet(body, np.zeros((1, 1), np.float32), "f32", (1, 4), "i64")
    assert list(got[0]) == [255, -1, 44, 255]


def test_bitcast_and_constants():
    body = """  %one = arith.constant 1.0 : f32
  %b = arith.bitcast %one : f32 to i32
  %w = arith.extsi %b : i32 to i64
  %t = arith.constant true
  %te = arith.extui %t : i1 to i64
  %y = tensor.from_elements %w, %te : tensor<1x2xi64>"""
    got = run_snippet(body, np.zeros((1, 1), np.float32), "f32", (1, 2), "i64")
    assert list(got[0]) == [0x3F800000, 1]


MATH = [("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt), ("rsqrt", lambda v: 1 / np.sqrt(v)),
        ("tanh", np.tanh), ("erf", np.vectorize(math.erf)), ("exp2", np.exp2),
        ("log2", np.log2), ("sin", np.sin), ("floor", np.floor), ("absf", np.abs),
        ("round", lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)), ("roundeven", np.rint)]


@pytest.mark.parametrize(("op", "fn"), MATH, ids=[m[0] for m in MATH])
@pytest.mark.parametrize("ty", ["f16", "f32"])
def test_math_unary(op, fn, ty):
    x = np.array([[0.25, 0.5, 1.5, 2.5, 3.0, 0.75, 1.25, 2.0]], dtype=ty.replace("f", "float"))
    got = run_snippet(f"  %y = math.{op} %x : tensor<1x8x{ty}>", x, ty, (1, 8), ty)
    expected = fn(x.astype(np.float64)).astype(x.dtype)
    if ty == "f16":  # evaluated in f32 then rounded once: equal or one ulp off
        np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64),
                                   rtol=1e-3)
    else:
        np.testing.assert_allclose(got, expected, rtol=2e-7)


def test_math_on_scalars_and_fma_powf():
    body = """  %a = arith.constant 2.0 : f32
  %b = arith.constant 3.0 : f32
  %p = math.powf %a, %b : f32
  %f = math.fma %a, %b, %p : f32
  %e = math.erf %a : f32
  %y = tensor.from_elements %p, %f, %e : tensor<1x3xf32>"""
    got = run_snippet(body, np.zeros((1, 1), np.float32), "f32", (1, 3), "f32")
    np.testing.assert_allclose(got[0], [8.0, 14.0, math.erf(2.0)], rtol=1e-7)


def test_integer_math():
    body = """  %v = arith.constant 12 : i64
  %n = arith.constant -5 : i64
  %a = math.absi %n : i64
  %c = math.ctpop %v : i64
  %l = math.ctlz %v : i64
  %t = math.cttz %v : i64
  %y = tensor.from_elements %a, %c, %l, %t : tensor<1x4xi64>"""
    got = run_snippet(body, np.zeros((1, 1), np.float32), "f32", (1, 4), "i64")
    assert list(got[0]) == [5, 2, 60, 2]
