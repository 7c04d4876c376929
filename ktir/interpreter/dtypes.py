"""MLIR element types as numpy dtypes, and the numerics numpy lacks (df16, bf16, erf).

Values in the interpreter are numpy arrays (tensors) or scalars: `index` and integer scalars are
Python ints kept in two's-complement range (D3: `index` is 64-bit signed), `f32` scalars are
numpy float32 scalars, `f64` scalars Python floats. `f16`, `bf16` and `!spyreop.df16` (1-6-9,
IEEE convention, bias 31) travel as float32 arrays and scalars whose values are already rounded
to the narrow format ("carrier" values), are rounded again after every op that produces one,
and are stored in memory as 16-bit patterns (`value_type`; f16 gives numpy's float16 bits,
see "f16 carriers"). Buffers, and the arrays a caller gives or gets, have the plain dtypes of
`elem_type` (float16 for f16).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute

from ktir.dialects.spyreop import DF16Type
from ktir.semantics import erf as erf  # re-exported: the numerics numpy lacks
from ktir.semantics import scalar_rounder, wrap_int

Rounder = Callable[[np.ndarray], np.ndarray]


class UnsupportedType(ValueError):
    """An element type the interpreter has no numpy representation for."""


@dataclass(frozen=True)
class ElemType:
    """How values of one MLIR element type live in memory and in registers."""

    name: str
    storage: np.dtype  # bytes in memory
    compute: np.dtype  # dtype of tensors (and of non-Python scalars)
    width: int = 0  # bits, for integer wrap-around; 0 for floats
    is_float: bool = False
    is_index: bool = False
    round: Rounder | None = None  # carrier rounding for emulated floats
    encode: Rounder | None = None  # carrier -> storage bits
    decode: Rounder | None = None  # storage bits -> carrier

    @property
    def itemsize(self) -> int:
        return self.storage.itemsize


# ---------------------------------------------------------------------------- emulated floats


def _round_mantissa(x: np.ndarray, drop: int, max_finite: float, min_normal: float,
                    quantum: float) -> np.ndarray:
    """Round float32 values to a float format with `23 - drop` mantissa bits (ties to even)."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32)
    half = np.uint32((1 << (drop - 1)) - 1)
    r = (bits + half + ((bits >> np.uint32(drop)) & np.uint32(1))) & np.uint32(
        ~((1 << drop) - 1) & 0xFFFFFFFF)
    out = r.view(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        small = np.abs(x) < min_normal
        if small.any():
            out = np.where(small, (np.round(x / np.float32(quantum)) * np.float32(quantum))
                           .astype(np.float32), out)
        big = np.abs(out) > max_finite
        if big.any():
            out = np.where(big, np.copysign(np.float32(np.inf), x), out)
    nan = np.isnan(x)
    if nan.any():
        out = np.where(nan, np.copysign(np.float32(np.nan), x), out)  # keeps the sign
    return out.astype(np.float32, copy=False)


DF16_MAX = (2.0 - 2.0**-9) * 2.0**31
DF16_MIN_NORMAL = 2.0**-30
DF16_QUANTUM = 2.0**-39


def round_df16(x: np.ndarray) -> np.ndarray:
    """Round to !spyreop.df16 (1 sign, 6 exponent bits with bias 31, 9 mantissa bits)."""
    return _round_mantissa(x, 14, DF16_MAX, DF16_MIN_NORMAL, DF16_QUANTUM)


def encode_df16(x: np.ndarray) -> np.ndarray:
    """df16 carrier values (already rounded) -> 16-bit patterns."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32)
    sign = ((bits >> np.uint32(16)) & np.uint32(0x8000)).astype(np.uint16)
    a = np.abs(x)
    exp32 = ((bits >> np.uint32(23)) & np.uint32(0xFF)).astype(np.int32)
    e = np.clip(exp32 - 127 + 31, 0, 63).astype(np.uint16)
    mant = ((bits >> np.uint32(14)) & np.uint32(0x1FF)).astype(np.uint16)
    normal = (e << np.uint16(9)) | mant
    with np.errstate(invalid="ignore", over="ignore"):
        sub = np.round(np.where(a < DF16_MIN_NORMAL, a, 0) / np.float32(DF16_QUANTUM)).astype(
            np.uint16)
    out = np.where(a < DF16_MIN_NORMAL, sub, normal)
    out = np.where(np.isinf(x), np.uint16(63 << 9), out)
    out = np.where(np.isnan(x), np.uint16((63 << 9) | 0x100), out)
    return (out | sign).astype(np.uint16)


def decode_df16(b: np.ndarray) -> np.ndarray:
    """16-bit df16 patterns -> float32 carrier values."""
    b = np.asarray(b, dtype=np.uint16).astype(np.int32)
    sign = np.where(b & 0x8000, np.float32(-1.0), np.float32(1.0))
    e = (b >> 9) & 0x3F
    m = (b & 0x1FF).astype(np.float32)
    with np.errstate(over="ignore"):
        normal = (np.float32(1.0) + m / np.float32(512.0)) * np.exp2(
            (e - 31).astype(np.float32))
    sub = m * np.float32(DF16_QUANTUM)
    val = np.where(e == 0, sub, normal)
    val = np.where(e == 63, np.where(m == 0, np.float32(np.inf), np.float32(np.nan)), val)
    return (sign * val).astype(np.float32)


BF16_MAX = float(np.finfo(np.float32).max)


def round_bf16(x: np.ndarray) -> np.ndarray:
    """Round to bfloat16 (float32 with 7 mantissa bits)."""
    return _round_mantissa(x, 16, 3.3895313892515355e38, 2.0**-126, 2.0**-133)


def encode_bf16(x: np.ndarray) -> np.ndarray:
    return (np.asarray(x, dtype=np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)


def decode_bf16(b: np.ndarray) -> np.ndarray:
    return (np.asarray(b, dtype=np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


# ---------------------------------------------------------------------------- f16 carriers

# numpy's float16 arithmetic converts every element to float32 and back one at a time (about
# 12 ns an element here). Inside a kernel the interpreter therefore holds f16 values the way it
# holds bf16 and df16 ones: as float32 "carriers" already rounded to f16, rounded again after
# every op (`round_f16`, a few integer passes), converted to fp16 bits only in memory
# (`narrow_f16`, `widen_f16`). The bits are those of numpy's float16 (see `f16_ufunc`).

# every fp16 bit pattern as float32
F16_TO_F32 = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16).astype(
    np.float32)
_FAST_MIN = 2048  # below this many elements numpy's own conversions are faster


_WIDEN_MIN = 16384  # below this many elements the table lookup is faster


def widen_f16(x: np.ndarray) -> np.ndarray:
    """float16 array -> the same values as float32 (exact), C-ordered.

    Large arrays by three integer passes and one multiply instead of a table lookup (a
    gather, ~3-6 ns an element; this ~0.5 ns): the half's bits shifted into float32's place,
    sign-extended from int16 and the three copied sign bits cleared, make a float32 whose
    value is the half's times 2**-112 for every finite half (normal or subnormal); times
    2**112 is exact. Infinities and NaNs (exponent 31) land at 2**16 and above and get
    float32's exponent 255 instead, payload kept. Bit for bit `F16_TO_F32` on all 2**16
    patterns (tests)."""
    if x.size < _WIDEN_MIN:
        return F16_TO_F32.take(x.view(np.uint16))
    u = x.view(np.int16).astype(np.int32, order="C")
    u <<= 13
    u &= np.int32(-0x70000001)  # 0x8FFFFFFF: sign and the half's 15 bits
    f = u.view(np.float32)
    f *= np.float32(2.0**112)
    if f.max() >= 65536 or f.min() <= -65536:  # infinities and NaNs
        special = (u & np.int32(0x7FFFFFFF)) >= np.int32(0x47800000)
        u[special] += np.int32(0x38000000)  # exponent 143 -> 255
    return f


def narrow_f16(x: np.ndarray) -> np.ndarray:
    """float32 array -> float16, rounded to nearest even, bit for bit as numpy's `astype`
    (overflow to inf, subnormals, NaN payloads; checked on all 2**32 inputs)."""
    x = np.asarray(x)
    if x.size < _FAST_MIN or x.dtype != np.float32:
        return x.astype(np.float16)
    u = np.ascontiguousarray(x).view(np.uint32)
    a = u & np.uint32(0x7FFFFFFF)
    if a.min() < 0x38800000:  # subnormal halves or zeros (common in outputs)
        return _narrow_rounded(x)
    h = a >> np.uint32(13)
    h &= np.uint32(1)
    h += a
    h += np.uint32(0x0FFF)
    h >>= np.uint32(13)
    h -= np.uint32(112 << 10)  # rebias the exponent: 127 - 15
    if a.max() >= 0x477FF000:  # overflow to inf, inf, NaN
        big = a >= np.uint32(0x477FF000)
        nan = np.uint32(0x7C00) + ((a & np.uint32(0x7FFFFF)) >> np.uint32(13))
        nan = np.where(nan == 0x7C00, np.uint32(0x7C01), nan)
        np.copyto(h, np.where(a > np.uint32(0x7F800000), nan, np.uint32(0x7C00)), where=big)
    sign = u >> np.uint32(16)
    sign &= np.uint32(0x8000)
    h |= sign
    return h.astype(np.uint16).view(np.float16).reshape(x.shape)


def _narrow_rounded(x: np.ndarray) -> np.ndarray:
    """`narrow_f16` by way of `_round_f16`: the rounded float32 holds a half exactly, and
    times 2**-112 (exact, sign kept) its bits are the half's shifted left by 13 for every
    finite half, subnormals and zeros included; infinities keep their exponent's low bits
    (0x7C00 once masked). Rounding to subnormals is thus one path with the normal one (the
    route above needs a second, masked pass for them). NaNs (a multiply quiets a signalling
    one) are taken from numpy's own conversion."""
    r, normal = _round_f16(x)  # a fresh array of x's shape
    b = r.view(np.uint32)
    sign = b >> np.uint32(16)
    sign &= np.uint32(0x8000)
    if normal:
        r *= np.float32(2.0**-112)
    else:
        with np.errstate(invalid="ignore"):  # signalling NaNs
            r *= np.float32(2.0**-112)
    b >>= np.uint32(13)
    if not normal:
        b &= np.uint32(0x7FFF)  # the sign, and an infinity's exponent bits past the half's
        if b.max() > 0x7C00:  # NaNs
            nan = b > np.uint32(0x7C00)
            b |= sign
            h = b.astype(np.uint16)
            with np.errstate(invalid="ignore"):
                h[nan] = x[nan].astype(np.float16).view(np.uint16)
            return h.view(np.float16)
    b |= sign  # (a finite half's bits stop at 14: bit 18, the sign, is cleared by the cast)
    return b.astype(np.uint16).view(np.float16)


def _round_f16(x: np.ndarray) -> tuple[np.ndarray, bool]:
    """(x rounded to f16 as float32, whether every value was in the normal range)."""
    out, normal, _ = _round_f16_nan(x)
    return out, normal


def _round_f16_nan(x: np.ndarray) -> tuple[np.ndarray, bool, bool]:
    """`_round_f16`, and whether x may hold a NaN (False: it holds none)."""
    if x.dtype == np.float64:  # rounded once, directly, as numpy does
        return widen_f16(np.asarray(x.astype(np.float16))), False, True
    x = np.asarray(x, dtype=np.float32)
    if x.size < _FAST_MIN:
        return widen_f16(np.asarray(x.astype(np.float16))), False, True
    x = np.ascontiguousarray(x)
    u = x.view(np.uint32)
    r = u >> np.uint32(13)
    r &= np.uint32(1)
    r += u
    r += np.uint32(0x0FFF)  # ties to even at the 13th mantissa bit: a normal half
    r &= np.uint32(0xFFFFE000)
    a = u & np.uint32(0x7FFFFFFF)
    amax = a.max()
    big = amax >= 0x477FF000  # overflow to inf, inf, NaN
    a -= np.uint32(1)  # zero wraps around to the top
    small = a.min() < 0x387FFFFF  # a nonzero value below the smallest normal half
    out = r.view(np.float32)
    if small:  # subnormal halves: multiples of 2**-24 (0.5 + v rounds v so, ties to even)
        at = np.flatnonzero(a < np.uint32(0x387FFFFF))  # usually few: work on those alone
        v = x.reshape(-1)[at]
        tiny = np.abs(v)
        tiny += np.float32(0.5)
        tiny -= np.float32(0.5)
        out.reshape(-1)[at] = np.copysign(tiny, v)
    if big:
        # a value rounded past the largest half is 2**16 or more (carries into float32's
        # exponent give infinity for the largest floats); times 2**112 exactly those
        # overflow to infinity, sign kept, and times 2**-112 the others are back, exactly
        with np.errstate(over="ignore", invalid="ignore"):
            out *= np.float32(2.0**112)
            out *= np.float32(2.0**-112)
        if amax > 0x7F800000:  # NaNs: the payload fp16 keeps, never emptied
            a += np.uint32(1)
            nan = u & np.uint32(0xFFFFE000)
            nan |= np.where(nan & np.uint32(0x7FFFFF), np.uint32(0), np.uint32(0x2000))
            np.copyto(r, nan, where=a > np.uint32(0x7F800000))
    return out.reshape(x.shape), not (small or big), bool(amax > 0x7F800000)


def round_f16(x: Any) -> np.ndarray:
    """Values -> float32 carriers rounded to f16 (ties to even), bit for bit
    `widen_f16(narrow_f16(x))`; float64 input is rounded once, directly."""
    return _round_f16(np.asarray(x))[0]


# numpy's float16 max/min loops: which operand they return (signed zeros, NaN payloads)
_F16_SELECT: dict[Any, Callable[[Any, Any], Any]] = {
    np.maximum: lambda x, y: np.where((x >= y) | np.isnan(x), x, y),
    np.minimum: lambda x, y: np.where((x <= y) | np.isnan(x), x, y),
    np.fmax: lambda x, y: np.where((x >= y) | np.isnan(y), x, y),
    np.fmin: lambda x, y: np.where((x <= y) | np.isnan(y), x, y),
}


def f16_ufunc(f: np.ufunc, *args: Any) -> np.ndarray:
    """`f` on f16 carriers, bit for bit as numpy's float16 loop computes it on the fp16
    values: max/min pick an operand as that loop does; arithmetic is done in float32 and
    rounded once, and where the result is NaN (the payload is that loop's choice) it is
    computed by that loop."""
    pick = _F16_SELECT.get(f)
    if pick is not None:
        return np.asarray(pick(*args), dtype=np.float32)
    out, _, maybe_nan = _round_f16_nan(np.asarray(f(*args)))
    if maybe_nan:
        nan = np.isnan(out)
        if nan.any():
            out = out.copy() if not out.flags.writeable else out
            ins = [narrow_f16(np.broadcast_to(np.asarray(a, np.float32), out.shape)[nan])
                   for a in args]
            out[nan] = widen_f16(np.asarray(f(*ins)))
    return out


# ---------------------------------------------------------------------------- the type table

_F16 = ElemType("f16", np.dtype(np.float16), np.dtype(np.float16), is_float=True)
# f16 as values inside a kernel (see "f16 carriers"); `_F16` is how buffers hold it
F16_CARRIER = ElemType("f16", np.dtype(np.float16), np.dtype(np.float32), is_float=True,
                       round=round_f16, encode=narrow_f16, decode=widen_f16)
_F32 = ElemType("f32", np.dtype(np.float32), np.dtype(np.float32), is_float=True)
_F64 = ElemType("f64", np.dtype(np.float64), np.dtype(np.float64), is_float=True)
_DF16 = ElemType("!spyreop.df16", np.dtype(np.uint16), np.dtype(np.float32), is_float=True,
                 round=round_df16, encode=encode_df16, decode=decode_df16)
_BF16 = ElemType("bf16", np.dtype(np.uint16), np.dtype(np.float32), is_float=True,
                 round=round_bf16, encode=encode_bf16, decode=decode_bf16)
_INDEX = ElemType("index", np.dtype(np.int64), np.dtype(np.int64), width=64, is_index=True)
_INTS = {w: np.dtype(f"int{w}") for w in (8, 16, 32, 64)}


def elem_type(t: Attribute) -> ElemType:
    """The ElemType of a scalar type, or of the element type of a tensor/memref type."""
    if isinstance(t, TensorType | MemRefType):
        t = t.get_element_type()
    if isinstance(t, Float16Type):
        return _F16
    if isinstance(t, Float32Type):
        return _F32
    if isinstance(t, Float64Type):
        return _F64
    if isinstance(t, DF16Type):
        return _DF16
    if isinstance(t, BFloat16Type):
        return _BF16
    if isinstance(t, IndexType):
        return _INDEX
    if isinstance(t, IntegerType):
        w = t.width.data
        if w == 1:
            return ElemType("i1", np.dtype(np.bool_), np.dtype(np.bool_), width=1)
        if w in _INTS:
            return ElemType(f"i{w}", _INTS[w], _INTS[w], width=w)
        raise UnsupportedType(f"integer type i{w} is not supported by the interpreter "
                              "(widths 1, 8, 16, 32, 64 are)")
    raise UnsupportedType(f"type {t} is not supported by the interpreter")


def value_type(t: Attribute) -> ElemType:
    """The ElemType of a value of type `t` inside a kernel: as `elem_type`, except that f16
    is held as float32 carriers (`F16_CARRIER`); `elem_type` describes buffers and the
    arrays a caller gives or gets."""
    et = elem_type(t)
    return F16_CARRIER if et is _F16 else et


NUMPY_NAMES = {"f16": "float16", "f32": "float32", "f64": "float64", "index": "int64",
               "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
               "!spyreop.df16": "float32", "bf16": "float32"}


def is_shaped(t: Attribute) -> bool:
    return isinstance(t, TensorType | MemRefType)


# ---------------------------------------------------------------------------- scalars


def scalar(value: object, et: ElemType) -> object:
    """A Python/numpy value as this project's scalar representation of `et`."""
    if et.is_float:
        if et is F16_CARRIER:  # rounded once, from the value itself
            return np.float32(np.float16(value))  # type: ignore[arg-type]
        if et.round is not None:
            return np.float32(scalar_rounder(et)(value))  # type: ignore[arg-type]
        if et.compute == np.float64:
            return float(value)  # type: ignore[arg-type]
        return et.compute.type(value)
    if et.width == 1:
        return int(bool(value))
    return wrap_int(int(value), et.width)  # type: ignore[call-overload]


def from_array_item(item: object, et: ElemType) -> object:
    """An element read out of a tensor as a scalar value."""
    if et.is_float:
        return float(item) if et.compute == np.float64 else item  # type: ignore[arg-type]
    return int(item)  # type: ignore[call-overload]
