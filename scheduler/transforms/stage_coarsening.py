"""`stage-coarsening`: move a block of many vectors per DMA instead of one.

After `path-expansion` a group is a loop nest of parallel loops around one pipeline whose
every instance moves ONE vector: a DMA into a scratchpad buffer the size of a vector, a
handshake, a load unit streaming it to the compute unit, and the same back out. This pass
distributes the loop nest over the stages (upstream: group the stages, sink the loops into
single-stage groups, expand the buffers with loop-dependent accesses): the innermost loops,
and a block of iterations of the next one, move *into* the stages. The DMA stages then move
the whole block in one transfer (its box widened along the dimensions those loops walk), the
scratchpad buffers grow to the block, and the load / compute / store stages iterate over the
block's vectors themselves, addressing the buffers at the vector's offset in the block. The
handshake between a DMA unit and a scratchpad unit (ktdf-to-ktdflowering) thus happens once
per block.

    scf.for %v0 = 0 to 3 step 1 { scf.for %v1 = 0 to 64 step 64 { ktdf.pipeline {
      ktdf.stage { ktdf.data_transfer from %A[%row0 + %v0, %v1] size [1, 64] to %buf[0, 0] size [1, 64] }
      ktdf.stage { ktdf.data_transfer from %buf[0, 0] size [1, 64] to %slot size [64] } ... }}}
becomes (a block of 3 rows)
    scf.for %b0 = 0 to 3 step 3 { ktdf.pipeline {
      ktdf.stage { ktdf.data_transfer from %A[%row0 + %b0, 0] size [3, 64] to %buf[0, 0] size [3, 64] }
      ktdf.stage { scf.for %p0 = 0 to 3 step 1 { scf.for %p1 = 0 to 64 step 64 {
                     ktdf.data_transfer from %buf[%p0, %p1] size [1, 64] to %slot size [64] }}} ... }}

The block is chosen by a small cost model (`_predicted_cycles`): per block, each DMA stage
costs its route's latency once per batch of the transfers its unit keeps in flight (on a
ring, the hops to the farthest tile of the grid, half way round, included) plus its bytes
over the route's narrowest link, each memory with
its own bandwidth its bytes over that bandwidth (a memory outside the cores shared by every
tile of the grid), each scratchpad stage its vectors over its link and the compute stage one
interval per op per vector; the pipeline takes the sum of one block's stages (fill and
drain) plus the busiest unit for every further block (the steady state of a
double-buffered pipeline; stages on one unit take turns). An all-reduce's ring unit
gathers the partials and scatters the sums: counted as two stages apart, 8 tiles' partials
went in two blocks of 512 B per tile and the example allreduce took 1,344 cycles on spyre;
counted as one unit, with the hops and two batches of 4 transfers, they go in one block:
1,128 (ffn_swiglu_4core's reduction of 4 tiles: 820 -> 604). Candidates: every innermost run of loops sunk whole, times each
divisor of the next loop's trip count; the buffers of a block, twice (double buffering),
must fit half the scratchpad's capacity (the device model's `size`). A pipeline of one
block per vector (the model's best when latency is negligible) is left as it is.

Left naive (the pass does not apply, the schedule stays the vector-per-transfer one):
pipelines with a reduction (a generic with a reduction iterator: reduction_pipeline.py and
reduction-loop-exposure shape those: they already move a whole row per DMA and stream its
vectors from the scratchpad; sink-host-loops and double-buffering overlap their rows), masked or indirect transfers (masked.py moves them
element-wise), transfers in a mode (pad; splat into a FIFO, scalar-broadcast-legalization's,
is coarsened as any FIFO transfer), loops in a stage, loops that are not
parallel or whose bounds are not constants, nests that are not perfect, a scratchpad buffer
not filled or drained by exactly one DMA at its origin, a DMA whose subscripts are not
`base + c * iv` along one dimension per loop with the box as long as c times the loop's
step (the iterations would not tile the block; c > 1 after normalize-scf-for-loops, which
moves the vector length from the step into the subscript), and loop induction values used anywhere else in a DMA
stage or outside the stages. A pipeline without scratchpad buffers (a device whose load
units read global memory straight into FIFOs, like `stream_device`) has no DMA to coarsen.

A RewritePattern on `ktdf.pipeline`; it rewrites the loops around it too (the nest is what
it redistributes). Idempotent: a coarsened pipeline has loops in its stages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, tensor
from xdsl.dialects.builtin import IndexType, MemRefType, ModuleOp, StringAttr
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from scheduler.analysis.device import device_of, ring_hops_latency
from scheduler.analysis.index_exprs import grid_tiles, index_constant
from scheduler.dialects.ktdf import (
    DataTransferOp,
    LoopType,
    LoopTypeAttr,
    PipelineOp,
    PrivateOp,
    PrivateYieldOp,
    ReadFromFifoOp,
    StageOp,
    WriteToFifoOp,
)
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns

_ALLOWED = (DataTransferOp, ReadFromFifoOp, WriteToFifoOp, linalg.GenericOp, tensor.EmptyOp,
            arith.ConstantOp)


@dataclass
class _Loop:
    op: scf.ForOp
    lb: int
    ub: int
    step: int

    @property
    def iv(self) -> SSAValue:
        return self.op.body.block.args[0]

    @property
    def trip(self) -> int:
        return max(0, -(-(self.ub - self.lb) // self.step))


@dataclass
class _Dma:
    """A DMA between a global-side view and a private scratchpad buffer."""

    op: DataTransferOp
    stage: StageOp
    buffer: SSAValue          # the private result
    inbound: bool             # view -> buffer
    box: list[int]            # the global side's box
    dim_of: dict[int, int]    # loop position -> the box dimension its iv walks
    scale: dict[int, int]     # loop position -> elements per unit of its iv along that dim


@dataclass
class _Analysis:
    loops: list[_Loop]
    pipeline: PipelineOp
    private: PrivateOp
    dmas: list[_Dma] = field(default_factory=list)
    dma_stages: set[StageOp] = field(default_factory=set)


def _linear(e: AffineExpr, ndims: int) -> list[int] | None:
    """[coefficient of each dim..., constant] of an affine expression without symbols,
    floordiv, ceildiv or mod; None otherwise."""
    if isinstance(e, AffineConstantExpr):
        return [0] * ndims + [e.value]
    if isinstance(e, AffineDimExpr):
        out = [0] * (ndims + 1)
        out[e.position] = 1
        return out
    if isinstance(e, AffineBinaryOpExpr):
        a, b = _linear(e.lhs, ndims), _linear(e.rhs, ndims)
        if a is None or b is None:
            return None
        if e.kind == AffineBinaryOpKind.Add:
            return [x + y for x, y in zip(a, b)]
        if e.kind == AffineBinaryOpKind.Mul:
            if not any(a[:-1]):
                return [a[-1] * y for y in b]
            if not any(b[:-1]):
                return [b[-1] * x for x in a]
    return None


def _nest(p: PipelineOp) -> list[_Loop] | None:
    """The perfect nest of constant-bound parallel loops directly around `p`, outermost
    first; None when `p` is not directly in such a loop."""
    loops: list[_Loop] = []
    inner: Operation = p
    while isinstance(parent := inner.parent_op(), scf.ForOp):
        body = [o for o in parent.body.block.ops if not isinstance(o, scf.YieldOp)]
        lt = parent.attributes.get("loop_type")
        bounds = [const_int(v) for v in (parent.lb, parent.ub, parent.step)]
        if body != [inner] or parent.iter_args or not isinstance(lt, LoopTypeAttr) \
                or lt.data != LoopType.PARALLEL_LOOP or any(b is None for b in bounds) \
                or bounds[2] <= 0:  # type: ignore[operator]
            break
        loops.append(_Loop(parent, *bounds))  # type: ignore[arg-type]
        inner = parent
    return list(reversed(loops)) or None


def _zero_side(t: DataTransferOp, side: str) -> bool:
    idx = t.source_indices if side == "source" else t.dest_indices
    amap = t.source_map if side == "source" else t.dest_map
    vals = [const_int(v) for v in idx]
    if any(v is None for v in vals):
        return False
    if amap is None:
        return all(v == 0 for v in vals)
    return all(r == 0 for r in amap.data.eval(vals, []))  # type: ignore[arg-type]


def _static(t: DataTransferOp, side: str) -> list[int] | None:
    sizes = t.mixed_source_sizes if side == "source" else t.mixed_dest_sizes
    if sizes is None or not all(isinstance(s, int) for s in sizes):
        return None
    return list(sizes)  # type: ignore[arg-type]


def _analyse(p: PipelineOp, device) -> _Analysis | None:
    loops = _nest(p)
    private = p.private_op
    if loops is None or private is None:
        return None
    a = _Analysis(loops, p, private)
    yielded = dict(zip(private.res, private.yield_op.values))
    buffers = {r for r, v in yielded.items() if isinstance(v.owner, memref.AllocOp)
               and isinstance(r.type, MemRefType) and isinstance(r.type.memory_space, StringAttr)
               and r.type.memory_space.data in device.memories
               and device.memories[r.type.memory_space.data].depth >= 1}
    ivs = {lp.iv: k for k, lp in enumerate(loops)}
    for s in p.stages:
        for op in s.body.block.walk():
            if op is s.body.block.parent_op():
                continue
            if not isinstance(op, _ALLOWED) and op.parent_op() is s:
                return None
            if isinstance(op, linalg.GenericOp) and any(
                    it.data.value != "parallel" for it in op.iterator_types):  # type: ignore
                return None
            if isinstance(op, DataTransferOp) and (op.mask is not None or (
                    "transfer_mode" in op.attributes  # a FIFO's splat streams per vector
                    and not (op.dest_is_fifo and op.transfer_mode == "splat"))):
                return None
        for t in s.body.block.ops:
            if not isinstance(t, DataTransferOp) or t.source_is_fifo or t.dest_is_fifo:
                continue
            if (t.source in buffers) == (t.destination in buffers):
                return None
            inbound = t.destination in buffers
            buf, gside = (t.destination, "source") if inbound else (t.source, "dest")
            bside = "dest" if inbound else "source"
            box, bbox = _static(t, gside), _static(t, bside)
            if box is None or bbox is None or bbox != list(buf.type.get_shape()) \
                    or box != bbox or not _zero_side(t, bside):  # type: ignore[union-attr]
                return None
            idx = list(t.source_indices if gside == "source" else t.dest_indices)
            amap = t.source_map if gside == "source" else t.dest_map
            exprs = (list(amap.data.results) if amap is not None
                     else [AffineExpr.dimension(k) for k in range(len(idx))])
            coeffs = [_linear(e, len(idx)) for e in exprs]
            if any(c is None for c in coeffs):
                return None
            dim_of: dict[int, int] = {}
            scale: dict[int, int] = {}
            for k, v in enumerate(idx):
                if v not in ivs:
                    continue
                hits = [d for d, c in enumerate(coeffs) if c[k]]  # type: ignore[index]
                if len(hits) > 1 or (hits and coeffs[hits[0]][k] <= 0):  # type: ignore[index]
                    return None
                if hits:
                    d = hits[0]
                    lp = ivs[v]
                    c = coeffs[d][k]  # type: ignore[index]
                    if d in dim_of.values() or lp in dim_of or box[d] != c * loops[lp].step:
                        return None
                    dim_of[lp] = d
                    scale[lp] = c
            a.dmas.append(_Dma(t, s, buf, inbound, box, dim_of, scale))
            a.dma_stages.add(s)
    if not a.dmas or not buffers:
        return None
    for b in buffers:  # exactly one DMA fills or drains each scratchpad buffer
        if sum(1 for d in a.dmas if d.buffer is b) != 1:
            return None
        for use in b.uses:
            t = use.operation
            if not isinstance(t, DataTransferOp):
                return None
            if any(d.op is t for d in a.dmas):
                continue
            side = "source" if t.source is b else "dest"
            if _static(t, side) != list(b.type.get_shape()) or not _zero_side(t, side):  # type: ignore
                return None
    dma_ops = {d.op: d for d in a.dmas}
    for lp in loops:  # induction values: only DMA subscripts and non-DMA stages read them
        for use in lp.iv.uses:
            op = use.operation
            stage = _stage_of(op, p)
            if stage is None:
                return None
            if stage in a.dma_stages:
                d = dma_ops.get(op)  # type: ignore[arg-type]
                gidx = () if d is None else (op.source_indices if d.inbound  # type: ignore
                                             else op.dest_indices)  # type: ignore
                if not any(v is lp.iv for v in gidx):
                    return None
    return a


def _stage_of(op: Operation, p: PipelineOp) -> StageOp | None:
    cur: Operation | None = op
    while cur is not None and cur is not p:
        if isinstance(cur, StageOp) and cur.parent_op() is p:
            return cur
        cur = cur.parent_op()
    return None


@dataclass(frozen=True)
class _Choice:
    m: int       # the loop cut into blocks; the loops after it move into the stages whole
    block: int   # iterations of loop m per block


def _sunk_trip(a: _Analysis, c: _Choice, k: int) -> int:
    """Iterations of loop k inside one block (1: loop k stays outside)."""
    if k < c.m:
        return 1
    return c.block if k == c.m else a.loops[k].trip


def _buffer_shape(a: _Analysis, d: _Dma, c: _Choice) -> list[int]:
    shape = list(d.box)
    for k, dim in d.dim_of.items():
        shape[dim] *= _sunk_trip(a, c, k)
    return shape


def _elt_bytes(t: MemRefType) -> int:
    from arch_descriptions.model.device import element_bits

    return max(1, (element_bits(str(t.element_type)) or 16) // 8)


def _kind(v: SSAValue) -> str:
    return v.type.memory_space.data  # type: ignore[union-attr]


def _predicted_cycles(a: _Analysis, c: _Choice, device, tiles: int) -> float:
    """The cost model of the module docstring, for one tile."""
    per_block = math.prod(_sunk_trip(a, c, k) for k in range(len(a.loops)))
    blocks = math.prod(lp.trip for lp in a.loops) // per_block
    stage_t: dict[StageOp, float] = {}
    lats: dict[StageOp, list[float]] = {}
    mem_bytes: dict[str, float] = {}
    for d in a.dmas:
        nbytes = math.prod(_buffer_shape(a, d, c)) * _elt_bytes(d.buffer.type)  # type: ignore
        unit = d.stage.applicable_units[0] if d.stage.applicable_units else ""
        g = d.op.source if d.inbound else d.op.destination
        src, dst = (_kind(g), _kind(d.buffer)) if d.inbound else (_kind(d.buffer), _kind(g))
        dps = [dp for dp in (device.datapath(src, unit), device.datapath(unit, dst)) if dp]
        lat = sum(dp.latency for dp in dps) + ring_hops_latency(device, unit, tiles)
        bpc = min((dp.bytes_per_cycle for dp in dps), default=1)
        stage_t[d.stage] = stage_t.get(d.stage, 2.0 * device.signal_latency) + nbytes / bpc
        lats.setdefault(d.stage, []).append(lat)
        for kind in (src, dst):
            mem_bytes[kind] = mem_bytes.get(kind, 0.0) + nbytes
    for s, ls in lats.items():  # a round trip per batch of the transfers its unit keeps in flight
        u = device.units.get(s.applicable_units[0]) if s.applicable_units else None
        stage_t[s] += max(ls) * math.ceil(len(ls) / max(1, getattr(u, "max_outstanding", 1)))
    for s in a.pipeline.stages:
        if s in a.dma_stages:
            continue
        cost = 0.0
        for op in s.body.block.walk():
            if isinstance(op, linalg.GenericOp):
                cost += sum(1 for o in op.body.block.ops if not isinstance(o, linalg.YieldOp))
            elif isinstance(op, DataTransferOp):
                cost += 1.0
        stage_t[s] = per_block * max(cost, 1.0)
    per_unit: dict[str, float] = {}  # stages on one unit take turns (a ring's gather and
    for s, t in stage_t.items():      # scatter): the steady state waits for all of them
        key = s.applicable_units[0] if s.applicable_units else str(id(s))
        per_unit[key] = per_unit.get(key, 0.0) + t
    times = list(per_unit.values())
    for kind, nbytes in mem_bytes.items():
        mem = device.memories.get(kind)
        if mem is not None and mem.bytes_per_cycle:
            rate = mem.bytes_per_cycle / (tiles if mem.per_core == 0 else 1)
            times.append(nbytes / rate)
    return sum(stage_t.values()) + (blocks - 1) * max(times)


def _fits(a: _Analysis, c: _Choice, device) -> bool:
    need: dict[str, int] = {}
    for d in a.dmas:
        kind = _kind(d.buffer)
        nbytes = math.prod(_buffer_shape(a, d, c)) * _elt_bytes(d.buffer.type)  # type: ignore
        need[kind] = need.get(kind, 0) + 2 * nbytes  # two copies: double buffering
    for kind, nbytes in need.items():
        size = device.memories[kind].size
        if size is not None and nbytes > size // 2:
            return False
    return True


def _choose(a: _Analysis, device, tiles: int) -> _Choice | None:
    n = len(a.loops)
    naive = _Choice(n - 1, 1)
    best, best_t = naive, _predicted_cycles(a, naive, device, tiles)
    for m in reversed(range(n)):
        trip = a.loops[m].trip
        for b in range(1, trip + 1):
            c = _Choice(m, b)
            if trip % b or c == naive or not _fits(a, c, device):
                continue
            t = _predicted_cycles(a, c, device, tiles)
            if t < best_t - 1e-9 or (abs(t - best_t) <= 1e-9 and b > best.block):
                best, best_t = c, t
    return None if best == naive else best


def _loop(lb: int, ub: int, step: int, body: list[Operation],
          hint: str | None) -> tuple[list[Operation], scf.ForOp]:
    consts = [index_constant(x) for x in (lb, ub, step)]
    block = Block(arg_types=[IndexType()])
    block.args[0].name_hint = hint
    block.add_ops([*body, scf.YieldOp()])
    loop = scf.ForOp(consts[0], consts[1], consts[2], [], Region(block))
    loop.attributes["loop_type"] = LoopTypeAttr(LoopType.PARALLEL_LOOP)
    return consts, loop


def _rewrite(a: _Analysis, c: _Choice, rewriter: PatternRewriter) -> None:
    loops, p, private = a.loops, a.pipeline, a.private
    cut = loops[c.m]
    # the block loop: loop m in steps of `block` iterations
    bconsts = [index_constant(x) for x in (cut.lb, cut.ub, cut.step * c.block)]
    bblock = Block(arg_types=[IndexType()])
    origin = bblock.args[0]
    origin.name_hint = (cut.iv.name_hint or "v") + "_block"
    # the new private: coarsened buffers
    vals: dict[SSAValue, SSAValue] = {}
    shape_of = {d.buffer: _buffer_shape(a, d, c) for d in a.dmas}
    pblock = Block()
    yielded = dict(zip(private.res, private.yield_op.values))
    alloc_of = {v: r for r, v in yielded.items() if r in shape_of}
    for op in private.body.block.ops:
        if isinstance(op, PrivateYieldOp):
            continue
        if isinstance(op, memref.AllocOp) and op.memref in alloc_of:
            t = op.memref.type
            assert isinstance(t, MemRefType)
            new = memref.AllocOp.get(t.element_type, shape=shape_of[alloc_of[op.memref]],
                                     memory_space=t.memory_space)
            new.memref.name_hint = op.memref.name_hint
            vals[op.memref] = new.memref
            pblock.add_op(new)
        else:
            pblock.add_op(op.clone(vals))
    ys = [vals.get(v, v) for v in private.yield_op.values]
    pblock.add_op(PrivateYieldOp(*ys))
    new_private = PrivateOp([v.type for v in ys], Region(pblock))
    outer: dict[SSAValue, SSAValue] = dict(zip(private.res, new_private.res))
    # the origin of each loop inside a block
    origin_of: dict[int, SSAValue | int] = {c.m: origin}
    for k in range(c.m + 1, len(loops)):
        origin_of[k] = loops[k].lb
    dma_of = {d.op: d for d in a.dmas}
    stages: list[Operation] = []
    for s in p.stages:
        ins = [outer[t] for t in s.depends_in]
        outs = [outer[t] for t in s.depends_out]
        units = s.applicable_units or None
        body: list[Operation] = []
        if s in a.dma_stages:
            m: dict[SSAValue, SSAValue] = dict(outer)
            for k in range(c.m, len(loops)):
                o = origin_of[k]
                if isinstance(o, int):
                    cst = index_constant(o)
                    body.append(cst)
                    o = cst.result
                m[loops[k].iv] = o
            for op in s.body.block.ops:
                d = dma_of.get(op)  # type: ignore[arg-type]
                if d is None:
                    body.append(op.clone(m))
                    continue
                t = d.op
                shape = shape_of[d.buffer]
                sidx = [m.get(v, v) for v in t.source_indices]
                didx = [m.get(v, v) for v in t.dest_indices]
                body.append(DataTransferOp(
                    m.get(t.source, t.source), sidx, t.source_map, shape,
                    m.get(t.destination, t.destination), didx, t.dest_map, shape))
        else:
            # point loops over the block, innermost last; the body sees the old ivs as
            # origin + point
            rel: dict[int, SSAValue] = {}
            inner_body: list[Operation] = []
            m = dict(outer)
            nest_specs = []
            for k in range(c.m, len(loops)):
                lp = loops[k]
                extent = lp.step * _sunk_trip(a, c, k)
                nest_specs.append((k, extent, lp.step))
            blocks: list[Block] = []
            for k, _extent, _step in nest_specs:
                b = Block(arg_types=[IndexType()])
                b.args[0].name_hint = (loops[k].iv.name_hint or "v") + "_p"
                rel[k] = b.args[0]
                blocks.append(b)
            for k in range(c.m, len(loops)):
                o = origin_of[k]
                if not any(_stage_of(u.operation, p) is s for u in loops[k].iv.uses):
                    continue
                if isinstance(o, int) and o == 0:
                    m[loops[k].iv] = rel[k]
                    continue
                if isinstance(o, int):
                    cst = index_constant(o)
                    inner_body.append(cst)
                    o = cst.result
                add = arith.AddiOp(o, rel[k])
                inner_body.append(add)
                m[loops[k].iv] = add.result
            for op in s.body.block.ops:
                if isinstance(op, DataTransferOp) and (op.source in shape_of
                                                       or op.destination in shape_of):
                    buf = op.source if op.source in shape_of else op.destination
                    d = next(x for x in a.dmas if x.buffer is buf)
                    bidx, bmap = _block_subscripts(d, c, rel)
                    src = m.get(op.source, op.source)
                    dst = m.get(op.destination, op.destination)
                    if buf is op.source:
                        new = DataTransferOp(src, bidx, bmap, op.mixed_source_sizes, dst,
                                             [m.get(v, v) for v in op.dest_indices],
                                             op.dest_map, op.mixed_dest_sizes)
                    else:
                        new = DataTransferOp(src, [m.get(v, v) for v in op.source_indices],
                                             op.source_map, op.mixed_source_sizes, dst, bidx,
                                             bmap, op.mixed_dest_sizes)
                    new.attributes |= op.attributes  # a splat into a FIFO stays one
                    inner_body.append(new)
                else:
                    inner_body.append(op.clone(m))
            # wrap innermost first
            ops = inner_body
            for (k, extent, step), b in reversed(list(zip(nest_specs, blocks))):
                b.add_ops([*ops, scf.YieldOp()])
                consts = [index_constant(x) for x in (0, extent, step)]
                loop = scf.ForOp(consts[0], consts[1], consts[2], [], Region(b))
                loop.attributes["loop_type"] = LoopTypeAttr(LoopType.PARALLEL_LOOP)
                ops = [*consts, loop]
            body = ops
        stages.append(StageOp(ins, outs, body, applicable_units=units))
    new_p = PipelineOp([new_private, *stages], p.modulo)
    new_p.location = p.location
    new_p.attributes |= p.attributes
    bblock.add_ops([new_p, scf.YieldOp()])
    bloop = scf.ForOp(bconsts[0], bconsts[1], bconsts[2], [], Region(bblock))
    bloop.attributes |= cut.op.attributes
    rewriter.insert([*bconsts, bloop], InsertPoint.before(cut.op))
    rewriter.erase(cut.op, safe_erase=False)


def _block_subscripts(d: _Dma, c: _Choice, rel: dict[int, SSAValue]
                      ) -> tuple[list[SSAValue], AffineMap]:
    """Subscripts into the block buffer of `d` at the point `rel` (point loop indices, in
    their loops' units): the loop walking a dimension times its scale there."""
    exprs: list[AffineExpr] = [AffineExpr.constant(0)] * len(d.box)
    idx: list[SSAValue] = []
    for k, dim in d.dim_of.items():
        if k >= c.m:
            e = AffineExpr.dimension(len(idx))
            exprs[dim] = e if d.scale[k] == 1 else e * d.scale[k]
            idx.append(rel[k])
    return idx, AffineMap(len(idx), 0, tuple(exprs))



class CoarsenPipeline(RewritePattern):
    """A pipeline of one vector per instance in a nest of parallel loops: the nest
    redistributed over its stages, one block per DMA (see the module docstring)."""

    def __init__(self, device):
        self.device = device

    @op_type_rewrite_pattern
    def match_and_rewrite(self, p: PipelineOp, rewriter: PatternRewriter) -> None:
        a = _analyse(p, self.device)
        if a is None:
            return
        choice = _choose(a, self.device, grid_tiles(p))
        if choice is not None:
            _rewrite(a, choice, rewriter)


class StageCoarseningPass(ModulePass):
    """Move a block of vectors per DMA and iterate the scratchpad stages over it.

    Before:  scf.for %v0 { scf.for %v1 { ktdf.pipeline { DMA [1, 64]; load; compute; store; DMA } } }
    After:   scf.for %v0_block step B { ktdf.pipeline { DMA [B, 64];
               load { scf.for %v0_p { scf.for %v1_p { ... %buf[%v0_p, %v1_p] ... } } } ...; DMA } }
    """

    name = "stage-coarsening"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [CoarsenPipeline(device_of(op, self.name))])
