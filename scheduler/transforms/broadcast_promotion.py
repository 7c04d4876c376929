"""`broadcast-promotion`: a load the loops around its pipeline repeat unchanged runs once.

A pipeline inside loops runs one instance per iteration, and each instance's DMA stage loads
what its iteration needs. A load whose source, subscripts and mask do not change with the
loops (a layer norm's weight and bias rows, the same for every row a tile normalises) moves
the same bytes every time: on `spyre`, layernorm (M=100, N=2048, 32 tiles x 4 rows each)
read W and B 4 times per tile, 1,458,176 device-memory bytes where 671,744 are enough
(17,904 -> 15,605 cycles; sample_device 14,975 -> 13,583); ffn_swiglu_4core's x row, the
same for the 8 n blocks of each tile's gate and up product, 16,517 -> 16,085. The
load moves into a sibling pipeline of its own before the outermost loop it does not depend
on, into a buffer of its own that the loop's instances all read:

    scf.for %k = 0 to 4 step 1 {
      %Wv = ... view of %W ...                 // defined in the loop, the same every time
      ktdf.pipeline { %b = ktdf.private { %a = memref.alloc ... }
        ktdf.stage { ktdf.data_transfer from %Wv[0] ... to %b[0] ... }   // DMA
        ktdf.stage { ... from %b[%r] ... to %fifo ... } }                // reads %b
    }
becomes
    %Wv' = ... view of %W ...                  // what the load needs, cloned out of the loop
    %a' = memref.alloc ...
    ktdf.pipeline { ktdf.stage { ktdf.data_transfer from %Wv'[0] ... to %a'[0] ... } }
    scf.for %k = 0 to 4 step 1 {
      %Wv = ...                                // erased when nothing else uses it
      ktdf.pipeline { %b = ktdf.private { ... }  // without %a
        ktdf.stage { }  ktdf.stage { ... from %a'[%r] ... to %fifo ... } }
    }

ktdf-to-ktdflowering orders the sibling's DMA before the first reading instance (a one-way
signal, or none when the reader already waits every instance for a DMA on the same unit).
Transfers hoisted before the same loop share one sibling pipeline (upstream makes one per
transfer): their DMAs overlap and one signal covers them.

A transfer moves out of an enclosing loop (the `scf.for` chain directly around its pipeline,
innermost first; outwards as far as every condition holds) when: it sits directly in a stage
and goes memory to memory, into a buffer of the pipeline's private that nothing in the
pipeline writes but it and that the other stages only read with transfers; each of its
operands is defined outside the loop, or by a pure op (views and casts included) whose
operands are, or is the index of a loop that runs once (it is that loop's lower bound —
frontends leave such loops around a pipeline); and nothing in the loop writes the memory its
source is a view of. It moves only past at least one loop that may run more than once:
past loops that run once it would add a pipeline and gain nothing (bias_add's row block).
And the sibling must run once (only loops of one iteration around it): one inside a loop
would overwrite its buffer while the last instance may still read it, and the back-edge
signal that would prevent it is indistinguishable from the loop pipeline's own handshakes
between the same two units (signals count per pair), so a load invariant only in inner
loops stays (upstream hoists it).
Upstream (lib/Dialect/KTDF/Transforms/BroadcastPromotion.cpp) requires the source to be
defined outside the loop; here the source's view is cloned out with the load, since
sink-host-loops moves a group's views into the loop it sinks. The emptied private result
and its alloc are removed (upstream keeps them).

A RewritePattern on `ktdf.data_transfer`, one walk: a hoisted transfer lands before its
outermost legal loop, so nothing it builds matches again (idempotent).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from scheduler.analysis.index_exprs import enclosing_loops, trip_count
from scheduler.dialects.ktdf import (
    DataTransferOp,
    IndDataTransferOp,
    PipelineOp,
    PrivateOp,
    StageOp,
)
from scheduler.rewriting import apply_patterns, has_result_only_effects, rebuild_private

_VIEWS = (memref.MemorySpaceCastOp, memref.ReinterpretCastOp, memref.SubviewOp, memref.CastOp)



def _inside(v: SSAValue, loop: Operation) -> bool:
    owner = v.owner
    op = owner.parent_op() if isinstance(owner, Block) else owner
    return op is not None and loop.is_ancestor(op)


def _pure(op: Operation) -> bool:
    return not op.regions and (isinstance(op, _VIEWS) or has_result_only_effects(op))


def _root(v: SSAValue) -> SSAValue:
    """The value a view is built from (through view constructions and casts: their first
    operand)."""
    while isinstance(v.owner, Operation) and v.owner.operands and (
            _pure(v.owner) or isinstance(v.owner, _VIEWS)):
        v = v.owner.operands[0]
    return v


def _once(v: SSAValue, loop: scf.ForOp) -> scf.ForOp | None:
    """The loop (inside or equal to `loop`) that runs once and whose index `v` is."""
    if not isinstance(v, BlockArgument) or not isinstance(o := v.block.parent_op(), scf.ForOp):
        return None
    if v.index != 0 or not loop.is_ancestor(o) or trip_count(o) != 1:
        return None
    return o


def _hoistable(v: SSAValue, loop: scf.ForOp, seen: dict[SSAValue, bool]) -> bool:
    """Whether `v` has one value in every iteration of `loop` that can be computed before it."""
    if v in seen:
        return seen[v]
    seen[v] = False  # until shown
    if not _inside(v, loop):
        ok = True
    elif (o := _once(v, loop)) is not None:
        ok = _hoistable(o.lb, loop, seen)
    else:
        op = v.owner
        ok = isinstance(op, Operation) and _pure(op) and all(
            _hoistable(x, loop, seen) for x in op.operands)
    seen[v] = ok
    return ok


def _may_alias(a: SSAValue, b: SSAValue) -> bool:
    """Whether memory viewed from roots `a` and `b` may overlap: the same root, or two
    roots of unknown provenance (a buffer of a private or an alloc is its own memory, and
    two kernel arguments are distinct tensors)."""
    if a is b:
        return True
    own = (PrivateOp, memref.AllocOp)
    if isinstance(a.owner, own) or isinstance(b.owner, own):
        return False
    return not (isinstance(a, BlockArgument) and isinstance(b, BlockArgument))


def _other_memory(a: SSAValue, b: SSAValue) -> bool:
    """Whether `a` and `b` are views of memories of different kinds (device memory and a
    scratchpad never overlap)."""
    ta, tb = a.type, b.type
    return isinstance(ta, MemRefType) and isinstance(tb, MemRefType) \
        and ta.memory_space != tb.memory_space


def _writes_root(loop: scf.ForOp, source: SSAValue, skip: Operation) -> bool:
    """Whether anything in `loop` may write memory viewed from `source`'s root."""
    root = _root(source)
    for op in loop.walk():
        if op is skip:
            continue
        if isinstance(op, DataTransferOp | IndDataTransferOp):
            if isinstance(op.destination.type, MemRefType) \
                    and not _other_memory(op.destination, source) \
                    and _may_alias(_root(op.destination), root):
                return True
        elif any(isinstance(x.type, MemRefType) for x in op.operands) and not _pure(op) \
                and any(isinstance(x.type, MemRefType) and _may_alias(_root(x), root)
                        for x in op.operands):  # (the effect query only for ops on memory)
            return True
    return False


def _private_alloc(t: DataTransferOp, p: PipelineOp) -> tuple[int, memref.AllocOp] | None:
    """The index among the private's results of `t`'s destination and its alloc, when only
    `t` writes it and the other uses read it by transfers."""
    private = p.private_op
    dest = t.destination
    if private is None or dest.owner is not private:
        return None
    i = private.res.index(dest)  # type: ignore[arg-type]
    alloc = private.yield_op.values[i].owner
    if not isinstance(alloc, memref.AllocOp) or alloc.memref.uses.get_length() != 1:
        return None
    for use in dest.uses:
        if use.operation is t:
            continue
        if not isinstance(use.operation, DataTransferOp) or use.index != 0:
            return None
    return i, alloc


def _target(t: DataTransferOp, loops: list[scf.ForOp]) -> scf.ForOp | None:
    """The outermost loop `t` may move out of (see the module docstring)."""
    best: scf.ForOp | None = None
    repeats = False
    operands = [v for v in t.operands if v is not t.destination]
    for loop in loops:
        seen: dict[SSAValue, bool] = {}
        if not all(_hoistable(v, loop, seen) for v in operands) or _writes_root(loop, t.source, t):
            break
        repeats |= trip_count(loop) != 1
        if repeats:
            best = loop
    cur = best.parent_op() if best is not None else None
    while cur is not None and not isinstance(cur, func.FuncOp):  # the sibling runs once
        if not isinstance(cur, scf.ForOp) or trip_count(cur) != 1:
            return None
        cur = cur.parent_op()
    return best


def _drop_private_result(private: PrivateOp, i: int, rewriter: PatternRewriter) -> None:
    """Rebuild `private` without result `i` (and its alloc, now unused)."""
    values = list(private.yield_op.values)
    gone = values.pop(i)
    new = rebuild_private(private, values, [], rewriter, keep_uses=lambda k: False)
    kept = [r for k, r in enumerate(private.res) if k != i]
    for old, r in zip(kept, new.res, strict=True):
        r.name_hint = old.name_hint
        rewriter.replace_all_uses_with(old, r)
    rewriter.erase(private)
    if isinstance(gone.owner, Operation) and not gone.uses:
        rewriter.erase(gone.owner)


class PromoteBroadcast(RewritePattern):
    """Move a loop-invariant memory-to-memory transfer into a sibling pipeline before the
    outermost loop it does not depend on."""

    def __init__(self) -> None:
        # per target loop, the clones made before it (W and B share their view's symbols)
        self.clones: dict[tuple[scf.ForOp, SSAValue], SSAValue] = {}
        # per target loop and unit kind, the sibling pipeline the transfers go to
        self.siblings: dict[tuple[scf.ForOp, tuple[str, ...]], StageOp] = {}

    def _at(self, loop: scf.ForOp) -> InsertPoint:
        """Where what a sibling needs goes: before the siblings of `loop`, or before it."""
        first = next((s.parent_op() for (lp, _), s in self.siblings.items() if lp is loop),
                     None)
        return InsertPoint.before(first or loop)

    def _materialise(self, v: SSAValue, loop: scf.ForOp, p: PipelineOp,
                     rewriter: PatternRewriter) -> SSAValue:
        """`v` computed before `loop`: what the pipeline computes is cloned (the clone is
        shared by the next transfer hoisted there), what the loop computes moves out."""
        if not _inside(v, loop):
            return v
        if (o := _once(v, loop)) is not None:
            return self._materialise(o.lb, loop, p, rewriter)
        key = (loop, v)
        if key in self.clones:
            return self.clones[key]
        op = v.owner
        assert isinstance(op, Operation)
        operands = [self._materialise(x, loop, p, rewriter) for x in op.operands]
        if not p.is_ancestor(op):
            op.detach()
            for k, x in enumerate(operands):
                op.operands[k] = x
            rewriter.insert(op, self._at(loop))
            return v
        new = op.clone()
        for k, x in enumerate(operands):
            new.operands[k] = x
        for old, r in zip(op.results, new.results):
            r.name_hint = old.name_hint
            self.clones[(loop, old)] = r
        rewriter.insert(new, self._at(loop))
        return self.clones[key]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, t: DataTransferOp, rewriter: PatternRewriter) -> None:
        stage = t.parent_op()
        if not isinstance(stage, StageOp) or t.source_is_fifo or t.dest_is_fifo:
            return
        p = stage.parent_op()
        if not isinstance(p, PipelineOp) or (got := _private_alloc(t, p)) is None:
            return
        loop = _target(t, enclosing_loops(p)[::-1])  # innermost first
        if loop is None:
            return
        i, alloc = got
        mapping = {v: self._materialise(v, loop, p, rewriter)
                   for v in t.operands if v is not t.destination}
        buf = alloc.clone()
        buf.memref.name_hint = alloc.memref.name_hint
        rewriter.insert(buf, self._at(loop))
        mapping[t.destination] = buf.memref
        moved = t.clone(value_mapper=mapping)
        units = tuple(stage.applicable_units)
        sibling = self.siblings.get((loop, units))
        if sibling is None:
            sibling = StageOp([], [], Region(Block()), applicable_units=list(units) or None)
            rewriter.insert(PipelineOp(Region(Block([sibling]))), InsertPoint.before(loop))
            self.siblings[(loop, units)] = sibling
        rewriter.insert(moved, InsertPoint.at_end(sibling.body.block))
        dest = t.destination
        rewriter.erase(t)
        rewriter.replace_all_uses_with(dest, buf.memref)
        _drop_private_result(p.private_op, i, rewriter)  # type: ignore[arg-type]


class BroadcastPromotionPass(ModulePass):
    """Hoist loop-invariant loads into sibling pipelines before the loops that repeat them
    (see the module docstring)."""

    name = "broadcast-promotion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [PromoteBroadcast()])
