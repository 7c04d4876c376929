"""`loop-invariant-code-motion`: compute once, before the loop, what a generic in a loop
derives only from loop-invariant inputs.

After `reduction-loop-exposure` a compute stage runs its element-wise generics once per
vector, inside the `scf.for` over the vectors of a block. A fused generic there may still
carry a chain that depends only on an input defined before that loop — a statistic of the
row, read through a broadcasting map — and recompute it for every vector (rmsnorm's
`rsqrt(sum / N + eps)`: a divide and a transcendental per vector, 4 cycles of issue each).
This pass splits that chain out into a generic over the invariant input alone, placed before
the outermost loop the chain is invariant in, and lets the loop's generic read its results
through the same map:

    scf.for %k ... {
      %y = linalg.generic {maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (0), ...]}
             ins(%x, %s : tensor<1x64xf16>, tensor<1xf16>) {
        ^bb0(%a, %b, %o): %q = divf %b, %n   %r = rsqrt %q   %m = mulf %a, %r  yield %m } }
  becomes
    %r = linalg.generic {maps = [(d0) -> (d0), (d0) -> (d0)]} ins(%s : tensor<1xf16>) {
           ^bb0(%b, %o): %q = divf %b, %n   %r = rsqrt %q   yield %r }
    scf.for %k ... {
      %y = linalg.generic {maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (0), ...]}
             ins(%x, %r : ...) { ^bb0(%a, %rr, %o): %m = mulf %a, %rr  yield %m } }

The same ops run on the same values in the same element type, so the results are bitwise the
ones of the fused generic. What moves: the body's side-effect-free arith / math ops whose
operands are the block arguments of the invariant inputs (those defined outside the loop,
all read through one indexing map and of one type), results of ops that move, constants, or
values defined outside the loop; at least one operand must come from an invariant input (a
lone constant stays). A generic outside any loop, or whose invariant chain is empty, is left
alone. Loops are crossed outwards as long as everything the chain reads is defined outside
them, never beyond the enclosing op that is not an `scf.for` (a stage keeps its work).

A RewritePattern on `linalg.generic`; idempotent (the generic left in the loop has no
invariant chain, the hoisted one sits outside the loop).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import Pure

_DIALECTS = ("arith", "math")


def _defined_in(v: SSAValue, op: Operation) -> bool:
    """Whether `v` is defined inside `op` (in one of its regions, at any depth)."""
    cur = v.owner.parent_op()
    while cur is not None:
        if cur is op:
            return True
        cur = cur.parent_op()
    return False


def _is_movable(op: Operation) -> bool:
    return op.dialect_name() in _DIALECTS and not op.regions and op.has_trait(Pure)


def _chain(g: linalg.GenericOp, group: list[int]) -> list[Operation]:
    """The body ops computed from the inputs `group` only (plus constants and values from
    outside the generic), in body order."""
    body = g.body.block
    inv = {body.args[i] for i in group}
    moved: set[SSAValue] = set()
    out: list[Operation] = []
    for op in body.ops:
        if not _is_movable(op) or isinstance(op, arith.ConstantOp):
            continue
        if not any(o in inv or o in moved for o in op.operands):
            continue
        if all(o in inv or o in moved or not _defined_in(o, g)
               or isinstance(o.owner, arith.ConstantOp) for o in op.operands):
            out.append(op)
            moved.update(op.results)
    return out


def _target_loop(g: linalg.GenericOp, needs: list[SSAValue]) -> scf.ForOp | None:
    """The outermost enclosing `scf.for` (directly nested chain) none of `needs` is defined
    in."""
    best: scf.ForOp | None = None
    cur = g.parent_op()
    while isinstance(cur, scf.ForOp):
        if any(_defined_in(v, cur) or v.owner is cur for v in needs):
            break
        best = cur
        cur = cur.parent_op()
    return best


class HoistInvariantChain(RewritePattern):
    """Split a generic's loop-invariant chain into a generic before the loop."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, g: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not isinstance(g.parent_op(), scf.ForOp) or not g.res or not all(
                isinstance(r.type, TensorType) for r in g.res):  # tensors only
            return
        ins = list(g.inputs)
        maps = [m.data for m in g.indexing_maps.data]
        groups: dict[tuple, list[int]] = {}
        for i, v in enumerate(ins):
            if isinstance(v.type, TensorType) and _target_loop(g, [v]) is not None:
                groups.setdefault((maps[i], v.type), []).append(i)
        for (imap, itype), group in groups.items():
            chain = _chain(g, group)
            if not chain:
                continue
            outside = [o for op in chain for o in op.operands if not _defined_in(o, g)]
            loop = _target_loop(g, [ins[i] for i in group] + outside)
            if loop is None:
                continue
            self._rewrite(g, group, imap, itype, chain, loop, rewriter)
            return

    def _rewrite(self, g: linalg.GenericOp, group: list[int], imap: AffineMap,
                 itype: TensorType, chain: list[Operation], loop: scf.ForOp,
                 rewriter: PatternRewriter) -> None:
        body = g.body.block
        in_chain = set(chain)
        frontier = [r for op in chain for r in op.results
                    if any(u.operation not in in_chain for u in r.uses)]
        shape = itype.get_shape()
        rank = len(shape)
        # The hoisted generic: the group's inputs, one output per frontier value.
        new_body = Block(arg_types=[body.args[i].type for i in group]
                         + [r.type for r in frontier])
        mapping: dict[SSAValue, SSAValue] = {
            body.args[i]: new_body.args[k] for k, i in enumerate(group)}
        for op in chain:
            for o in op.operands:
                if o not in mapping and isinstance(o.owner, arith.ConstantOp) \
                        and _defined_in(o, g):
                    c = o.owner.clone()
                    new_body.add_op(c)
                    mapping[o] = c.result
            c = op.clone(value_mapper=mapping)
            new_body.add_op(c)
            for a, b in zip(op.results, c.results):
                mapping[a] = b
        new_body.add_op(linalg.YieldOp(*[mapping[r] for r in frontier]))
        empties = [tensor.EmptyOp([], TensorType(r.type, shape)) for r in frontier]
        ident = AffineMapAttr(AffineMap.identity(rank))
        hoisted = linalg.GenericOp(
            [g.inputs[i] for i in group], [e.tensor for e in empties], Region(new_body),
            [ident] * (len(group) + len(frontier)),
            [IteratorTypeAttr.parallel()] * rank, [e.tensor.type for e in empties])
        rewriter.insert([*empties, hoisted], InsertPoint.before(loop))
        # The loop's generic reads the hoisted results through the group's map.
        n_in = len(g.inputs)
        for k, r in enumerate(frontier):
            arg = body.insert_arg(r.type, n_in + k)
            r.replace_all_uses_with(arg)
        for op in reversed(chain):
            rewriter.erase(op)
        for op in list(body.ops):  # constants only the chain read
            if isinstance(op, arith.ConstantOp) and not op.result.uses:
                rewriter.erase(op)
        keep = [i for i in range(n_in) if body.args[i].uses]
        new_ins = [g.inputs[i] for i in keep] + list(hoisted.results)
        old_maps = list(g.indexing_maps.data)
        new_maps = [old_maps[i] for i in keep] + [AffineMapAttr(imap)] * len(frontier) \
            + old_maps[n_in:]
        for i in reversed([i for i in range(n_in) if i not in keep]):
            body.erase_arg(body.args[i])
        new_body_region = g.detach_region(g.body)
        new_g = linalg.GenericOp(new_ins, list(g.outputs), new_body_region, new_maps,
                                 list(g.iterator_types.data), [r.type for r in g.res])
        for a, b in zip(g.res, new_g.res):
            b.name_hint = a.name_hint
        rewriter.replace(g, new_g)


class LoopInvariantCodeMotionPass(ModulePass):
    """Hoist the loop-invariant chains of generics in loops into generics before them.

    Before:  scf.for { linalg.generic ins(%x, %s) { %r = rsqrt(f(%s))  mulf(%x, %r) } }
    After:   %r = linalg.generic ins(%s) { rsqrt(f(%s)) }
             scf.for { linalg.generic ins(%x, %r) { mulf(%x, %r) } }
    """

    name = "loop-invariant-code-motion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from scheduler.rewriting import apply_patterns

        apply_patterns(op, [HoistInvariantChain()])
