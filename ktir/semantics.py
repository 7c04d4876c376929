"""Semantics that the reference interpreter and the emulator share: integer wrap-around,
truncating division, IEEE division, rounding a scalar to its float type, the element-wise
functions on arrays (float and integer functions, conversions) and the translation of affine
expressions into Python source.

Both tools must agree on these bit for bit (the emulator's outputs are checked against the
interpreter's), so each rule is written here once: the interpreter calls these functions, the
emulator binds them into its generated programs or inlines the source they produce.
`index` is a 64-bit signed integer (ktir.md D3); integers are Python ints kept in the
two's-complement range of their width.
"""

from __future__ import annotations

import math
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


def maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`arith.maximumf`: NaN if either is NaN, and -0.0 below +0.0 (numpy's maximum returns
    its first operand for equal zeros)."""
    r = np.maximum(a, b)
    return np.where((a == b) & np.signbit(a), b, r) if np.ndim(r) else \
        (b if a == b and np.signbit(a) else r)


def minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`arith.minimumf`: NaN if either is NaN, and -0.0 below +0.0."""
    r = np.minimum(a, b)
    return np.where((a == b) & np.signbit(b), b, r) if np.ndim(r) else \
        (b if a == b and np.signbit(b) else r)


def scalar_maximum(a: float, b: float) -> float:
    """`arith.maximumf` on Python floats (Python's max neither propagates NaN nor orders
    signed zeros)."""
    return float(maximum(np.float64(a), np.float64(b)))


def scalar_minimum(a: float, b: float) -> float:
    return float(minimum(np.float64(a), np.float64(b)))


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


# ---- element-wise functions on arrays -------------------------------------------------------
#
# How the interpreter evaluates an element-wise op on a tensor, and how the emulator evaluates
# the vector op it is lowered to: one definition each, so that both produce the same bits.
# Arrays hold the compute dtype of their element type (ktir.interpreter.dtypes: f16 -> float16,
# bf16 and df16 -> float32 carriers, iN -> intN). Two evaluations:
#   native  the numpy ufunc on the compute dtype, then the carrier rounding of bf16/df16. For
#           + - * / sqrt fmod min max this is the correctly rounded result (f16 goes through
#           float32, a double rounding that is harmless: 24 >= 2*11 + 2 bits);
#   wide    in float32 (float64 for f64 values) and rounded once to the result type. numpy's
#           float32 transcendental functions are within a few float32 ulps of the exact value,
#           so f16/bf16 results are the correctly rounded ones except within a few float32 ulps
#           of a rounding boundary, and f32 results carry numpy's float32 error. The
#           reference is this evaluation, not the exact function: the emulator repeats it.
# `erf` is evaluated in float64 (Cody's approximation below) and rounded once.

# W. J. Cody's rational approximations (Math. Comp. 1969), as tabulated in the public domain
# SPECFUN library: relative error below 1e-15 on each interval, so float64 evaluation followed
# by rounding to f32/f16 is correctly rounded in practice.
_ERF_A = (3.16112374387056560e00, 1.13864154151050156e02, 3.77485237685302021e02,
          3.20937758913846947e03, 1.85777706184603153e-1)
_ERF_B = (2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03,
          2.84423683343917062e03)
_ERF_C = (5.64188496988670089e-1, 8.88314979438837594e00, 6.61191906371416295e01,
          2.98635138197400131e02, 8.81952221241769090e02, 1.71204761263407058e03,
          2.05107837782607147e03, 1.23033935479799725e03, 2.15311535474403846e-8)
_ERF_D = (1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02,
          1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03,
          3.43936767414372164e03, 1.23033935480374942e03)
_ERF_P = (3.05326634961232344e-1, 3.60344899949804439e-1, 1.25781726111229246e-1,
          1.60837851487422766e-2, 6.58749161529837803e-4, 1.63153871373020978e-2)
_ERF_Q = (2.56852019228982242e00, 1.87295284992346725e00, 5.27905102951428412e-1,
          6.05183413124413191e-2, 2.33520497626869185e-3)
_SQRPI = 5.6418958354775628695e-1


def _erf_small(y: np.ndarray) -> np.ndarray:
    z = y * y
    num = _ERF_A[4] * z
    den = z
    for i in range(3):
        num = (num + _ERF_A[i]) * z
        den = (den + _ERF_B[i]) * z
    return y * (num + _ERF_A[3]) / (den + _ERF_B[3])


def _erfc_mid(y: np.ndarray) -> np.ndarray:
    num = _ERF_C[8] * y
    den = y
    for i in range(7):
        num = (num + _ERF_C[i]) * y
        den = (den + _ERF_D[i]) * y
    r = (num + _ERF_C[7]) / (den + _ERF_D[7])
    return r * np.exp(-y * y)


def _erfc_large(y: np.ndarray) -> np.ndarray:
    z = 1.0 / (y * y)
    num = _ERF_P[5] * z
    den = z
    for i in range(4):
        num = (num + _ERF_P[i]) * z
        den = (den + _ERF_Q[i]) * z
    r = z * (num + _ERF_P[4]) / (den + _ERF_Q[4])
    r = (_SQRPI - r) / y
    return r * np.exp(-y * y)


def erf(x: np.ndarray | float) -> np.ndarray | float:
    """Vectorised erf in float64 (numpy has none); the caller rounds to its type."""
    if isinstance(x, float):
        return math.erf(x)
    a = np.asarray(x, dtype=np.float64)
    y = np.abs(a)
    out = np.empty_like(y)
    with np.errstate(all="ignore"):
        small = y <= 0.46875
        mid = (y > 0.46875) & (y <= 4.0)
        large = y > 4.0
        out[small] = _erf_small(y[small])
        out[mid] = 1.0 - _erfc_mid(y[mid])
        big = y[large]
        out[large] = np.where(big < 26.0, 1.0 - _erfc_large(np.minimum(big, 26.0)), 1.0)
    out = np.where(np.isnan(a), np.nan, out)
    return np.copysign(out, a)


def _gelu(x: np.ndarray) -> np.ndarray:
    e = np.asarray(erf(np.asarray(x, np.float64) / np.sqrt(2.0))).astype(x.dtype)
    return 0.5 * x * (1.0 + e)


def _softplus(x: np.ndarray, beta: float, threshold: float) -> np.ndarray:
    b, t = x.dtype.type(beta), x.dtype.type(threshold)
    bx = b * x
    return np.where(bx > t, x, np.log1p(np.exp(bx)) / b)


def _layernormscale(*xs: np.ndarray) -> np.ndarray:
    one = xs[0].dtype.type(1.0)
    if len(xs) == 1:
        return one / np.sqrt(xs[0])
    m, sq = xs
    return one / np.sqrt(sq - m * m)


def _one_over(f: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    return lambda x: x.dtype.type(1.0) / f(x)


NATIVE, WIDE = "native", "wide"

# name -> (function of the evaluation dtype, evaluation, number of operands (a tuple when
# several are allowed), number of float parameters)
FLOAT_FUNCTIONS: dict[str, tuple[Callable[..., np.ndarray], str, tuple[int, ...], int]] = {
    "add": (np.add, NATIVE, (2,), 0), "sub": (np.subtract, NATIVE, (2,), 0),
    "mul": (np.multiply, NATIVE, (2,), 0), "div": (np.divide, NATIVE, (2,), 0),
    "rem": (np.fmod, NATIVE, (2,), 0),
    "maximum": (maximum, NATIVE, (2,), 0), "minimum": (minimum, NATIVE, (2,), 0),
    "maxnum": (np.fmax, NATIVE, (2,), 0), "minnum": (np.fmin, NATIVE, (2,), 0),
    "copysign": (np.copysign, NATIVE, (2,), 0),
    "pow": (np.power, WIDE, (2,), 0), "atan2": (np.arctan2, WIDE, (2,), 0),
    "exp": (np.exp, WIDE, (1,), 0), "exp2": (np.exp2, WIDE, (1,), 0),
    "expm1": (np.expm1, WIDE, (1,), 0), "log": (np.log, WIDE, (1,), 0),
    "log2": (np.log2, WIDE, (1,), 0), "log10": (np.log10, WIDE, (1,), 0),
    "log1p": (np.log1p, WIDE, (1,), 0), "sqrt": (np.sqrt, WIDE, (1,), 0),
    "rsqrt": (_one_over(np.sqrt), WIDE, (1,), 0), "cbrt": (np.cbrt, WIDE, (1,), 0),
    "tanh": (np.tanh, WIDE, (1,), 0), "sin": (np.sin, WIDE, (1,), 0),
    "cos": (np.cos, WIDE, (1,), 0), "tan": (np.tan, WIDE, (1,), 0),
    "asin": (np.arcsin, WIDE, (1,), 0), "acos": (np.arccos, WIDE, (1,), 0),
    "atan": (np.arctan, WIDE, (1,), 0), "sinh": (np.sinh, WIDE, (1,), 0),
    "cosh": (np.cosh, WIDE, (1,), 0), "asinh": (np.arcsinh, WIDE, (1,), 0),
    "acosh": (np.arccosh, WIDE, (1,), 0), "atanh": (np.arctanh, WIDE, (1,), 0),
    "abs": (np.abs, WIDE, (1,), 0), "ceil": (np.ceil, WIDE, (1,), 0),
    "floor": (np.floor, WIDE, (1,), 0), "trunc": (np.trunc, WIDE, (1,), 0),
    "roundeven": (np.rint, WIDE, (1,), 0),
    "round": (lambda x: np.copysign(np.floor(np.abs(x) + x.dtype.type(0.5)), x), WIDE, (1,), 0),
    "erf": (lambda x: np.asarray(erf(x)), "f64", (1,), 0),
    "fma": (lambda x, y, z: x * y + z, WIDE, (3,), 0),
    # spyreop intrinsics (ktir.md §7; ktir.interpreter.ops_spyreop says how each is read)
    "reciprocal": (lambda x: x.dtype.type(1.0) / x, WIDE, (1,), 0),
    "sigmoid": (lambda x: x.dtype.type(1.0) / (x.dtype.type(1.0) + np.exp(-x)), WIDE, (1,), 0),
    "silu": (lambda x: x / (x.dtype.type(1.0) + np.exp(-x)), WIDE, (1,), 0),
    "gelu": (_gelu, WIDE, (1,), 0),
    "softplus": (_softplus, WIDE, (1,), 2),
    "layernormscale": (_layernormscale, WIDE, (1, 2), 0),
    "layernormnorm": (lambda x, m, s, w, b: (x - m) * s * w + b, WIDE, (5,), 0),
}


# The ops whose tensor (and scalar) semantics is one of FLOAT_FUNCTIONS, by op name.
FLOAT_FUNCTION_OF_OP: dict[str, str] = {
    "arith.addf": "add", "arith.subf": "sub", "arith.mulf": "mul", "arith.divf": "div",
    "arith.remf": "rem", "arith.maximumf": "maximum", "arith.minimumf": "minimum",
    "arith.maxnumf": "maxnum", "arith.minnumf": "minnum", "math.copysign": "copysign",
    "math.powf": "pow", "math.atan2": "atan2", "math.fma": "fma",
    **{f"math.{n}": n for n in ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
                                 "sqrt", "rsqrt", "cbrt", "tanh", "sin", "cos", "tan", "asin",
                                 "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
                                 "ceil", "floor", "trunc", "roundeven", "round", "erf")},
    "math.absf": "abs",
    **{f"spyreop.{n}": n for n in ("exp", "sqrt", "rsqrt", "reciprocal", "sigmoid", "silu",
                                    "gelu", "softplus", "layernormscale", "layernormnorm")},
    "spyreop.realdiv": "div",
}

def float_function(name: str, et: ElemType, params: Sequence[float] = ()
                   ) -> Callable[..., np.ndarray]:
    """The array function `name` of FLOAT_FUNCTIONS for values of float type `et`: arrays
    (any shape, 0-d for scalars) of its compute dtype in, the same out. Callers run it under
    `np.errstate(all="ignore")` (the interpreter's runner and the emulator do): inf, nan and
    overflow are values, and entering an errstate per call cost the emulator 8 % of a run."""
    f, how, _, n_params = FLOAT_FUNCTIONS[name]
    if len(params) != n_params:
        raise ValueError(f"'{name}' takes {n_params} parameter(s), got {len(params)}")
    out, rnd = et.compute, et.round
    if how == NATIVE:
        def native(*xs: np.ndarray) -> np.ndarray:
            v = np.asarray(f(*xs))
            return rnd(v) if rnd is not None else v
        return native
    wide = np.dtype(np.float64) if how == "f64" or out == np.float64 else np.dtype(np.float32)

    def evaluate(*xs: np.ndarray) -> np.ndarray:
        v = np.asarray(f(*(np.asarray(x).astype(wide, copy=False) for x in xs), *params))
        v = v.astype(out, copy=False)
        return rnd(v) if rnd is not None else v
    return evaluate


def _unsigned_view(x: np.ndarray) -> np.ndarray:
    return x.view(np.dtype(f"uint{x.dtype.itemsize * 8}")) if x.dtype != np.bool_ else x


def _shift(kind: str, x: np.ndarray, s: np.ndarray) -> np.ndarray:
    """MLIR shifts: an amount outside [0, width) gives 0 (shrsi: the sign)."""
    w = x.dtype.itemsize * 8
    s = np.asarray(s).astype(np.int64)
    big = (s >= w) | (s < 0)
    s = np.where(big, 0, s).astype(x.dtype)
    if kind == "shli":
        return np.where(big, 0, np.left_shift(x, s)).astype(x.dtype)
    if kind == "shrsi":
        return np.where(big, np.where(x < 0, -1, 0), np.right_shift(x, s)).astype(x.dtype)
    u = _unsigned_view(x)
    return np.where(big, 0, np.right_shift(u, s.view(u.dtype))).astype(u.dtype).view(x.dtype)


def _unsigned_op(f: Callable[[np.ndarray, np.ndarray], np.ndarray]
                 ) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def run(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ua, ub = _unsigned_view(np.asarray(a)), _unsigned_view(np.asarray(b))
        return np.asarray(f(ua, ub)).astype(ua.dtype).view(np.asarray(a).dtype)
    return run


def _ceildiv_u(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a // b + (a % b != 0)


# name -> function of two integer arrays of one dtype (wrapping). The division functions
# expect a divisor without zeros: callers report division by zero at their op.
INT_FUNCTIONS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "divsi": np_tdiv, "remsi": np.fmod, "floordivsi": np.floor_divide,
    "ceildivsi": lambda a, b: -np.floor_divide(-a, b),
    "divui": _unsigned_op(np.floor_divide), "remui": _unsigned_op(np.remainder),
    "ceildivui": _unsigned_op(_ceildiv_u),
    "maxui": _unsigned_op(np.maximum), "minui": _unsigned_op(np.minimum),
    "shli": lambda x, s: _shift("shli", x, s), "shrsi": lambda x, s: _shift("shrsi", x, s),
    "shrui": lambda x, s: _shift("shrui", x, s),
}
DIVISIONS = frozenset({"divsi", "remsi", "floordivsi", "ceildivsi", "divui", "remui",
                       "ceildivui"})
INT_FUNCTION_OF_OP: dict[str, str] = {f"arith.{n}": n for n in INT_FUNCTIONS}


def int_function(name: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """The array function `name` of INT_FUNCTIONS (both operands of the result's dtype)."""
    f = INT_FUNCTIONS[name]

    def run(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        a = np.asarray(a)
        with np.errstate(all="ignore"):
            return np.asarray(f(a, np.asarray(b).astype(a.dtype, copy=False))).astype(
                a.dtype, copy=False)
    return run


def convert(x: np.ndarray, src: ElemType, dst: ElemType, unsigned: bool = False) -> np.ndarray:
    """Convert an array between element types (arith casts): floats round to nearest even
    (bf16/df16 through float32, like their tensors); float to integer truncates toward zero and
    saturates to the destination's range (NaN -> 0: MLIR leaves out-of-range values poison,
    this project fixes them); integer to integer wraps; `unsigned` reads the source (integer to
    float, integer extension) or the destination (float to integer) as unsigned."""
    x = np.asarray(x)
    if unsigned and not src.is_float and src.width > 1:
        x = _unsigned_view(x)
    if dst.is_float:
        with np.errstate(over="ignore", invalid="ignore"):
            out = x.astype(dst.compute)
        return dst.round(out) if dst.round is not None else out
    if src.is_float:
        lo, hi = (0, (1 << dst.width) - 1) if unsigned else int_bounds(dst.width)
        with np.errstate(invalid="ignore"):
            t = np.nan_to_num(np.trunc(x.astype(np.float64)), nan=0.0, posinf=2.0**65,
                              neginf=-(2.0**65))
        if dst.width == 1:
            return np.clip(t, lo, hi).astype(np.bool_)
        if dst.width < 64:
            return np.clip(t, lo, hi).astype(np.int64).astype(dst.compute)
        # 64 bits: float64 cannot hold the bounds exactly, so saturate by comparison
        inside = (t >= lo) & (t < 2.0**63 if not unsigned else t < 2.0**64)
        safe = np.where(inside, t, 0.0)
        if unsigned:
            v = safe.astype(np.uint64).view(np.int64)
            return np.where(t < 0, 0, np.where(inside, v, -1)).astype(np.int64)
        return np.where(inside, safe.astype(np.int64), np.where(t < 0, lo, hi)).astype(np.int64)
    if dst.width == 1:
        return (x & 1).astype(np.bool_)
    return x.astype(dst.compute)


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
