"""`path-expansion`: route every transfer through the memory hierarchy of the device.

After `construct-three-stage-pipeline` a load moves data from a memory straight into a FIFO slot
of the compute unit (`"DDR" -> "SFU"`). The device says how data really travels: the shortest
route of its routing graph, e.g. on the sample device DDR -> MNILU -> L1 -> L1LU -> SFU. Each
unit on the route becomes a stage bound to that unit (`applicable_units = ["MNILU"]`) that moves
the data one hop, into a new buffer allocated in the next memory (`memref.alloc` in `"L1"`,
addressed later); the last unit feeds the FIFO, whose slot type becomes `"L1LU" -> "SFU"`.
Stores are routed the same way from the compute unit out. Loads of the same region (a row that
several passes of a reduction read) share one buffer per memory on the route: the region
crosses each link once, and is read again from the nearest copy. Any device graph works as long as
units and memories alternate on the route and the compute unit's links are queues; otherwise
the error names the device and the route. Stages of one unit kind are merged; the stage chain
stays linear. A masked transfer's mask goes to the hop that touches its view (the first hop of
a load, the last of a store). Idempotent: routed transfers (slots that start or end at a unit)
are left alone. An indirect load (`ktdf.ind_data_transfer`) gathers on its first hop, from
index buffers the same unit staged into the first memory of the route just before (in place,
on a route without a memory). An indirect store scatters on its last hop, from the last
memory of the route, where the load part of the pipeline staged its indices (the unit that
writes that memory from the index views' memory: the loading DMA); a route without that
memory is refused. A load stage that streams (index constants and one loop around its
loads: the contraction pipeline's k steps) is routed step by step: each hop gets a loop of its
own over the same steps, its buffers one step's box (double-buffering may give them two
copies; ktdf-to-ktdflowering handshakes them every step).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.diagnostics import op_error
from scheduler.analysis.device import device_of
from scheduler.analysis.placement import inter_core_unit, owner_core
from scheduler.dialects.ktdf import (
    CreateTokenOp,
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    IndDataTransferOp,
    PipelineOp,
    PrivateOp,
    PrivateYieldOp,
    StageOp,
    TokenType,
)
from scheduler.dialects.ktdf_transfers import Subscript
from scheduler.rewriting import apply_patterns


@dataclass
class _Hops:
    """A transfer's route split into (unit, memory after it) hops; the FIFO end is separate."""

    units: list[str]
    memories: list[str]  # memories[i] is written by units[i] (the last: the end memory / None)


def _split_route(op: Operation, device, route: list[str], from_memory: bool) -> _Hops:
    what = " -> ".join(route) or "(none)"
    if len(route) < 3:
        ends = (f"memory '{route[0]}' and the compute unit" if from_memory else
                f"the compute unit and memory '{route[-1]}'") if route else "its two ends"
        raise op_error(op, f"device @{device.name} has no route through a unit between "
                           f"{ends} (route: {what})")
    inner = route[1:-1] if from_memory else route[1:]
    units, memories = [], []
    expect_unit = True
    for k in inner:
        is_unit = k in device.units
        if is_unit != expect_unit:
            raise op_error(op, f"the route {what} of device @{device.name} does not alternate "
                               "units and memories; such routes are not supported yet")
        (units if is_unit else memories).append(k)
        expect_unit = not expect_unit
    if from_memory and len(memories) != len(units) - 1:
        raise op_error(op, f"route {what} of device @{device.name} must end with a unit that "
                           "feeds the compute unit")
    return _Hops(units, memories)


def _mask(t: DataTransferOp) -> dict:
    """The mask of a transfer, for the hop that touches its masked view."""
    if t.mask is None:
        return {}
    side, aset = t.mask
    return {f"{side}_mask": aset, "mask_symbols": list(t.mask_symbols)}


def _mask_key(t: DataTransferOp) -> tuple | None:
    """What makes two masked loads of one region read the same values: mask and symbols."""
    if t.mask is None:
        return None
    side, aset = t.mask
    return (side, aset, tuple(t.mask_symbols))


def _check_queue(op: Operation, device, src: str, dst: str) -> None:
    """A FIFO of the pipeline rides a queue link that keeps its messages in order (the
    compute stage reads its operands in the order the load stage sends them)."""
    dp = device.datapath(src, dst)
    if dp is None or not dp.is_queue:
        raise op_error(op, f'the link "{src}" -> "{dst}" of device @{device.name} must be a '
                           "queue (feature.queue) to carry a FIFO")
    if not dp.ordered:
        raise op_error(op, f'the queue "{src}" -> "{dst}" of device @{device.name} must be '
                           "ordered (feature.queue = {..., ordered}) to carry a FIFO: the "
                           "pipeline relies on messages arriving in the order they were sent")


@dataclass
class _Rebuild:
    """New private contents and stages of one pipeline."""

    alloc_ops: list[Operation] = field(default_factory=list)
    stages: dict[str, list[Operation]] = field(default_factory=dict)  # unit -> transfers
    order: list[tuple[int, str]] = field(default_factory=list)  # (distance, unit)
    landed: dict[tuple, SSAValue] = field(default_factory=dict)  # region -> its buffer

    def buffer(self, memory_kind: str, like: DataTransferOp, sizes: list[int],
               element_type) -> SSAValue:
        t = MemRefType(element_type, sizes, memory_space=StringAttr(memory_kind))
        a = memref.AllocOp([], [], t)
        a.memref.name_hint = f"buf_{memory_kind.lower()}"
        a.location = like.location
        self.alloc_ops.append(a)
        return a.memref

    def add(self, unit: str, distance: int, op: Operation) -> None:
        if unit not in self.stages:
            self.stages[unit] = []
            self.order.append((distance, unit))
        self.stages[unit].append(op)


def _static_sizes(t: DataTransferOp, side: str) -> list[int]:
    sizes = t.mixed_source_sizes if side == "source" else t.mixed_dest_sizes
    if sizes is None or not all(isinstance(s, int) for s in sizes):
        raise op_error(t, "routing needs static transfer sizes")
    return list(sizes)  # type: ignore[arg-type]


class _Expander:
    def __init__(self, device, pipeline: PipelineOp):
        self.device = device
        self.pipeline = pipeline
        self.compute = device.compute_kind
        self.retype: dict[SSAValue, FifoSlotType] = {}

    def unrouted(self, t: DataTransferOp | IndDataTransferOp) -> bool:
        slot = t.destination.type if t.dest_is_fifo else t.source.type
        if not isinstance(slot, FifoSlotType):
            return False
        far = slot.src_kind if t.dest_is_fifo else slot.dst_kind
        return far in self.device.memories

    def inter_core(self, t: DataTransferOp, memory_kind: str) -> str:
        """The unit that reaches another core's `memory_kind` (placement.inter_core_unit)."""
        unit = inter_core_unit(self.device, memory_kind)
        if unit is None:
            raise op_error(t, f"device @{self.device.name} has no inter-core path for memory "
                              f"'{memory_kind}' (a unit with datapaths from and to it and "
                              "links between its own instances, like a ring): views of a "
                              "given tile's scratchpad (ct_id) cannot be reached")
        return unit

    def expand_load(self, t: DataTransferOp | IndDataTransferOp, rb: _Rebuild) -> None:
        if isinstance(t, IndDataTransferOp):
            self.expand_gather(t, rb)
            return
        slot_t = t.destination.type
        assert isinstance(slot_t, FifoSlotType)
        src_mem = slot_t.src_kind
        hops = _split_route(t, self.device, self.device.route(src_mem, self.compute), True)
        _check_queue(t, self.device, hops.units[-1], self.compute)
        sizes = _static_sizes(t, "source")
        elt = slot_t.element_type
        src, src_idx, src_map = t.source, list(t.source_indices), t.source_map
        n = len(hops.units)
        first_mask = _mask(t)
        if owner_core(t.source) is not None:  # another core's scratchpad: over the ring first
            ring = self.inter_core(t, src_mem)
            buf = rb.buffer(src_mem, t, sizes, elt)
            rb.add(ring, n + 1, DataTransferOp(src, src_idx, src_map, sizes, buf,
                                               [0] * len(sizes), None, sizes, **first_mask))
            src, src_idx, src_map, first_mask = buf, [], None, {}
        for i, unit in enumerate(hops.units):
            dist = n - i
            mask = first_mask if i == 0 else {}  # the first hop reads the masked view
            if i < n - 1:
                # a region another load already brought into this memory is read from there
                # (a masked load only from a load with the same mask: the padding depends
                # on it)
                key = (src, tuple(src_idx), src_map, tuple(sizes), hops.memories[i],
                       _mask_key(t) if i == 0 else None)
                buf = rb.landed.get(key)
                if buf is None:
                    buf = rb.buffer(hops.memories[i], t, sizes, elt)
                    rb.landed[key] = buf
                    rb.add(unit, dist, DataTransferOp(src, src_idx, src_map, sizes, buf,
                                                      [0] * len(sizes), None, sizes, **mask))
                src, src_idx, src_map = buf, [], None
            else:
                # a staged buffer (no map) is read at its origin; a view keeps its map,
                # which may read no index at all (a constant subscript)
                last_idx: list[SSAValue | int] = src_idx if src_idx or src_map is not None \
                    else [0] * len(sizes)
                rb.add(unit, dist, DataTransferOp(src, last_idx, src_map, sizes,
                                                  t.destination, [], None,
                                                  t.mixed_dest_sizes, **mask))
        self.retype[t.destination] = FifoSlotType(hops.units[-1], self.compute,
                                                  slot_t.num_elements, elt)

    def expand_gather(self, t: IndDataTransferOp, rb: _Rebuild) -> None:
        """An indirect load: its first hop gathers into the first memory of the route, after
        the unit of that hop stages the indices it reads into one buffer of that memory
        (index j at [j], a plain transfer of one element each); the other hops move the box
        on as for any load. On a route
        without a memory (a load unit that feeds the compute unit from device memory) the unit
        gathers into the FIFO, reading the index where it lies."""
        slot_t = t.destination.type
        assert isinstance(slot_t, FifoSlotType)
        src_mem = slot_t.src_kind
        hops = _split_route(t, self.device, self.device.route(src_mem, self.compute), True)
        _check_queue(t, self.device, hops.units[-1], self.compute)
        if owner_core(t.source) is not None or any(owner_core(b) is not None
                                                   for b in t.index_buffers):
            raise op_error(t, "an indirect load from another core's scratchpad: not "
                              "supported by the scheduler yet")
        sizes = _static_sizes(t, "source")
        elt = slot_t.element_type
        idx = list(t.source_indices)
        n = len(hops.units)
        if n == 1 and len(t.index_buffers) > 1:
            raise op_error(t, f"an indirect load with {len(t.index_buffers)} index views on a "
                              f"route of device @{self.device.name} without a memory to stage "
                              "them side by side: not supported by the scheduler yet")
        if n == 1:  # the unit feeds the compute unit from memory: it reads the index there too
            rb.add(hops.units[0], 1, IndDataTransferOp(t.source, idx, t.subscripts, sizes,
                                                       t.destination, [], None,
                                                       t.mixed_dest_sizes))
            self.retype[t.destination] = FifoSlotType(hops.units[0], self.compute,
                                                      slot_t.num_elements, elt)
            return
        stage_mem = hops.memories[0]
        subscripts = self.stage_indices(t, t.subscripts, idx, sizes, stage_mem, rb,
                                        lambda _: (hops.units[0], n))
        src = rb.buffer(stage_mem, t, sizes, elt)
        rb.add(hops.units[0], n, IndDataTransferOp(t.source, idx, subscripts, sizes, src,
                                                   [0] * len(sizes), None, sizes))
        for i, unit in enumerate(hops.units[1:], 1):
            if i < n - 1:
                buf = rb.buffer(hops.memories[i], t, sizes, elt)
                rb.add(unit, n - i, DataTransferOp(src, [0] * len(sizes), None, sizes, buf,
                                                   [0] * len(sizes), None, sizes))
                src = buf
            else:
                rb.add(unit, n - i, DataTransferOp(src, [0] * len(sizes), None, sizes,
                                                   t.destination, [], None,
                                                   t.mixed_dest_sizes))
        self.retype[t.destination] = FifoSlotType(hops.units[-1], self.compute,
                                                  slot_t.num_elements, elt)

    def stage_indices(self, t: IndDataTransferOp, subs: list[Subscript],
                      idx: list[SSAValue], sizes: list[int], stage_mem: str, rb: _Rebuild,
                      stager: Callable[[SSAValue], tuple[str, int]]) -> list[Subscript]:
        """Plain transfers of the indices `subs` reads into one buffer of `stage_mem`,
        side by side (index j at [j]), each by the unit `stager` names for its index view
        (with its distance); the subscripts reading them there."""
        what = "a scatter" if t.is_scatter else "an indirect load"
        if any(sizes[d] != 1 for d, sub in enumerate(subs) if not isinstance(sub, AffineExpr)):
            raise op_error(t, f"{what} of several consecutive indices along an indirect "
                              "dimension: staging one index per transfer is supported")
        views = [sub for sub in subs if not isinstance(sub, AffineExpr)]
        types = {cast(MemRefType, v.type).get_element_type() for v, _ in views}
        if len(types) > 1:
            raise op_error(t, f"{what} whose index views hold different element types "
                              f"({', '.join(sorted(map(str, types)))}): their indices are "
                              "staged into one buffer; not supported yet")
        buf = rb.buffer(stage_mem, t, [len(views)], types.pop())
        buf.name_hint = "idx_" + stage_mem.lower()
        out: list[Subscript] = []
        for sub in subs:
            if isinstance(sub, AffineExpr):
                out.append(sub)
                continue
            view, exprs = sub
            j = sum(1 for s in out if not isinstance(s, AffineExpr))
            ones = [1] * cast(MemRefType, view.type).get_num_dims()
            unit, dist = stager(view)
            rb.add(unit, dist, DataTransferOp(
                view, idx, AffineMap(len(idx), 0, tuple(exprs)), ones, buf, [j], None, [1]))
            out.append((buf, [AffineExpr.constant(j)]))
        return out

    def expand_scatter(self, t: IndDataTransferOp, before: _Rebuild, after: _Rebuild
                       ) -> None:
        """A store through index buffers: the hops move the vector to the last memory of
        the route as for any store, and the last unit scatters it from there, reading the
        indices in that memory; they are staged there (index j at [j]) in the load part of
        the pipeline, by the unit that writes that memory from the index views' memory
        (the DMA that loads)."""
        slot_t = t.source.type
        assert isinstance(slot_t, FifoSlotType)
        dst_mem = slot_t.dst_kind
        route = self.device.route(self.compute, dst_mem)
        what = " -> ".join(route) or "(none)"
        hops = _split_route(t, self.device, route, False)
        if not hops.memories or hops.memories[-1] != dst_mem:
            raise op_error(t, f"route {what} of device @{self.device.name} does not end in "
                              f"memory '{dst_mem}'")
        _check_queue(t, self.device, self.compute, hops.units[0])
        if owner_core(t.destination) is not None or any(
                owner_core(b) is not None for b in t.dest_index_buffers):
            raise op_error(t, "a scatter into another core's scratchpad: not supported by "
                              "the scheduler yet")
        n = len(hops.units)
        if n == 1:
            raise op_error(t, f"a scatter on the route {what} of device @{self.device.name}, "
                              "which has no memory to stage its indices in before the unit "
                              "that stores: not supported by the scheduler yet")
        sizes = _static_sizes(t, "dest")
        stage_mem = hops.memories[-2]
        dist = 1 + max((d for d, _ in before.order), default=0)

        def stager(view: SSAValue) -> tuple[str, int]:
            mem = cast(StringAttr, cast(MemRefType, view.type).memory_space).data
            r = self.device.route(mem, stage_mem)
            if len(r) != 3 or r[1] not in self.device.units:
                raise op_error(t, f"a scatter whose indices cannot be staged from '{mem}' "
                                  f"into '{stage_mem}' by one unit of device "
                                  f"@{self.device.name} (route: {' -> '.join(r) or '(none)'})"
                                  ": not supported by the scheduler yet")
            return r[1], dist

        dsubs = t.dest_subscripts
        assert dsubs is not None
        subscripts = self.stage_indices(t, dsubs, list(t.dest_indices), sizes, stage_mem,
                                        before, stager)
        elt = slot_t.element_type
        src: SSAValue = t.source
        for i, unit in enumerate(hops.units[:-1]):
            buf = after.buffer(hops.memories[i], t, sizes, elt)
            src_sizes = t.mixed_source_sizes if i == 0 else sizes
            after.add(unit, -(i + 1), DataTransferOp(src, [0] * len(sizes) if i else [], None,
                                                     src_sizes, buf, [0] * len(sizes), None,
                                                     sizes))
            src = buf
        zero = [AffineExpr.constant(0)] * len(sizes)
        after.add(hops.units[-1], -n, IndDataTransferOp(
            src, [], zero, sizes, t.destination, list(t.dest_indices), None, sizes,
            dest_subscripts=subscripts))
        self.retype[t.source] = FifoSlotType(self.compute, hops.units[0],
                                             slot_t.num_elements, elt)

    def expand_store(self, t: DataTransferOp, rb: _Rebuild) -> None:
        slot_t = t.source.type
        assert isinstance(slot_t, FifoSlotType)
        dst_mem = slot_t.dst_kind
        route = self.device.route(self.compute, dst_mem)
        hops = _split_route(t, self.device, route, False)
        if not hops.memories or hops.memories[-1] != dst_mem:
            raise op_error(t, f"route {' -> '.join(route)} of device @{self.device.name} does "
                              f"not end in memory '{dst_mem}'")
        _check_queue(t, self.device, self.compute, hops.units[0])
        sizes = _static_sizes(t, "dest")
        elt = slot_t.element_type
        n = len(hops.units)
        src: SSAValue = t.source
        src_idx: list[SSAValue | int] = []
        remote = owner_core(t.destination) is not None
        for i, unit in enumerate(hops.units):
            if i < n - 1 or remote:
                buf = rb.buffer(hops.memories[i], t, sizes, elt)
                dst, dst_idx, dst_map = buf, [0] * len(sizes), None
            else:
                dst, dst_idx, dst_map = t.destination, list(t.dest_indices), t.dest_map
            src_sizes = t.mixed_source_sizes if i == 0 else sizes
            mask = _mask(t) if i == n - 1 and not remote else {}  # the last hop writes the view
            rb.add(unit, -(i + 1), DataTransferOp(src, src_idx, None, src_sizes, dst, dst_idx,
                                                  dst_map, sizes, **mask))
            src, src_idx = dst, [0] * len(sizes)
        if remote:  # into another core's scratchpad: the ring carries the local copy there
            rb.add(self.inter_core(t, dst_mem), -(n + 1), DataTransferOp(
                src, src_idx, None, sizes, t.destination, list(t.dest_indices), t.dest_map,
                sizes, **_mask(t)))
        self.retype[t.source] = FifoSlotType(self.compute, hops.units[0],
                                             slot_t.num_elements, elt)

    def stream(self, s: StageOp) -> scf.ForOp | None:
        """The loop of a load stage that streams (the contraction pipeline's k steps): its
        body is index constants and one loop of unrouted loads into FIFOs."""
        ops = list(s.body.block.ops)
        loops = [o for o in ops if isinstance(o, scf.ForOp)]
        if len(loops) != 1 or loops[0].iter_args or not all(
                o is loops[0] or isinstance(o, arith.ConstantOp) for o in ops):
            return None
        inner = list(loops[0].body.block.ops)[:-1]
        if inner and all(isinstance(o, DataTransferOp) and o.dest_is_fifo and self.unrouted(o)
                         for o in inner):
            return loops[0]
        return None

    def expand_stream(self, loop: scf.ForOp, rb: _Rebuild) -> None:
        """Each hop of the loop's loads in a loop of its own over the same steps (on the
        hop's unit), buffers as for loads outside loops (one step's box each)."""
        before = {u: len(ops) for u, ops in rb.stages.items()}
        for t in list(loop.body.block.ops)[:-1]:
            self.expand_load(t, rb)  # type: ignore[arg-type]
        for unit, ops in rb.stages.items():
            mine = ops[before.get(unit, 0):]
            if not mine:
                continue
            # the stage's bound constants are cloned into each hop's stage; bounds from
            # outside the stage are read where they are
            stage_ops = set(loop.parent_block().ops)  # type: ignore[union-attr]
            bounds = [v.owner.clone() if v.owner in stage_ops else None
                      for v in (loop.lb, loop.ub, loop.step)]
            values = [b.results[0] if b is not None else v  # type: ignore[union-attr]
                      for b, v in zip(bounds, (loop.lb, loop.ub, loop.step))]
            body = Block(arg_types=[IndexType()])
            body.args[0].name_hint = loop.body.block.args[0].name_hint
            mapping = {loop.body.block.args[0]: body.args[0]}
            body.add_ops([o.clone(mapping) for o in mine])
            body.add_op(scf.YieldOp())
            new = scf.ForOp(*values, [], Region(body))
            new.attributes |= loop.attributes
            for o in mine:
                o.drop_all_references()
            rb.stages[unit] = ops[:before.get(unit, 0)] + [b for b in bounds if b] + [new]

    def run(self, rewriter: PatternRewriter) -> None:
        stages = self.pipeline.stages
        loads = [s for s in stages if s.body.block.ops and all(
            isinstance(o, DataTransferOp | IndDataTransferOp) and o.dest_is_fifo
            and self.unrouted(o)
            for o in s.body.block.ops)]
        streams = {s: lp for s in stages if (lp := self.stream(s)) is not None}
        loads += list(streams)
        stores = [s for s in stages if s.body.block.ops and all(
            isinstance(o, DataTransferOp | IndDataTransferOp) and o.source_is_fifo
            and self.unrouted(o) for o in s.body.block.ops)]
        if not loads and not stores:
            return
        before, after = _Rebuild(), _Rebuild()
        for s in loads:
            if s in streams:
                self.expand_stream(streams[s], before)
                continue
            for t in s.body.block.ops:
                self.expand_load(t, before)  # type: ignore[arg-type]
        for s in stores:
            for t in s.body.block.ops:
                if isinstance(t, IndDataTransferOp):
                    self.expand_scatter(t, before, after)
                else:
                    self.expand_store(t, after)  # type: ignore[arg-type]
        self.rebuild(loads, stores, before, after, rewriter)

    def rebuild(self, loads: list[StageOp], stores: list[StageOp], before: _Rebuild,
                after: _Rebuild, rewriter: PatternRewriter) -> None:
        """New private (retyped slots, new buffers, new tokens) and the linear stage chain
        [load hops..., untouched stages..., store hops...]."""
        private = self.pipeline.private_op
        assert private is not None
        y = private.yield_op
        kept = [s for s in self.pipeline.stages if s not in loads and s not in stores]
        chains = [sorted(before.order, reverse=True), sorted(after.order, reverse=True)]
        n_tokens = len(chains[0]) + len(kept) + len(chains[1])

        slot_type = {v: self.retype[private.res[i]] for i, v in enumerate(y.values)
                     if private.res[i] in self.retype}
        block = Block()
        inner: dict[SSAValue, SSAValue] = {}
        for op in private.body.block.ops:
            if op is y or isinstance(op, CreateTokenOp):
                continue
            if isinstance(op, FifoAllocateOp):
                new = FifoAllocateOp([slot_type.get(s, s.type) for s in op.slots],
                                     [inner.get(d, d) for d in op.dynamic_sizes])
                inner.update(zip(op.slots, new.slots))
                block.add_op(new)
            else:
                block.add_op(op.clone(inner))
        allocs = before.alloc_ops + after.alloc_ops
        block.add_ops(allocs)
        tokens = [CreateTokenOp() for _ in range(n_tokens)]
        block.add_ops(tokens)
        kept_values = [(private.res[i], inner.get(v, v)) for i, v in enumerate(y.values)
                       if not isinstance(v.type, TokenType)]
        yielded = ([v for _, v in kept_values] + [a.results[0] for a in allocs]
                   + [t.result for t in tokens])
        block.add_op(PrivateYieldOp(*yielded))
        new_private = PrivateOp([v.type for v in yielded], Region(block))
        res = list(new_private.res)
        outer: dict[SSAValue, SSAValue] = {old: res[i] for i, (old, _) in enumerate(kept_values)}
        for j, a in enumerate(allocs):
            outer[a.results[0]] = res[len(kept_values) + j]
        tok = res[len(kept_values) + len(allocs):]

        new_stages: list[Operation] = []

        def stage(ops: list[Operation], units: list[str] | None) -> None:
            k = len(new_stages)
            ins = [tok[k - 1]] if k else []
            new_stages.append(StageOp(ins, [tok[k]], [o.clone(outer) for o in ops],
                                      applicable_units=units))

        for _, unit in chains[0]:
            stage(before.stages[unit], [unit])
        for s in kept:
            stage(list(s.body.block.ops), s.applicable_units or None)
        for _, unit in chains[1]:
            stage(after.stages[unit], [unit])
        for rb in (before, after):
            for ops in rb.stages.values():
                for o in ops:
                    o.drop_all_references()
        new_pipeline = PipelineOp([new_private, *new_stages], self.pipeline.modulo)
        new_pipeline.location = self.pipeline.location
        new_pipeline.attributes |= self.pipeline.attributes
        rewriter.insert(new_pipeline, InsertPoint.before(self.pipeline))
        rewriter.erase(self.pipeline, safe_erase=False)


class RoutePipeline(RewritePattern):
    """Rebuild one pipeline whose transfers still go straight between a memory and the
    compute unit: load hops first, the untouched stages, then store hops, each hop a stage
    of its own unit. A pipeline without such transfers does not match."""

    def __init__(self, device):
        self.device = device

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PipelineOp, rewriter: PatternRewriter) -> None:
        _Expander(self.device, op).run(rewriter)


class PathExpansionPass(ModulePass):
    """Route each pipeline's transfers along the device's shortest paths.

    Before (sample device):
        ktdf.stage depends_in(none) depends_out(%t0) {
          ktdf.data_transfer from %A[...] size [1, 64] to %s size [64] : ..., !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
        }
    After:
        ktdf.stage ... { ktdf.data_transfer from %A[...] size [1, 64] to %l1[0, 0] size [1, 64] } {applicable_units = ["MNILU"]}
        ktdf.stage ... { ktdf.data_transfer from %l1[0, 0] size [1, 64] to %s size [64] : ..., !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16> } {applicable_units = ["L1LU"]}
    with `%l1 = memref.alloc() : memref<1x64xf16, "L1">` in the pipeline's `ktdf.private`.
    """

    name = "path-expansion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [RoutePipeline(device_of(op, self.name))])
