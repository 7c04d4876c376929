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
`range(lb, ub, step)`. A loop whose count differs between tiles, or whose bounds depend on
more than the tile id and constants, is left alone: the legality check says why it is refused.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.dialects.ktdp_types import kernel_grid
from ktir.interpreter.probe import AddressProbe, NotEvaluable
from scheduler.analysis.index_exprs import IndexExprs, index_constant
from scheduler.rewriting import apply_patterns


def _kernel(op: Operation) -> func.FuncOp | None:
    p = op.parent_op()
    while p is not None and not isinstance(p, func.FuncOp):
        p = p.parent_op()
    return p


def tile_trip_counts(loop: scf.ForOp) -> dict[int, int] | None:
    """Trip count of the loop on each tile (by linear tile id), or None when its bounds read
    more than tile ids and constants (arguments, other loops' indices, loaded data) or a step
    is not positive. Bounds are evaluated as the interpreter does (its AddressProbe:
    `select`, `cmpi`, min/max and divisions included)."""
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
    counts = np.maximum(-((vals[0] - vals[1]) // vals[2]), 0)
    return {t: int(c) for t, c in enumerate(counts)}


class NormalizeTileLoop(RewritePattern):
    """A tile-dependent loop with one trip count on every tile: iterate 0..count."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, loop: scf.ForOp, rewriter: PatternRewriter) -> None:
        exprs = IndexExprs()
        if not any(exprs.depends_on_tile_id(v) for v in (loop.lb, loop.ub, loop.step)):
            return
        counts = tile_trip_counts(loop)
        if counts is None or len(set(counts.values())) != 1:
            return
        (count,) = set(counts.values())
        c0, cn, c1 = index_constant(0), index_constant(count), index_constant(1)
        rewriter.insert_op([c0, cn, c1], InsertPoint.before(loop))
        body = loop.body.block
        k = body.args[0]
        uses = tuple(k.uses)
        scaled = arith.MuliOp(k, loop.step)
        iv = arith.AddiOp(loop.lb, scaled)
        iv.result.name_hint = k.name_hint
        k.name_hint = "k"
        for use in uses:
            use.operation.operands[use.index] = iv.result
            rewriter.notify_op_modified(use.operation)
        rewriter.insert_op([scaled, iv], InsertPoint.at_start(body))
        new: list[SSAValue] = [c0.result, cn.result, c1.result]
        for i, v in enumerate(new):
            loop.operands[i] = v
        rewriter.notify_op_modified(loop)


class NormalizeTileLoopsPass(ModulePass):
    """Loops over tile-strided ranges count iterations (see the module docstring).

    Before:  scf.for %r = %start to %end step %c1 { ... }    (%start = %pid * 4, %end = %start + 4)
    After:   scf.for %k = %c0 to %c4 step %c1 { %r = arith.addi %start, (%k * %c1) ... }
    Idempotent: a normalized loop's bounds are constants.
    """

    name = "normalize-tile-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [NormalizeTileLoop()])
