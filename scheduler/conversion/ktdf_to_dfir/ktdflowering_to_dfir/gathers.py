"""Indirect transfers: `ktdf.ind_data_transfer` from a memory into a buffer becomes one
asynchronous `agen.composite_indirect_load_and_store` (a DMA whose region only yields); into
a FIFO (a route without a memory), `agen.indirect_vector_load` + `dataflow.send`.

The index buffer is the `indirect_src` side, read at the subscripts of the transfer's first
indirect dimension (the others' indices follow it in the buffer, as path-expansion stages
them); those dimensions of the direct source coordinate are 0 in the map and named by
`indirect_src_dims`, the indices read at run time replace them (dataflow-ir.md §3):

    ktdf.ind_data_transfer from %T[ind(%idx[0]), (%v1)] size [1, 64] to %buf[0, 0] size [1, 64]
    -> agen.composite_indirect_load_and_store indirect_src:%idx[0] direct_src:%T[0, %v1]
         direct_dst:%buf[0, 0] ... {indirect_src_dims = array<i64: 0>, ...} { agen.yield }

Lowered once the views and buffers are (symbols.py). Indices not staged consecutively in
one buffer (two index views read in place) have no single agen op and are refused.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import VectorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineExpr,
    AffineMap,
)
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.programs import Program, Programs
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.transfers import (
    ONE_STEP,
    lowered,
    peer,
    zero_map,
)
from scheduler.dialects.ktdf import FifoSlotType, IndDataTransferOp
from scheduler.rewriting import replace_keeping_names
from spyrecode.dialects import agen
from spyrecode.dialects.agen_access import Access, TimeLoop
from spyrecode.dialects.dataflow import SendOp


def lower_gather(t: IndDataTransferOp, program: Program) -> list[Operation]:
    sizes, dsizes = t.mixed_source_sizes, t.mixed_dest_sizes
    if not all(isinstance(s, int) for s in sizes) or dsizes is None or not all(
            isinstance(s, int) for s in dsizes):
        raise op_error(t, "an indirect transfer needs static sizes to be lowered")
    if t.transfer_mode is not None:
        raise op_error(t, f"an indirect transfer in mode '{t.transfer_mode}': not supported "
                          "by the scheduler yet")
    indirect = [(d, s) for d, s in enumerate(t.subscripts) if not isinstance(s, AffineExpr)]
    dims = [d for d, _ in indirect]
    buf, exprs = indirect[0][1]  # type: ignore[misc]
    if not _consecutive([s for _, s in indirect]):  # type: ignore[misc]
        raise op_error(t, f"an indirect transfer with {len(indirect)} indirect dimensions "
                          "whose indices are not consecutive elements of one index buffer "
                          "(path-expansion stages them so): not supported by the scheduler "
                          "yet")
    for d in dims:
        if sizes[d] != 1:
            raise op_error(t, f"an indirect transfer of {sizes[d]} consecutive indices along "
                              f"dimension {d}: one index per transfer is supported")
    n = len(t.source_indices)
    direct = [AffineExpr.constant(0) if d in dims else s for d, s in enumerate(t.subscripts)]
    src = Access(t.source, list(t.source_indices), AffineMap(n, 0, tuple(direct)))  # type: ignore[arg-type]
    ind = Access(buf, list(t.source_indices), AffineMap(n, 0, tuple(exprs)))
    elt = t.source.type.element_type  # type: ignore[union-attr]
    vt = VectorType(elt, [math.prod(sizes)])  # type: ignore[arg-type]
    box, ident = ktdp.box_set(sizes), AffineMap.identity(len(sizes))  # type: ignore[arg-type]
    slot = t.destination.type
    if isinstance(slot, FifoSlotType):  # gathered straight into the compute unit's FIFO
        ld = agen.IndirectVectorLoadOp(ind, src, box, ident, vt, indirect_dims=dims)
        return [ld, SendOp(peer(t, program, slot.dst_kind), ld.result)]
    dmap = t.dest_map.data if t.dest_map is not None else AffineMap.identity(
        len(t.dest_indices))
    dst = Access(t.destination, list(t.dest_indices), dmap)
    return [agen.CompositeIndirectLoadAndStoreOp(
        src, dst, box, ident, ktdp.box_set(dsizes),  # type: ignore[arg-type]
        AffineMap.identity(len(dsizes)), TimeLoop(ONE_STEP, AffineMap.identity(1)),
        zero_map(len(sizes)), zero_map(len(dsizes)), vt, indirect_src=ind,  # type: ignore[arg-type]
        load_indirect_time_addr_map=zero_map(len(exprs)), indirect_src_dims=dims)]


def _consecutive(subs: list[tuple[SSAValue, Sequence[AffineExpr]]]) -> bool:
    """The indices of the indirect dimensions sit in one buffer, the j-th one where the
    first is with its last subscript advanced by j (`ind(%b[0]), ind(%b[1])`)."""
    buf, first = subs[0]
    for j, (b, exprs) in enumerate(subs):
        if b is not buf or len(exprs) != len(first):
            return False
        want = [*first[:-1], first[-1] + j] if j and first else list(first)
        if list(exprs) != want:
            return False
    return True


class LowerIndDataTransfer(RewritePattern):
    def __init__(self, programs: Programs):
        self.programs = programs

    @op_type_rewrite_pattern
    def match_and_rewrite(self, t: IndDataTransferOp, rewriter: PatternRewriter) -> None:
        program = self.programs.of(t)
        if program is None:
            return
        if not all(lowered(v) for v in (t.source, t.destination, *t.index_buffers)):
            return
        replace_keeping_names(rewriter, t, lower_gather(t, program))


def patterns(programs: Programs) -> tuple[RewritePattern, ...]:
    return (LowerIndDataTransfer(programs),)


LOWERED = (IndDataTransferOp,)
