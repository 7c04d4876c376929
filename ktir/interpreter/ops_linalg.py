"""`linalg` on whole numpy arrays: a body op runs once over all points, never per element.

`linalg.generic`: each operand is turned into an array broadcastable over the iteration space
(transposed so its axes follow the loop order, unit axes where its map omits a loop) and the
body's ops run once on those arrays. Reductions are recognised when an output's yielded value
is `combine(out, contribution)` with an associative `combine` (addf, mulf, max/min, integer
add/mul/and/or/xor): the contribution is evaluated over the whole space and folded with one
numpy reduction, or with `einsum` when it is a product of two inputs. Any other reduction body
runs once per reduction point, still vectorised over the parallel loops.

Precision: sums and products of f16/bf16/df16 values, and matmuls of them, accumulate in
float32 and are rounded once to the result type; f32 accumulates in float32 and integers in
their own width (wrapping). max/min are exact. This deviates on purpose from MLIR's letter
for a `linalg.matmul` whose result is f16 (MLIR casts the inputs to the result type and
accumulates in it, rounding every step): one rounding per op is also the emulator's rule
(dataflow-ir.md E11), and ktir-cpu (numpy's float16 matmul, which sums in float32) gave the
same bits on its 64x2048x8192 matmul kernel.
f16 reductions keep the bits of numpy's reduction of the fp16 values (its buffering included).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from ktir import affine
from ktir.dialects import mlir_compat
from ktir.interpreter.core import Compiler, Fn, compile_error, fail, handles
from ktir.interpreter.dtypes import (
    F16_CARRIER,
    ElemType,
    f16_ufunc,
    narrow_f16,
    value_type,
    widen_f16,
)
from ktir.interpreter.ops_arith import rounded
from ktir.semantics import np_tdiv

# combine op -> (numpy ufunc, accumulate narrow floats in float32)
_COMBINERS: dict[type[Operation], tuple[np.ufunc, bool]] = {
    arith.AddfOp: (np.add, True), arith.MulfOp: (np.multiply, True),
    arith.MaximumfOp: (np.maximum, False), arith.MinimumfOp: (np.minimum, False),
    arith.MaxnumfOp: (np.fmax, False), arith.MinnumfOp: (np.fmin, False),
    arith.AddiOp: (np.add, False), arith.MuliOp: (np.multiply, False),
    arith.MaxSIOp: (np.maximum, False), arith.MinSIOp: (np.minimum, False),
    arith.AndIOp: (np.bitwise_and, False), arith.OrIOp: (np.bitwise_or, False),
    arith.XOrIOp: (np.bitwise_xor, False),
}


def _acc_dtype(et: ElemType, widen: bool) -> np.dtype:
    if (widen and et.is_float and et.itemsize < 4) or et.round is not None:
        return np.dtype(np.float32)
    return et.compute


def _reduce(uf: np.ufunc, x: np.ndarray, axes: tuple[int, ...], et: ElemType,
            widen: bool) -> np.ndarray:
    acc = _acc_dtype(et, widen)
    if et is F16_CARRIER:  # the bits of numpy's reduction of the fp16 values
        if uf in (np.add, np.multiply):
            return uf.reduce(narrow_f16(x), axis=axes, dtype=acc)
        red = uf.reduce(x, axis=axes)
        if np.isnan(red).any() or (red == 0).any():  # which NaN or signed zero wins is the
            red = widen_f16(np.asarray(uf.reduce(narrow_f16(x), axis=axes)))  # fp16 loop's
        return red
    if uf in (np.add, np.multiply):
        return uf.reduce(x, axis=axes, dtype=acc)
    return uf.reduce(x.astype(acc, copy=False), axis=axes)


def _wide(v: Any, acc: np.dtype) -> Any:
    return np.asarray(v).astype(acc, copy=False)


def _finish(v: Any, et: ElemType) -> np.ndarray:
    if et.round is not None:  # carriers: f16 rounds float64 once; bf16/df16 via float32
        return et.round(np.asarray(v))
    return v if type(v) is np.ndarray and v.dtype == et.compute else np.asarray(v).astype(
        et.compute)


def _combine(uf: np.ufunc, init: np.ndarray, red: np.ndarray, et: ElemType,
             widen: bool) -> np.ndarray:
    if et is F16_CARRIER and not widen:  # max/min: numpy's fp16 loop
        return f16_ufunc(uf, init, red)
    acc = _acc_dtype(et, widen)
    return _finish(uf(_wide(init, acc), red), et)


# ---------------------------------------------------------------------------- operand plans


def _dims_of(amap: AffineMap) -> list[int] | None:
    """Loop dims of a projected permutation map, else None."""
    dims = []
    for e in amap.results:
        if not isinstance(e, AffineDimExpr):
            return None
        dims.append(e.position)
    return dims if len(set(dims)) == len(dims) else None


class _Operand:
    """How one operand of a generic maps into the iteration space."""

    def __init__(self, amap: AffineMap, n: int):
        self.amap = amap
        self.n = n
        self.dims = _dims_of(amap)
        if self.dims is not None:
            self.order = sorted(range(len(self.dims)), key=lambda j: self.dims[j])  # type: ignore[index]
            self.missing = tuple(k for k in range(n) if k not in self.dims)
            self.identity = self.order == list(range(len(self.dims)))
            present = sorted(self.dims)
            # for loop k: the axis of the (transposed) operand that holds it, or -1
            self.axis_of = [present.index(k) if k in present else -1 for k in range(n)]

    def view(self, arr: np.ndarray, ext: Sequence[int], op: Operation, r: list[Any]) -> Any:
        if self.dims is not None:
            a = arr if self.identity else arr.transpose(self.order)
            if not self.missing:
                return a
            shape = a.shape
            return a.reshape([1 if j < 0 else shape[j] for j in self.axis_of])
        grids = [np.arange(e, dtype=np.int64).reshape(
            [e if j == k else 1 for j in range(self.n)]) for k, e in enumerate(ext)]
        idx = [np.asarray(v) for v in affine.eval_map_np(self.amap, grids)]
        for k, (i, size) in enumerate(zip(idx, arr.shape)):
            if i.size and (i.min() < 0 or i.max() >= size):
                raise fail(op, r, f"indexing map result {k} leaves the operand's bounds "
                           f"[0, {size})")
        return arr[tuple(np.broadcast_arrays(*idx))] if idx else arr


def _extents(op: Operation, r: list[Any], plans: list[_Operand], arrays: list[np.ndarray],
             n: int, cache: dict[tuple[Any, ...], list[int]]) -> list[int]:
    key = tuple(a.shape for a in arrays)
    got = cache.get(key)
    if got is None:
        got = cache[key] = _loop_extents(op, r, plans, arrays, n)
    return got


def _loop_extents(op: Operation, r: list[Any], plans: list[_Operand],
                  arrays: list[np.ndarray], n: int) -> list[int]:
    ext: list[int | None] = [None] * n
    for p, a in zip(plans, arrays):
        for j, e in enumerate(p.amap.results):
            if isinstance(e, AffineDimExpr):
                k = e.position
                if ext[k] is None:
                    ext[k] = a.shape[j]
                elif ext[k] != a.shape[j]:
                    raise fail(op, r, f"loop d{k} has extent {ext[k]} in one operand and "
                               f"{a.shape[j]} in another")
    if any(e is None for e in ext):
        raise fail(op, r, "has a loop whose extent no operand determines")
    return cast(list[int], ext)


def _to_output(y: Any, dims: list[int], ext: Sequence[int], n: int) -> np.ndarray:
    """A loop-ordered value (broadcastable) as an array in an output's own axis order."""
    if dims == list(range(n)) and np.shape(y) == tuple(ext):
        return y
    full = np.broadcast_to(y, tuple(ext[k] if k in dims else 1 for k in range(n)))
    full = full.reshape(tuple(ext[k] for k in sorted(dims)))
    srt = sorted(dims)
    return full.transpose([srt.index(d) for d in dims]) if srt != dims else full


# ---------------------------------------------------------------------------- generic


def _depends_on(v: SSAValue, arg: BlockArgument, block: Block) -> bool:
    if v is arg:
        return True
    owner = v.owner
    if isinstance(owner, Operation) and owner.parent_block() is block:
        return any(_depends_on(o, arg, block) for o in owner.operands)
    return False


def _reduction_form(block: Block, out_arg: BlockArgument, y: SSAValue) -> tuple[
        Operation, SSAValue] | None:
    """(combine op, contribution) when `y = combine(out_arg, contribution)`."""
    owner = y.owner
    if not isinstance(owner, Operation) or type(owner) not in _COMBINERS:
        return None
    a, b = owner.operands
    if a is out_arg and not _depends_on(b, out_arg, block):
        return owner, b
    if b is out_arg and not _depends_on(a, out_arg, block):
        return owner, a
    return None


@handles(linalg.GenericOp)
def _generic(c: Compiler, op: linalg.GenericOp) -> Fn:
    n = len(op.iterator_types.data)
    maps = [m.data for m in op.indexing_maps.data]
    ins, outs = c.slots_of(op.inputs), c.slots_of(op.outputs)
    res = c.slots_of(op.res)
    plans = [_Operand(m, n) for m in maps]
    red_axes = tuple(k for k, it in enumerate(op.iterator_types.data)
                     if it.data == IteratorType.REDUCTION)
    block = op.body.block
    yields = list(cast(linalg.YieldOp, block.last_op).arguments)
    out_args = block.args[len(ins):]
    out_plans = plans[len(ins):]
    out_ets = [value_type(v.type) for v in op.outputs]
    for p in out_plans:
        if p.dims is None:
            raise compile_error(op, "has an output indexing map that is not a projected "
                                "permutation")
        if any(k not in p.dims for k in range(n) if k not in red_axes):
            raise compile_error(op, "has an output that omits a parallel loop")
    index_slot = c.fresh_slot()
    uses_index = any(isinstance(o, linalg.IndexOp) for o in op.body.walk())
    ext_cache: dict[tuple[Any, ...], list[int]] = {}
    c.index_slots.append(index_slot)
    try:
        forms = [_reduction_form(block, a, y) if red_axes else None
                 for a, y in zip(out_args, yields)]
        vectorised = not red_axes or all(f is not None for f in forms)
        skip = {f[0] for f in forms if f is not None}
        body_fns = c.compile_ops([o for o in block.ops if o not in skip
                                  and o is not block.last_op])
        arg_slots = c.slots_of(block.args)
        contrib = [c.slot(f[1]) if f is not None else c.slot(y) for f, y in zip(forms, yields)]
        einsums = [_einsum_form(f, block, len(ins), plans) if f is not None else None
                   for f in forms]
    finally:
        c.index_slots.pop()

    def bind(r: list[Any], arrays: list[np.ndarray], ext: list[int]) -> None:
        for s, p, a in zip(arg_slots, plans, arrays):
            r[s] = p.view(a, ext, op, r)
        if uses_index:
            r[index_slot] = [np.arange(e, dtype=np.int64).reshape(
                [e if j == k else 1 for j in range(n)]) for k, e in enumerate(ext)]

    operands = (*ins, *outs)
    simple = (not red_axes and not uses_index and all(p.dims is not None for p in plans)
              and all(p.dims == list(range(n)) for p in out_plans))
    binds = tuple(zip(arg_slots, operands, plans))
    finals = tuple(zip(res, contrib, out_ets))

    def run_parallel(r: list[Any]) -> None:
        arrays = [r[s] for s in operands]
        ext = tuple(_extents(op, r, plans, arrays, n, ext_cache))
        for s, a, p in binds:
            v = r[a]
            r[s] = v if p.identity and not p.missing else p.view(v, ext, op, r)
        for fn in body_fns:
            fn(r)
        for s, y, et in finals:
            v = r[y]
            if type(v) is not np.ndarray or v.shape != ext:
                v = np.broadcast_to(v, ext)
            r[s] = _finish(v, et)

    if simple:
        return rounded(c, op, run_parallel)

    def run(r: list[Any]) -> None:
        arrays = [r[s] for s in ins] + [r[s] for s in outs]
        ext = _extents(op, r, plans, arrays, n, ext_cache)
        if not vectorised:
            _sequential(r, arrays, ext)
            return
        results: list[Any] = [None] * len(outs)
        pending = []
        for i, (f, es) in enumerate(zip(forms, einsums)):
            if es is not None and f is not None:
                uf, widen = _COMBINERS[type(f[0])]
                init = arrays[len(ins) + i]
                acc = _acc_dtype(out_ets[i], True)
                red = np.einsum(es[0], *(_wide(arrays[j], acc) for j in es[1]))
                results[i] = _combine(uf, init, red, out_ets[i], widen)
            else:
                pending.append(i)
        if pending:
            bind(r, arrays, ext)
            for fn in body_fns:
                fn(r)
        for i in pending:
            dims = cast(list[int], out_plans[i].dims)
            y = r[contrib[i]]
            f = forms[i]
            if f is None:
                results[i] = _finish(_to_output(y, dims, ext, n), out_ets[i])
                continue
            uf, widen = _COMBINERS[type(f[0])]
            full = np.broadcast_to(y, tuple(ext))
            red = _reduce(uf, full, tuple(k for k in range(n) if k not in dims), out_ets[i],
                          widen)
            srt = sorted(dims)
            if srt != dims:
                red = red.transpose([srt.index(d) for d in dims])
            results[i] = _combine(uf, arrays[len(ins) + i], red, out_ets[i], widen)
        for s, v in zip(res, results):
            r[s] = v

    def _sequential(r: list[Any], arrays: list[np.ndarray], ext: list[int]) -> None:
        views = [p.view(a, ext, op, r) for p, a in zip(plans, arrays)]
        par_shape = tuple(1 if k in red_axes else e for k, e in enumerate(ext))
        accs = [np.broadcast_to(v, par_shape) for v in views[len(ins):]]
        ranges = [range(ext[k]) for k in red_axes]
        base_index = [np.arange(e, dtype=np.int64).reshape(
            [e if j == k else 1 for j in range(n)]) for k, e in enumerate(ext)]
        for point in product(*ranges):
            pick = [slice(None)] * n
            for k, i in zip(red_axes, point):
                pick[k] = slice(i, i + 1)
            for s, v in zip(arg_slots, views[: len(ins)]):
                r[s] = v[tuple(slice(None) if v.shape[k] == 1 else pick[k] for k in range(n))]
            for s, a in zip(arg_slots[len(ins):], accs):
                r[s] = a
            idx = list(base_index)
            for k, i in zip(red_axes, point):
                idx[k] = np.full([1] * n, i, dtype=np.int64)
            r[index_slot] = idx
            for fn in body_fns:
                fn(r)
            accs = [np.broadcast_to(r[s], par_shape) for s in contrib]
        for i, (s, a) in enumerate(zip(res, accs)):
            dims = cast(list[int], out_plans[i].dims)
            r[s] = _finish(_to_output(a, dims, ext, n), out_ets[i])

    return rounded(c, op, run)


def _einsum_form(form: tuple[Operation, SSAValue], block: Block, n_ins: int,
                 plans: list[_Operand]) -> tuple[str, list[int]] | None:
    """`out + a * b` with `a`, `b` input block arguments: an einsum contraction."""
    comb, contrib = form
    mul = contrib.owner
    if not isinstance(comb, arith.AddfOp | arith.AddiOp) or not isinstance(
            mul, arith.MulfOp | arith.MuliOp):
        return None
    ops = []
    for v in mul.operands:
        if not isinstance(v, BlockArgument) or v.block is not block or v.index >= n_ins:
            return None
        ops.append(v.index)
    out_arg = comb.operands[0] if comb.operands[1] is contrib else comb.operands[1]
    out_index = cast(BlockArgument, out_arg).index
    letters = "abcdefghijklmnopqrstuvwxyz"
    subs = []
    for i in (*ops, out_index):
        dims = plans[i].dims
        if dims is None or max(dims, default=0) >= len(letters):
            return None
        subs.append("".join(letters[d] for d in dims))
    return f"{subs[0]},{subs[1]}->{subs[2]}", ops


@handles(linalg.IndexOp)
def _index(c: Compiler, op: linalg.IndexOp) -> Fn:
    if not c.index_slots:
        raise compile_error(op, "is only valid inside linalg.generic")
    s, o, d = c.index_slots[-1], c.slot(op.result), op.dim.value.data

    def run(r: list[Any]) -> None:
        r[o] = r[s][d]

    return run


# ---------------------------------------------------------------------------- named ops

_ELEMENTWISE: dict[type[Operation], Any] = {
    linalg.AddOp: np.add, linalg.SubOp: np.subtract, linalg.MulOp: np.multiply,
    mlir_compat.LinalgDivOp: np.divide, linalg.MaxOp: np.maximum, linalg.MinOp: np.minimum,
    linalg.ExpOp: np.exp, linalg.LogOp: np.log, linalg.SqrtOp: np.sqrt,
    linalg.SelectOp: np.where, linalg.CopyOp: lambda x: x,
}


@handles(*_ELEMENTWISE)
def _elementwise(c: Compiler, op: Operation) -> Fn:
    nin = len(cast(Any, op).inputs)
    ins = c.slots_of(op.operands[:nin])
    outs = c.slots_of(cast(Any, op).res)
    if not outs:
        raise compile_error(op, "on memrefs (without results) is not supported by the "
                            "interpreter")
    (o,) = outs
    et = value_type(op.results[0].type)
    f = _ELEMENTWISE[type(op)]
    if type(op) is mlir_compat.LinalgDivOp and not et.is_float:
        f = np_tdiv
    wide = np.float32 if et.is_float and et.itemsize < 4 and type(op) in (
        linalg.ExpOp, linalg.LogOp, linalg.SqrtOp) else None

    f16 = et is F16_CARRIER and f in (np.add, np.subtract, np.multiply, np.divide, np.maximum,
                                      np.minimum)  # numpy's fp16 loops, as before carriers

    def run(r: list[Any]) -> None:
        args = [r[i] for i in ins]
        if f16:
            r[o] = f16_ufunc(f, *args)
            return
        if wide is not None:
            args = [_wide(a, np.dtype(wide)) for a in args]
        if f is np_tdiv and any(np.any(a == 0) for a in args[1:]):
            raise fail(op, r, "divides by zero")
        r[o] = _finish(f(*args), et)

    return run


@handles(linalg.FillOp)
def _fill(c: Compiler, op: linalg.FillOp) -> Fn:
    v, dst, o = c.slot(op.inputs[0]), c.slot(op.outputs[0]), c.slot(op.res[0])
    et = value_type(op.res[0].type)

    def run(r: list[Any]) -> None:
        r[o] = np.full(np.shape(r[dst]), r[v], dtype=et.compute)

    return rounded(c, op, run)


@handles(linalg.BroadcastOp)
def _broadcast(c: Compiler, op: linalg.BroadcastOp) -> Fn:
    a, init, o = c.slot(op.input), c.slot(op.init), c.slot(op.result[0])
    dims = tuple(op.dimensions.get_values())

    def run(r: list[Any]) -> None:
        shape = np.shape(r[init])
        x = r[a]
        out = np.empty(shape, dtype=x.dtype)
        out[...] = x.reshape([1 if k in dims else shape[k] for k in range(len(shape))])
        r[o] = out

    return run


@handles(linalg.TransposeOp)
def _transpose(c: Compiler, op: linalg.TransposeOp) -> Fn:
    a, o = c.slot(op.inputs[0]), c.slot(op.res[0])
    perm = tuple(op.permutation.get_values())

    def run(r: list[Any]) -> None:
        r[o] = np.ascontiguousarray(r[a].transpose(perm))

    return run


def reduce_form(op: linalg.ReduceOp) -> tuple[np.ufunc, bool] | None:
    """(numpy ufunc, widen) when the combiner is one associative op of the two arguments."""
    block = op.region.block
    if len(block.args) != 2:
        return None
    form = _reduction_form(block, block.args[1], cast(
        linalg.YieldOp, block.last_op).arguments[0])
    if form is None or form[1] is not block.args[0]:
        return None
    return _COMBINERS[type(form[0])]


@handles(linalg.ReduceOp)
def _reduce_op(c: Compiler, op: linalg.ReduceOp) -> Fn:
    a, init, o = c.slot(op.input), c.slot(op.init), c.slot(op.result[0])
    axes = tuple(op.dimensions.get_values())
    et = value_type(op.result[0].type)
    form = reduce_form(op)
    if form is not None:
        uf, widen = form

        def run(r: list[Any]) -> None:
            red = _reduce(uf, r[a], axes, et, widen)
            r[o] = _combine(uf, r[init], red, et, widen)

        return run
    body = c.compile_vector_region(op.region)
    x_slot, acc_slot = body.arg_slots

    def run_seq(r: list[Any]) -> None:
        x = np.moveaxis(r[a], axes, tuple(range(len(axes))))
        acc = r[init]
        for point in np.ndindex(*x.shape[: len(axes)]):
            r[x_slot], r[acc_slot] = x[point], acc
            body.run(r)
            acc = np.asarray(body.results(r)[0])
        r[o] = _finish(acc, et)

    return run_seq


def _matmul_spec(op: Operation) -> str | None:
    """The einsum spec of a contraction's indexing maps; None for the plain (batched)
    matmul, which np.matmul computes."""
    letters = "abcdefgh"
    subs = []
    for m in cast(Any, op).indexing_maps.data:
        dims = _dims_of(m.data)
        if dims is None:
            raise compile_error(op, "has an indexing map that is not a projected permutation")
        subs.append("".join(letters[d] for d in dims))
    spec = f"{subs[0]},{subs[1]}->{subs[2]}"
    return None if spec in ("ac,cb->ab", "abd,adc->abc") else spec


def plain_matmul(op: Operation) -> bool:
    return _matmul_spec(op) is None


@handles(linalg.MatmulOp, mlir_compat.LinalgBatchMatmulOp)
def _matmul(c: Compiler, op: Operation) -> Fn:
    a, b = c.slots_of(cast(Any, op).inputs)
    (init,) = c.slots_of(cast(Any, op).outputs)
    outs = c.slots_of(op.results)
    if not outs:
        raise compile_error(op, "on memrefs (without results) is not supported by the "
                            "interpreter")
    (o,) = outs
    et = value_type(cast(TensorType, op.results[0].type))
    acc = _acc_dtype(et, True)
    spec = _matmul_spec(op)

    def run(r: list[Any]) -> None:
        x, y, z = _wide(r[a], acc), _wide(r[b], acc), _wide(r[init], acc)
        prod_ = np.einsum(spec, x, y) if spec is not None else np.matmul(x, y)
        r[o] = _finish(z + prod_, et)

    return run
