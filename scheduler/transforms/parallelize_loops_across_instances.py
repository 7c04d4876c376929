"""`parallelize-loops-across-instances`: split a pipeline's corelet-local loop over the
instances of the corelet.

A core of some devices holds several copies of its compute corelet (`sample_device`: two
sub-cores, each with its own load unit, SFU and store unit on FIFOs of their own, sharing the
core's L1). The schedule so far runs every vector of a pipeline instance on the first of
them. Upstream turns a parallel loop around a corelet-local pipeline into
`ktdf.parallel ... distribute(num_instances = N)`: instance i runs the i-th contiguous chunk
of the iterations. Here stage-coarsening has already moved that loop *into* the corelet's
stages (each of the load, compute and store stages walks the block's vectors with the same
parallel loop), so the pass distributes it there: the run of corelet-level stages is
repeated once per instance, copy i walking chunk i of the loop (ceil(T / N) iterations, the
last chunk the rest) with FIFO slots and tokens of its own, and marked `instance = i`;
ktdf-to-ktdflowering binds it to that corelet's units (`C<core>-<KIND>-CL<i>`). The stages
that move data between the scratchpad and the global memory stay as they are: their
buffers are shared by the corelets (the DMA signals every reader, and every writer signals
the DMA).

    ktdf.stage ... { scf.for %v = 0 to 8 step 1 { <vector %v> } } {applicable_units = ["SFU"]}
becomes
    ktdf.stage ... { scf.for %v = 0 to 4 step 1 { ... } } {applicable_units = ["SFU"], instance = 0}
    ktdf.stage ... { scf.for %v = 4 to 8 step 1 { ... } } {applicable_units = ["SFU"], instance = 1}

Which pipelines: on a device with more than one corelet per core, those whose
corelet-level stages form one contiguous run, connected among themselves by FIFOs only,
each stage's body being index constants and one `parallel_loop` with constant bounds, the
same loop in every stage, of at least two iterations, touching no memory inside the corelet
(a unit-local register file is per corelet). Left alone: reduction pipelines (their compute
stage walks the row several times, with loop-carried values), vector-per-transfer pipelines
left by stage-coarsening (no loop in the stages: a pipeline instance is one vector), and
pipelines already split.

A RewritePattern on `ktdf.pipeline`. Idempotent: a split pipeline has `instance` stages.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from scheduler.analysis.device import device_of, memory_of
from scheduler.analysis.index_exprs import index_constant
from scheduler.dialects.ktdf import (
    INSTANCE,
    CreateTokenOp,
    FifoAllocateOp,
    FifoSlotType,
    LoopType,
    LoopTypeAttr,
    PipelineOp,
    StageOp,
    TokenType,
    enclosing_stage,
)
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns, rebuild_private


def _loop_of(stage: StageOp) -> scf.ForOp | None:
    """The stage's one top-level loop, when the rest of its body is index constants."""
    loops = [o for o in stage.body.block.ops if isinstance(o, scf.ForOp)]
    rest = [o for o in stage.body.block.ops if not isinstance(o, scf.ForOp | arith.ConstantOp)]
    if len(loops) != 1 or rest or loops[0].iter_args:
        return None
    lt = loops[0].attributes.get("loop_type")
    if not (isinstance(lt, LoopTypeAttr) and lt.data == LoopType.PARALLEL_LOOP):
        return None
    return loops[0]


def _bounds(loop: scf.ForOp) -> tuple[int, int, int] | None:
    b = tuple(const_int(v) for v in (loop.lb, loop.ub, loop.step))
    return None if None in b or b[2] <= 0 else b  # type: ignore[return-value]


def _touches_corelet_memory(stage: StageOp, device) -> bool:
    for op in stage.walk():
        for v in (*op.operands, *op.results):
            mem = memory_of(v, device)
            if mem is not None and mem.depth >= 2:
                return True
    return False


def _run(p: PipelineOp, device) -> tuple[list[StageOp], tuple[int, int, int]] | None:
    """The corelet-level stages (contiguous) and their common loop bounds, when splittable."""
    stages = p.stages
    if any(INSTANCE in s.attributes for s in stages):
        return None
    idx = [i for i, s in enumerate(stages) if len(s.applicable_units) == 1
           and s.applicable_units[0] in device.units
           and device.is_corelet_unit(s.applicable_units[0])]
    if not idx or idx != list(range(idx[0], idx[-1] + 1)):
        return None
    run = [stages[i] for i in idx]
    bounds = set()
    for s in run:
        loop = _loop_of(s)
        b = _bounds(loop) if loop is not None else None
        if b is None or _touches_corelet_memory(s, device):
            return None
        bounds.add(b)
    if len(bounds) != 1:
        return None
    (b,) = bounds
    trip = len(range(*b))
    return (run, b) if trip >= 2 else None


def _internal(p: PipelineOp, run: list[StageOp]) -> list[int]:
    """Positions of the private results only the run uses: its FIFO slots, and tokens one of
    its stages produces for another."""
    priv = p.private_op
    assert priv is not None
    inside = set(run)
    out_tok = {t for s in run for t in s.depends_out}
    in_tok = {t for s in run for t in s.depends_in}
    keep = []
    for i, r in enumerate(priv.res):
        owners = {enclosing_stage(u.operation) for u in r.uses}
        if not owners or not owners <= inside:
            continue
        if isinstance(r.type, FifoSlotType) or (isinstance(r.type, TokenType)
                                                 and r in out_tok and r in in_tok):
            keep.append(i)
    return keep


class ParallelizeAcrossInstances(RewritePattern):
    def __init__(self, device):
        self.device = device

    @op_type_rewrite_pattern
    def match_and_rewrite(self, p: PipelineOp, rewriter: PatternRewriter) -> None:
        n = self.device.corelets_per_core
        priv = p.private_op
        if n < 2 or priv is None:
            return
        found = _run(p, self.device)
        if found is None:
            return
        run, (lb, ub, step) = found
        trip = len(range(lb, ub, step))
        chunk = -(-trip // n)
        chunks = [(lb + k * chunk * step, min(ub, lb + (k + 1) * chunk * step))
                  for k in range(n) if k * chunk < trip]
        internal = _internal(p, run)
        # a private with one more set of the run's slots and tokens per further instance
        y = priv.yield_op
        values = list(y.values)
        fresh: list[list[SSAValue]] = []
        new_ops: list[Operation] = []
        for _ in chunks[1:]:
            got = []
            for i in internal:
                src = values[i].owner
                if isinstance(src, CreateTokenOp):
                    c: Operation = CreateTokenOp()  # a fresh unique id: no CSE with the first
                elif isinstance(src, FifoAllocateOp) and len(src.results) == 1:
                    c = src.clone()
                else:
                    return
                new_ops.append(c)
                got.append(c.results[0])
            fresh.append(got)
        new_priv = rebuild_private(priv, [*values, *(v for got in fresh for v in got)], new_ops,
                                   rewriter)
        rewriter.erase(priv, safe_erase=False)
        base = len(values)
        # the copies, after the run, then every stage of the run walks its chunk
        at = InsertPoint.after(run[-1])
        for k, (lo, hi) in enumerate(chunks[1:], 1):
            mapping: dict[SSAValue, SSAValue] = {
                new_priv.res[i]: new_priv.res[base + (k - 1) * len(internal) + j]
                for j, i in enumerate(internal)}
            for s in run:
                c = s.clone(value_mapper=dict(mapping))
                rewriter.insert(c, at)
                _set_chunk(c, lo, hi, k, rewriter)
                at = InsertPoint.after(c)
        for s in run:
            _set_chunk(s, *chunks[0], 0, rewriter)


def _set_chunk(stage: StageOp, lo: int, hi: int, instance: int,
               rewriter: PatternRewriter) -> None:
    loop = _loop_of(stage)
    assert loop is not None
    a, b = index_constant(lo), index_constant(hi)
    rewriter.insert([a, b], InsertPoint.before(loop))
    old = [loop.lb.owner, loop.ub.owner]
    loop.operands = [a.result, b.result, *loop.operands[2:]]
    rewriter.notify_op_modified(loop)
    for o in old:  # the stage's own constants of the whole range, when nothing else reads them
        if isinstance(o, arith.ConstantOp) and o.parent is stage.body.block \
                and not o.result.uses:
            rewriter.erase(o)
    stage.attributes[INSTANCE] = IntegerAttr(instance, i64)
    rewriter.notify_op_modified(stage)


class ParallelizeLoopsAcrossInstancesPass(ModulePass):
    """Distribute the corelet-local loop of each pipeline over the corelets of a core.

    Before:  ktdf.pipeline { ...; ktdf.stage { scf.for %v = 0 to 8 { ... } } {applicable_units = ["SFU"]} ... }
    After:   ktdf.pipeline { ...; ktdf.stage { scf.for %v = 0 to 4 { ... } } {..., instance = 0}
                                  ktdf.stage { scf.for %v = 4 to 8 { ... } } {..., instance = 1} ... }
    """

    name = "parallelize-loops-across-instances"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [ParallelizeAcrossInstances(device_of(op, self.name))])
