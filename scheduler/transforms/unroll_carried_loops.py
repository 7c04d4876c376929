"""`unroll-carried-loops`: an `scf.for` with loop-carried values (`iter_args`) is unrolled.

A loop runs on the host and calls the compute groups in its body (compute-group-extraction);
a group is a program of its own, so a tensor carried from one iteration to the next would
have to outlive the program that computed it. Unrolled, the carried values are ordinary SSA
values and the iterations' loads, compute and stores form groups like straight-line code:

    %s = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %z) -> (tensor<4xf32>) {
      %n = arith.addf %acc, %one : tensor<4xf32>
      scf.yield %n : tensor<4xf32> }
becomes
    %i = arith.constant 0 : index
    %n = arith.addf %z, %one : tensor<4xf32>
    %i_1 = arith.constant 1 : index
    %n_1 = arith.addf %n, %one : tensor<4xf32>        (%s is %n_1)

A loop without iter_args is unrolled as well when its body reads a value computed outside it
from loaded data (layer norm's loop over column blocks reading the row's mean and rstd): left
on the host, every group it calls would load the row and compute the statistics again; in
line, the blocks join the statistics' group, which reads the row from device memory once.
And when its body tiles a distributed view at the loop index (each iteration meets other
pieces: split-distributed-views splits each at its constant coordinates).

The trip count must be known at compile time (bounds that are constants, after
`--arg` binding and normalize-tile-loops) and at most MAX_TRIPS; iterations follow the
interpreter's `range(lb, ub, step)`. Nested carried loops unroll from the outside in (an inner
loop's bounds may read the outer index). A loop that cannot be unrolled is left alone: the
legality check says why it is refused.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.dialects import ktdp
from scheduler.analysis.index_exprs import IndexExprs
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns

MAX_TRIPS = 64  # iterations of one loop unrolled
# a loop that stays on the host, one group call an iteration (reduction-dim-chunking's loops
# over chunks: in line, every chunk would keep a scratchpad buffer of its own)
HOST_LOOP_ATTR = "ktdf.host_loop"


def trip_range(loop: scf.ForOp) -> range | None:
    """The loop's index values when its bounds are compile-time constants and its step is
    positive, else None."""
    if isinstance(loop.lb.type, IndexType):
        exprs = IndexExprs()
        lb, ub, step = (exprs.constant(v) for v in (loop.lb, loop.ub, loop.step))
    else:
        lb, ub, step = (const_int(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return range(lb, ub, step)


def reads_loaded_value(loop: scf.ForOp) -> bool:
    """Whether the body reads a value computed outside the loop from loaded data (a row's
    mean): left a host loop, every group it calls would load and compute that value again."""
    seen: set[SSAValue] = set()
    stack = [v for o in loop.body.walk() for v in o.operands
             if isinstance(v.owner, Operation) and not loop.is_ancestor(v.owner)]
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        owner = v.owner
        if isinstance(owner, ktdp.LoadOp):
            return True
        if isinstance(owner, Operation):
            stack.extend(w for o in owner.walk() for w in o.operands)
    return False


def tiles_distributed_view(loop: scf.ForOp) -> bool:
    """Whether the body takes a tile of a distributed view at coordinates that are not
    constants (the loop index): split-distributed-views needs each iteration's coordinates
    to know which pieces the tile meets."""
    return any(isinstance(o, ktdp.ConstructAccessTileOp)
               and isinstance(o.base.owner, ktdp.ConstructDistributedMemoryViewOp)
               and any(const_int(v) is None for v in o.indices)
               for o in loop.body.walk())


def _unrollable(op: Operation) -> range | None:
    if not isinstance(op, scf.ForOp) or HOST_LOOP_ATTR in op.attributes or not (
            op.iter_args or reads_loaded_value(op) or tiles_distributed_view(op)):
        return None
    trips = trip_range(op)
    return trips if trips is not None and len(trips) <= MAX_TRIPS else None


def unroll(loop: scf.ForOp, trips: range, rewriter: PatternRewriter) -> None:
    """Replace the loop by its iterations, in place."""
    where = InsertPoint.before(loop)
    values: list[SSAValue] = list(loop.iter_args)
    iv = loop.body.block.args[0]
    for i in trips:
        c = arith.ConstantOp(IntegerAttr(i, iv.type))  # type: ignore[arg-type]
        c.result.name_hint = iv.name_hint
        c.location = loop.location
        rewriter.insert(c, where)
        body = loop.body.clone().block
        yield_op = body.last_op
        assert isinstance(yield_op, scf.YieldOp)
        rewriter.inline_block(body, where, [c.result, *values])
        values = list(yield_op.operands)
        rewriter.erase(yield_op)
    for old, new in zip(loop.res, values, strict=True):
        rewriter.replace_all_uses_with(old, new)
    rewriter.erase(loop)


class UnrollCarriedLoop(RewritePattern):
    """A loop with iter_args and a known trip count: its iterations in line, then the
    carried loops that unrolling made unrollable (an inner loop bounded by the outer index)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, loop: scf.ForOp, rewriter: PatternRewriter) -> None:
        trips = _unrollable(loop)
        if trips is None:
            return
        block = loop.parent_block()
        assert block is not None
        unroll(loop, trips, rewriter)
        while True:
            found = next(((o, t) for top in block.ops for o in top.walk()
                          if (t := _unrollable(o)) is not None), None)
            if found is None:
                return
            unroll(found[0], found[1], rewriter)


class UnrollCarriedLoopsPass(ModulePass):
    """Unroll every `scf.for` with iter_args whose trip count is a constant of at most
    MAX_TRIPS (see the module docstring).

    Before:  %s = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %z) { ...; scf.yield %n }
    After:   the body twice, the second reading the first's %n; %s's uses read the last %n
    Idempotent: no unrollable loop is left.
    """

    name = "unroll-carried-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [UnrollCarriedLoop()])
