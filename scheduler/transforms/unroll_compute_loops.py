"""`unroll-compute-loops`: run u vector steps of a compute-stage loop in one fused generic, so
that their chains interleave.

After `reduction-loop-exposure` a compute stage streams a row through loops of one vector per
step: read the vector(s) from FIFO slots, one generic, write the result(s). When the body's
chain is one dependent sequence (softmax's `exp(x - max) / sum`: a subtract, then 8 cycles of
an exponential estimate, then 8 of a divide), the compute unit, issuing in order, waits on
each latency; its issue slots are free most of the time. This pass unrolls such a loop by u
and fuses the u generics into one whose body holds the u chains (`interleave-compute-chains`
then orders them by readiness):

    scf.for %k = 0 to 1024 step 64 {
      %x = read_from_fifo %s   %y = linalg.generic ins(%x, %m) outs(%e) {...}   write %y }
  becomes (u = 2)
    scf.for %k = 0 to 1024 step 128 {
      %x0 = read_from_fifo %s   %x1 = read_from_fifo %s
      %y0, %y1 = linalg.generic ins(%x0, %m, %x1) outs(%e0, %e1) {chain(x0); chain(x1)}
      write %y0   write %y1 }

In a reduction loop (`iter_args`: the generic's output is the loop-carried partial), step j's
partial is step j-1's result inside the fused body, so the fold keeps its order:
((acc + f(x0)) + f(x1)). The FIFO slots are read and written in the same order as before, so
the units feeding and draining them are unchanged. The same ops on the same values: bitwise
the results of the loop it replaces.

u: the body's latency chain off the fold's recurrence over the issue time of the whole
body (the compute unit's `op_latency` and `op_interval`), rounded up, at most 4, and a
divisor of the trip count; u = 1 leaves the loop alone. A pure fold (a running maximum) is
left alone: its steps are one chain whatever the unrolling.
Which loops: `scf.for` with constant bounds in a stage of a reducing pipeline whose body is
FIFO reads, `tensor.empty`, constants, exactly one `linalg.generic` on tensors and FIFO
writes, and does not read its index. A reducing pipeline holds its row in the scratchpad
before its compute passes run, so they are paced by their own chains; an element-wise
pipeline's compute loop is paced by the vectors streaming in, and unrolling it gained
nothing there (the golden cases: -18 to +3 cycles, most +1), so it is left alone.

A RewritePattern on `scf.for`; idempotent (an unrolled body's chain is covered by its issue
time, so u = 1 on a second run).
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from scheduler.analysis.compute_ops import has_reduction, latency_class
from scheduler.analysis.device import device_of
from scheduler.analysis.index_exprs import index_constant, trip_count
from scheduler.dialects.ktdf import PipelineOp, ReadFromFifoOp, WriteToFifoOp, enclosing_stage
from scheduler.dialects.ktdf_types import const_int

MAX_UNROLL = 4
_ALLOWED = (ReadFromFifoOp, WriteToFifoOp, tensor.EmptyOp, arith.ConstantOp, linalg.GenericOp)


def _in_reducing_pipeline(op: Operation) -> bool:
    stage = enclosing_stage(op)
    p = stage.parent_op() if stage is not None else None
    return isinstance(p, PipelineOp) and has_reduction(p)


class UnrollComputeLoop(RewritePattern):
    """Unroll a compute loop of one generic by u and fuse the u generics."""

    def __init__(self, latency: dict[str, int], interval: dict[str, int]):
        self.latency = latency
        self.interval = interval

    def factor(self, g: linalg.GenericOp, carried: dict[int, int], trip: int) -> int:
        """ceil(chain / issue): the longest latency path through the ops off the fold's
        recurrence (those not reading a carried partial, even indirectly: the fold's order
        is kept, so unrolling cannot shorten it) over the issue time of the whole body."""
        body = g.body.block
        rec: set[SSAValue] = {body.args[len(g.inputs) + i] for i in carried}
        ready: dict[Operation, float] = {}
        issue = 0.0
        for op in body.ops:
            if isinstance(op, linalg.YieldOp | arith.ConstantOp):
                continue
            cls = latency_class(op)
            issue += self.interval.get(cls, 1)
            if any(o in rec for o in op.operands):
                rec.update(op.results)
                continue
            t = max((ready[o.owner] for o in op.operands if o.owner in ready), default=0.0)
            ready[op] = t + self.latency.get(cls, 1)
        chain = max(ready.values(), default=0.0)
        u = max(1, min(MAX_UNROLL, math.ceil(chain / issue))) if issue else 1
        while u > 1 and trip % u:
            u -= 1
        return u

    @op_type_rewrite_pattern
    def match_and_rewrite(self, loop: scf.ForOp, rewriter: PatternRewriter) -> None:
        body = loop.body.block
        ops = list(body.ops)
        yld = ops.pop()
        gens = [op for op in ops if isinstance(op, linalg.GenericOp)]
        trip = trip_count(loop)
        if len(gens) != 1 or not trip or trip < 2 or not _in_reducing_pipeline(loop) \
                or body.args[0].uses or not all(isinstance(op, _ALLOWED) for op in ops):
            return
        g = gens[0]
        if not all(isinstance(r.type, TensorType) for r in g.res) or not g.res:
            return
        carried = self.carried_outputs(loop, g, yld)
        if carried is None:
            return
        u = self.factor(g, carried, trip)
        if u < 2:
            return
        self.rewrite(loop, g, yld, ops, carried, u, rewriter)

    @staticmethod
    def carried_outputs(loop: scf.ForOp, g: linalg.GenericOp,
                        yld: Operation) -> dict[int, int] | None:
        """Output index -> iter_arg index for the outputs that are loop-carried partials
        (the loop yields the generic's result in the same place); None when the loop carries
        anything else."""
        iters = list(loop.body.block.args[1:])
        out: dict[int, int] = {}
        for i, o in enumerate(g.outputs):
            if o in iters:
                p = iters.index(o)
                if yld.operands[p] is not g.res[i] or len(list(o.uses)) != 1 \
                        or len(list(g.res[i].uses)) != 1:
                    return None
                out[i] = p
        if len(out) != len(iters):
            return None
        return out

    def rewrite(self, loop: scf.ForOp, g: linalg.GenericOp, yld: Operation,
                ops: list[Operation], carried: dict[int, int], u: int,
                rewriter: PatternRewriter) -> None:
        old = loop.body.block
        new = Block(arg_types=[a.type for a in old.args])
        maps: list[dict[SSAValue, SSAValue]] = [
            dict(zip(old.args, new.args)) for _ in range(u)]
        pre = [op for op in ops if not isinstance(op, WriteToFifoOp | linalg.GenericOp)]
        for j in range(u):  # reads, empties, constants of every step, in step order
            for op in pre:
                new.add_op(op.clone(value_mapper=maps[j]))
        n_in, n_out = len(g.inputs), len(g.outputs)
        in_maps = list(g.indexing_maps.data)
        body = g.body.block
        ins: list[SSAValue] = []
        ins_maps = []
        arg_types = []
        key_of: dict[tuple, int] = {}
        in_idx: list[list[int]] = []
        for j in range(u):
            idx = []
            for k in range(n_in):
                v = maps[j].get(g.inputs[k], g.inputs[k])
                key = (v, in_maps[k])
                if key not in key_of:
                    key_of[key] = len(ins)
                    ins.append(v)
                    ins_maps.append(in_maps[k])
                    arg_types.append(body.args[k].type)
                idx.append(key_of[key])
            in_idx.append(idx)
        outs: list[SSAValue] = []
        outs_maps = []
        out_slot: dict[tuple[int, int], int] = {}  # (step, output) -> fused output
        for i in range(n_out):
            steps = [0] if i in carried else range(u)
            for j in steps:
                out_slot[(j, i)] = len(outs)
                outs.append(maps[j].get(g.outputs[i], g.outputs[i]))
                outs_maps.append(in_maps[n_in + i])
                arg_types.append(body.args[n_in + i].type)
        fb = Block(arg_types=arg_types)
        results: list[list[SSAValue]] = []
        for j in range(u):
            m: dict[SSAValue, SSAValue] = {}
            for k in range(n_in):
                m[body.args[k]] = fb.args[in_idx[j][k]]
            for i in range(n_out):
                if i in carried and j > 0:
                    m[body.args[n_in + i]] = results[j - 1][i]
                else:
                    m[body.args[n_in + i]] = fb.args[len(ins) + out_slot[(j, i)]]
            for op in body.ops:
                if isinstance(op, linalg.YieldOp):
                    results.append([m.get(v, v) for v in op.operands])
                    break
                fb.add_op(op.clone(value_mapper=m))
        fused_yield = [results[u - 1][i] if i in carried and j == 0 else results[j][i]
                       for i in range(n_out) for j in ([0] if i in carried else range(u))]
        fb.add_op(linalg.YieldOp(*fused_yield))
        fused = linalg.GenericOp(ins, outs, Region(fb), ins_maps + outs_maps,
                                 list(g.iterator_types.data), [v.type for v in outs])
        new.add_op(fused)
        for j in range(u):
            for i in range(n_out):
                if i not in carried or j == u - 1:
                    maps[j][g.res[i]] = fused.results[out_slot[(0 if i in carried else j, i)]]
        for j in range(u):
            for op in ops:
                if isinstance(op, WriteToFifoOp):
                    new.add_op(op.clone(value_mapper=maps[j]))
        new.add_op(yld.clone(value_mapper=maps[u - 1]))
        step = index_constant(const_int(loop.step) * u)  # type: ignore[operator]
        rewriter.insert_op(step, InsertPoint.before(loop))
        nl = scf.ForOp(loop.lb, loop.ub, step.result, list(loop.iter_args), Region(new))
        nl.attributes.update(loop.attributes)
        for a, b in zip(old.args, new.args):
            b.name_hint = a.name_hint
        old_step = loop.step
        rewriter.replace_op(loop, nl)
        if isinstance(old_step.owner, arith.ConstantOp) and not old_step.uses:
            rewriter.erase_op(old_step.owner)


class UnrollComputeLoopsPass(ModulePass):
    """Unroll-and-fuse the one-generic vector loops of compute stages (module docstring).

    Before:  scf.for step 64 { %x = read; %y = generic(%x) {f}; write %y }
    After:   scf.for step 128 { %x0 = read; %x1 = read; %y0, %y1 = generic(%x0, %x1) {f; f};
                                write %y0; write %y1 }
    """

    name = "unroll-compute-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from scheduler.rewriting import apply_patterns

        device = device_of(op, self.name)
        unit = device.units.get(device.compute_kind)
        lat = dict(unit.op_latency) if unit else {}
        ivl = dict(unit.op_interval) if unit else {}
        apply_patterns(op, [UnrollComputeLoop(lat, ivl)])
