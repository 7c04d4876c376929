"""The scalar rules the interpreter and the emulator share (ktir/semantics.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IntegerType
from xdsl.ir.affine import AffineExpr

from ktir.interpreter.dtypes import elem_type
from ktir.semantics import (
    affine_src,
    ceildiv,
    convert,
    float_function,
    ieee_div,
    int_bounds,
    int_function,
    np_tdiv,
    scalar_rounder,
    tdiv,
    to_unsigned,
    trem,
    wrap_int,
)


@pytest.mark.parametrize(("a", "b"), [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (0, 5)])
def test_division_rounds_toward_zero_and_up(a: int, b: int) -> None:
    assert tdiv(a, b) == math.trunc(a / b)
    assert trem(a, b) == a - b * math.trunc(a / b)
    assert ceildiv(a, b) == math.ceil(a / b)
    assert np_tdiv(np.array([a]), np.array([b]))[0] == tdiv(a, b)


def test_wrap_around() -> None:
    assert wrap_int(1 << 63, 64) == -(1 << 63)
    assert wrap_int(255, 8) == -1
    assert wrap_int(3, 1) == 1
    assert to_unsigned(-1, 16) == 0xFFFF
    assert int_bounds(8) == (-128, 127)
    assert int_bounds(1) == (0, 1)


def test_float_rounding_and_division() -> None:
    assert scalar_rounder(elem_type(Float16Type()))(1 / 3) == float(np.float16(1 / 3))
    assert scalar_rounder(elem_type(Float32Type()))(1 / 3) == float(np.float32(1 / 3))
    assert scalar_rounder(elem_type(Float64Type()))(1 / 3) == 1 / 3
    assert scalar_rounder(elem_type(BFloat16Type()))(1 / 3) == 0.333984375
    assert ieee_div(1.0, 0.0) == math.inf
    assert math.isnan(ieee_div(0.0, 0.0))


def test_affine_source() -> None:
    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    e = (d0 * 4 + d1) // 3 + d1.ceil_div(2) + d0 % 5
    for x, y in [(3, 7), (-5, 2), (0, -9)]:
        want = (x * 4 + y) // 3 + math.ceil(y / 2) + x % 5
        assert eval(affine_src(e, ["x", "y"])) == want
        assert eval(affine_src(e), {"d": [x, y]}) == want


# ---- element-wise functions on arrays: the definitions the interpreter and emulator share ----


def test_native_functions_round_once_like_numpy() -> None:
    f16, bf16 = elem_type(Float16Type()), elem_type(BFloat16Type())
    a = np.array([1.0, 65504.0, -0.0, np.nan], np.float16)
    b = np.array([3.0, 65504.0, 0.0, 1.0], np.float16)
    with np.errstate(all="ignore"):
        assert np.array_equal(float_function("div", f16)(a, b), a / b, equal_nan=True)
        assert np.array_equal(float_function("add", f16)(a, b), a + b, equal_nan=True)
    x = np.array([1.0, 1.0 / 3.0], np.float32)
    got = float_function("mul", bf16)(x, x)  # f32 product rounded to bf16 (carrier)
    assert got.tolist() == [1.0, 0.111328125]
    assert np.array_equal(float_function("maxnum", f16)(a, b), np.fmax(a, b))


def test_wide_functions_evaluate_in_float32_and_round_once() -> None:
    f16, f32 = elem_type(Float16Type()), elem_type(Float32Type())
    x = np.linspace(-8, 8, 513).astype(np.float16)
    want = np.exp(x.astype(np.float32)).astype(np.float16)
    assert np.array_equal(float_function("exp", f16)(x), want)
    y = np.linspace(0.1, 8, 100).astype(np.float32)
    assert np.array_equal(float_function("rsqrt", f32)(y), np.float32(1) / np.sqrt(y))
    assert np.array_equal(float_function("softplus", f16, (2.0, 3.0))(x.astype(np.float16)),
                          np.where(2 * x.astype(np.float32) > 3, x.astype(np.float32),
                                   np.log1p(np.exp(2 * x.astype(np.float32))) / 2)
                          .astype(np.float16))
    with pytest.raises(ValueError, match="takes 2 parameter"):
        float_function("softplus", f16)


def test_integer_functions_wrap_shift_and_divide_unsigned() -> None:
    a = np.array([-128, 127, -7, 5], np.int8)
    b = np.array([-1, 2, 2, 9], np.int8)
    assert int_function("divsi")(a, b).tolist() == [-128, 63, -3, 0]  # -128 / -1 wraps
    assert int_function("remsi")(a, b).tolist() == [0, 1, -1, 5]
    assert int_function("divui")(a, b).tolist() == [0, 63, 124, 0]  # 128 // 255, 249 // 2
    assert int_function("ceildivui")(np.array([5, -1], np.int8), np.array([2, 2], np.int8)
                                      ).tolist() == [3, -128]  # ceil(255 / 2) = 128
    assert int_function("shli")(a, np.array([1, 8, -1, 7], np.int8)).tolist() == [0, 0, 0, -128]
    assert int_function("shrsi")(a, np.array([1, 9, 1, 1], np.int8)).tolist() == [-64, 0, -4, 2]
    assert int_function("shrui")(a, np.array([1, 1, 1, 8], np.int8)).tolist() == [64, 63, 124, 0]
    assert int_function("maxui")(a, b).tolist() == [-1, 127, -7, 9]


def test_float_to_integer_conversion_saturates() -> None:
    f32, i8, i64 = (elem_type(t) for t in (Float32Type(), IntegerType(8), IntegerType(64)))
    x = np.array([np.nan, np.inf, -np.inf, 300.0, -300.0, -1.9, 2.9], np.float32)
    assert convert(x, f32, i8).tolist() == [0, 127, -128, 127, -128, -1, 2]
    assert convert(x, f32, i8, unsigned=True).tolist() == [0, -1, 0, -1, 0, 0, 2]
    assert convert(np.array([2.0**70, -(2.0**70)]), elem_type(Float64Type()), i64).tolist() == [
        2**63 - 1, -(2**63)]
    assert convert(np.array([-1, 255], np.int16).astype(np.int8), i8, f32, unsigned=True
                   ).tolist() == [255.0, 255.0]


def test_carrier_rounding_keeps_the_sign_of_nan() -> None:
    bf16 = elem_type(BFloat16Type())
    assert bf16.round is not None
    r = bf16.round(np.array([-np.nan, np.nan], np.float32))
    assert np.isnan(r).all()
    assert np.signbit(r).tolist() == [True, False]


def test_maximumf_and_minimumf_order_signed_zeros_and_propagate_nan() -> None:
    # MLIR: -0.0 < +0.0 for arith.maximumf / minimumf; numpy's maximum and minimum return
    # their first operand for equal zeros (the typed-kernel property test found it:
    # maximumf(a, -a) + a at a = -0.0)
    from ktir.semantics import maximum, minimum, scalar_maximum, scalar_minimum

    a = np.array([-0.0, 0.0, -0.0, np.nan, 1.0], np.float16)
    b = np.array([0.0, -0.0, -0.0, 1.0, np.nan], np.float16)
    assert [str(x) for x in maximum(a, b)] == ["0.0", "0.0", "-0.0", "nan", "nan"]
    assert [str(x) for x in minimum(a, b)] == ["-0.0", "-0.0", "-0.0", "nan", "nan"]
    assert math.copysign(1, scalar_maximum(-0.0, 0.0)) == 1
    assert math.copysign(1, scalar_minimum(0.0, -0.0)) == -1
    assert math.isnan(scalar_maximum(1.0, math.nan))
    assert math.isnan(scalar_minimum(math.nan, 1.0))
