"""Indirect transfers: `ktdf.ind_data_transfer` between two memories becomes one
asynchronous `agen.composite_indirect_load_and_store` (a DMA whose region only yields), a
gather from a memory into a FIFO (a route without a memory) `agen.indirect_vector_load` +
`dataflow.send`.

Each indirect side's index buffer is that side's `indirect_src` / `indirect_dst` memref, read
at the subscripts of its first indirect dimension (the others' indices follow it in the
buffer, as path-expansion stages them); those dimensions of the direct coordinate are 0 in
the map and named by `indirect_src_dims` / `indirect_dst_dims`, the indices read at run time
replace them (dataflow-ir.md §3):

    ktdf.ind_data_transfer from %T[ind(%idx[0]), (%v1)] size [1, 64] to %buf[0, 0] size [1, 64]
    -> agen.composite_indirect_load_and_store indirect_src:%idx[0] direct_src:%T[0, %v1]
         direct_dst:%buf[0, 0] ... {indirect_src_dims = array<i64: 0>, ...} { agen.yield }
    ktdf.ind_data_transfer from %buf[0, 0] size [1, 64] to %Y[ind(%idx[0]), (%v1)] size [1, 64]
    -> agen.composite_indirect_load_and_store direct_src:%buf[0, 0] indirect_dst:%idx[0]
         direct_dst:%Y[0, %v1] ... {indirect_dst_dims = array<i64: 0>, ...} { agen.yield }

Lowered once the views and buffers are (symbols.py). Indices not staged consecutively in
one buffer (two index views read in place) have no single agen op and are refused, as is a
scatter straight from a FIFO (path-expansion always lands it in a memory first).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import VectorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
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
from scheduler.dialects.ktdf_transfers import Subscript
from scheduler.rewriting import replace_keeping_names
from spyrecode.dialects import agen
from spyrecode.dialects.agen_access import Access, TimeLoop
from spyrecode.dialects.dataflow import SendOp

_NOT_YET = "not supported by the scheduler yet"


def _static(t: IndDataTransferOp, sizes: Sequence[int | SSAValue] | None) -> list[int]:
    if sizes is None or not all(isinstance(s, int) for s in sizes):
        raise op_error(t, "an indirect transfer needs static sizes to be lowered")
    return [int(s) for s in sizes]  # type: ignore[arg-type]


def _side(t: IndDataTransferOp, value: SSAValue, subs: list[Subscript],
          indices: Sequence[SSAValue], sizes: list[int]
          ) -> tuple[Access, Access | None, list[int]]:
    """The direct access of one memref side (0 in its indirect dimensions), the access of
    its index buffer at the first index (None for a direct side) and the dimensions the
    indices replace."""
    indirect = [(d, s) for d, s in enumerate(subs) if not isinstance(s, AffineExpr)]
    dims = [d for d, _ in indirect]
    n = len(indices)
    direct = [AffineExpr.constant(0) if d in dims else s for d, s in enumerate(subs)]
    acc = Access(value, list(indices), AffineMap(n, 0, tuple(direct)))  # type: ignore[arg-type]
    if not indirect:
        return acc, None, []
    if not _consecutive([s for _, s in indirect]):  # type: ignore[misc]
        raise op_error(t, f"an indirect transfer with {len(indirect)} indirect dimensions "
                          "whose indices are not consecutive elements of one index buffer "
                          f"(path-expansion stages them so): {_NOT_YET}")
    for d in dims:
        if sizes[d] != 1:
            raise op_error(t, f"an indirect transfer of {sizes[d]} consecutive indices along "
                              f"dimension {d}: one index per transfer is supported")
    buf, exprs = indirect[0][1]  # type: ignore[misc]
    return acc, Access(buf, list(indices), AffineMap(n, 0, tuple(exprs))), dims


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


def _time_map(ind: Access | None) -> AffineMap | None:
    """An index buffer's time -> address map of one step."""
    return None if ind is None or ind.map is None else zero_map(len(ind.map.results))


def lower_indirect(t: IndDataTransferOp, program: Program) -> list[Operation]:
    if t.transfer_mode is not None:
        raise op_error(t, f"an indirect transfer in mode '{t.transfer_mode}': {_NOT_YET}")
    if t.source_is_fifo:
        raise op_error(t, f"a scatter straight from a FIFO slot (no memory between the FIFO "
                          f"and the scatter): {_NOT_YET}")
    sizes = _static(t, t.mixed_source_sizes)
    dsizes = _static(t, t.mixed_dest_sizes)
    src, ind_src, src_dims = _side(t, t.source, t.subscripts, t.source_indices, sizes)
    elt = t.source.type.element_type  # type: ignore[union-attr]
    vt = VectorType(elt, [math.prod(sizes)])  # type: ignore[arg-type]
    box, ident = ktdp.box_set(sizes), AffineMap.identity(len(sizes))  # type: ignore[arg-type]
    slot = t.destination.type
    if isinstance(slot, FifoSlotType):  # gathered straight into the compute unit's FIFO
        assert ind_src is not None
        ld = agen.IndirectVectorLoadOp(ind_src, src, box, ident, vt, indirect_dims=src_dims)
        return [ld, SendOp(peer(t, program, slot.dst_kind), ld.result)]
    dsubs = t.dest_subscripts
    if dsubs is None:
        dmap = t.dest_map.data if t.dest_map is not None else AffineMap.identity(
            len(t.dest_indices))
        dst, ind_dst, dst_dims = Access(t.destination, list(t.dest_indices), dmap), None, []
    else:
        dst, ind_dst, dst_dims = _side(t, t.destination, dsubs, t.dest_indices, dsizes)
    return [agen.CompositeIndirectLoadAndStoreOp(
        src, dst, box, ident, ktdp.box_set(dsizes),  # type: ignore[arg-type]
        AffineMap.identity(len(dsizes)), TimeLoop(ONE_STEP, AffineMap.identity(1)),
        zero_map(len(sizes)), zero_map(len(dsizes)), vt, indirect_src=ind_src,
        indirect_dst=ind_dst,
        load_indirect_time_addr_map=_time_map(ind_src),
        store_indirect_time_addr_map=_time_map(ind_dst),
        indirect_src_dims=src_dims or None, indirect_dst_dims=dst_dims or None)]


class LowerIndDataTransfer(RewritePattern):
    def __init__(self, programs: Programs):
        self.programs = programs

    @op_type_rewrite_pattern
    def match_and_rewrite(self, t: IndDataTransferOp, rewriter: PatternRewriter) -> None:
        program = self.programs.of(t)
        if program is None:
            return
        if not all(lowered(v) for v in (t.source, t.destination, *t.all_index_buffers)):
            return
        replace_keeping_names(rewriter, t, lower_indirect(t, program))


def patterns(programs: Programs) -> tuple[RewritePattern, ...]:
    return (LowerIndDataTransfer(programs),)


LOWERED = (IndDataTransferOp,)
