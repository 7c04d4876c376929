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

u: the factor whose fused body the compute unit runs fastest per step (`per_step`: the body
issued in order, as the unit does, in interleave-compute-chains' order, with its broadcast
inputs and FIFO writes, over several iterations so that the fold's recurrence counts), at
most 4, a divisor of the trip count, the smallest within 10% of the best; u = 1 when
unrolling gains less. The chain over the issue time (an earlier estimate) misses the
stalls of in-order issue: the sum of exponentials on spyre (two 32-lane halves per 64
elements) ran 20 cycles per 64 at u = 2 against 16 of issue; at u = 4, 17 (softmax_wide,
2 x 262144: 332,196 -> 293,284 cycles; the softmax example on sample_device 2,694 -> 2,390).
A pure fold (a running maximum) stays as it is: its steps are one chain whatever the
unrolling, so no u gains.
Which loops: `scf.for` with constant bounds in a stage of a reducing pipeline whose body is
FIFO reads, `tensor.empty`, constants, exactly one `linalg.generic` on tensors and FIFO
writes, and does not read its index. A reducing pipeline holds its row in the scratchpad
before its compute passes run, so they are paced by their own chains; an element-wise
pipeline's compute loop is paced by the vectors streaming in, and unrolling it gained
nothing there (the golden cases: -18 to +3 cycles, most +1), so it is left alone.

A RewritePattern on `scf.for`; idempotent (an unrolled body's stalls are covered, so a
second run gains less than 10%: u = 1).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from scheduler.analysis.compute_ops import has_reduction, latency_class
from scheduler.analysis.device import device_of
from scheduler.analysis.index_exprs import index_constant, trip_count
from scheduler.dialects.ktdf import PipelineOp, ReadFromFifoOp, WriteToFifoOp, enclosing_stage
from scheduler.dialects.ktdf_types import const_int

MAX_UNROLL = 4
GAIN = 0.1  # the least gain per step an unrolling must bring (a second run gains less)
_ALLOWED = (ReadFromFifoOp, WriteToFifoOp, tensor.EmptyOp, arith.ConstantOp, linalg.GenericOp)


def _in_reducing_pipeline(op: Operation) -> bool:
    stage = enclosing_stage(op)
    p = stage.parent_op() if stage is not None else None
    return isinstance(p, PipelineOp) and has_reduction(p)


class UnrollComputeLoop(RewritePattern):
    """Unroll a compute loop of one generic by u and fuse the u generics."""

    def __init__(self, latency: dict[str, int], interval: dict[str, int],
                 rate: Callable[[str], int] | None = None):
        self.latency = latency
        self.interval = interval
        self.rate = rate  # elements of a type the compute unit completes per cycle

    def beats(self, op: Operation, lanes: int) -> int:
        """Intervals an op on `lanes` elements holds the unit: a vector longer than the unit
        completes per cycle (a partial of two f32 vectors) takes more than one."""
        if self.rate is None or not op.results:
            return 1
        return max(1, math.ceil(lanes / max(1, self.rate(str(op.results[0].type)))))

    def factor(self, g: linalg.GenericOp, carried: dict[int, int], trip: int,
               writes: list[int]) -> int:
        """The u (a divisor of the trip count, at most MAX_UNROLL) whose fused body the
        compute unit runs fastest per step, the smallest of those within GAIN of the best
        (`per_step`); 1 when no unrolling gains GAIN."""
        cost = {u: self.per_step(g, carried, u, writes)
                for u in range(1, MAX_UNROLL + 1) if trip % u == 0}
        best = min(cost.values())
        if cost[1] <= best * (1 + GAIN):
            return 1
        return min(u for u, c in cost.items() if c <= best * (1 + GAIN))

    def per_step(self, g: linalg.GenericOp, carried: dict[int, int], u: int,
                 writes: list[int]) -> float:
        """Cycles per step of the loop unrolled by u, issued in order as the compute unit
        does (shared/spec/arch.md §8): the fused body in interleave-compute-chains' order
        (each op by the earliest start its operands allow), an op issuing when the unit is
        free and its operands are ready, holding the unit for its class interval (times its beats), its
        result ready after its class latency; each broadcast input one simple op per
        iteration, each FIFO write one cycle once its vector is ready; step j's partial is
        step j-1's result, step 0's the previous iteration's. Measured over iterations
        after the first, so the recurrence across iterations counts."""
        body = g.body.block
        n_in = len(g.inputs)
        ops = [op for op in body.ops if not isinstance(op, linalg.YieldOp | arith.ConstantOp)]
        index = {op: k for k, op in enumerate(ops)}
        yielded = list(body.last_op.operands) if body.last_op else []  # type: ignore[union-attr]
        maps = g.indexing_maps.data
        bcast = sum(1 for k in range(n_in)
                    if maps[k].data != AffineMap.identity(maps[k].data.num_dims))
        Node = tuple[int, int]  # (step, op)

        def source(j: int, v: SSAValue) -> Node | tuple[str, int, int] | None:
            """The node producing `v` in step j: an op, a carried partial ("acc", step,
            output) from an earlier step, or None (ready when the iteration starts)."""
            if isinstance(v.owner, Operation) and v.owner in index:
                return (j, index[v.owner])
            if v in body.args and (i := body.args.index(v) - n_in) in carried:
                return ("acc", j - 1, i)
            return None

        def result(j: int, i: int) -> Node | None:
            v = yielded[i]
            return (j, index[v.owner]) if isinstance(v.owner, Operation) \
                and v.owner in index else None

        deps: dict[Node, list] = {(j, k): [source(j, o) for o in op.operands]
                                  for j in range(u) for k, op in enumerate(ops)}
        lat = {(j, k): self.latency.get(latency_class(op), 1)
               for j in range(u) for k, op in enumerate(ops)}
        lanes = max((math.prod(t.get_shape()) for v in g.outputs
                     if isinstance(t := v.type, TensorType)), default=1)
        ivl = {(j, k): self.interval.get(latency_class(op), 1) * self.beats(op, lanes)
               for j in range(u) for k, op in enumerate(ops)}

        def resolve(d, done: dict[Node, float], prev: dict[int, float]) -> float:
            if d is None:
                return 0.0
            if d[0] == "acc":
                _, j, i = d
                if j < 0:
                    return prev.get(i, 0.0)
                r = result(j, i)
                return done[r] if r is not None else 0.0
            return done[d]

        est: dict[Node, float] = {}
        start: dict[Node, float] = {}
        for n in deps:  # interleave-compute-chains' order: a list schedule by readiness
            start[n] = max((resolve(d, est, {}) for d in deps[n]), default=0.0)
            est[n] = start[n] + lat[n]
        order = sorted(deps, key=lambda n: start[n])
        t, prev, marks = 0.0, {}, []
        iterations = max(3, math.ceil(24 / u) + 1)
        for _ in range(iterations):
            begin = t + bcast  # the broadcasts issue first, one cycle each
            t = begin
            ready: dict[Node, float] = {}
            for n in order:
                s = max([t, *(max(resolve(d, ready, prev), begin + 1 if d is None and bcast
                                  else 0.0) for d in deps[n])])
                t = s + ivl[n]
                ready[n] = s + lat[n]
            for j in range(u):
                for i in writes:
                    r = result(j, i)
                    t = max(t, ready[r] if r is not None else 0.0) + 1
            prev = {i: ready[r] for i in carried if (r := result(u - 1, i)) is not None}
            marks.append(t)
        return (marks[-1] - marks[0]) / ((iterations - 1) * u)

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
        writes = [g.res.index(w.operands[0]) for w in ops if isinstance(w, WriteToFifoOp)
                  and w.operands[0] in g.res]
        u = self.factor(g, carried, trip, writes)
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
        rewriter.insert(step, InsertPoint.before(loop))
        nl = scf.ForOp(loop.lb, loop.ub, step.result, list(loop.iter_args), Region(new))
        nl.attributes.update(loop.attributes)
        for a, b in zip(old.args, new.args):
            b.name_hint = a.name_hint
        old_step = loop.step
        rewriter.replace(loop, nl)
        if isinstance(old_step.owner, arith.ConstantOp) and not old_step.uses:
            rewriter.erase(old_step.owner)


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
        rate = unit.elements_per_cycle if unit and unit.lanes_per_cycle else None
        apply_patterns(op, [UnrollComputeLoop(lat, ivl, rate)])
