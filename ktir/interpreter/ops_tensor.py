"""`tensor` ops on numpy arrays (value semantics: an op never changes its operands).

`tensor.empty` yields zeros: MLIR leaves its contents undefined, and zeros make a kernel that
reads them (for example a matmul accumulating into an empty `outs`) deterministic.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Operation

from ktir.dialects.ktdp_types import int_list
from ktir.interpreter.core import Compiler, Fn, compile_error, fail, fill_dynamic, handles
from ktir.interpreter.dtypes import from_array_item, value_type


def shape_of(t: Any, r: Any = None, dyn: tuple[int, ...] = ()) -> tuple[int, ...]:
    """A tensor type's shape with its `?` dims read, in order, from the registers `dyn`."""
    return fill_dynamic(cast(TensorType, t).get_shape(), r, dyn)


@handles(tensor.EmptyOp)
def _empty(c: Compiler, op: tensor.EmptyOp) -> Fn:
    dyn, o = c.slots_of(op.dynamic_sizes), c.slot(op.tensor)
    et = value_type(op.tensor.type)
    t = op.tensor.type
    if not dyn:
        shape = shape_of(t)

        def run_static(r: list[Any]) -> None:
            r[o] = np.zeros(shape, dtype=et.compute)

        return run_static

    def run(r: list[Any]) -> None:
        r[o] = np.zeros(shape_of(t, r, dyn), dtype=et.compute)

    return run


@handles(tensor.SplatOp)
def _splat(c: Compiler, op: tensor.SplatOp) -> Fn:
    a, dyn, o = c.slot(op.input), c.slots_of(op.dynamicSizes), c.slot(op.result)
    et = value_type(op.result.type)
    t = op.result.type
    static = shape_of(t) if not dyn else None
    dtype = et.compute

    def run(r: list[Any]) -> None:
        shape = static if static is not None else shape_of(t, r, dyn)
        r[o] = np.full(shape, r[a], dtype=dtype)

    return run


@handles(tensor.FromElementsOp)
def _from_elements(c: Compiler, op: tensor.FromElementsOp) -> Fn:
    ins, o = c.slots_of(op.elements), c.slot(op.result)
    et = value_type(op.result.type)
    shape = shape_of(op.result.type)

    def run(r: list[Any]) -> None:
        r[o] = np.array([r[i] for i in ins], dtype=et.compute).reshape(shape)

    return run


def _index(op: Operation, r: list[Any], arr: np.ndarray, idx: tuple[int, ...]) -> None:
    if len(idx) != arr.ndim or any(not 0 <= i < n for i, n in zip(idx, arr.shape)):
        raise fail(op, r, f"index ({', '.join(map(str, idx))}) is out of bounds for a tensor "
                   f"of shape {arr.shape}")


@handles(tensor.ExtractOp)
def _extract(c: Compiler, op: tensor.ExtractOp) -> Fn:
    a, idx, o = c.slot(op.tensor), c.slots_of(op.indices), c.slot(op.result)
    et = value_type(op.result.type)

    def run(r: list[Any]) -> None:
        arr = r[a]
        i = tuple(r[s] for s in idx)
        _index(op, r, arr, i)
        r[o] = from_array_item(arr[i], et)

    return run


@handles(tensor.InsertOp)
def _insert(c: Compiler, op: tensor.InsertOp) -> Fn:
    v, d, idx, o = c.slot(op.scalar), c.slot(op.dest), c.slots_of(op.indices), c.slot(op.result)

    def run(r: list[Any]) -> None:
        arr = r[d]
        i = tuple(r[s] for s in idx)
        _index(op, r, arr, i)
        out = arr.copy()
        out[i] = r[v]
        r[o] = out

    return run


def _slicing(c: Compiler, op: Any) -> Any:
    offs, sizes, strides = c.slots_of(op.offsets), c.slots_of(op.sizes), c.slots_of(op.strides)
    so, ss, st = (int_list(op.static_offsets), int_list(op.static_sizes),
                  int_list(op.static_strides))

    def get(r: list[Any]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return fill_dynamic(so, r, offs), fill_dynamic(ss, r, sizes), fill_dynamic(st, r, strides)

    return get


def _slices(op: Operation, r: list[Any], shape: tuple[int, ...], offs: tuple[int, ...],
            sizes: tuple[int, ...], strides: tuple[int, ...]) -> tuple[slice, ...]:
    out = []
    for k, (n, o, s, st) in enumerate(zip(shape, offs, sizes, strides)):
        last = o + (s - 1) * st
        if s < 0 or st <= 0 or o < 0 or (s > 0 and last >= n):
            raise fail(op, r, f"slice [{o} : {s} : {st}] of dimension {k} is out of bounds for "
                       f"a tensor of shape {shape}")
        out.append(slice(o, o + s * st, st))
    return tuple(out)


def _result_shape(t: Any, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """A possibly rank-reduced result shape. Only unit dims are dropped, and which ones does
    not change the row-major order of the data, so dropping the first ones is enough."""
    drop = len(sizes) - len(cast(TensorType, t).get_shape())
    out = []
    for s in sizes:
        if drop and s == 1:
            drop -= 1
            continue
        out.append(s)
    return tuple(out)


@handles(tensor.ExtractSliceOp)
def _extract_slice(c: Compiler, op: tensor.ExtractSliceOp) -> Fn:
    src, o = c.slot(op.source), c.slot(op.result)
    get = _slicing(c, op)
    rt = op.result.type

    def run(r: list[Any]) -> None:
        arr = r[src]
        offs, sizes, strides = get(r)
        part = arr[_slices(op, r, arr.shape, offs, sizes, strides)]
        r[o] = part.reshape(_result_shape(rt, sizes))

    return run


@handles(tensor.InsertSliceOp)
def _insert_slice(c: Compiler, op: tensor.InsertSliceOp) -> Fn:
    src, dst, o = c.slot(op.source), c.slot(op.dest), c.slot(op.result)
    get = _slicing(c, op)

    def run(r: list[Any]) -> None:
        dest = r[dst]
        offs, sizes, strides = get(r)
        sl = _slices(op, r, dest.shape, offs, sizes, strides)
        out = dest.copy()
        out[sl] = np.reshape(r[src], sizes)
        r[o] = out

    return run


@handles(tensor.CollapseShapeOp, tensor.CastOp)
def _reshape_static(c: Compiler, op: Operation) -> Fn:
    a, o = c.slot(op.operands[0]), c.slot(op.results[0])
    want = cast(TensorType, op.results[0].type).get_shape()

    def run(r: list[Any]) -> None:
        arr = r[a]
        if DYNAMIC_INDEX in want:
            r[o] = arr.reshape(tuple(-1 if d == DYNAMIC_INDEX else d for d in want)) if \
                want.count(DYNAMIC_INDEX) == 1 else arr
        else:
            r[o] = arr.reshape(want)

    return run


def _reshaped(op: Operation, r: list[Any], arr: np.ndarray, shape: tuple[int, ...]
              ) -> np.ndarray:
    if int(np.prod(shape)) != arr.size:
        raise fail(op, r, f"cannot reshape a tensor of shape {arr.shape} into {shape}")
    return arr.reshape(shape)


@handles(tensor.ExpandShapeOp)
def _expand_shape(c: Compiler, op: tensor.ExpandShapeOp) -> Fn:
    a, dyn, o = c.slot(op.src), c.slots_of(op.dynamic_output_shape), c.slot(op.result)
    static = int_list(op.static_output_shape)

    def run(r: list[Any]) -> None:
        r[o] = _reshaped(op, r, r[a], fill_dynamic(static, r, dyn))

    return run


@handles(tensor.ReshapeOp)
def _reshape(c: Compiler, op: tensor.ReshapeOp) -> Fn:
    a, s, o = c.slot(op.source), c.slot(op.shape), c.slot(op.result)

    def run(r: list[Any]) -> None:
        r[o] = _reshaped(op, r, r[a], tuple(int(x) for x in np.asarray(r[s]).reshape(-1)))

    return run


@handles(tensor.DimOp)
def _dim(c: Compiler, op: tensor.DimOp) -> Fn:
    a, k, o = c.slot(op.source), c.slot(op.index), c.slot(op.result)

    def run(r: list[Any]) -> None:
        arr, d = r[a], r[k]
        if not 0 <= d < np.ndim(arr):
            raise fail(op, r, f"asks for dimension {d} of a rank-{np.ndim(arr)} tensor")
        r[o] = int(np.shape(arr)[d])

    return run


@handles(tensor.ConcatOp)
def _concat(c: Compiler, op: tensor.ConcatOp) -> Fn:
    ins, o = c.slots_of(op.inputs), c.slot(op.result)
    dim = op.dim.value.data

    def run(r: list[Any]) -> None:
        r[o] = np.concatenate([r[i] for i in ins], axis=dim)

    return run


@handles(tensor.PadOp)
def _pad(c: Compiler, op: tensor.PadOp) -> Fn:
    src, o = c.slot(op.source), c.slot(op.result)
    lows, highs = c.slots_of(op.low), c.slots_of(op.high)
    sl, sh = int_list(op.static_low), int_list(op.static_high)
    body = c.compile_region(op.region)
    if any(a.uses for a in op.region.block.args):
        raise compile_error(op, "with a padding value that depends on the position is not "
                            "supported by the interpreter")

    def run(r: list[Any]) -> None:
        body.run(r)
        (value,) = body.results(r)
        lo, hi = fill_dynamic(sl, r, lows), fill_dynamic(sh, r, highs)
        arr = r[src]
        r[o] = np.pad(arr, list(zip(lo, hi)), constant_values=value).astype(arr.dtype)

    return run
