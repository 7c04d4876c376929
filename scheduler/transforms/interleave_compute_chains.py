"""`interleave-compute-chains`: order the ops of each generic body by when their operands are
ready, so that independent chains interleave instead of waiting on each other's latency.

The compute unit issues a body's ops in order (one op per interval, a result ready after its
class latency: shared/spec/arch.md §8), so a body written chain after chain stalls at every
dependent op. rmsnorm's vector steps hold four such chains (one per column block: a square
and a sum, or a scale and a weight), one after the other:

    %1 = mulf %a, %a   %2 = addf %0, %1   %3 = mulf %b, %b   %4 = addf %2, %3 ...
  becomes
    %1 = mulf %a, %a   %3 = mulf %b, %b   ...   %2 = addf %0, %1   %4 = addf %2, %3 ...

The order is a list schedule: each op's earliest start is the latest ready time of its
operands (the defining op's start plus its latency from the device's compute unit, the
block's arguments and values from outside ready at 0), ops sorted by it, ties in body order.
A topological order of the same ops on the same values, so the results are bitwise the same.

A RewritePattern on `linalg.generic`; idempotent (a sorted body sorts to itself).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from scheduler.analysis.compute_ops import latency_class
from scheduler.analysis.device import device_of


class InterleaveChains(RewritePattern):
    """Sort a generic's body by the earliest start of each op."""

    def __init__(self, latency: dict[str, int]):
        self.latency = latency

    @op_type_rewrite_pattern
    def match_and_rewrite(self, g: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        block = g.body.block
        ops = list(block.ops)
        term = ops.pop()
        ready: dict[Operation, float] = {}
        start: dict[Operation, float] = {}
        for op in ops:
            t = max((ready[o.owner] for o in op.operands if o.owner in ready), default=0.0)
            start[op] = t
            ready[op] = t + (0 if isinstance(op, arith.ConstantOp)
                             else self.latency.get(latency_class(op), 1))
        order = sorted(ops, key=lambda op: start[op])  # stable: ties keep the body order
        if order == ops:
            return
        for op in order:
            op.detach()
            rewriter.insert(op, InsertPoint.before(term))
        rewriter.notify_op_modified(g)


class InterleaveComputeChainsPass(ModulePass):
    """Interleave the independent chains of every generic body (list schedule by latency).

    Before:  linalg.generic { mulf a, a; addf 0, _; mulf b, b; addf _, _ }
    After:   linalg.generic { mulf a, a; mulf b, b; addf 0, _; addf _, _ }
    """

    name = "interleave-compute-chains"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from scheduler.rewriting import apply_patterns

        device = device_of(op, self.name)
        unit = device.units.get(device.compute_kind)
        apply_patterns(op, [InterleaveChains(dict(unit.op_latency) if unit else {})])
