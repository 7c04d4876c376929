"""Indirect transfers: `ktdf.ind_data_transfer` from a memory into a buffer becomes one
asynchronous `agen.composite_indirect_load_and_store` (a DMA whose region only yields); into
a FIFO (a route without a memory), `agen.indirect_vector_load` + `dataflow.send`.

The index buffer is the `indirect_src` side, read at the subscripts of the transfer's one
indirect dimension; that dimension of the direct source coordinate is 0 in the map and
named by `indirect_src_dim`, the index read at run time replaces it (dataflow-ir.md §3):

    ktdf.ind_data_transfer from %T[ind(%idx[0]), (%v1)] size [1, 64] to %buf[0, 0] size [1, 64]
    -> agen.composite_indirect_load_and_store indirect_src:%idx[0] direct_src:%T[0, %v1]
         direct_dst:%buf[0, 0] ... {indirect_src_dim = 0 : i64, ...} { agen.yield }

Lowered once the views and buffers are (symbols.py). One indirect dimension per transfer: a
gather through two index views has no single agen op and is refused.
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
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.programs import Program, Programs
from scheduler.dialects.ktdf import FifoSlotType, IndDataTransferOp
from scheduler.rewriting import replace_keeping_names
from spyrecode.dialects import agen
from spyrecode.dialects.agen_access import Access, TimeLoop
from spyrecode.dialects.dataflow import SendOp

_ONE_STEP = AffineSet(1, 0, (AffineConstraintExpr(AffineConstraintKind.eq,
                                                  AffineExpr.dimension(0),
                                                  AffineExpr.constant(0)),))


def _lowered(v: SSAValue) -> bool:
    t = v.type
    return not (isinstance(t, MemRefType) and isinstance(t.memory_space, StringAttr))


def _zero(n: int) -> AffineMap:
    return AffineMap(1, 0, tuple(AffineExpr.constant(0) for _ in range(n)))


def lower_gather(t: IndDataTransferOp, program: Program) -> list[Operation]:
    sizes, dsizes = t.mixed_source_sizes, t.mixed_dest_sizes
    if not all(isinstance(s, int) for s in sizes) or dsizes is None or not all(
            isinstance(s, int) for s in dsizes):
        raise op_error(t, "an indirect transfer needs static sizes to be lowered")
    if t.transfer_mode is not None:
        raise op_error(t, f"an indirect transfer in mode '{t.transfer_mode}': not supported "
                          "by the scheduler yet")
    indirect = [(d, s) for d, s in enumerate(t.subscripts) if not isinstance(s, AffineExpr)]
    if len(indirect) != 1:
        raise op_error(t, f"an indirect transfer with {len(indirect)} indirect dimensions: "
                          "one is supported (agen.composite_indirect_load_and_store reads "
                          "one index memref)")
    dim, (buf, exprs) = indirect[0]
    if sizes[dim] != 1:
        raise op_error(t, f"an indirect transfer of {sizes[dim]} consecutive indices along "
                          f"dimension {dim}: one index per transfer is supported")
    n = len(t.source_indices)
    direct = [AffineExpr.constant(0) if d == dim else s for d, s in enumerate(t.subscripts)]
    src = Access(t.source, list(t.source_indices), AffineMap(n, 0, tuple(direct)))  # type: ignore[arg-type]
    ind = Access(buf, list(t.source_indices), AffineMap(n, 0, tuple(exprs)))
    elt = t.source.type.element_type  # type: ignore[union-attr]
    vt = VectorType(elt, [math.prod(sizes)])  # type: ignore[arg-type]
    box, ident = ktdp.box_set(sizes), AffineMap.identity(len(sizes))  # type: ignore[arg-type]
    slot = t.destination.type
    if isinstance(slot, FifoSlotType):  # gathered straight into the compute unit's FIFO
        peer = program.unit(slot.dst_kind)
        if peer is None:
            raise op_error(t, f"no unit of kind '{slot.dst_kind}' is materialised for this "
                              "FIFO")
        ld = agen.IndirectVectorLoadOp(ind, src, box, ident, vt, indirect_dim=dim)
        return [ld, SendOp(peer, ld.result)]
    dmap = t.dest_map.data if t.dest_map is not None else AffineMap.identity(
        len(t.dest_indices))
    dst = Access(t.destination, list(t.dest_indices), dmap)
    return [agen.CompositeIndirectLoadAndStoreOp(
        src, dst, box, ident, ktdp.box_set(dsizes),  # type: ignore[arg-type]
        AffineMap.identity(len(dsizes)), TimeLoop(_ONE_STEP, AffineMap.identity(1)),
        _zero(len(sizes)), _zero(len(dsizes)), vt, indirect_src=ind,  # type: ignore[arg-type]
        load_indirect_time_addr_map=_zero(len(exprs)), indirect_src_dim=dim)]


class LowerIndDataTransfer(RewritePattern):
    def __init__(self, programs: Programs):
        self.programs = programs

    @op_type_rewrite_pattern
    def match_and_rewrite(self, t: IndDataTransferOp, rewriter: PatternRewriter) -> None:
        program = self.programs.of(t)
        if program is None:
            return
        if not all(_lowered(v) for v in (t.source, t.destination, *t.index_buffers)):
            return
        replace_keeping_names(rewriter, t, lower_gather(t, program))


def patterns(programs: Programs) -> tuple[RewritePattern, ...]:
    return (LowerIndDataTransfer(programs),)


LOWERED = (IndDataTransferOp,)
