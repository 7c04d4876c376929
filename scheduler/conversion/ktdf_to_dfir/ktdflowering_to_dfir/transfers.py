"""Transfers: `ktdf.data_transfer` and the FIFO reads and writes of the compute stage.

Memory to memory is an asynchronous DMA (`agen.composite_load_and_store` whose region only
yields); memory to FIFO is `agen.vector_load` + `dataflow.send` to the FIFO's consumer; FIFO
to memory is `dataflow.receive` from its producer + `agen.vector_store`. A masked DMA
(`source_mask` / `dest_mask`) moves its box whole or element by element (masked.py). A FIFO read of the
compute stage is a `dataflow.receive`, a write a `dataflow.send`. A transfer is lowered once
its views and buffers are (symbols.py): DataflowIR memrefs carry no memory space.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import MemRefType, StringAttr, VectorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineExpr,
    AffineMap,
    AffineSet,
)
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.masked import masked_dma
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.programs import Program, Programs
from scheduler.dialects.ktdf import (
    DataTransferOp,
    FifoSlotType,
    ReadFromFifoOp,
    WriteToFifoOp,
)
from scheduler.rewriting import replace_keeping_names
from spyrecode.dialects import agen
from spyrecode.dialects.agen_access import Access, TimeLoop
from spyrecode.dialects.dataflow import ReceiveOp, SendOp

ONE_STEP = AffineSet(1, 0, (AffineConstraintExpr(AffineConstraintKind.eq,
                                                  AffineExpr.dimension(0),
                                                  AffineExpr.constant(0)),))


def peer(op: Operation, program: Program, kind: str | None) -> SSAValue:
    """The unit at the other end of a FIFO."""
    handle = program.unit(kind)
    if handle is None:
        raise op_error(op, f"no unit of kind '{kind}' is materialised for this FIFO")
    return handle


def _vector(slot: FifoSlotType) -> VectorType:
    return VectorType(slot.element_type, [slot.num_elements])


def zero_map(n: int) -> AffineMap:
    """A composite transfer's time -> address map of one step: n zeros."""
    return AffineMap(1, 0, tuple(AffineExpr.constant(0) for _ in range(n)))


def lowered(v: SSAValue) -> bool:
    """A memref operand is DataflowIR once its view or buffer is lowered."""
    t = v.type
    return not (isinstance(t, MemRefType) and isinstance(t.memory_space, StringAttr))


def _sizes(t: DataTransferOp, side: str) -> list[int]:
    sizes = t.mixed_source_sizes if side == "source" else t.mixed_dest_sizes
    if sizes is None or not all(isinstance(s, int) for s in sizes):
        raise op_error(t, f"the {side} of a transfer needs static sizes to be lowered")
    return list(sizes)  # type: ignore[arg-type]


def _unmasked(t: DataTransferOp) -> None:
    if t.mask is not None:
        raise op_error(t, "a masked transfer between a memory and a FIFO: not supported by "
                          "the scheduler yet (the device must stage it in a memory, so that a "
                          "DMA masks it)")


def _access(value: SSAValue, indices, amap) -> Access:
    m = amap.data if amap is not None else AffineMap.identity(len(indices))
    return Access(value, list(indices), m)


def _receive_and_store(t: DataTransferOp, program: Program) -> list[Operation] | None:
    slot = t.source.type
    assert isinstance(slot, FifoSlotType)
    _unmasked(t)
    sizes = _sizes(t, "dest")
    sender = peer(t, program, slot.src_kind)
    if not lowered(t.destination):
        return None
    r = ReceiveOp(sender, _vector(slot))
    d = _access(t.destination, t.dest_indices, t.dest_map)
    return [r, agen.VectorStoreOp(r.results[0], d.memref, d.indices, d.map, ktdp.box_set(sizes),
                                  AffineMap.identity(len(sizes)))]


def _load_and_send(t: DataTransferOp, program: Program, sizes: list[int],
                   vt: VectorType) -> list[Operation]:
    slot = t.destination.type
    assert isinstance(slot, FifoSlotType)
    _unmasked(t)
    s = _access(t.source, t.source_indices, t.source_map)
    repeats = None
    if t.transfer_mode == "splat":  # each element sent n_dst / n_src times in a row
        count = slot.num_elements
        if count is None or count % math.prod(sizes):
            raise op_error(t, "a splat transfer needs a static FIFO count that is a multiple "
                              "of its source's")
        repeats = count // math.prod(sizes)
        vt = VectorType(vt.element_type, [count])
    elif t.transfer_mode is not None:
        raise op_error(t, f'transfer_mode "{t.transfer_mode}" between a memory and a FIFO: '
                          "not supported by the scheduler yet")
    ld = agen.VectorLoadOp(s.memref, s.indices, s.map, ktdp.box_set(sizes),
                           AffineMap.identity(len(sizes)), vt, splat=repeats)
    return [ld, SendOp(peer(t, program, slot.dst_kind), ld.result)]


def _dma(t: DataTransferOp, sizes: list[int], vt: VectorType) -> list[Operation] | None:
    dsizes = _sizes(t, "dest")
    if not lowered(t.destination):
        return None
    s = _access(t.source, t.source_indices, t.source_map)
    d = _access(t.destination, t.dest_indices, t.dest_map)
    zero_s, zero_d = zero_map(len(sizes)), zero_map(len(dsizes))
    whole = agen.CompositeLoadAndStoreOp(
        s, d, ktdp.box_set(sizes), AffineMap.identity(len(sizes)), ktdp.box_set(dsizes),
        AffineMap.identity(len(dsizes)), TimeLoop(ONE_STEP, AffineMap.identity(1)),
        zero_s, zero_d, vt)
    if t.mask is None:
        return [whole]
    if sizes != dsizes:
        raise op_error(t, "a masked transfer needs the same box on both sides")
    return masked_dma(t, s, d, sizes, whole)


class _InPrograms(RewritePattern):
    def __init__(self, programs: Programs):
        self.programs = programs


class LowerDataTransfer(_InPrograms):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, t: DataTransferOp, rewriter: PatternRewriter) -> None:
        program = self.programs.of(t)
        if program is None:
            return
        if t.source_is_fifo:
            new = _receive_and_store(t, program)
        else:
            sizes = _sizes(t, "source")
            elt = t.source.type.element_type  # type: ignore[union-attr]
            vt = VectorType(elt, [math.prod(sizes)])
            if not lowered(t.source):
                return
            new = (_load_and_send(t, program, sizes, vt) if t.dest_is_fifo
                   else _dma(t, sizes, vt))
        if new is not None:
            replace_keeping_names(rewriter, t, new)


class LowerFifoRead(_InPrograms):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReadFromFifoOp, rewriter: PatternRewriter) -> None:
        program = self.programs.of(op)
        if program is None:
            return
        slot = op.fifo_slot.type
        assert isinstance(slot, FifoSlotType)
        replace_keeping_names(rewriter, op, [ReceiveOp(peer(op, program, slot.src_kind),
                                                       _vector(slot))])


class LowerFifoWrite(_InPrograms):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: WriteToFifoOp, rewriter: PatternRewriter) -> None:
        program = self.programs.of(op)
        if program is None:
            return
        slot = op.fifo_slot.type
        assert isinstance(slot, FifoSlotType)
        replace_keeping_names(rewriter, op, [SendOp(peer(op, program, slot.dst_kind),
                                                    op.operands[0])])


def patterns(programs: Programs) -> tuple[RewritePattern, ...]:
    return LowerDataTransfer(programs), LowerFifoRead(programs), LowerFifoWrite(programs)


LOWERED = (DataTransferOp, ReadFromFifoOp, WriteToFifoOp)
