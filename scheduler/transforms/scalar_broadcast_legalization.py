"""`scalar-broadcast-legalization`: a compute input broadcast along the vector becomes a whole
vector on its FIFO, splat by the load unit.

construct-three-stage-pipeline sends a broadcast operand as it is in memory: a scalar (or a
column of one value per row) crosses the FIFO as a short transfer, and the compute unit
repeats it across its lanes (`affine_map<(d0, d1) -> (d0, 0)>` on a `tensor<1x1xf16>`). A
vector engine computes on whole vectors and a FIFO of a real device may carry nothing
shorter than one (its links' `transfer_granularity`), so upstream widens the transfer to
the vector granularity and marks it `transfer_mode = "splat"` (each source element repeated
n_dst / n_src times, schedule-ir.md), which the load unit performs when it has the
`simd.splat` feature; the compute op then reads a full vector with the output's indexing.

    %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
    ktdf.data_transfer from %buf[0, 0] size [1, 1] to %s size [1]
    %x = ktdf.read_from_fifo %s : ... -> tensor<1x1xf16>
    linalg.generic {indexing_maps = [(d0, d1) -> (d0, 0), (d0, d1) -> (d0, d1)]} ins(%x ...)
becomes
    %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    ktdf.data_transfer from %buf[0, 0] size [1, 1] to %s size [64] {transfer_mode = "splat"}
    %x = ktdf.read_from_fifo %s : ... -> tensor<1x64xf16>
    linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0, d1)]} ins(%x ...)

Which inputs: a FIFO slot read by one `read_from_fifo` whose every use is an input of a
`linalg.generic` with the identity output map, the input's map keeping the leading
dimensions and replacing the trailing ones by 0 (so the repeats are consecutive: a splat),
written by one memory-to-FIFO transfer of a unit with `simd.splat`. The lowering gives the
load's `agen.vector_load` a `splat` count (this project's extension of the op). What it buys
is the form a vector engine needs (no lane broadcast in the compute unit), as upstream
requires, and the compute unit's broadcast op per vector: a row scale `x * c[:, 0]` (8 rows
of 128 fp16 per tile) takes 371 -> 355 cycles on `spyre` and 407 -> 399 on `sample_device`;
on `stream_device`, whose load units read global memory straight into FIFOs, the wider
sends cost 9,368 -> 9,398. The shipped FIFO links carry single fp16 values too
(granularity [128, 2]), so the narrow form was legal there. stage-coarsening coarsens such
pipelines as before (the splat streams per vector).

A RewritePattern on `ktdf.pipeline` (it retypes a private FIFO slot, so it rebuilds the
pipeline's `ktdf.private`). Idempotent: a widened slot is no longer broadcast.
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    ModuleOp,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from scheduler.analysis.device import device_of
from scheduler.dialects.ktdf import (
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    PipelineOp,
    ReadFromFifoOp,
    enclosing_stage,
)
from scheduler.rewriting import apply_patterns, rebuild_private


def _broadcast_shape(m: AffineMap, out: AffineMap, shape: tuple[int, ...]
                     ) -> tuple[int, ...] | None:
    """The output's shape when `m` keeps dims 0..k-1 and puts 0 for the rest (a trailing
    broadcast) under an identity output map; else None."""
    if out != AffineMap.identity(out.num_dims) or len(m.results) != len(shape):
        return None
    kept = 0
    for j, e in enumerate(m.results):
        if isinstance(e, AffineDimExpr) and e.position == j and kept == j:
            kept += 1
        elif not (isinstance(e, AffineConstantExpr) and e.value == 0):
            return None
    return None if kept == len(m.results) else tuple(shape)


def _plan(slot: SSAValue, device):
    """(writer transfer, reader, [(generic, operand index)], widened shape) or None."""
    readers = [u.operation for u in slot.uses if isinstance(u.operation, ReadFromFifoOp)]
    writers = [u.operation for u in slot.uses if isinstance(u.operation, DataTransferOp)]
    if len(readers) != 1 or len(writers) != 1 or len(readers) + len(writers) != len(list(slot.uses)):
        return None
    (r,), (w,) = readers, writers
    if not w.dest_is_fifo or w.source_is_fifo or w.transfer_mode is not None or w.mask:
        return None
    stage = enclosing_stage(w)
    unit = device.units.get(stage.applicable_units[0]) if stage is not None \
        and stage.applicable_units else None
    if unit is None or not unit.splat:
        return None
    uses, shape = [], None
    for u in r.result.uses:
        g = u.operation
        if not isinstance(g, linalg.GenericOp) or u.index >= len(g.inputs):
            return None
        maps = [a.data for a in g.indexing_maps]
        out_t = g.outputs[0].type if g.outputs else None
        if not isinstance(out_t, TensorType):
            return None
        got = _broadcast_shape(maps[u.index], maps[-1], tuple(out_t.get_shape()))
        if got is None or (shape is not None and got != shape):
            return None
        shape = got
        uses.append((g, u.index))
    if shape is None or any(d < 0 for d in shape):
        return None
    return w, r, uses, shape


class WidenBroadcastFifo(RewritePattern):
    def __init__(self, device):
        self.device = device

    @op_type_rewrite_pattern
    def match_and_rewrite(self, p: PipelineOp, rewriter: PatternRewriter) -> None:
        priv = p.private_op
        if priv is None:
            return
        y = priv.yield_op
        plans = {}
        for i, res in enumerate(priv.res):
            if isinstance(res.type, FifoSlotType) and isinstance(y.values[i].owner,
                                                                   FifoAllocateOp):
                got = _plan(res, self.device)
                if got is not None:
                    plans[i] = got
        if not plans:
            return
        values = list(y.values)
        wide_allocs = []
        for i, (_, _, _, shape) in plans.items():
            old = priv.res[i].type
            assert isinstance(old, FifoSlotType)
            alloc = FifoAllocateOp([FifoSlotType(old.src, old.dst, shape, old.element_type)])
            alloc.results[0].name_hint = values[i].name_hint
            wide_allocs.append(alloc)
            values[i] = alloc.results[0]
        narrow = [y.values[i].owner for i in plans]  # dead once the old private is gone
        new_priv = rebuild_private(priv, values, wide_allocs, rewriter,
                                   keep_uses=lambda k: k not in plans)
        for i, (w, r, uses, shape) in plans.items():
            slot = new_priv.res[i]
            w.operands = [slot if o is priv.res[i] else o for o in w.operands]
            w.properties["static_dest_sizes"] = DenseArrayBase.from_list(i64, [math.prod(shape)])
            w.attributes["transfer_mode"] = StringAttr("splat")
            rewriter.notify_op_modified(w)
            elt = r.result.type.element_type  # type: ignore[union-attr]
            wide = ReadFromFifoOp(slot, TensorType(elt, shape))
            wide.result.name_hint = r.result.name_hint
            rewriter.insert(wide, InsertPoint.before(r))
            for g, idx in uses:
                maps = [a.data for a in g.indexing_maps]
                maps[idx] = maps[-1]
                g.indexing_maps = ArrayAttr([AffineMapAttr(m) for m in maps])
                rewriter.notify_op_modified(g)
            rewriter.replace_all_uses_with(r.result, wide.result)
            rewriter.erase(r)
        rewriter.erase(priv, safe_erase=False)
        for a in narrow:
            if isinstance(a, Operation) and not a.results[0].uses:
                rewriter.erase(a)


class ScalarBroadcastLegalizationPass(ModulePass):
    """Widen broadcast compute inputs to whole vectors on their FIFO, splat by the load unit.

    Before:  ktdf.data_transfer from %b[0, 0] size [1, 1] to %s size [1]  (slot of 1xf16)
             generic {maps = [(d0, d1) -> (d0, 0), ...]} ins(%x : tensor<1x1xf16>)
    After:   ktdf.data_transfer ... to %s size [64] {transfer_mode = "splat"}  (slot of 64xf16)
             generic {maps = [(d0, d1) -> (d0, d1), ...]} ins(%x : tensor<1x64xf16>)
    """

    name = "scalar-broadcast-legalization"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [WidenBroadcastFifo(device_of(op, self.name))])
