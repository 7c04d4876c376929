"""What the passes' rewrite patterns share: a replacement that keeps SSA names, and the walk.

`PatternRewriter.replace` (and `SSAValue.replace_all_uses_with` under it) copies the replaced
result's name hint onto a new result that has none; the scheduler names its values itself
(`%buf_l1`, `%mnilu_of_tile`, and nothing for a received vector) and the printed DataflowIR
is compared byte for byte, so a pattern that names what it builds replaces with
`replace_keeping_names`.

`apply_patterns` is the one walk every pass runs: greedy, in program order, once, and without
xDSL's on-the-side dead-code elimination — a pass removes what it replaces, and dead code
goes where a pass asks for it (`dead_code`), not wherever a walk passes. Once, because each
pattern of these passes rewrites its op completely and nothing it builds matches again; an
op comes after what it waits for (a function before its pipelines, a definition before its
uses), so one walk is the fixed point (each pass's idempotent.mlir runs it twice). A second
walk to confirm that costs as much as the first. Each op is offered only to the patterns
whose `@op_type_rewrite_pattern` type it has (worked out once per op class), in their order.

`dead_code` is xDSL's region DCE (dead_code_elimination.py: an op goes when nothing live uses
its results and it has no effect beyond them) with one rule xDSL 0.74 lacks: a `linalg` op
on tensors has no memory effects (MLIR's linalg effect interface reports effects on memref
operands only; xDSL's linalg ops declare none, so its DCE keeps every one of them). Its
liveness is one worklist pass (`_live_ops`), not xDSL's sweeps until nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation, Region, SSAValue, Use
from xdsl.ir.post_order import PostOrderIterator
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.irdl import IRDLOperation
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator, MemoryEffect, NoMemoryEffect, Pure, SymbolOpInterface
from xdsl.transforms.dead_code_elimination import LiveSet, would_be_trivially_dead

from scheduler.analysis.index_exprs import index_constant
from scheduler.analysis.slices import backward_slice
from scheduler.dialects.ktdf import PrivateOp, PrivateYieldOp


def replace_keeping_names(rewriter: PatternRewriter, op: Operation,
                          new_ops: Sequence[Operation],
                          new_results: Sequence[SSAValue] | None = None) -> None:
    """Insert `new_ops` before `op`, let `new_results` (default: the last new op's results)
    take over its uses, erase it; no name hint is copied."""
    rewriter.insert(list(new_ops), InsertPoint.before(op))
    if new_results is None:
        new_results = list(new_ops[-1].results) if new_ops else []
    for old, new in zip(op.results, new_results, strict=True):
        for use in tuple(old.uses):
            use.operation.operands[use.index] = new
            rewriter.notify_op_modified(use.operation)
    rewriter.erase(op)


def apply_patterns(root: Operation | Region, patterns: Sequence[RewritePattern]) -> bool:
    """Apply `patterns` to everything nested in `root`, in one walk in program order."""
    walker = PatternRewriteWalker(_TypedApplier(patterns), apply_recursively=False)
    region = root if isinstance(root, Region) else None
    if region is not None:
        return walker.rewrite_region(region)
    changed = False
    for r in root.regions:
        changed |= walker.rewrite_region(r)
    return changed


def _typed_call(pattern: RewritePattern
                ) -> tuple[object | None, Callable[[Operation, PatternRewriter], None]]:
    """The op types a pattern's `@op_type_rewrite_pattern` method takes (None: any op) and
    what to call on an op of those types (the method under the type check)."""
    impl = type(pattern).match_and_rewrite
    code = getattr(impl, "__code__", None)
    if code is not None and impl.__qualname__ == "op_type_rewrite_pattern.<locals>.impl":
        cells = dict(zip(code.co_freevars, impl.__closure__ or ()))
        if {"expected_type", "func"} <= cells.keys() and \
                "match_and_rewrite" not in vars(pattern):
            func = cells["func"].cell_contents
            return cells["expected_type"].cell_contents, partial(func, pattern)
    return None, pattern.match_and_rewrite


class _TypedApplier(RewritePattern):
    """xDSL's `GreedyRewritePatternApplier` without folding and DCE (the patterns in order,
    up to the first that acts), asking only the patterns whose op type matches: the list
    per op class is worked out once, so a walk with ten patterns does not call ten type
    checks on every op."""

    def __init__(self, patterns: Sequence[RewritePattern]):
        self.typed = [_typed_call(p) for p in patterns]
        self.by_class: dict[type[Operation], list[Callable[[Operation, PatternRewriter],
                                                           None]]] = {}

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        calls = self.by_class.get(type(op))
        if calls is None:
            calls = self.by_class[type(op)] = [
                call for types, call in self.typed
                if types is None or isinstance(op, types)]  # type: ignore[arg-type]
        for call in calls:
            call(op, rewriter)
            if rewriter.has_done_action:
                return


class OpClasses:
    """`isinstance(op, types)` answered once per op class and then looked up: op classes
    are ABCs, so each isinstance against one that fails is a Python-level call, and a walk
    testing a tuple of twenty of them on every op spends its time there."""

    def __init__(self, *types: type[Operation]):
        self.types = types
        self.known: dict[type, bool] = {}

    def __call__(self, op: object) -> bool:
        t = type(op)
        found = self.known.get(t)
        if found is None:
            found = self.known[t] = issubclass(t, self.types)
        return found


_NO_EFFECT_CLASSES: dict[type, bool] = {}


def _no_effect_class(op: Operation) -> bool:
    """Whether an op's class alone says it has no effect: its effect traits are all
    `NoMemoryEffect` / `Pure` (whose answer does not depend on the op) and it is neither
    a terminator nor a symbol. Traits are per class, so this is asked once per class."""
    t = type(op)
    found = _NO_EFFECT_CLASSES.get(t)
    if found is None:
        effects = op.get_traits_of_type(MemoryEffect)
        found = _NO_EFFECT_CLASSES[t] = (
            isinstance(op, IRDLOperation) and bool(effects)
            and all(type(e) in (NoMemoryEffect, Pure) for e in effects)
            and not op.has_trait(IsTerminator) and not op.has_trait(SymbolOpInterface))
    return found


def has_result_only_effects(op: Operation) -> bool:
    """xDSL's `would_be_trivially_dead`, and linalg ops on tensors (see the module
    docstring)."""
    if _no_effect_class(op) or would_be_trivially_dead(op):
        return True
    return (op.dialect_name() == "linalg" and not op.has_trait(IsTerminator)
            and not any(isinstance(v.type, MemRefType) for v in (*op.operands, *op.results)))


def _reachable(region: Region) -> Iterable[Block]:
    """The blocks xDSL's liveness looks at: those reachable from the entry block."""
    first = region.first_block
    if first is None:
        return ()
    return (first,) if first.next_block is None else PostOrderIterator(first)


def _live_ops(region: Region) -> set[Operation]:
    """The ops of `region` that stay: those with an effect beyond their results, those a
    live op uses, and nothing nested in an op that goes (its terminator's uses do not count).

    One worklist pass: an op becomes live when it is impure or a live op uses it, and the
    nested ops of an op are looked at once it is live (a value defined in a region is only
    used inside it, so nothing nested is live before its parent). The least fixpoint xDSL's
    `LiveSet` reaches by sweeping the region until nothing changes, and then again after
    each deletion (a dead generic's `linalg.yield` keeps what it reads alive for a round)."""
    inside: set[Operation] = set()
    live: set[Operation] = set()
    work: list[Operation] = []

    def enter(r: Region) -> None:  # the ops of a region whose parent just became live
        for block in _reachable(r):
            for op in block.ops:
                if op not in live and not has_result_only_effects(op):
                    live.add(op)
                    work.append(op)

    for block in region.blocks:
        for op in block.ops:
            inside.update(op.walk())
    enter(region)
    while work:
        op = work.pop()
        for v in op.operands:
            owner = v.owner
            if isinstance(owner, Operation) and owner not in live and owner in inside:
                live.add(owner)
                work.append(owner)
        for r in op.regions:
            enter(r)
    return live


def dead_code(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """Erase the ops of `region` whose results nothing live uses and that have no other
    effect (region DCE, as xDSL's `region_dce`, run until nothing more goes: a value only
    the body of a dead generic reads goes too). Returns whether anything was erased."""
    live = LiveSet(changed=False, _live_ops=_live_ops(region))
    live.delete_dead(region, listener)
    return live.changed


def count_iterations(loop: scf.ForOp, count: int, rewriter: PatternRewriter,
                     keep: Callable[[Use], bool] = lambda _: False,
                     at: InsertPoint | None = None) -> None:
    """Make `loop` iterate its iteration number `%k` from 0 to `count` step 1, the old index
    recomputed at the top of the body (`lb + %k * step`) for every use but those `keep`
    accepts (uses a caller has rewritten to read the iteration number).

    The one loop rewrite `normalize-tile-loops` (tile-strided host loops) and
    `normalize-scf-for-loops` (every constant-bound loop) share; the recompute is left out
    when no use needs it. The new bounds go at `at` (default: before the loop)."""
    body = loop.body.block
    k = body.args[0]
    uses = tuple(u for u in k.uses if not keep(u))
    lb, step = loop.lb, loop.step
    if uses:
        scaled = arith.MuliOp(k, step)
        iv = arith.AddiOp(lb, scaled)
        iv.result.name_hint = k.name_hint
        for use in uses:
            use.operation.operands[use.index] = iv.result
            rewriter.notify_op_modified(use.operation)
        rewriter.insert([scaled, iv], InsertPoint.at_start(body))
    k.name_hint = "k" if uses else k.name_hint
    consts = [index_constant(v) for v in (0, count, 1)]
    rewriter.insert(list(consts), at or InsertPoint.before(loop))
    for i, c in enumerate(consts):
        loop.operands[i] = c.result
    rewriter.notify_op_modified(loop)


def clone_slice(roots: Sequence[Operation], rewriter: PatternRewriter, at: InsertPoint,
                mapper: dict[SSAValue, SSAValue],
                substitute: Callable[[Operation], Operation | None] = lambda o: None,
                ) -> None:
    """Clone, in program order at `at`, every op the `roots` depend on (their backward slice,
    the roots excluded; an op nested in another of the slice comes with it), recording the
    new values in `mapper`. `substitute` may build an op to insert instead of the clone of
    one (same results); the rest are cloned through `mapper`. A fresh computation of the
    roots' operands: stores of the clones share no load with the originals' other users."""
    nested = {o for r in roots for o in r.walk()}
    inside = backward_slice(roots) - nested
    top = roots[0]
    while top.parent_op() is not None:
        top = top.parent_op()  # type: ignore[assignment]
    for o in [o for o in top.walk() if o in inside]:
        if any(a in inside for a in _ancestors(o)):
            continue
        new = substitute(o)
        if new is None:
            new = o.clone(mapper)
        for old, res in zip(o.results, new.results, strict=True):
            mapper[old] = res
            if old.name_hint and not res.name_hint:
                res.name_hint = old.name_hint
        rewriter.insert(new, at)


def _ancestors(op: Operation) -> list[Operation]:
    out = []
    p = op.parent_op()
    while p is not None:
        out.append(p)
        p = p.parent_op()
    return out


def rebuild_private(priv: PrivateOp, values: Sequence[SSAValue], new_ops: Sequence[Operation],
                    rewriter: PatternRewriter,
                    keep_uses: Callable[[int], bool] = lambda i: True) -> PrivateOp:
    """A `ktdf.private` in place of `priv` yielding `values` (result types follow them): its
    ops moved over, `new_ops` after them. The uses of each old result i move to new result i
    when `keep_uses(i)` (the caller rewires the others); the caller erases `priv` once
    nothing uses it. Needed wherever a pass adds, drops or retypes a private's resources,
    since results cannot change in place."""
    y = priv.yield_op
    body = Block()
    for op in list(priv.body.block.ops):
        if op is not y:
            op.detach()
            body.add_op(op)
    body.add_ops([*new_ops, PrivateYieldOp(*values)])
    new = PrivateOp([v.type for v in values], body)
    rewriter.insert(new, InsertPoint.before(priv))
    for i, (old, res) in enumerate(zip(priv.res, new.res)):
        if keep_uses(i):
            rewriter.replace_all_uses_with(old, res)
    return new
