"""The scalar rules the interpreter and the emulator share (ktir/semantics.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type
from xdsl.ir.affine import AffineExpr

from ktir.interpreter.dtypes import elem_type
from ktir.semantics import (
    affine_src,
    ceildiv,
    ieee_div,
    int_bounds,
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
