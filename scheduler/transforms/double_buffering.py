"""`double-buffering`: two copies of each scratchpad buffer passed between stages, used in turn.

A pipeline inside loops runs one instance per iteration; with one copy of a buffer the DMA
of instance i+1 must wait until the scratchpad unit finished reading instance i's data (the
back-edge handshake of ktdf-to-ktdflowering). With two copies, instance i+1 fills the other
one while instance i is read: its private allocates each such buffer twice and picks one by
the pipeline's iteration count,

    %b0 = memref.alloc() : memref<3x64xf16, "LX">
    %b1 = memref.alloc() : memref<3x64xf16, "LX">
    %ph = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
    %b = ktdf.select_memref %ph[%b0, %b1] : memref<3x64xf16, "LX">

and the pipeline gets `modulo(size : 2)`: instance k+2 reuses instance k's copies, so its
writer waits only for instance k's reader (ktdf-to-ktdflowering turns that into one-way
signals two iterations apart; ktdflowering-to-dfir gives the view a rotating start address).

Which buffers: those in a memory at depth 1 of the device's memory tree (the per-core
scratchpad, whatever the device calls it: `LX`, `L1`; deeper, unit-local memories and the
global memory are left alone) that stages of two different unit kinds touch. Which
pipelines: directly inside `scf.for` loops with constant bounds of at least two iterations
in all, without `modulo` yet, whose copies fit the scratchpad's capacity (the device
model's `size`, with every buffer of the pipeline counted twice). Masked transfers are no
obstacle: masked.py's element-wise DMA addresses the selected copy's view like the whole
one (a row loop over M = 100 rows on 32 tiles masks its fourth row on most tiles).

Pipelines with a reduction (loops with `reduction_loop` or loop-carried values in a stage,
a generic with a reduction iterator) are costed (`_worth_it`), per tile, with n instances,
an instance's compute c and its DMA d. The copies buy, on each instance after the first,
the overlap of its DMA with the previous instance's compute, min(c, d). Where the DMA
crosses a memory the tiles share, they also cost one instance's DMA at the start: every
tile prefetches its second instance while the first ones are still being served, so the
tile served last gets its first data an instance's DMA later. Two copies there when
(n - 1) min(c, d) > d: on spyre's 32 cores (4 B/cycle of DDR each) the softmax example's
rows, c 774 against d 1,024, keep one copy for two rows a tile (M = 64: 2,206 cycles, 2,430
with two) and get two from three on (M = 96: 3,326 -> 3,180; M = 100, the fourth row
masked on most tiles: 3,918 -> 3,630); the layernorm example's rows, c 2,176 against
2,050, likewise (M = 64: 6,674, 6,951 with two; M = 100: 10,114 -> 9,630);
rmsnorm_4core_4x1's four cores, 64 rows each, get two (67,518 -> 49,840). Where no memory
is shared, two copies when c >= d: the prefetch then hides the DMA.

The model, per instance: DMA cycles are the bytes of the transfers between global memory
and the scratchpad over the narrower of the route's link and the core's share of a shared
memory's bandwidth (`bytes_per_cycle` over the grid's tiles); compute cycles are, for each
generic of the compute stage, its executions (the trip counts of its loops) times the sum of
its body ops' latencies (the compute unit's `op_latency`; an upper bound where chains
interleave, enough to tell which side dominates: rmsnorm 1,174 against 768 per row, the
softmax example's 32-core rows 774 against 1,024).

Streaming pipelines (the contraction pipeline's k steps: a DMA loop fills scratchpad buffers
that a load unit's loop drains, one step at a time, inside one instance) get two copies per
step instead: picked inside both loops by the phase of (instance, step), the loops marked
`ktdf.stream_copies = 2`, so the DMA of step k+1 need not wait for the load unit to drain
step k. The same rule with steps for instances, the drain (the buffers' bytes over the load
unit's link) for the compute: on spyre's 32 tiles the DDR is shared and one step's DMA
(matmul_fwd_ktir: 136 KiB at 4 B/cycle, 34,816 cycles) outweighs 15 drains of 1,088, so one
copy (570,271 cycles; two copies measured 572,575, matmul_1024 223,711 against 217,311); on one
tile nothing is shared and two copies pay (double-buffering/stream.mlir: 1,263 -> 1,095).

A RewritePattern on `ktdf.pipeline`. Idempotent: a pipeline with `modulo`, or with marked
streaming loops, is left alone.
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, StringAttr, i64
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from scheduler.analysis.compute_ops import has_reduction, latency_class
from scheduler.analysis.device import device_of
from scheduler.analysis.index_exprs import enclosing_loops, grid_tiles, trip_count
from scheduler.dialects.ktdf import (
    BufferPhaseOp,
    DataTransferOp,
    PipelineOp,
    SelectMemrefOp,
    StageOp,
)
from scheduler.rewriting import apply_patterns, rebuild_private

PHASES = 2



def _executions(op: Operation, stage: StageOp) -> int:
    n, cur = 1, op.parent_op()
    while cur is not None and cur is not stage:
        if isinstance(cur, scf.ForOp):
            n *= trip_count(cur) or 1
        cur = cur.parent_op()
    return n


def _worth_it(p: PipelineOp, device, instances: int) -> bool:
    """Whether two copies pay for a reduction pipeline of `instances` instances per tile
    (module docstring)."""
    dma, shared, compute = _instance_cycles(p, device)
    if not shared:
        return compute >= dma
    return (instances - 1) * min(compute, dma) > shared


def _instance_cycles(p: PipelineOp, device) -> tuple[float, float, float]:
    """An instance's DMA cycles, those of them through a memory the tiles share, and its
    compute cycles (module docstring)."""
    unit = device.units.get(device.compute_kind)
    tiles = grid_tiles(p)
    dma = shared = compute = 0.0
    for stage in p.stages:
        kinds = set(stage.applicable_units)
        if unit is not None and unit.kind in kinds:
            for g in stage.body.block.walk():
                if isinstance(g, linalg.GenericOp):
                    lat = sum(unit.op_latency.get(latency_class(o), 1) for o in g.body.block.ops
                              if not isinstance(o, linalg.YieldOp | arith.ConstantOp))
                    compute += _executions(g, stage) * lat
            continue
        for t in stage.body.block.walk():
            if not isinstance(t, DataTransferOp):
                continue
            ends = [t.source.type, t.destination.type]
            if not all(isinstance(e, MemRefType) and isinstance(e.memory_space, StringAttr)
                       for e in ends):
                continue
            mems = [device.memories.get(e.memory_space.data) for e in ends]  # type: ignore
            glob = [m for m in mems if m is not None and m.depth == 0]
            pad = [e for e, m in zip(ends, mems) if m is not None and m.depth == 1]
            if not glob or not pad:
                continue
            a, b = (e.memory_space.data for e in ends)  # type: ignore
            dps = [dp for u in kinds for dp in (device.datapath(a, u), device.datapath(u, b))
                   if dp is not None]
            rate = min((dp.bytes_per_cycle for dp in dps), default=1)
            sharing = bool(glob[0].bytes_per_cycle) and glob[0].per_core == 0 and tiles > 1
            if glob[0].bytes_per_cycle:
                share = glob[0].bytes_per_cycle / (tiles if glob[0].per_core == 0 else 1)
                rate = min(rate, share)
            cycles = _executions(t, stage) * _moved_bytes(t, pad[0]) / max(rate, 1e-9)
            dma += cycles
            shared += cycles if sharing else 0.0
    return dma, shared, compute


def _moved_bytes(t: DataTransferOp, pad: MemRefType) -> int:
    """The bytes one execution of `t` moves: its scratchpad side's static box, else the
    whole buffer."""
    sizes = t.static_dest_sizes if t.destination.type is pad else t.static_source_sizes
    box = list(sizes.get_values()) if sizes is not None else []  # type: ignore[union-attr]
    if not box or any(n <= 0 for n in box):
        return _bytes(pad)
    return _bytes(MemRefType(pad.element_type, box))


def _stage_kinds(v: SSAValue, p: PipelineOp) -> set[str]:
    kinds: set[str] = set()
    for use in v.uses:
        cur: Operation | None = use.operation
        while cur is not None and cur is not p:
            if isinstance(cur, StageOp):
                kinds.update(cur.applicable_units)
                break
            cur = cur.parent_op()
    return kinds


def _bytes(t: MemRefType) -> int:
    from arch_descriptions.model.device import element_bits

    return math.prod(t.get_shape()) * max(1, (element_bits(str(t.element_type)) or 16) // 8)


STREAM_COPIES = "ktdf.stream_copies"


def stream_loop(stage: StageOp) -> scf.ForOp | None:
    """The loop of a stage that streams steps through its buffers (the contraction
    pipeline's k steps, routed by path-expansion): the stage's one loop, around all its
    transfers."""
    ops = list(stage.body.block.ops)
    loops = [o for o in ops if isinstance(o, scf.ForOp)]
    if len(loops) != 1 or not any(isinstance(t, DataTransferOp) for t in loops[0].walk()):
        return None
    rest = [o for o in ops if o is not loops[0]]
    return None if any(isinstance(t, DataTransferOp) for o in rest for t in o.walk()) \
        else loops[0]


class DoubleBufferStream(RewritePattern):
    """Two copies of each scratchpad buffer that streaming loops of two unit kinds pass
    every step (a DMA fills it, a load unit drains it: the contraction pipeline's A and B
    blocks), picked inside the loops by the phase of (instance, step), and the loops marked
    `ktdf.stream_copies = 2`: step k+1 lands in the other copy while step k is read
    (ktdf-to-ktdflowering's signals of the step k+2 on the same copy wait for step k's
    reader). When the copies fit the scratchpad."""

    def __init__(self, device):
        self.device = device

    @op_type_rewrite_pattern
    def match_and_rewrite(self, p: PipelineOp, rewriter: PatternRewriter) -> None:
        private = p.private_op
        if private is None or p.modulo is not None:
            return
        loops = {s: lp for s in p.stages if (lp := stream_loop(s)) is not None}
        if not loops or any(STREAM_COPIES in lp.attributes for lp in loops.values()):
            return
        chosen: list[int] = []
        need: dict[str, int] = {}
        for i, (r, v) in enumerate(zip(private.res, private.yield_op.values)):
            t = r.type
            if not isinstance(t, MemRefType) or not isinstance(t.memory_space, StringAttr):
                continue
            mem = self.device.memories.get(t.memory_space.data)
            if mem is None or mem.depth != 1:
                continue
            need[t.memory_space.data] = need.get(t.memory_space.data, 0) + _bytes(t)
            users = {_stage_of(u.operation, p) for u in r.uses}
            if isinstance(v.owner, memref.AllocOp) and len(users) >= 2 \
                    and all(u in loops and loops[u].is_ancestor(w.operation)
                            for u in users for w in r.uses if _stage_of(w.operation, p) is u):
                chosen.append(i)
                need[t.memory_space.data] += _bytes(t)
        if not chosen or any(self.device.memories[k].size is not None
                             and n > self.device.memories[k].size for k, n in need.items()):
            return
        if not _stream_worth_it(p, self.device, list(loops.values()),
                                [private.res[i] for i in chosen]):
            return
        values = list(private.yield_op.values)
        copies = []
        for i in chosen:
            alloc = values[i].owner
            c = alloc.clone()  # type: ignore[union-attr]
            c.memref.name_hint = alloc.memref.name_hint  # type: ignore[union-attr]
            copies.append(c)
        n = len(private.res)
        new_private = rebuild_private(private, [*values, *(c.memref for c in copies)], copies,
                                      rewriter)
        rewriter.erase(private)
        outer = [lp.body.block.args[0] for lp in enclosing_loops(p)]
        for lp in loops.values():
            body = lp.body.block
            phase: BufferPhaseOp | None = None
            for i, c in zip(chosen, new_private.res[n:]):
                first = new_private.res[i]
                inside = [u for u in list(first.uses) if lp.is_ancestor(u.operation)]
                if not inside:
                    continue
                if phase is None:
                    phase = BufferPhaseOp([*outer, body.args[0]], PHASES)
                    phase.result.name_hint = "phase"
                    rewriter.insert(phase, InsertPoint.at_start(body))
                sel = SelectMemrefOp(phase.result, [first, c])
                sel.result.name_hint = first.name_hint
                rewriter.insert(sel, InsertPoint.after(phase))
                for u in inside:
                    u.operation.operands = [sel.result if o is first else o
                                            for o in u.operation.operands]
            lp.attributes[STREAM_COPIES] = IntegerAttr(PHASES, i64)
        rewriter.notify_op_modified(p)


def _stream_worth_it(p: PipelineOp, device, loops: list[scf.ForOp],
                     buffers: list[SSAValue]) -> bool:
    """Whether two copies pay for a streaming pipeline (module docstring): with one copy
    the DMA of step k+1 waits while the load unit drains step k's copy (c cycles, the
    buffers' bytes over that unit's link); two hide that on every step but the first, at
    the cost, where the DMA crosses a memory the tiles share, of one step's DMA at the start
    (`_worth_it`'s rule with steps for instances)."""
    k = max(trip_count(loops[0]) or 1, 1)
    steps = math.prod(trip_count(lp) or 1 for lp in enclosing_loops(p)) * k
    dma, shared, _ = _instance_cycles(p, device)  # an instance's: k steps
    per_step, shared = dma / k, shared / k
    drain = 0.0
    for b in buffers:
        t = b.type
        assert isinstance(t, MemRefType) and isinstance(t.memory_space, StringAttr)
        kinds = {k for u in b.uses for k in _stage_kinds_of(u.operation, p)}
        rates = [dp.bytes_per_cycle for k in sorted(kinds)  # the links out of the memory
                 if (dp := device.datapath(t.memory_space.data, k)) is not None]
        drain += _bytes(t) / max(min(rates, default=1), 1e-9)
    if not shared:
        return drain > 0
    return (steps - 1) * min(drain, per_step) > shared


def _stage_kinds_of(op: Operation, p: PipelineOp) -> list[str]:
    st = _stage_of(op, p)
    return list(st.applicable_units) if st is not None else []


def _stage_of(op: Operation, p: PipelineOp) -> StageOp | None:
    cur: Operation | None = op
    while cur is not None and cur is not p:
        if isinstance(cur, StageOp):
            return cur
        cur = cur.parent_op()
    return None


class DoubleBufferPipeline(RewritePattern):
    """Two copies of each scratchpad buffer shared by two unit kinds, `modulo(size : 2)`."""

    def __init__(self, device):
        self.device = device

    @op_type_rewrite_pattern
    def match_and_rewrite(self, p: PipelineOp, rewriter: PatternRewriter) -> None:
        private = p.private_op
        if p.modulo is not None or private is None or any(
                lp is not None and STREAM_COPIES in lp.attributes
                for lp in map(stream_loop, p.stages)):  # double-buffered per step already
            return
        loops = enclosing_loops(p)
        trips = [trip_count(lp) for lp in loops]
        if not loops or any(t is None for t in trips) or math.prod(trips) < 2:  # type: ignore
            return
        if has_reduction(p) and not _worth_it(p, self.device, math.prod(trips)):  # type: ignore
            return
        device = self.device
        chosen: list[tuple[int, memref.AllocOp]] = []
        need: dict[str, int] = {}
        for i, (r, v) in enumerate(zip(private.res, private.yield_op.values)):
            t = r.type
            if not isinstance(v.owner, memref.AllocOp) or not isinstance(t, MemRefType) \
                    or not isinstance(t.memory_space, StringAttr):
                continue
            kind = t.memory_space.data
            mem = device.memories.get(kind)
            if mem is None or mem.depth != 1 or len(_stage_kinds(r, p)) < 2:
                continue
            chosen.append((i, v.owner))
            need[kind] = need.get(kind, 0)
        if not chosen:
            return
        for r in private.res:  # every scratchpad buffer of the pipeline, two copies of some
            t = r.type
            if isinstance(t, MemRefType) and isinstance(t.memory_space, StringAttr) \
                    and t.memory_space.data in need:
                twice = any(private.res[i] is r for i, _ in chosen)
                need[t.memory_space.data] += _bytes(t) * (PHASES if twice else 1)
        for kind, nbytes in need.items():
            size = device.memories[kind].size
            if size is not None and nbytes > size:
                return
        y = private.yield_op
        phase = BufferPhaseOp([lp.body.block.args[0] for lp in loops], PHASES)
        phase.result.name_hint = "phase"
        rewriter.insert(phase, InsertPoint.before(y))
        for i, alloc in chosen:
            copies = [alloc.memref]
            for _ in range(PHASES - 1):
                c = alloc.clone()
                c.memref.name_hint = alloc.memref.name_hint
                rewriter.insert(c, InsertPoint.after(alloc))
                copies.append(c.memref)
            sel = SelectMemrefOp(phase.result, copies)
            sel.result.name_hint = alloc.memref.name_hint
            rewriter.insert(sel, InsertPoint.before(y))
            y.operands = [sel.result if k == i else o for k, o in enumerate(y.operands)]
        p.modulo = PHASES
        rewriter.notify_op_modified(p)


class DoubleBufferingPass(ModulePass):
    """Ping-pong the per-core scratchpad buffers passed between sibling stages.

    Before:  scf.for %i { ktdf.pipeline { ktdf.private { %b = memref.alloc() ... yield %b } ... } }
    After:   scf.for %i { ktdf.pipeline modulo(size : 2) { ktdf.private {
               %b0 = memref.alloc()  %b1 = memref.alloc()  %ph = ktdf.buffer_phase(%i)
               %b = ktdf.select_memref %ph[%b0, %b1]  yield %b } ... } }
    """

    name = "double-buffering"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, self.name)
        apply_patterns(op, [DoubleBufferStream(device), DoubleBufferPipeline(device)])
