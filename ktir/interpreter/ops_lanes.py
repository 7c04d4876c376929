"""Lane-aware handlers of `scf`, `tensor` and `linalg` (see `lanes.py`): control flow whose
bounds or conditions differ between lanes runs masked (a lane past its loop's end or on the
other side of a branch executes but keeps its values and stores nothing), and ops with axes
shift them past the lane axis. Each keeps the tile-by-tile closure for the case where nothing
varies, so uniform code runs exactly as it does tile by tile; the element-wise ops of `arith`,
`math` and `linalg` take lane axes as they are (numpy broadcasting).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation

from ktir.dialects import mlir_compat
from ktir.interpreter import ops_arith, ops_linalg, ops_scf, ops_tensor
from ktir.interpreter.core import (
    LANE_TRANSPARENT,
    Compiler,
    Fn,
    compile_error,
    lanes_handles,
)
from ktir.interpreter.dtypes import value_type
from ktir.interpreter.lanes import (
    LaneAbort,
    LanesContext,
    both_closures,
    merge,
    per_lane,
    scalar_of,
    tile_closure,
    value_rank,
)

# ---------------------------------------------------------------------------- scf


def _trips(lb: Any, ub: Any, step: Any) -> np.ndarray:
    """Each lane's trip count (LaneAbort on a step the tile-by-tile run rejects)."""
    if np.any(np.asarray(step) <= 0):
        raise LaneAbort
    return np.maximum(0, -((np.asarray(lb) - np.asarray(ub)) // np.asarray(step)))


def _kinds(values: Any) -> list[tuple[int | None, Any]]:
    return [(value_rank(v.type), _elem(v.type)) for v in values]


def _elem(t: Any) -> Any:
    try:
        return value_type(t)
    except Exception:
        return None


@lanes_handles(scf.ForOp)
def _for(c: Compiler, op: scf.ForOp) -> Fn:
    body = c.compile_region(op.body)
    uniform = ops_scf.for_loop(c, op, body)  # bounds the same on every lane
    lb, ub, st = c.slot(op.lb), c.slot(op.ub), c.slot(op.step)
    inits, outs = c.slots_of(op.iter_args), c.slots_of(op.res)
    iv, carried, ys = body.arg_slots[0], body.arg_slots[1:], body.term_slots
    fns = body.fns
    kinds = _kinds(op.res)

    def run(r: list[Any]) -> None:
        lo, hi, step = r[lb], r[ub], r[st]
        if type(lo) is not np.ndarray and type(hi) is not np.ndarray and \
                type(step) is not np.ndarray:
            uniform(r)
            return
        ctx: LanesContext = r[0]
        outer = ctx.active
        trips = np.broadcast_to(_trips(lo, hi, step), (ctx.lanes,))
        if outer is not None:
            trips = np.where(outer, trips, 0)
        longest = int(trips.max())
        shortest = int(trips.min() if outer is None else trips[outer].min(initial=0))
        vals = [r[i] for i in inits]
        try:
            for i in range(longest):
                r[iv] = lo + i * step
                for s, v in zip(carried, vals):
                    r[s] = v
                if i >= shortest:  # some lanes are done: they keep their values
                    ctx.active = trips > i
                for f in fns:
                    f(r)
                new = [r[y] for y in ys]
                if i >= shortest:
                    new = [merge(cast(np.ndarray, ctx.active), n, v, k, et, ctx.lanes)
                           for n, v, (k, et) in zip(new, vals, kinds)]
                vals = new
        finally:
            ctx.active = outer
        for s, v in zip(outs, vals):
            r[s] = v

    return run


def _split(ctx: LanesContext, cond: Any) -> bool | np.ndarray:
    """A condition: the bool every live lane agrees on, or the mask of lanes where it holds."""
    if type(cond) is not np.ndarray:
        return bool(cond)
    mask = np.broadcast_to(cond.astype(bool), (ctx.lanes,))
    live = mask if ctx.active is None else mask[ctx.active]
    if live.all():
        return True
    if not live.any():
        return False
    return mask


@lanes_handles(scf.IfOp)
def _if(c: Compiler, op: scf.IfOp) -> Fn:
    k = c.slot(op.cond)
    then = c.compile_region(op.true_region)
    other = c.compile_region(op.false_region) if op.false_region.blocks else None
    outs = c.slots_of(op.output)
    kinds = _kinds(op.output)

    def branch(r: list[Any], body: Any) -> list[Any]:
        for f in body.fns:
            f(r)
        return [r[y] for y in body.term_slots]

    def run(r: list[Any]) -> None:
        ctx: LanesContext = r[0]
        how = _split(ctx, r[k])
        if how is True or how is False:
            body = then if how else other
            if body is not None:
                for s, v in zip(outs, branch(r, body)):
                    r[s] = v
            return
        mask = cast(np.ndarray, how)
        outer = ctx.active
        try:
            ctx.active = mask if outer is None else mask & outer
            yes = branch(r, then)
            if other is not None:
                ctx.active = ~mask if outer is None else ~mask & outer
                no = branch(r, other)
            else:
                no = []
        finally:
            ctx.active = outer
        for s, y, n, (kk, et) in zip(outs, yes, no, kinds):
            r[s] = merge(mask, y, n, kk, et, ctx.lanes)

    return run


def _agreed(r: list[Any], v: Any) -> Any:
    """The value every live lane agrees on (LaneAbort when they do not)."""
    if type(v) is not np.ndarray:
        return v
    active = r[0].active
    return scalar_of(v if active is None else v[active])


@lanes_handles(scf.IndexSwitchOp)
def _index_switch(c: Compiler, op: scf.IndexSwitchOp) -> Fn:
    k = c.slot(op.arg)
    cases = {int(v): c.compile_region(reg)
             for v, reg in zip(op.cases.get_values(), op.case_regions)}
    default = c.compile_region(op.default_region)
    return ops_scf._run_chosen(c.slots_of(op.output), [default, *cases.values()],
                               lambda r: cases.get(_agreed(r, r[k]), default))


@lanes_handles(scf.WhileOp)
def _while(c: Compiler, op: scf.WhileOp) -> Fn:
    inits, outs = c.slots_of(op.arguments), c.slots_of(op.res)
    before, after = c.compile_region(op.before_region), c.compile_region(op.after_region)
    cond_op = before.term
    if not isinstance(cond_op, scf.ConditionOp):
        raise compile_error(op, "expects its 'before' region to end in scf.condition")
    k, fwd = c.slot(cond_op.condition), c.slots_of(cond_op.args)
    kinds = _kinds(op.res)

    def run(r: list[Any]) -> None:
        ctx: LanesContext = r[0]
        outer = ctx.active
        vals = [r[i] for i in inits]
        result: list[Any] | None = None  # what each lane forwarded when it left
        try:
            while True:
                ops_scf._bind(before, r, vals)
                before.run(r)
                forwarded = [r[s] for s in fwd]
                how = _split(ctx, r[k])
                if how is True:
                    leaving = None
                elif how is False:
                    leaving = ctx.active  # every live lane (None: all)
                else:
                    mask = cast(np.ndarray, how)
                    leaving = ~mask if ctx.active is None else ~mask & ctx.active
                if how is not True:
                    if result is None or leaving is None:
                        result = forwarded
                    else:
                        result = [merge(leaving, n, v, kk, et, ctx.lanes)
                                  for n, v, (kk, et) in zip(forwarded, result, kinds)]
                if how is False:
                    break
                if how is not True:
                    ctx.active = mask if ctx.active is None else mask & ctx.active
                ops_scf._bind(after, r, forwarded)
                after.run(r)
                vals = after.results(r)  # lanes that left keep theirs in `result`
        finally:
            ctx.active = outer
        for s, v in zip(outs, result or []):
            r[s] = v

    return run


@lanes_handles(scf.ExecuteRegionOp)
def _execute_region(c: Compiler, op: scf.ExecuteRegionOp) -> Fn:
    return ops_scf._execute_region(c, op)


# ---------------------------------------------------------------------------- tensor


def _lanes_shape(v: Any, rank: int) -> tuple[int, ...] | None:
    """The lane count of a varying tensor, else None."""
    return v.shape[:1] if type(v) is np.ndarray and v.ndim == rank + 1 else None


@lanes_handles(tensor.SplatOp)
def _splat(c: Compiler, op: tensor.SplatOp) -> Fn:
    fn, each = both_closures(c, op, ops_tensor._splat)
    a, dyn, o = c.slot(op.input), c.slots_of(op.dynamicSizes), c.slot(op.result)
    dtype = value_type(op.result.type).compute

    def run(r: list[Any]) -> None:
        v = r[a]
        if any(type(r[s]) is np.ndarray for s in dyn):
            each(r)
            return
        if type(v) is not np.ndarray:
            fn(r)
            return
        fn_shape = ops_tensor.shape_of(op.result.type, r, dyn)
        out = np.empty((len(v), *fn_shape), dtype=dtype)
        out[...] = v.reshape((len(v),) + (1,) * len(fn_shape))
        r[o] = out

    return run


@lanes_handles(tensor.ExtractOp)
def _extract(c: Compiler, op: tensor.ExtractOp) -> Fn:
    each = per_lane(c, op, tile_closure(c, op, ops_tensor._extract))
    a, idx, o = c.slot(op.tensor), c.slots_of(op.indices), c.slot(op.result)
    rank = len(cast(TensorType, op.tensor.type).get_shape())

    def run(r: list[Any]) -> None:
        arr = r[a]
        if any(type(r[s]) is np.ndarray for s in idx) or _lanes_shape(arr, rank) is None:
            each(r)
            return
        i = tuple(r[s] for s in idx)
        ops_tensor._index(op, r, arr[0], i)
        r[o] = arr[(slice(None), *i)].copy()

    return run


@lanes_handles(tensor.CollapseShapeOp, tensor.CastOp, tensor.ExpandShapeOp)
def _reshape(c: Compiler, op: Operation) -> Fn:
    per_tile = ops_tensor._expand_shape if isinstance(op, tensor.ExpandShapeOp) else \
        ops_tensor._reshape_static
    fn, each = both_closures(c, op, per_tile)
    a, o = c.slot(op.operands[0]), c.slot(op.results[0])
    rank = len(cast(TensorType, op.operands[0].type).get_shape())
    want = tuple(cast(TensorType, op.results[0].type).get_shape())
    static = all(d >= 0 for d in want)

    def run(r: list[Any]) -> None:
        arr = r[a]
        lanes = _lanes_shape(arr, rank)
        if lanes is None:
            fn(r)
        elif static:
            r[o] = arr.reshape((*lanes, *want))
        else:
            each(r)

    return run


# ---------------------------------------------------------------------------- linalg


@lanes_handles(linalg.FillOp)
def _fill(c: Compiler, op: linalg.FillOp) -> Fn:
    fn, each = both_closures(c, op, ops_linalg._fill)
    v, dst = c.slot(op.inputs[0]), c.slot(op.outputs[0])
    rank = len(cast(TensorType, op.outputs[0].type).get_shape())

    def run(r: list[Any]) -> None:
        if type(r[v]) is np.ndarray or _lanes_shape(r[dst], rank) is not None:
            each(r)
            return
        fn(r)

    return run


@lanes_handles(linalg.TransposeOp)
def _transpose(c: Compiler, op: linalg.TransposeOp) -> Fn:
    fn = tile_closure(c, op, ops_linalg._transpose)
    a, o = c.slot(op.inputs[0]), c.slot(op.res[0])
    perm = tuple(op.permutation.get_values())
    rank = len(perm)

    def run(r: list[Any]) -> None:
        x = r[a]
        if _lanes_shape(x, rank) is None:
            fn(r)
            return
        r[o] = np.ascontiguousarray(x.transpose((0, *(p + 1 for p in perm))))

    return run


@lanes_handles(linalg.BroadcastOp)
def _broadcast(c: Compiler, op: linalg.BroadcastOp) -> Fn:
    fn, each = both_closures(c, op, ops_linalg._broadcast)
    a, init, o = c.slot(op.input), c.slot(op.init), c.slot(op.result[0])
    dims = tuple(op.dimensions.get_values())
    in_rank = len(cast(TensorType, op.input.type).get_shape())
    out_rank = len(cast(TensorType, op.init.type).get_shape())

    def run(r: list[Any]) -> None:
        x = r[a]
        if _lanes_shape(r[init], out_rank) is not None:
            each(r)
            return
        lanes = _lanes_shape(x, in_rank)
        if lanes is None:
            fn(r)
            return
        shape = np.shape(r[init])
        out = np.empty((*lanes, *shape), dtype=x.dtype)
        out[...] = x.reshape((*lanes, *(1 if k in dims else shape[k] for k in range(
            len(shape)))))
        r[o] = out

    return run


@lanes_handles(linalg.ReduceOp)
def _reduce(c: Compiler, op: linalg.ReduceOp) -> Fn:
    each = per_lane(c, op, tile_closure(c, op, ops_linalg._reduce_op))
    a, init, o = c.slot(op.input), c.slot(op.init), c.slot(op.result[0])
    axes = tuple(op.dimensions.get_values())
    rank = len(cast(TensorType, op.input.type).get_shape())
    form = ops_linalg.reduce_form(op)
    et = value_type(op.result[0].type)

    def run(r: list[Any]) -> None:
        x = r[a]
        if form is None or _lanes_shape(x, rank) is None:
            each(r)
            return
        uf, widen = form
        red = ops_linalg._reduce(uf, x, tuple(k + 1 for k in axes), et, widen)
        r[o] = ops_linalg._combine(uf, r[init], red, et, widen)

    return run


@lanes_handles(linalg.MatmulOp, mlir_compat.LinalgBatchMatmulOp)
def _matmul(c: Compiler, op: Operation) -> Fn:
    fn = tile_closure(c, op, ops_linalg._matmul)
    if not ops_linalg.plain_matmul(op):
        return per_lane(c, op, fn)
    return fn  # np.matmul broadcasts a lane axis on either operand and the accumulator



# ---------------------------------------------------------------------------- as they are


@lanes_handles(arith.ConstantOp)
def _constant(c: Compiler, op: arith.ConstantOp) -> Fn:
    return ops_arith._constant(c, op)


# element-wise: numpy broadcasting pairs a uniform (A, B) operand with a varying (T, A, B)
LANE_TRANSPARENT.update({
    *ops_arith._FLOAT_BINARY, arith.NegfOp, arith.CmpfOp, arith.SelectOp, arith.CmpiOp,
    *ops_arith._INT_SCALAR, *ops_arith._UNSIGNED, arith.ShLIOp, arith.ShRSIOp, arith.ShRUIOp,
    *ops_arith._SIGNED_CASTS, *ops_arith._UNSIGNED_CASTS, arith.BitcastOp,
    *ops_arith._MATH_UNARY, mathd.FmaOp, mathd.FPowIOp, mathd.AbsIOp, mathd.CtPopOp,
    mathd.CountLeadingZerosOp, mathd.CountTrailingZerosOp, mathd.IPowIOp,
    *ops_linalg._ELEMENTWISE,
})
