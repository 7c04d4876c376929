"""`normalize-tile-loops`: an `scf.for` whose bounds depend on the compute tile id, but whose
trip count does not, counts iterations instead.

Loops run on the host, once for all tiles (compute-group-extraction keeps them there and
calls the groups inside them), so their bounds must be the same on every tile. Triton-style
kernels stride by the tile id (`scf.for %row = %start to %end` with `%start = %pid * 4`,
`%end = %start + 4`): the bounds differ, the number of iterations does not. Such a loop
becomes a loop over the iteration number `%k` from 0 to that count, and its index is
recomputed in the body (`%row = %start + %k * %step`), where the groups see it as index
arithmetic on the tile id:

    scf.for %row = %start to %end step %c1 { ... %row ... }
becomes
    scf.for %k = %c0 to %c4 step %c1 { %row = arith.addi %start, (arith.muli %k, %c1) ... }

The count is taken over every tile of the grid, with the bounds evaluated as the interpreter
evaluates them (`%end = min(%start + 2, %rows)` via `select` included) and its iterations
`range(lb, ub, step)`.

A loop whose count differs between tiles (1151 rows on 32 tiles: 36 on tiles 0..30, 35 on
tile 31) runs the largest count on every tile when the iterations past a tile's own count
change nothing: the loop carries no values, and every store in its body (nested loops
included) then writes a tile that lies wholly outside its view's coordinate set, so KTIR's
masking (ktir.md §4.2) drops it; loads there read the padding 0. Proven per tile and per extra
iteration: some dimension of the stored tile has a subscript that is affine in the loop index
and the tile id only, and the tile's extent along it misses the view's bounds. The scheduler
masks these transfers like any tile it cannot prove inside its view (scheduler/analysis/
masks.py). The body may hold nothing else with effects. A loop that fails this, or whose
bounds depend on more than the tile id and constants, is left alone: the legality check says
why it is refused (`tail_refusal`).
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.traits import (
    IsTerminator,
    RecursiveMemoryEffect,
    is_side_effect_free,
)

from ktir import affine
from ktir.diagnostics import op_location
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import int_list, kernel_grid
from ktir.interpreter.probe import AddressProbe, NotEvaluable
from scheduler.analysis.index_exprs import IndexExprs
from scheduler.rewriting import apply_patterns, count_iterations


def _kernel(op: Operation) -> func.FuncOp | None:
    p = op.parent_op()
    while p is not None and not isinstance(p, func.FuncOp):
        p = p.parent_op()
    return p


def _tile_bounds(loop: scf.ForOp) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(lb, ub, step) of the loop on each tile (by linear tile id), or None (see below)."""
    fn = _kernel(loop)
    if fn is None or not isinstance(loop.lb.type, IndexType):
        return None
    grid = kernel_grid(fn) or (1,)
    probe = AddressProbe(fn, grid, {}, set())
    try:
        lb, ub, step = (probe.eval(v) for v in (loop.lb, loop.ub, loop.step))
    except NotEvaluable:
        return None
    n = math.prod(grid)
    vals = []
    for sample in (lb, ub, step):
        if any(d != 1 for d in sample.value.shape[1:]):
            return None  # depends on a loop index
        vals.append(np.broadcast_to(sample.value.reshape(-1), (n,)))
    if np.any(vals[2] <= 0):
        return None
    return vals[0], vals[1], vals[2]


def tile_trip_counts(loop: scf.ForOp) -> dict[int, int] | None:
    """Trip count of the loop on each tile (by linear tile id), or None when its bounds read
    more than tile ids and constants (arguments, other loops' indices, loaded data) or a step
    is not positive. Bounds are evaluated as the interpreter does (its AddressProbe:
    `select`, `cmpi`, min/max and divisions included)."""
    got = _tile_bounds(loop)
    if got is None:
        return None
    lb, ub, step = got
    counts = np.maximum(-((lb - ub) // step), 0)
    return {t: int(c) for t, c in enumerate(counts)}


def _tile_coords(op: Operation, t: int) -> dict[SSAValue, int]:
    """The values of every tile-id result in the kernel of `op` on linear tile `t`."""
    fn = _kernel(op)
    grid = (kernel_grid(fn) if fn is not None else None) or (1,)
    out: dict[SSAValue, int] = {}
    for o in fn.walk() if fn is not None else ():
        if isinstance(o, ktdp.GetComputeTileIdOp):
            if len(o.ids) == 1:
                out[o.ids[0]] = t
                continue
            stride = 1
            for r, d in zip(o.ids, grid):
                out[r] = (t // stride) % d
                stride *= d
    return out


def _view_bounds(view: ktdp.ConstructMemoryViewOp, exprs: IndexExprs
                 ) -> list[tuple[int | None, int | None]]:
    """Inclusive bounds per dimension of the view's coordinate set (its symbols, the dynamic
    sizes, where they are constants), clipped to its static shape."""
    syms = [exprs.constant(v) for v in view.sizes]
    aset = view.coordinate_set.data
    bounds = affine.dim_bounds(aset, syms[:aset.num_symbols] if aset.num_symbols else None)
    sizes = int_list(view.static_sizes)
    out: list[tuple[int | None, int | None]] = []
    for (lo, hi), s in zip(bounds, sizes):
        if s != DYNAMIC_INDEX:
            lo = 0 if lo is None else max(lo, 0)
            hi = s - 1 if hi is None else min(hi, s - 1)
        out.append((lo, hi))
    return out


def _store_refusal(store: ktdp.StoreOp, loop: scf.ForOp,
                   extra: dict[int, list[int]]) -> str | None:
    """Why a store in the body may write in an extra iteration (loop index values `extra`
    per tile), or None when its tile lies outside its view in all of them."""
    tile = store.tile.owner
    if not isinstance(tile, ktdp.ConstructAccessTileOp) or \
            not isinstance(view := tile.base.owner, ktdp.ConstructMemoryViewOp):
        return "a store whose tile is not a ktdp.construct_access_tile of a memory view"
    exprs = IndexExprs()
    iv = loop.body.block.args[0]
    args = [exprs.expr(v) for v in tile.indices]
    if any(a is None for a in args):
        return "a store whose subscripts are not affine"
    tbounds = affine.dim_bounds(tile.access_tile_set.data)
    vbounds = _view_bounds(view, exprs)
    coords_of = {t: _tile_coords(loop, t) for t in extra}
    for d, sub in enumerate(tile.base_map.data.results):
        e = sub.replace_dims_and_symbols(args, [])  # type: ignore[arg-type]
        used = [i for i, r in enumerate(exprs.roots) if _uses_dim(e, i)]
        roots = [exprs.roots[i] for i in used]
        if any(r is not iv and not isinstance(r.owner, ktdp.GetComputeTileIdOp)
               for r in roots):
            continue
        (blo, bhi), (vlo, vhi) = tbounds[d], vbounds[d]
        if blo is None or bhi is None:
            continue
        fmap = AffineMap(len(exprs.roots), 0, (e,))
        outside = True
        for t, ivs in extra.items():
            for v in ivs:
                vals = [v if r is iv else coords_of[t].get(r, 0) for r in exprs.roots]
                c = fmap.eval(vals, [])[0]
                if not ((vhi is not None and c + blo > vhi) or
                        (vlo is not None and c + bhi < vlo)):
                    outside = False
                    break
            if not outside:
                break
        if outside:
            return None
    return (f"the store at {_where(store)} is not proven to write outside its view in those "
            "iterations (no dimension whose subscript depends only on the loop index and the "
            "tile id leaves the view's coordinate set)")


def _uses_dim(e: AffineExpr, i: int) -> bool:
    if isinstance(e, AffineDimExpr):
        return e.position == i
    if isinstance(e, AffineBinaryOpExpr):
        return _uses_dim(e.lhs, i) or _uses_dim(e.rhs, i)
    return False


def _where(op: Operation) -> str:
    loc = op_location(op)
    return f"line {loc[1]}" if loc is not None else op.name


_VALUE_DIALECTS = ("arith", "math", "tensor", "linalg", "spyreop")


def _on_values(op: Operation) -> bool:
    """An op on tensors and scalars only (linalg on tensors has no effect trait in xDSL)."""
    return op.dialect_name() in _VALUE_DIALECTS and not any(
        isinstance(v.type, MemRefType) for v in (*op.operands, *op.results))


def tail_refusal(loop: scf.ForOp) -> str | None:
    """For a loop whose trip count differs between tiles: why running the largest count on
    every tile is not sound (see the module docstring), or None when it is."""
    got = _tile_bounds(loop)
    if got is None:
        return "its bounds depend on more than the tile id and constants"
    lb, ub, step = got
    counts = np.maximum(-((lb - ub) // step), 0)
    top = int(counts.max())
    if loop.results:
        return "it carries values (iter_args), which the extra iterations would change"
    extra = {t: [int(lb[t] + k * step[t]) for k in range(int(c), top)]
             for t, c in enumerate(counts) if c < top}
    for op in loop.body.walk():
        if isinstance(op, ktdp.LoadOp):
            continue
        if isinstance(op, ktdp.StoreOp):
            why = _store_refusal(op, loop, extra)
            if why is not None:
                return why
            continue
        if op.has_trait(RecursiveMemoryEffect) or op.has_trait(IsTerminator) or \
                is_side_effect_free(op) or _on_values(op):
            continue
        return f"its body holds '{op.name}', whose effects the extra iterations would repeat"
    return None


class NormalizeTileLoop(RewritePattern):
    """A tile-dependent loop with one trip count on every tile: iterate 0..count."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, loop: scf.ForOp, rewriter: PatternRewriter) -> None:
        exprs = IndexExprs()
        if not any(exprs.depends_on_tile_id(v) for v in (loop.lb, loop.ub, loop.step)):
            return
        counts = tile_trip_counts(loop)
        if counts is None:
            return
        if len(set(counts.values())) != 1 and tail_refusal(loop) is not None:
            return
        count_iterations(loop, max(counts.values()), rewriter)


class NormalizeTileLoopsPass(ModulePass):
    """Loops over tile-strided ranges count iterations (see the module docstring).

    Before:  scf.for %r = %start to %end step %c1 { ... }    (%start = %pid * 4, %end = %start + 4)
    After:   scf.for %k = %c0 to %c4 step %c1 { %r = arith.addi %start, (%k * %c1) ... }
    Idempotent: a normalized loop's bounds are constants.
    """

    name = "normalize-tile-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [NormalizeTileLoop()])
