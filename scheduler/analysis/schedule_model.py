"""What the scheduler chose, group by group, and how long it expects each group to take.

`describe(module, device)` reads a module at the `post_scheduling` checkpoint (final pipeline
structure, tile sizes and trip counts; memory not yet allocated) and returns, per compute
group: its tiles, and per pipeline the loops around it (instances per tile), its stages (unit
kind, what each transfer moves per instance, the compute ops), its buffers (memory, shape,
bytes, copies) and its depth (stages, and copies of the buffers: 2 when double-buffered).
`ktir compile --schedule-report` prints it; `ktir run --schedule-report` adds the emulated
cycles of each group beside the prediction.

The prediction is a first-order model of the machine the emulator implements (arch.md §8),
written to be read, not to be exact:
- a DMA stage instance costs the route's latency once per transfer (once for all of them when
  its unit keeps several in flight, `max_outstanding`), plus the bytes over the narrowest link
  of the route (on a ring, a unit linked to its own kind, the hops to the farthest tile of
  the grid, half way round, too); a FIFO transfer costs its bytes over each link it crosses (at least a cycle
  each: the unit handles one hop after the other), the stage's loops multiplying both; the compute stage costs, per op of each `linalg.generic`,
  its interval class's `op_interval` times ceil(elements / lanes), plus the deepest op latency
  once;
- a transfer to or from a shared memory (one outside the cores, like `spyre`'s DDR) takes at
  least its bytes over that memory's bandwidth divided among the tiles that run the group,
  and the pipeline's period is at least all its instance's bytes through that memory so;
- a pipeline takes one instance through its stages (fill and drain: stages that hand over
  through memory one after the other, FIFO-connected ones streaming, as slow as the slowest
  of them; the copies of parallelize-loops-across-instances beside the first corelet's) plus, for every further
  instance, its period: the busiest unit (stages on one unit take turns: a ring unit's
  gather and scatter) when its buffers have two or more copies, else that or the slowest
  writer + reader pair of a single-copy buffer (the writer waits for the reader to release
  it);
- a group takes its pipelines one after another, plus one signal latency per handshake.
Gathers and scatters (`ktdf.ind_data_transfer`) are costed as the transfer of their box;
not modelled yet: their index reads and the reduction loops' carried dependencies (softmax
on sample_device: half).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
    ModuleOp,
    ShapedType,
    StringAttr,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue

from ktir.dialects.ktdp_types import kernel_grid
from scheduler.analysis.device import ring_hops_latency
from scheduler.analysis.index_exprs import loops_between, trip_count
from scheduler.analysis.units import split_key, unit_key
from scheduler.dialects.ktdf import (
    INSTANCE,
    DataTransferOp,
    IndDataTransferOp,
    PipelineOp,
    StageOp,
)
from scheduler.dialects.ktdf_types import FifoSlotType

_TRANSFERS = (DataTransferOp, IndDataTransferOp)

_CLASS_OF_OP = {"arith.mulf": "mul", "arith.muli": "mul", "arith.divf": "divide",
                "arith.divsi": "divide", "arith.divui": "divide", "arith.remf": "divide",
                "math.fma": "fma"}


def _op_class(op: Operation) -> str:
    """The latency class (arch.md §8) an op of a generic body is charged: math ops other than
    fma are transcendental, divisions divide, multiplications mul, the rest simple."""
    if op.name in _CLASS_OF_OP:
        return _CLASS_OF_OP[op.name]
    return "transcendental" if op.name.startswith("math.") else "simple"


def _kind(v: SSAValue) -> str | None:
    t = v.type
    if isinstance(t, MemRefType) and isinstance(t.memory_space, StringAttr):
        return t.memory_space.data
    return None


def _elt_bytes(t) -> int:
    width = getattr(getattr(t, "element_type", None), "bitwidth", 16)
    return max(1, width // 8)


def _trips(loops: list[scf.ForOp]) -> tuple[int, bool]:
    """Product of the trip counts, and whether all were known (an unknown one counts 1)."""
    n, known = 1, True
    for lp in loops:
        t = trip_count(lp)
        if t is None:
            known = False
        else:
            n *= max(t, 0)
    return n, known


@dataclass
class Buffer:
    name: str
    memory: str
    shape: tuple[int, ...]
    element: str
    bytes: int


@dataclass
class Stage:
    unit: str  # its kind, `-CL<k>` for another corelet than the first
    moves: list[str] = field(default_factory=list)  # one line per transfer
    ops: int = 0  # scalar ops of the generic bodies (compute stages)
    cycles: float = 0.0  # one instance


@dataclass
class Pipeline:
    instances: int
    exact: bool  # every loop around it had a known trip count
    copies: int
    stages: list[Stage]
    buffers: list[Buffer]
    predicted: float


@dataclass
class Group:
    name: str
    tiles: int
    pipelines: list[Pipeline]

    @property
    def predicted(self) -> float:
        return sum(p.predicted for p in self.pipelines)


def _box(t: DataTransferOp | IndDataTransferOp, side: str) -> str:
    sizes = t.mixed_source_sizes if side == "source" else t.mixed_dest_sizes
    if sizes is None:
        return "?"
    return "x".join(str(s) if isinstance(s, int) else "?" for s in sizes)


def _fifo_hop(v: SSAValue, device):
    """The datapath of a FIFO slot (its two unit kinds), if the device has it."""
    t = v.type
    if isinstance(t, FifoSlotType) and isinstance(t.src, StringAttr) \
            and isinstance(t.dst, StringAttr):
        return device.datapath(t.src.data, t.dst.data)
    return None


def _transfer_cost(t: DataTransferOp | IndDataTransferOp, unit: str, device
                   ) -> tuple[float, float, str, int]:
    """(latency, cycles for the bytes, description, bytes) of one transfer (a gather's or
    scatter's box; its index reads are not counted)."""
    count = t.source_count or t.dest_count or 0
    mem = t.destination if t.source_is_fifo else t.source
    nbytes = count * _elt_bytes(mem.type)
    src, dst = _kind(t.source), _kind(t.destination)
    fifo = t.source_is_fifo or t.dest_is_fifo
    hops = [device.datapath(src, unit) if src else _fifo_hop(t.source, device),
            device.datapath(unit, dst) if dst else _fifo_hop(t.destination, device)]
    dps = [dp for dp in hops if dp is not None]
    lat = sum(dp.latency for dp in dps)
    bpc = min((dp.bytes_per_cycle for dp in dps if dp.bytes_per_cycle), default=0) or 128
    where = (f"{src or 'FIFO'} {_box(t, 'source')} -> {dst or 'FIFO'} {_box(t, 'dest')}")
    if fifo:  # a vector at a time: the unit is busy on each hop in turn
        cycles = sum(max(1.0, nbytes / (dp.bytes_per_cycle or 128)) for dp in dps) or 1.0
    else:  # a DMA streams through its route at the narrowest link's rate
        cycles = nbytes / bpc
    return float(lat), cycles, f"{where} ({nbytes:,} B)", nbytes


def _compute_cost(g: linalg.GenericOp, unit) -> tuple[float, float, int]:
    """(deepest latency, interval cycles, op count) of one generic on one vector block."""
    out = g.results[0].type if g.results else None
    shape = out.get_shape() if isinstance(out, ShapedType) else (1,)
    elems = math.prod(d for d in shape if d > 0) or 1
    ops = [o for o in g.body.block.ops if not isinstance(o, linalg.YieldOp)]
    if unit is None:
        return 2.0, float(len(ops)), len(ops)
    elem = str(getattr(out, "element_type", "f16"))
    beats = math.ceil(elems / max(1, unit.elements_per_cycle(elem)))
    interval = sum(unit.op_interval.get(_op_class(o), 1) for o in ops) * beats
    latency = max((unit.op_latency.get(_op_class(o), 2) for o in ops), default=0)
    return float(latency), float(interval), len(ops)


def _block_cost(op, unit) -> tuple[float, float] | None:
    """(latency, interval) of an op on whole blocks in a contraction pipeline's compute stage:
    a block product on the unit's matrix engine, or an arith op over the block's lanes."""
    out = op.results[0].type if op.results else None
    if unit is None or not isinstance(out, TensorType) or isinstance(op, arith.ConstantOp):
        return None
    if isinstance(op, linalg.MatmulOp) and unit.matrix is not None:
        m, n = out.get_shape()
        k = op.inputs[0].type.get_shape()[-1]  # type: ignore[attr-defined]
        busy = unit.matrix.interval(m, k, n)
        return float(busy + unit.matrix.latency), float(busy)
    if not op.name.startswith("arith.") or (op.results[0].uses and all(  # folded into it
            isinstance(u.operation, linalg.MatmulOp) for u in op.results[0].uses)):
        return None
    elems = math.prod(out.get_shape())
    beats = math.ceil(elems / max(1, unit.elements_per_cycle(str(out.element_type))))
    return (float(unit.op_latency.get(_op_class(op), 2)),
            float(unit.op_interval.get(_op_class(op), 1) * beats))


def _stage(s: StageOp, device, tiles: int, shared: dict[str, float], grid: int) -> Stage:
    unit_kind = s.applicable_units[0] if s.applicable_units else "?"
    unit = device.units.get(unit_kind)
    ring = ring_hops_latency(device, unit_kind, grid)
    inst = s.attributes.get(INSTANCE)
    st = Stage(unit_key(unit_kind, inst.value.data if isinstance(inst, IntegerAttr) else None))
    lats: list[float] = []
    for op in s.body.block.walk():
        n, _ = _trips(loops_between(op, s))
        if isinstance(op, _TRANSFERS):
            lat, cyc, what, nbytes = _transfer_cost(op, unit_kind, device)
            lat += ring
            st.moves.append(what + (f" x{n}" if n != 1 else ""))
            for side in (op.source, op.destination):
                k = _kind(side)
                mem = device.memories.get(k) if k is not None else None
                if k is not None and mem is not None and mem.per_core == 0 \
                        and mem.bytes_per_cycle:
                    share = nbytes * tiles / mem.bytes_per_cycle  # every tile streams too
                    cyc = max(cyc, share)
                    shared[k] = shared.get(k, 0.0) + n * share
            st.cycles += n * cyc
            lats += [lat] * n
        elif isinstance(op, linalg.GenericOp):
            lat, cyc, count = _compute_cost(op, unit)
            st.ops += count
            st.cycles += n * cyc
            lats.append(lat)
        elif (cost := _block_cost(op, unit)) is not None:  # the contraction pipeline's
            st.ops += 1
            st.cycles += n * cost[1]
            lats.append(cost[0])
    if lats:
        in_flight = getattr(unit, "max_outstanding", 1) or 1
        st.cycles += max(lats) if in_flight > 1 or not st.moves else sum(lats)
    return st


def _buffers(p: PipelineOp) -> list[Buffer]:
    out = []
    priv = p.private_op
    for op in priv.body.block.ops if priv is not None else ():
        if isinstance(op, memref.AllocOp):
            t = op.memref.type
            assert isinstance(t, MemRefType)
            shape = tuple(t.get_shape())
            out.append(Buffer(op.memref.name_hint or "buffer", _kind(op.memref) or "?", shape,
                              str(t.element_type), math.prod(shape) * _elt_bytes(t)))
    return out


def _period(p: PipelineOp, stages: list[Stage], copies: int) -> float:
    times = [s.cycles for s in stages]
    per_unit: dict[str, float] = {}  # stages on one unit take turns (a ring's gather, scatter)
    for st in stages:
        per_unit[st.unit] = per_unit.get(st.unit, 0.0) + st.cycles
    if copies >= 2:
        return max(per_unit.values(), default=0.0)
    ops = p.stages
    pairs = []
    for i, w in enumerate(ops):
        wrote = {t.destination for t in w.walk() if isinstance(t, _TRANSFERS)
                 and not t.dest_is_fifo}
        for j in range(i + 1, len(ops)):
            if any(isinstance(t, _TRANSFERS) and t.source in wrote for t in ops[j].walk()):
                pairs.append(times[i] + times[j])
    return max([*per_unit.values(), *pairs], default=0.0)


def _feeds_fifo(s: StageOp) -> bool:
    return any((isinstance(o, DataTransferOp) and o.dest_is_fifo)
               or o.name == "ktdf.write_to_fifo" for o in s.walk())


def _segments(p: PipelineOp, stages: list[Stage]) -> list[float]:
    """One instance's time through each run of FIFO-connected stages (they stream: the
    slowest of them), the runs handing over through memory one after the other."""
    out: list[float] = []
    run: list[float] = []
    for op, st in zip(p.stages, stages):
        if split_key(st.unit)[1]:  # another corelet's copy: alongside the first one's
            continue
        run.append(st.cycles)
        if not _feeds_fifo(op):
            out.append(max(run))
            run = []
    if run:
        out.append(max(run))
    return out


def _pipeline(p: PipelineOp, fn: func.FuncOp, device, tiles: int, grid: int) -> Pipeline:
    instances, exact = _trips(loops_between(p, fn))
    shared: dict[str, float] = {}
    stages = [_stage(s, device, tiles, shared, grid) for s in p.stages]
    copies = p.modulo or 1
    period = max(_period(p, stages, copies), *shared.values(), 0.0)
    handshakes = 2 * max(0, len(stages) - 1) * device.signal_latency
    fill = sum(_segments(p, stages)) + handshakes
    predicted = 0.0 if instances == 0 else fill + (instances - 1) * period
    return Pipeline(instances, exact, copies, stages, _buffers(p), predicted)


def describe(module: ModuleOp, device) -> list[Group]:
    """Per compute group (a function holding pipelines), in module order."""
    groups = []
    for fn in module.walk():
        if not isinstance(fn, func.FuncOp) or fn.is_declaration:
            continue
        pipes = [p for p in fn.walk() if isinstance(p, PipelineOp)]
        if not pipes:
            continue
        grid = kernel_grid(fn) or (1,)
        active = fn.attributes.get("ktdf.active_tiles")
        tiles = math.prod(grid)
        if active is not None:
            tiles = min(tiles, active.value.data)  # type: ignore[attr-defined]
        groups.append(Group(fn.sym_name.data, tiles,
                            [_pipeline(p, fn, device, tiles, math.prod(grid))
                             for p in pipes]))
    return groups


def format_report(groups: list[Group], emulated: dict[str, int] | None = None) -> list[str]:
    """Lines of `--schedule-report`; `emulated`: cycles per group name, when it ran."""
    lines = [f"schedule report: {len(groups)} compute group(s)"]
    for g in groups:
        head = f"group @{g.name}: {g.tiles} tile(s), {len(g.pipelines)} pipeline(s), " \
               f"predicted {g.predicted:,.0f} cycles"
        if emulated is not None and g.name in emulated:
            got = emulated[g.name]
            head += f", emulated {got:,} cycles" + (
                f" (predicted / emulated {g.predicted / got:.2f})" if got else "")
        lines.append(head)
        for k, p in enumerate(g.pipelines, 1):
            copies = {1: "single-buffered", 2: "double-buffered"}.get(
                p.copies, f"{p.copies} copies of each buffer")
            depth = f"{len(p.stages)} stages, {copies}"
            inst = f"{p.instances:,} instance(s) per tile" + ("" if p.exact else
                                                            " (a dynamic loop counted once)")
            lines.append(f"  pipeline {k}: {depth}; {inst}; predicted {p.predicted:,.0f}")
            for s in p.stages:
                what = "; ".join(s.moves) if s.moves else f"{s.ops} op(s) per vector block"
                lines.append(f"    {s.unit:<10} {s.cycles:>9,.0f} cycles/instance  {what}")
            for b in p.buffers:
                shape = "x".join(map(str, b.shape))
                lines.append(f"    buffer {b.name} {shape}x{b.element} in {b.memory}: "
                             f"{b.bytes:,} B" + (f" x{p.copies}" if p.copies > 1 else ""))
    return lines
