"""Scalar semantics that the reference interpreter and the emulator share: integer
wrap-around, truncating division, IEEE division, rounding a scalar to its float type, and
the translation of affine expressions into Python source.

Both tools must agree on these bit for bit (the emulator's outputs are checked against the
interpreter's), so each rule is written here once: the interpreter calls these functions, the
emulator binds them into its generated programs or inlines the source they produce.
`index` is a 64-bit signed integer (ktir.md D3); integers are Python ints kept in the
two's-complement range of their width.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

if TYPE_CHECKING:
    from ktir.interpreter.dtypes import ElemType

# ---- integers -------------------------------------------------------------------------------


def wrap_int(v: int, width: int) -> int:
    """Two's-complement wrap of a Python int to `width` bits (signed representation; i1 is
    0 or 1)."""
    if width == 1:
        return v & 1
    m = 1 << width
    v &= m - 1
    return v - m if v >= m >> 1 else v


def to_unsigned(v: int, width: int) -> int:
    """The unsigned reading of a `width`-bit value (for the `*ui` ops)."""
    return v & ((1 << width) - 1)


def int_bounds(width: int) -> tuple[int, int]:
    """The signed range of `width` bits (i1: 0..1): values inside need no wrapping."""
    if width == 1:
        return 0, 1
    return -(1 << (width - 1)), (1 << (width - 1)) - 1


def tdiv(a: int, b: int) -> int:
    """`arith.divsi`: division rounding toward zero (Python's `//` floors)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def trem(a: int, b: int) -> int:
    """`arith.remsi`: the remainder of `tdiv`, with the sign of the dividend."""
    return a - b * tdiv(a, b)


def ceildiv(a: int, b: int) -> int:
    """`arith.ceildivsi` and affine `ceildiv`: division rounding up."""
    return -((-a) // b)


def np_tdiv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`tdiv` lane-wise on integer arrays."""
    q = np.floor_divide(a, b)
    fix = (np.remainder(a, b) != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0))
    return q + fix.astype(q.dtype)


# ---- floats ---------------------------------------------------------------------------------


def ieee_div(a: float, b: float) -> float:
    """Float division by IEEE rules (x/0 is ±inf or nan, not a Python ZeroDivisionError)."""
    with np.errstate(all="ignore"):
        return float(np.float64(a) / np.float64(b))


def scalar_rounder(et: ElemType) -> Callable[[float], float]:
    """A Python float -> the nearest value of float type `et` (ties to even), as a Python
    float. df16 and bf16 round through their float32 carrier like their tensors do
    (ktir.interpreter.dtypes)."""
    if not et.is_float:
        raise ValueError(f"{et.name} is not a float type")
    if et.round is not None:
        rnd = et.round
        return lambda x: float(rnd(np.asarray([x], np.float32))[0])
    if et.compute == np.float64:
        return float
    ty = et.compute.type
    return lambda x: float(ty(x))


# ---- affine expressions ---------------------------------------------------------------------


def affine_src(e: AffineExpr, dims: Sequence[str] | None = None) -> str:
    """Python source of an affine expression: dim k is `dims[k]` (default `d[k]`), symbol k
    is `s[k]`; `floordiv` and `mod` are Python's (flooring), `ceildiv` rounds up."""
    if isinstance(e, AffineConstantExpr):
        return str(e.value)
    if isinstance(e, AffineDimExpr):
        return dims[e.position] if dims is not None else f"d[{e.position}]"
    if isinstance(e, AffineSymExpr):
        return f"s[{e.position}]"
    assert isinstance(e, AffineBinaryOpExpr)
    a, b = affine_src(e.lhs, dims), affine_src(e.rhs, dims)
    match e.kind:
        case AffineBinaryOpKind.Add:
            return f"({a} + {b})"
        case AffineBinaryOpKind.Mul:
            return f"({a} * {b})"
        case AffineBinaryOpKind.FloorDiv:
            return f"({a} // {b})"
        case AffineBinaryOpKind.CeilDiv:
            return f"(-((-{a}) // {b}))"
        case AffineBinaryOpKind.Mod:
            return f"({a} % {b})"
