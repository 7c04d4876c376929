"""NumPy definitions of the `spyreop` intrinsics (spec §7).

Float intrinsics are evaluated in float32 and rounded once to the result type (f16, df16,
f32); the integer ones wrap. Where the device semantics are not published, this module fixes
the project's reading, after torch-spyre's decomposition of layer norm
(`exx2` -> `layernormscale` -> `layernormnorm`):

* `exx2 x` -> (x, x*x): the per-element contribution to (mean, mean of squares); a fused
  value holds that pair.
* `layernormscale m squares sq` -> 1 / sqrt(sq - m*m) (the reciprocal standard deviation);
  the older one-operand form `layernormscale v` -> 1 / sqrt(v).
* `layernormnorm x squares m scale s weight w bias b` -> (x - m) * s * w + b: the operand in
  the `squares` position carries the mean, as in torch-spyre's
  `layernormnorm(x, mean, norm_mean, weight, bias)`.
* `gelu` is the erf form 0.5 x (1 + erf(x / sqrt 2)); `softplus` is PyTorch's.
* `slice_reduction` splits its stick into slices of `SLICE_WIDTH` elements. `in_slice` puts
  each slice's reduction in the slice's first element; `across_slice` puts the element-wise
  reduction over slices in the first slice. Other elements keep their input values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.ir import Operation

from ktir.dialects import spyreop
from ktir.interpreter.core import Compiler, Fn, handles
from ktir.interpreter.dtypes import ElemType, value_type
from ktir.interpreter.ops_arith import shared_float
from ktir.semantics import FLOAT_FUNCTION_OF_OP, wrap_int

SLICE_WIDTH = 16


def _f32(v: Any) -> Any:
    return np.asarray(v).astype(np.float32) if isinstance(v, np.ndarray) else np.float32(v)


def _out(v: Any, et: ElemType, shaped: bool) -> Any:
    arr = np.asarray(v, dtype=np.float32)
    res = arr.astype(et.compute)
    if et.round is not None:
        res = et.round(res)
    return res if shaped else res.reshape(-1)[0] if res.ndim else res[()]


def _float_op(c: Compiler, op: Operation, f: Callable[..., Any], result: Any = None) -> Fn:
    ins = c.slots_of(op.operands)
    res = result if result is not None else op.results[0]
    o = c.slot(res)
    et = value_type(res.type)
    shaped = c.shaped(res.type)

    def run(r: list[Any]) -> None:
        v = f(*(_f32(r[i]) for i in ins))
        r[o] = _out(v, et, shaped)

    return run


_SHARED = (spyreop.ExpOp, spyreop.ReciprocalOp, spyreop.SqrtOp, spyreop.RsqrtOp,
           spyreop.SigmoidOp, spyreop.SiluOp, spyreop.GeluOp, spyreop.RealDivOp,
           spyreop.LayerNormScaleOp, spyreop.LayerNormNormOp)


@handles(*_SHARED)
def _shared(c: Compiler, op: Operation) -> Fn:
    """The float intrinsics whose definition is in ktir.semantics (FLOAT_FUNCTIONS), shared
    with the emulator: evaluated in float32, rounded once."""
    return shared_float(c, op, FLOAT_FUNCTION_OF_OP[op.name])


@handles(spyreop.SoftplusOp)
def _softplus(c: Compiler, op: spyreop.SoftplusOp) -> Fn:
    return shared_float(c, op, "softplus", (op.beta.value.data, op.threshold.value.data))


@handles(spyreop.AddI32ToI32Op, spyreop.MulI32ToI32Op, spyreop.AddI64ToI64Op)
def _int(c: Compiler, op: Operation) -> Fn:
    a, b = c.slots_of(op.operands)
    o = c.slot(op.results[0])
    et = value_type(op.results[0].type)
    mul = isinstance(op, spyreop.MulI32ToI32Op)

    def run(r: list[Any]) -> None:
        x, y = r[a], r[b]
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            r[o] = (np.multiply(x, y) if mul else np.add(x, y)).astype(et.compute)
        else:
            r[o] = wrap_int(x * y if mul else x + y, et.width)

    return run


@handles(spyreop.Idx32ToAddrOp)
def _idx32toaddr(c: Compiler, op: spyreop.Idx32ToAddrOp) -> Fn:
    i, o = c.slot(op.index), c.slot(op.result)
    params = c.slots_of(op.params)
    consts = (op.base_value.value.data, op.stride_value.value.data) if not params else None

    def run(r: list[Any]) -> None:
        base, stride = consts if consts is not None else (r[params[0]], r[params[1]])
        x = r[i]
        if isinstance(x, np.ndarray):
            r[o] = (np.int64(base) + np.int64(stride) * x.astype(np.int64)).astype(np.int32)
        else:
            r[o] = wrap_int(base + stride * x, 32)

    return run


@handles(spyreop.Exx2Op)
def _exx2(c: Compiler, op: spyreop.Exx2Op) -> Fn:
    first = _float_op(c, op, lambda x: x, op.mean)
    second = _float_op(c, op, lambda x: x * x, op.mean_sq)

    def run(r: list[Any]) -> None:
        first(r)
        second(r)

    return run


@handles(spyreop.Exx2FusedOp)
def _exx2_fused(c: Compiler, op: spyreop.Exx2FusedOp) -> Fn:
    a, o = c.slot(op.input), c.slot(op.result)
    rnd = value_type(op.input.type).round

    def run(r: list[Any]) -> None:
        x = _f32(r[a])
        sq = x * x
        if rnd is not None:
            sq = rnd(np.asarray(sq))
        r[o] = (x, sq)

    return run


@handles(spyreop.LayerNormScaleFusedOp)
def _layernormscale_fused(c: Compiler, op: spyreop.LayerNormScaleFusedOp) -> Fn:
    a, o = c.slot(op.input), c.slot(op.result)
    et = value_type(op.result.type)
    shaped = c.shaped(op.result.type)

    def run(r: list[Any]) -> None:
        m, sq = r[a]
        r[o] = _out(np.float32(1.0) / np.sqrt(sq - m * m), et, shaped)

    return run


_SLICE_REDUCE: dict[str, Callable[[np.ndarray, int], np.ndarray]] = {
    "add": lambda x, ax: x.sum(axis=ax),
    "sub": lambda x, ax: np.take(x, 0, axis=ax) - np.take(x, range(1, x.shape[ax]), axis=ax)
    .sum(axis=ax),
    "max": lambda x, ax: x.max(axis=ax),
    "min": lambda x, ax: x.min(axis=ax),
    "mul": lambda x, ax: x.prod(axis=ax),
    "abs_max": lambda x, ax: np.abs(x).max(axis=ax),
}


@handles(spyreop.SliceReductionOp)
def _slice_reduction(c: Compiler, op: spyreop.SliceReductionOp) -> Fn:
    a, o = c.slot(op.input), c.slot(op.result)
    kind = str(op.reduction_kind.data.value)
    across = str(op.reduction_scope.data.value) == "across_slice"
    f = _SLICE_REDUCE[kind]
    et = value_type(op.result.type)

    def run(r: list[Any]) -> None:
        x = np.asarray(r[a])
        n = x.shape[0]
        width = min(SLICE_WIDTH, n)
        full = n - n % width
        x32 = x.astype(np.float32)
        slices = x32[:full].reshape(-1, width)
        out = x32.copy()
        if across:
            out[:width] = f(slices, 0)
        else:
            out[0:full:width] = f(slices, 1)
        r[o] = _out(out, et, True)

    return run


@handles(spyreop.SelectOp)
def _select(c: Compiler, op: spyreop.SelectOp) -> Fn:
    return _float_op(c, op, lambda k, t, f: np.where(k != 0, t, f))


_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "equal": np.equal, "notequal": np.not_equal, "greaterthan": np.greater,
    "greaterequal": np.greater_equal, "lesserthan": np.less, "lesserequal": np.less_equal,
}


@handles(spyreop.CompareOp)
def _compare(c: Compiler, op: spyreop.CompareOp) -> Fn:
    f = _COMPARE[op.predicate.data]
    return _float_op(c, op, lambda x, y: f(x, y).astype(np.float32))
