"""`arith` and `math` on scalars and whole tensors.

Integer scalars are Python ints in two's-complement range of their width (`index` is 64-bit);
integer tensors are numpy arrays of that width, which wrap natively. Float ops run on numpy
scalars/arrays of the result's width; f16 values are float32 carriers (dtypes.py) rounded after
each op, with the bits numpy's float16 arithmetic gives. The `math` functions of f16, bf16 and
df16 values are evaluated in float32 and rounded once to the result type; f32 in float32, f64
in float64; `erf` is evaluated in float64 (numpy has none) and rounded. Division by zero is an
error rather than poison.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Operation

from ktir.dialects import mlir_compat
from ktir.interpreter import dtypes
from ktir.interpreter.core import Compiler, Fn, compile_error, fail, handles
from ktir.interpreter.dtypes import ElemType, value_type
from ktir.semantics import (
    FLOAT_FUNCTION_OF_OP,
    INT_FUNCTION_OF_OP,
    ceildiv,
    convert,
    float_function,
    int_bounds,
    int_function,
    scalar_rounder,
    tdiv,
    to_unsigned,
    trem,
    wrap_int,
)

# ---------------------------------------------------------------------------- helpers


def rounded(c: Compiler, op: Operation, fn: Fn) -> Fn:
    """Wrap `fn` so that results held as float32 carriers (f16, df16, bf16) are rounded
    after it runs."""
    outs = [(c.slot(v), et.round, _scalar_round(et)) for v in op.results
            if (et := _float_elem(v.type)) is not None and et.round is not None]
    if not outs:
        return fn

    def run(r: list[Any]) -> None:
        fn(r)
        for s, rnd, rnd_scalar in outs:
            v = r[s]
            r[s] = rnd(v) if isinstance(v, np.ndarray) else rnd_scalar(v)

    return run


def _scalar_round(et: ElemType) -> Callable[[Any], Any]:
    if et is dtypes.F16_CARRIER:
        return lambda v: dtypes.scalar(v, et)
    rnd = scalar_rounder(et)
    return lambda v: np.float32(rnd(v))


def _float_elem(t: Any) -> ElemType | None:
    try:
        et = value_type(t)
    except dtypes.UnsupportedType:
        return None
    return et if et.is_float else None


def _unsigned(v: Any, et: ElemType) -> Any:
    if isinstance(v, np.ndarray):
        return v.view(np.dtype(f"uint{et.storage.itemsize * 8}")) if et.width > 1 else v
    return to_unsigned(v, et.width)


def _signed_back(v: Any, et: ElemType) -> Any:
    if isinstance(v, np.ndarray):
        return v.astype(et.compute, copy=False) if v.dtype != et.compute else v
    return wrap_int(int(v), et.width)


# ---------------------------------------------------------------------------- integer ops

_INT_SCALAR: dict[type[Operation], Callable[[int, int], int]] = {
    arith.AddiOp: operator.add, arith.SubiOp: operator.sub, arith.MuliOp: operator.mul,
    arith.AndIOp: operator.and_, arith.OrIOp: operator.or_, arith.XOrIOp: operator.xor,
    arith.MaxSIOp: max, arith.MinSIOp: min,
    arith.FloorDivSIOp: operator.floordiv, arith.DivSIOp: tdiv,
    arith.CeilDivSIOp: ceildiv, arith.RemSIOp: trem,
}
_INT_ARRAY: dict[type[Operation], Callable[[Any, Any], Any]] = {
    arith.AddiOp: np.add, arith.SubiOp: np.subtract, arith.MuliOp: np.multiply,
    arith.AndIOp: np.bitwise_and, arith.OrIOp: np.bitwise_or, arith.XOrIOp: np.bitwise_xor,
    arith.MaxSIOp: np.maximum, arith.MinSIOp: np.minimum,
}
_DIVIDES = (arith.FloorDivSIOp, arith.DivSIOp, arith.CeilDivSIOp, arith.RemSIOp,
            arith.DivUIOp, arith.RemUIOp, arith.CeilDivUIOp)
_UNSIGNED: dict[type[Operation], Callable[[int, int], int]] = {
    arith.DivUIOp: operator.floordiv, arith.RemUIOp: operator.mod,
    arith.CeilDivUIOp: ceildiv, arith.MaxUIOp: max, arith.MinUIOp: min,
}


@handles(*_INT_SCALAR, *_UNSIGNED)
def _int_binary(c: Compiler, op: Operation) -> Fn:
    """Tensors: numpy in their width (wrapping), the divisions and unsigned ops through
    `ktir.semantics.int_function` (shared with the emulator); scalars: Python ints."""
    a, b = c.slots_of(op.operands)
    o = c.slot(op.results[0])
    et = value_type(op.results[0].type)
    kind = type(op)
    check_zero = kind in _DIVIDES

    def zero_error(r: list[Any]) -> Exception:
        return fail(op, r, "divides by zero")

    if c.shaped(op.results[0].type):
        name = INT_FUNCTION_OF_OP.get(op.name)
        g = int_function(name) if name is not None else _INT_ARRAY[kind]
        if et.width == 1:
            g = {arith.AddiOp: np.logical_xor, arith.SubiOp: np.logical_xor,
                 arith.MuliOp: np.logical_and}.get(kind, g)

        def run_t(r: list[Any]) -> None:
            y = r[b]
            if check_zero and np.any(y == 0):
                raise zero_error(r)
            r[o] = g(r[a], y)

        return run_t
    lo, hi = int_bounds(et.width)
    w = et.width
    if kind in _UNSIGNED:
        fu = _UNSIGNED[kind]

        def run_u(r: list[Any]) -> None:
            x, y = to_unsigned(r[a], w), to_unsigned(r[b], w)
            if check_zero and y == 0:
                raise zero_error(r)
            r[o] = wrap_int(fu(x, y), w)

        return run_u
    f = _INT_SCALAR[kind]

    if check_zero:
        def run_div(r: list[Any]) -> None:
            y = r[b]
            if y == 0:
                raise zero_error(r)
            v = f(r[a], y)
            r[o] = v if lo <= v <= hi else wrap_int(v, w)

        return run_div

    def run(r: list[Any]) -> None:
        v = f(r[a], r[b])
        r[o] = v if lo <= v <= hi else wrap_int(v, w)

    return run


@handles(arith.ShLIOp, arith.ShRSIOp, arith.ShRUIOp)
def _shift(c: Compiler, op: Operation) -> Fn:
    a, b = c.slots_of(op.operands)
    o = c.slot(op.results[0])
    et = value_type(op.results[0].type)
    w = et.width
    kind = type(op)
    if c.shaped(op.results[0].type):
        g = int_function(INT_FUNCTION_OF_OP[op.name])

        def run_t(r: list[Any]) -> None:
            r[o] = g(r[a], r[b])

        return run_t

    def run(r: list[Any]) -> None:
        x, s = r[a], r[b]
        if s < 0 or s >= w:
            r[o] = -1 if (kind is arith.ShRSIOp and x < 0) else 0
        elif kind is arith.ShLIOp:
            r[o] = wrap_int(x << s, w)
        elif kind is arith.ShRSIOp:
            r[o] = x >> s
        else:
            r[o] = wrap_int(to_unsigned(x, w) >> s, w)

    return run


_CMPI = {
    0: operator.eq, 1: operator.ne, 2: operator.lt, 3: operator.le, 4: operator.gt,
    5: operator.ge, 6: operator.lt, 7: operator.le, 8: operator.gt, 9: operator.ge,
}


@handles(arith.CmpiOp)
def _cmpi(c: Compiler, op: arith.CmpiOp) -> Fn:
    a, b, o = c.slot(op.lhs), c.slot(op.rhs), c.slot(op.result)
    pred = op.predicate.value.data
    f = _CMPI[pred]
    et = value_type(op.lhs.type)
    unsigned = pred >= 6
    if c.shaped(op.result.type):
        def run_t(r: list[Any]) -> None:
            x, y = r[a], r[b]
            if unsigned:
                x, y = _unsigned(np.asarray(x), et), _unsigned(np.asarray(y), et)
            r[o] = f(x, y)

        return run_t
    if unsigned:
        w = et.width

        def run_u(r: list[Any]) -> None:
            r[o] = int(f(to_unsigned(r[a], w), to_unsigned(r[b], w)))

        return run_u

    def run(r: list[Any]) -> None:
        r[o] = 1 if f(r[a], r[b]) else 0

    return run


# ---------------------------------------------------------------------------- float ops

_FLOAT_BINARY = (arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, arith.MaximumfOp,
                 arith.MinimumfOp, arith.MaxnumfOp, arith.MinnumfOp, mlir_compat.RemFOp,
                 mathd.PowFOp, mathd.Atan2Op, mathd.CopySignOp, mathd.FmaOp)


def shared_float(c: Compiler, op: Operation, name: str, params: tuple[float, ...] = (),
                 result: Any = None) -> Fn:
    """An op whose semantics is `ktir.semantics.float_function(name)` (the emulator evaluates
    the vector op it is lowered to with the same function): tensors go through it whole,
    scalars as 0-d arrays."""
    res = result if result is not None else op.results[0]
    ins, o = c.slots_of(op.operands), c.slot(res)
    et = value_type(res.type)  # f16 as float32 carriers, rounded by `fn`
    fn = float_function(name, et, params)
    loop = _F16_LOOP.get(name) if et is dtypes.F16_CARRIER else None
    if loop is not None and c.shaped(res.type):
        # f16 carriers: the bits of numpy's float16 loop, the emulator's arithmetic, also
        # where both operands are NaN (which one survives is that loop's choice)
        def run_f16(r: list[Any]) -> None:
            r[o] = dtypes.f16_ufunc(loop, *(r[i] for i in ins))

        return run_f16
    if c.shaped(res.type):
        def run_t(r: list[Any]) -> None:
            r[o] = fn(*(r[i] for i in ins))

        return run_t
    scalar: Callable[[Any], Any] = float if et.compute == np.float64 else et.compute.type

    def run(r: list[Any]) -> None:
        r[o] = scalar(fn(*(np.asarray(r[i]) for i in ins)))

    return run


_F16_LOOP = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}


@handles(*_FLOAT_BINARY)
def _float_binary(c: Compiler, op: Operation) -> Fn:
    return shared_float(c, op, FLOAT_FUNCTION_OF_OP[op.name])


@handles(arith.NegfOp)
def _negf(c: Compiler, op: arith.NegfOp) -> Fn:
    a, o = c.slot(op.operand), c.slot(op.result)

    def run(r: list[Any]) -> None:
        r[o] = -r[a]

    return run


_CMPF: dict[int, Callable[[Any, Any], Any]] = {
    1: np.equal, 2: np.greater, 3: np.greater_equal, 4: np.less, 5: np.less_equal,
    6: lambda x, y: np.not_equal(x, y) & ~np.isnan(x) & ~np.isnan(y),
    7: lambda x, y: ~np.isnan(x) & ~np.isnan(y),
    8: lambda x, y: np.equal(x, y) | np.isnan(x) | np.isnan(y),
    9: lambda x, y: ~np.less_equal(x, y), 10: lambda x, y: ~np.less(x, y),
    11: lambda x, y: ~np.greater_equal(x, y), 12: lambda x, y: ~np.greater(x, y),
    13: np.not_equal, 14: lambda x, y: np.isnan(x) | np.isnan(y),
}


@handles(arith.CmpfOp)
def _cmpf(c: Compiler, op: arith.CmpfOp) -> Fn:
    a, b, o = c.slot(op.lhs), c.slot(op.rhs), c.slot(op.result)
    pred = op.predicate.value.data
    shaped = c.shaped(op.result.type)
    if pred in (0, 15):
        const = pred == 15

        def run_const(r: list[Any]) -> None:
            x = r[a]
            r[o] = np.full(np.shape(x), const) if shaped else int(const)

        return run_const
    f = _CMPF[pred]

    def run(r: list[Any]) -> None:
        v = f(r[a], r[b])
        r[o] = v if shaped else int(bool(v))

    return run


@handles(arith.SelectOp)
def _select(c: Compiler, op: arith.SelectOp) -> Fn:
    k, a, b, o = c.slot(op.cond), c.slot(op.lhs), c.slot(op.rhs), c.slot(op.result)
    if c.shaped(op.cond.type):
        def run_t(r: list[Any]) -> None:
            r[o] = np.where(r[k], r[a], r[b])

        return run_t

    def run(r: list[Any]) -> None:
        k_ = r[k]
        r[o] = np.where(k_, r[a], r[b]) if isinstance(k_, np.ndarray) else (
            r[a] if k_ else r[b])

    return run


# ---------------------------------------------------------------------------- constants


def constant_value(op: Operation, value: Any, t: Any) -> Any:
    """The interpreter value of a constant attribute of type `t` (read-only arrays)."""
    et = value_type(t)
    if isinstance(value, DenseIntOrFPElementsAttr):
        vals = value.get_values()
        shape = tuple(cast(TensorType, t).get_shape())
        if et.width == 1:
            arr = np.array([v != 0 for v in vals], dtype=np.bool_)
        elif et.is_float:
            arr = np.array(vals, dtype=np.float64)
            arr = et.round(arr) if et.round is not None else arr.astype(et.compute)
        else:
            arr = np.array([wrap_int(int(v), et.width) for v in vals], dtype=et.compute)
        arr = arr.reshape(shape) if arr.size == int(np.prod(shape)) else np.broadcast_to(
            arr.reshape(-1)[:1], shape).copy()
        arr.setflags(write=False)
        return arr
    if isinstance(value, IntegerAttr):
        v = value.value.data
        return int(v != 0) if et.width == 1 else wrap_int(v, et.width)
    if isinstance(value, FloatAttr):
        return dtypes.scalar(value.value.data, et)
    raise compile_error(op, f"constant {value} is not supported by the interpreter")


@handles(arith.ConstantOp)
def _constant(c: Compiler, op: arith.ConstantOp) -> Fn:
    v = constant_value(op, op.value, op.result.type)
    o = c.slot(op.result)

    def run(r: list[Any]) -> None:
        r[o] = v

    return run


# ---------------------------------------------------------------------------- casts


def cast_value(v: Any, src: ElemType, dst: ElemType, unsigned: bool = False) -> Any:
    """Convert a scalar or array between element types: `ktir.semantics.convert` (shared with
    the emulator's `vectorchain.cast`); scalars stay Python ints / numpy floats."""
    if isinstance(v, np.ndarray):
        if v.dtype == np.float16 and dst.compute == np.float32 and dst.round is None:
            return dtypes.widen_f16(v)
        if v.dtype == np.float32 and dst.compute == np.float16:
            return dtypes.narrow_f16(v)
        return convert(v, src, dst, unsigned)
    if unsigned and not src.is_float:
        v = to_unsigned(int(v), src.width)
    if dst.is_float:
        return dtypes.scalar(float(v), dst)
    if src.is_float:
        return int(convert(np.asarray(v), src, dst, unsigned))
    return wrap_int(int(v), dst.width)


_SIGNED_CASTS = (arith.ExtFOp, arith.TruncFOp, arith.SIToFPOp, arith.FPToSIOp, arith.ExtSIOp,
                 arith.TruncIOp, arith.IndexCastOp)
_UNSIGNED_CASTS = (arith.UIToFPOp, arith.FPToUIOp, arith.ExtUIOp, mlir_compat.IndexCastUIOp)


@handles(*_SIGNED_CASTS, *_UNSIGNED_CASTS)
def _cast(c: Compiler, op: Operation) -> Fn:
    a, o = c.slot(op.operands[0]), c.slot(op.results[0])
    src, dst = value_type(op.operands[0].type), value_type(op.results[0].type)
    unsigned = isinstance(op, _UNSIGNED_CASTS)

    def run(r: list[Any]) -> None:
        r[o] = cast_value(r[a], src, dst, unsigned)

    return run


@handles(arith.BitcastOp)
def _bitcast(c: Compiler, op: arith.BitcastOp) -> Fn:
    a, o = c.slot(op.input), c.slot(op.result)
    src, dst = value_type(op.input.type), value_type(op.result.type)

    def run(r: list[Any]) -> None:
        v = r[a]
        arr = np.asarray(v)
        if src.encode is not None:
            arr = src.encode(arr)
        bits = arr.astype(src.storage).view(dst.storage)
        out = dst.decode(bits) if dst.decode is not None else bits
        r[o] = out if isinstance(v, np.ndarray) else dtypes.from_array_item(
            out.reshape(-1)[0], dst)

    return run


# ---------------------------------------------------------------------------- math

_MATH_UNARY = (
    mathd.ExpOp, mathd.Exp2Op, mathd.ExpM1Op, mathd.LogOp, mathd.Log2Op, mathd.Log10Op,
    mathd.Log1pOp, mathd.SqrtOp, mathd.RsqrtOp, mathd.TanhOp, mathd.SinOp, mathd.CosOp,
    mathd.TanOp, mathd.AsinOp, mathd.AcosOp, mathd.AtanOp, mathd.SinhOp, mathd.CoshOp,
    mathd.AsinhOp, mathd.AcoshOp, mathd.AtanhOp, mathd.CbrtOp, mathd.AbsFOp, mathd.CeilOp,
    mathd.FloorOp, mathd.TruncOp, mathd.RoundEvenOp, mathd.RoundOp, mathd.ErfOp)


@handles(*_MATH_UNARY)
def _math_unary(c: Compiler, op: Operation) -> Fn:
    return shared_float(c, op, FLOAT_FUNCTION_OF_OP[op.name])


@handles(mathd.FPowIOp)
def _fpowi(c: Compiler, op: Operation) -> Fn:
    return shared_float(c, op, "pow")


def _bit_length(u: np.ndarray) -> np.ndarray:
    """Number of significant bits of unsigned integers, without a per-element loop."""
    n = np.zeros(u.shape, dtype=np.int64)
    u = u.astype(np.uint64)
    for shift in (32, 16, 8, 4, 2, 1):
        big = u >= (np.uint64(1) << np.uint64(shift))
        n += np.where(big, shift, 0)
        u = np.where(big, u >> np.uint64(shift), u)
    return n + (u > 0)


def _int_math(kind: type[Operation], x: Any, y: Any, et: ElemType) -> Any:
    w = et.width
    u = np.asarray(_unsigned(np.asarray(x, dtype=et.compute), et))
    if kind is mathd.AbsIOp:
        out: Any = np.abs(np.asarray(x, dtype=et.compute))
    elif kind is mathd.CtPopOp:
        out = np.bitwise_count(u)
    elif kind is mathd.CountLeadingZerosOp:
        out = w - _bit_length(u)
    elif kind is mathd.CountTrailingZerosOp:
        low = u & (~u + np.asarray(1, dtype=u.dtype))
        out = np.where(u == 0, w, _bit_length(low) - 1)
    else:
        base = np.asarray(x, dtype=et.compute)
        e = np.asarray(y, dtype=np.int64)
        out = np.where(e >= 0, np.power(base, np.maximum(e, 0)),
                       np.where(base == 1, 1, 0))
    return np.asarray(out).astype(et.compute)


@handles(mathd.AbsIOp, mathd.CtPopOp, mathd.CountLeadingZerosOp, mathd.CountTrailingZerosOp,
         mathd.IPowIOp)
def _math_int(c: Compiler, op: Operation) -> Fn:
    ins = c.slots_of(op.operands)
    o = c.slot(op.results[0])
    et = value_type(op.results[0].type)
    kind = type(op)

    def run(r: list[Any]) -> None:
        x = r[ins[0]]
        y = r[ins[1]] if len(ins) > 1 else 0
        v = _int_math(kind, x, y, et)
        r[o] = v if isinstance(x, np.ndarray) else wrap_int(int(v), et.width)

    return run
