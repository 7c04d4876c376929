"""`ktdf-to-ktdflowering`: bind stages to hardware units and make their ordering explicit.

For a kernel of N tiles (1-D grid after `normalize-grid-to-1d`) every unit kind a stage runs
on, and every memory its buffers and views live in, is materialised per core
(`%u = dataflow.get_unit {core = 3 : i32, name = "C3-MNILU", type = "MNILU"}`; the global
memory once, by its kind). A `uniform` map keyed by the tile id picks the executing tile's
unit (`%mnilu = uniform.query_map(map:%m, key:%tile)`). Then:

* each `ktdf.stage` becomes `ktdf_lowering.execute_on %unit { body } {applicable_units}`;
* each `ktdf.pipeline` becomes an `execute_on` over all its units, with the contents of its
  `ktdf.private` hoisted inside (buffers, FIFO slots, tokens);
* a stage that writes a scratchpad buffer a later stage reads gets a handshake
  `ktdf_lowering.signal %writer, %reader` at its end, and the reader one at its start
  (FIFO-connected stages need none; the reader need not be the next stage: a DMA and a ring
  unit can both land buffers that one load unit reads);
* inside loops, the reader releases the buffer at its end and the writer waits for that at
  its start — `scf.if`-guarded to skip the last and the first iteration respectively — so the
  next instance never overwrites a buffer still being read;
* a buffer that a streaming loop writes and another reads every step (the contraction
  pipeline's k steps) is handshaken inside the loops, per step, the back edge counted over
  the instance loops and the steps; with `ktdf.stream_copies = N` (double-buffering) one-way
  signals N steps apart.

Units are never named after a particular device: kinds come from `applicable_units` and the
memory spaces of the buffers, names from `Device.resource_id`.
"""

from __future__ import annotations

import itertools

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from arch_descriptions.model.device import MAX_TEMPLATE_CORES
from ktir.diagnostics import op_error
from ktir.dialects.ktdp import GetComputeTileIdOp, kernel_grid
from scheduler.analysis.device import device_of
from scheduler.analysis.index_exprs import (
    index_constant,
    linear_iteration,
    loops_between,
    trip_count,
)
from scheduler.analysis.placement import bytes_overlap, view_bytes
from scheduler.analysis.units import kind_hint, queried_units, split_key, unit_key
from scheduler.dialects.ktdf import (
    INSTANCE,
    DataTransferOp,
    IndDataTransferOp,
    PipelineOp,
    SelectMemrefOp,
    StageOp,
)
from scheduler.dialects.ktdf_lowering import ExecuteOnOp, SignalOp
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns
from scheduler.transforms.double_buffering import STREAM_COPIES, stream_loop
from spyrecode.dialects.dataflow import GetUnitOp
from spyrecode.dialects.uniform import DefImmutableMappingOp, QueryMapOp


def memory_kind(t) -> str | None:
    if isinstance(t, MemRefType) and isinstance(t.memory_space, StringAttr):
        return t.memory_space.data
    return None


def stage_key(stage: StageOp) -> str:
    """The unit a stage is bound to: its kind, on the corelet its `instance` attribute names
    (`parallelize-loops-across-instances`; none: the first)."""
    inst = stage.attributes.get(INSTANCE)
    return unit_key(stage.applicable_units[0],
                    inst.value.data if isinstance(inst, IntegerAttr) else None)


def _kinds_used(fn: func.FuncOp, device) -> tuple[list[str], list[str]]:
    units: list[str] = []
    memories: list[str] = []
    for op in fn.walk():
        if isinstance(op, StageOp) and op.applicable_units:
            k = stage_key(op)
            if k not in units:
                units.append(k)
        for v in (*op.operands, *op.results):
            k = memory_kind(v.type)
            if k is not None and k not in memories:
                memories.append(k)
    for k in units:
        if split_key(k)[0] not in device.units:
            raise op_error(fn, f'stages run on "{k}", which is not a unit of device '
                               f"@{device.name}")
    return units, memories


def _materialise(fn: func.FuncOp, device, tiles: int, units: list[str], memories: list[str],
                 rewriter: PatternRewriter, active: int | None = None) -> None:
    """At the top of `fn`: the tile id, then per kind a get_unit per core, the uniform map
    and its query by tile id (the handle of the executing tile's unit). `active`: the
    tiles that run the group (`ktdf.active_tiles`, tile-invariant-groups): units on those
    cores only, memories on every tile's."""
    block = fn.body.block
    tile_ops = [o for o in fn.walk() if isinstance(o, GetComputeTileIdOp)]
    new: list[Operation] = []
    if tile_ops:
        tile = tile_ops[0].ids[0]
        tile_op = tile_ops[0]
        tile_op.detach()
        new.append(tile_op)
    else:
        t = GetComputeTileIdOp()
        t.ids[0].name_hint = "tile"
        new.append(t)
        tile = t.ids[0]
    keys = [index_constant(c) for c in range(tiles)]
    new += keys
    for key in units + memories:
        kind, inst = split_key(key) if key in units else (key, 0)
        n = tiles if active is None or key in memories else min(active, tiles)
        is_memory = kind in device.memories
        per_core = (device.memories[kind].per_core if is_memory
                    else device.units[kind].per_core)
        hint = kind_hint(key)
        if per_core == 0:  # outside the cores (the global memory): one unit
            g = GetUnitOp(device.resource_id(kind, 0), kind)
            g.unit.name_hint = hint
            new.append(g)
            continue
        gets = []
        for c in range(n):
            g = GetUnitOp(device.resource_id(kind, c, inst or None), kind, core=c,
                          corelet=inst or None)
            g.unit.name_hint = f"{hint}_{c}"
            gets.append(g)
        table = DefImmutableMappingOp([(k.result, g.unit) for k, g in zip(keys, gets)])
        table.result.name_hint = f"{hint}_of_tile"
        query = QueryMapOp(table.result, tile)
        query.result.name_hint = hint
        new += [*gets, table, query]
    rewriter.insert(new, InsertPoint.at_start(block))  # after the tile id op moved


def unit_handles(fn: func.FuncOp) -> dict[str, SSAValue]:
    """Per materialised kind, the handle of the executing tile's unit: the query of its
    table, or the one get_unit of a kind outside the cores."""
    block = fn.body.block
    handles = queried_units(block)
    for op in block.ops:
        if isinstance(op, GetUnitOp) and op.core is None and op.kind not in handles:
            handles[op.kind] = op.unit
    return handles


def _loop_bound(loop: scf.ForOp, last: bool) -> tuple[list[Operation], SSAValue | None]:
    """The value of the first (last) induction value, folded when the bounds are constants.

    Returns no value when the loop runs exactly once: its test is always true."""
    lb, ub, step = (const_int(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is not None and ub is not None and step is not None and step > 0:
        if ub - lb <= step:
            return [], None
        if not last:
            return [], loop.lb
        c = index_constant(lb + (ub - lb - 1) // step * step)
        return [c], c.result
    if not last:
        return [], loop.lb
    one = index_constant(1)
    a = arith.SubiOp(loop.ub, loop.lb)
    b = arith.SubiOp(a, one)
    c = arith.DivUIOp(b, loop.step)
    d = arith.MuliOp(c, loop.step)
    target = arith.AddiOp(d, loop.lb)
    return [one, a, b, c, d, target], target.result


def _iteration_test(loops: list[scf.ForOp], last: bool) -> tuple[list[Operation], SSAValue | None]:
    """Ops computing "every loop is at its first (last) iteration"; None when always true."""
    ops: list[Operation] = []
    cond: SSAValue | None = None
    for loop in loops:
        bound_ops, bound = _loop_bound(loop, last)
        if bound is None:
            continue
        eq = arith.CmpiOp(loop.body.block.args[0], bound, "eq")
        ops += [*bound_ops, eq]
        if cond is None:
            cond = eq.result
        else:
            both = arith.AndIOp(cond, eq.result)
            ops.append(both)
            cond = both.result
    return ops, cond


def _guarded_signal(units: list[SSAValue], loops: list[scf.ForOp], skip_last: bool,
                    kind: str) -> list[Operation]:
    """`scf.if !(first|last iteration) { ktdf_lowering.signal }`; nothing for a single iteration."""
    test_ops, cond = _iteration_test(loops, skip_last)
    if cond is None:
        return []
    then = Block()
    then.add_ops([SignalOp(units, applicable_units=[kind]), scf.YieldOp()])
    otherwise = Block([scf.YieldOp()])
    guard = scf.IfOp(cond, [], Region(otherwise), Region(then))
    return [*test_ops, guard]


def _linear_iteration(loops: list[scf.ForOp], where: Operation
                      ) -> tuple[list[Operation], SSAValue, int]:
    """Ops computing the linearised iteration count of `loops` (constant bounds), the
    value, and the total count."""
    got = linear_iteration(loops)
    if got is None:
        raise op_error(where, "a pipeline with modulo(size : N) needs loops with constant "
                              "bounds around it")
    return got


def _one_way(units: list[SSAValue], kind: str, mode: str, cond: tuple[str, int] | None,
             loops: list[scf.ForOp], where: Operation) -> list[Operation]:
    """A one-way signal (`sync = "send"` / `"recv"`) in the program of `kind`; with `cond`
    ("ge" / "lt", n), only in the iterations whose linear count compares so with n."""
    sig = SignalOp(units, applicable_units=[kind])
    sig.attributes["sync"] = StringAttr(mode)
    if cond is None:
        return [sig]
    ops, lin, total = _linear_iteration(loops, where)
    pred, n = cond
    if (pred == "ge" and n <= 0) or (pred == "lt" and n >= total):
        return [sig]
    if (pred == "ge" and n >= total) or (pred == "lt" and n <= 0):
        return []
    c = index_constant(n)
    test = arith.CmpiOp(lin, c, "uge" if pred == "ge" else "ult")
    then = Block([sig, scf.YieldOp()])
    guard = scf.IfOp(test.result, [], Region(then), Region(Block([scf.YieldOp()])))
    return [*ops, c, test, guard]


def _modulo_signals(pipeline: PipelineOp, loops: list[scf.ForOp], copies: int,
                    pair: list[SSAValue], wkind: str, rkind: str,
                    head: list[list[Operation]], tail: list[list[Operation]], i: int,
                    j: int) -> None:
    """With N copies of the buffers (`modulo(size : N)`): the writer posts "full" after its
    work and the reader waits for it before its own; the reader posts "free" after its work
    except in the last N iterations, and the writer waits for it before its work except in
    the first N, so the writer runs up to N instances ahead."""
    _, _, total = _linear_iteration(loops, pipeline)
    tail[i].append(_one_way(pair, wkind, "send", None, loops, pipeline)[0])
    head[j].append(_one_way(pair, rkind, "recv", None, loops, pipeline)[0])
    tail[j] += _one_way(pair, rkind, "send", ("lt", total - copies), loops, pipeline)
    head[i] = _one_way(pair, wkind, "recv", ("ge", copies), loops, pipeline) + head[i]


def _buffers(v: SSAValue) -> set[SSAValue]:
    """A buffer, or the copies a streaming loop's phase picks among (double-buffering)."""
    return set(v.owner.candidates) if isinstance(v.owner, SelectMemrefOp) else {v}


def _buffers_written(stage: StageOp) -> set[SSAValue]:
    return {b for t in stage.walk()
            if isinstance(t, DataTransferOp | IndDataTransferOp) and not t.dest_is_fifo
            and memory_kind(t.destination.type) is not None for b in _buffers(t.destination)}


def _buffers_read(stage: StageOp) -> set[SSAValue]:
    """The memories a stage's transfers read: their sources and the index buffers of
    gathers and scatters."""
    out: set[SSAValue] = set()
    for t in stage.walk():
        if isinstance(t, IndDataTransferOp):
            out |= {v for v in t.all_index_buffers if memory_kind(v.type) is not None}
        if isinstance(t, DataTransferOp | IndDataTransferOp) and not t.source_is_fifo \
                and memory_kind(t.source.type) is not None:
            out |= _buffers(t.source)
    return out


def _shares(written: set[SSAValue], read: set[SSAValue], single_tile: bool) -> bool:
    """Whether a stage reads what another wrote: one of the same buffers, or kernel views
    whose scratchpad bytes overlap (two groups fused into one function name one slot through
    views of their own)."""
    if written & read:
        return True
    spans = [w for b in written if (w := view_bytes(b, single_tile)) is not None]
    return any(bytes_overlap(w, view_bytes(r, single_tile)) for r in read for w in spans)


def _fed_by(reader: StageOp, key: str) -> bool:
    """Whether a stage on unit `key` before `reader` in its pipeline writes a buffer of that
    pipeline's private that `reader` reads (so they handshake every instance)."""
    p = reader.parent_op()
    assert isinstance(p, PipelineOp)
    private = p.private_op
    own = set(private.res) if private is not None else set()
    reads = _buffers_read(reader) & own
    for s in p.stages:
        if s is reader:
            return False
        if len(s.applicable_units) == 1 and stage_key(s) == key \
                and _buffers_written(s) & reads:
            return True
    return False


def _sibling_signals(pipeline: PipelineOp, fn: func.FuncOp, kinds: list[str],
                     units: dict[str, SSAValue], tail: list[list[Operation]],
                     rewriter: PatternRewriter) -> None:
    """A buffer defined outside the pipeline (broadcast-promotion's, or a scratchpad view
    of the kernel that a fused later group reads) that one of its stages writes and stages
    of later pipelines read: the writer posts a one-way signal after its work in its last
    instance (the last iteration of the loops around its pipeline that do not also hold the
    reader; a loop of more than one iteration around both is refused), and each reader
    waits for it in its first iteration. The signal counts between two units are shared by all their
    handshakes; this one is the writer unit's last to the reader's unit before the reader's
    pipeline, and the reader's first wait there, so counting matches them.

    No signal when the reader already waits, every iteration, for a stage of the writer's
    kind in its own pipeline (a DMA that lands another of its buffers): that stage's signal
    comes after the writer's transfer on the same unit and waits for it (a unit's
    `sync_send` waits for its outstanding transfers), so the reader's order is implied and
    the loop's first DMA need not wait for the hoisted one (layernorm: 32 cycles)."""
    written = [{b for b in _buffers_written(s)
                if not pipeline.is_ancestor(b.owner)}  # type: ignore[arg-type]
               for s in pipeline.stages]
    if not any(written):
        return
    mine = loops_between(pipeline, fn)
    active = fn.attributes.get("ktdf.active_tiles")
    single = isinstance(active, IntegerAttr) and active.value.data == 1
    after = False
    for op in fn.walk():
        after |= op is pipeline
        if not after or not isinstance(op, StageOp) or pipeline.is_ancestor(op) \
                or len(op.applicable_units) != 1:
            continue
        rkind = stage_key(op)
        loops = [lp for lp in loops_between(op, fn) if lp not in mine]
        for i, bufs in enumerate(written):
            if not _shares(bufs, _buffers_read(op), single) or kinds[i] == rkind \
                    or _fed_by(op, kinds[i]):
                continue
            shared = [lp for lp in mine if lp.is_ancestor(op)]
            if any(trip_count(lp) != 1 for lp in shared):
                raise op_error(pipeline, "a pipeline inside a loop writes a buffer that a "
                                         "later pipeline in the same loop reads: the next "
                                         "iteration's writer would need to wait for the "
                                         "reader, which is not built")
            own = [lp for lp in mine if lp not in shared]
            pair = [units[kinds[i]], units[rkind]]
            send = _one_way(pair, kinds[i], "send", None, mine, pipeline)
            ops, last = _iteration_test(own, True)
            if last is not None:  # a writer in loops: after its last instance only
                send = [*ops, scf.IfOp(last, [], Region(Block([*send, scf.YieldOp()])),
                                       Region(Block([scf.YieldOp()])))]
            tail[i] += send
            recv = _one_way(pair, rkind, "recv", None, loops, op)
            ops, first = _iteration_test(loops, False)
            if first is not None:
                recv = [*ops, scf.IfOp(first, [], Region(Block([*recv, scf.YieldOp()])),
                                       Region(Block([scf.YieldOp()])))]
            rewriter.insert(recv, InsertPoint.at_start(op.body.block))


def _stream_signals(pair: list[SSAValue], wkind: str, rkind: str, outer: list[scf.ForOp],
                    wl: scf.ForOp, rl: scf.ForOp, rewriter: PatternRewriter) -> None:
    """The handshakes of buffers a streaming writer and reader pass every step, inside
    their loops: "full" after the writer's step, awaited before the reader's; "free" after
    the reader's, awaited before the writer's, counted over the instance loops and the
    steps, so that they skip the very first and last step. With N copies of the buffers
    (`ktdf.stream_copies`, double-buffering) the writer runs up to N steps ahead."""
    attr = wl.attributes.get(STREAM_COPIES)
    copies = attr.value.data if isinstance(attr, IntegerAttr) else 1
    wloops, rloops = [*outer, wl], [*outer, rl]
    if copies > 1:
        _, _, total = _linear_iteration(rloops, rl)
        w_head = _one_way(pair, wkind, "recv", ("ge", copies), wloops, wl)
        w_tail = _one_way(pair, wkind, "send", None, wloops, wl)
        r_head = _one_way(pair, rkind, "recv", None, rloops, rl)
        r_tail = _one_way(pair, rkind, "send", ("lt", total - copies), rloops, rl)
    else:
        w_head = _guarded_signal(pair, wloops, False, wkind)
        w_tail = [SignalOp(pair, applicable_units=[wkind])]
        r_head = [SignalOp(pair, applicable_units=[rkind])]
        r_tail = _guarded_signal(pair, rloops, True, rkind)
    for loop, head, tail in ((wl, w_head, w_tail), (rl, r_head, r_tail)):
        block = loop.body.block
        if head:
            rewriter.insert(head, InsertPoint.at_start(block))
        if tail:
            rewriter.insert(tail, InsertPoint.before(block.last_op))  # type: ignore[arg-type]


def _lower_pipeline(pipeline: PipelineOp, fn: func.FuncOp, kinds: list[str],
                    units: dict[str, SSAValue], rewriter: PatternRewriter) -> None:
    stages = pipeline.stages
    loops = loops_between(pipeline, fn)
    head: list[list[Operation]] = [[] for _ in stages]
    tail: list[list[Operation]] = [[] for _ in stages]
    copies = pipeline.modulo or 1
    # a writer and a later reader of the same buffer, adjacent or not (two loads that land
    # in one memory from different units, e.g. a DMA and the ring, feed one load unit)
    for i, j in itertools.combinations(range(len(stages)), 2):
        shared = _buffers_written(stages[i]) & _buffers_read(stages[j])
        if not shared or kinds[i] == kinds[j]:
            continue
        pair = [units[kinds[i]], units[kinds[j]]]
        wl, rl = stream_loop(stages[i]), stream_loop(stages[j])
        if wl is not None and rl is not None:
            _stream_signals(pair, kinds[i], kinds[j], loops, wl, rl, rewriter)
            continue
        if copies > 1 and loops:
            _modulo_signals(pipeline, loops, copies, pair, kinds[i], kinds[j], head, tail,
                            i, j)
            continue
        tail[i].append(SignalOp(pair, applicable_units=[kinds[i]]))
        head[j].append(SignalOp(pair, applicable_units=[kinds[j]]))
        if loops:  # the next instance must not overwrite what this one still reads
            tail[j] += _guarded_signal(pair, loops, True, kinds[j])
            head[i] = _guarded_signal(pair, loops, False, kinds[i]) + head[i]
    _sibling_signals(pipeline, fn, kinds, units, tail, rewriter)
    outer_body = Block()
    private = pipeline.private_op
    if private is not None:  # its contents are hoisted into the outer execute_on
        y = private.yield_op
        for res, v in zip(private.res, y.values):
            rewriter.replace_all_uses_with(res, v)
        rewriter.erase(y)
        rewriter.inline_block(private.body.block, InsertPoint.at_end(outer_body))
    for k, (s, kind) in enumerate(zip(stages, kinds)):
        body = Block(head[k])
        rewriter.inline_block(s.body.block, InsertPoint.at_end(body))
        body.add_ops(tail[k])
        outer_body.add_op(ExecuteOnOp([units[kind]], body, applicable_units=[kind]))
    distinct = list(dict.fromkeys(kinds))
    outer = ExecuteOnOp([units[k] for k in distinct], outer_body, applicable_units=distinct)
    outer.location = pipeline.location
    rewriter.insert(outer, InsertPoint.before(pipeline))
    rewriter.erase(pipeline, safe_erase=False)


class MaterialiseUnits(RewritePattern):
    """A function with pipelines whose unit and memory kinds have no handle yet gets them
    (`_materialise`); the grid must be 1-D and fit the device's cores."""

    def __init__(self, device):
        self.device = device

    @op_type_rewrite_pattern
    def match_and_rewrite(self, fn: func.FuncOp, rewriter: PatternRewriter) -> None:
        if fn.is_declaration or not any(isinstance(p, PipelineOp) for p in fn.walk()):
            return
        grid = kernel_grid(fn) or (1,)
        if len(grid) != 1:
            raise op_error(fn, "the grid must be 1-D before lowering (run "
                               "normalize-grid-to-1d)")
        tiles = grid[0]
        device = self.device
        if device.max_cores is not None and tiles > device.max_cores:
            raise op_error(fn, f"a grid of {tiles} tiles needs {tiles} cores; device "
                               f"@{device.name} has {device.max_cores}")
        if device.max_cores is None and tiles > MAX_TEMPLATE_CORES:
            raise op_error(fn, f"a grid of {tiles:,} tiles needs {tiles:,} cores; template "
                               f"device @{device.name} is instantiated for at most "
                               f"{MAX_TEMPLATE_CORES:,}")
        units, memories = _kinds_used(fn, device)
        if not all(k in unit_handles(fn) for k in units + memories):
            active = fn.attributes.get("ktdf.active_tiles")
            _materialise(fn, device, tiles, units, memories, rewriter,
                         active.value.data if isinstance(active, IntegerAttr) else None)


class LowerPipeline(RewritePattern):
    """A pipeline whose stages are bound to one unit kind each, in a function whose units
    are materialised: an `execute_on` over its units holding its private contents and one
    `execute_on` per stage, with the handshakes of shared scratchpad buffers."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, pipeline: PipelineOp, rewriter: PatternRewriter) -> None:
        kinds = []
        for s in pipeline.stages:
            if len(s.applicable_units) != 1:
                raise op_error(s, "every stage must be bound to exactly one unit kind before "
                                  "lowering (run path-expansion)")
            kinds.append(stage_key(s))
        fn = pipeline.parent_op()
        while fn is not None and not isinstance(fn, func.FuncOp):
            fn = fn.parent_op()
        if fn is None:
            return
        units = unit_handles(fn)
        if all(k in units for k in kinds):  # else: MaterialiseUnits first
            _lower_pipeline(pipeline, fn, kinds, units, rewriter)


class KtdfToKtdfloweringPass(ModulePass):
    """Materialise units per core, bind stages with `ktdf_lowering.execute_on`, and insert
    the `ktdf_lowering.signal` handshakes between units that share a scratchpad buffer
    (forward after the writer, back edges across loop iterations). See the module docstring.

    Before:  ktdf.pipeline { ktdf.private ... ktdf.stage ... { transfer } {applicable_units = ["MNILU"]} ... }
    After:   %mnilu_of_tile = uniform.def_immutable_mapping(...)  %mnilu = uniform.query_map(...)
             ktdf_lowering.execute_on %mnilu, ... { <private contents>
               ktdf_lowering.execute_on %mnilu { transfer  ktdf_lowering.signal %mnilu, %l1lu }
               ... }
    Idempotent: a function without pipelines is left alone.
    """

    name = "ktdf-to-ktdflowering"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [MaterialiseUnits(device_of(op, self.name)), LowerPipeline()])
