"""Code generation for the indirect accesses (shared/spec/dataflow-ir.md §3): the DMA
`agen.composite_indirect_load_and_store`, an asynchronous copy whose source coordinate (a
gather), destination coordinate (a scatter) or both are partly read from index memrefs, and
`agen.indirect_vector_load` (the same read into a vector, on a unit that loads from memory
for the compute unit).

The unit first waits for its transfers in flight (the indices were staged into the scratchpad
by DMAs before: its own, or those a signal ordered), reads index j at the indirect side's
coordinate with its last subscript advanced by j, checks it against dimension
`indirect_*_dims[j]` of that side's direct memref (an index outside it stops the run with an
`OutOfBoundsError` naming the unit and the index: never a wrong result), puts it in that
dimension of the direct coordinate and runs the DMA as `composite_load_and_store` does.
Scatters land in issue order (E9: a unit's DMAs complete in order), so of two to one element
the later wins, as the reference interpreter's enumeration order has it.
Supported: one time step, a region that only yields. The vector load reads its index, checks
it and loads the lanes as `vector_load` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue

from emulator import codegen_inline as inline
from emulator.access import Access
from emulator.codegen import Gen, handles, tuple_src
from emulator.codegen_access import (
    _async,
    _comps,
    _no_multicast,
    _rank,
    _steps,
    generic,
    load,
    parts,
    plan,
    scalar_loaded,
    static_plan,
)
from emulator.errors import UnsupportedOpError


def _indices(g: Gen, op: Operation, ind: SSAValue, amap: object,
             operands: Sequence[SSAValue], direct: SSAValue, dims: list[int],
             comps: list[str], what: str = "gathered") -> None:
    """Put index j, read at `ind[amap(operands)]` with the last subscript advanced by j,
    into dimension `dims[j]` of the direct coordinate `comps` (of the `what` view)."""
    icomps = _comps(g, amap, operands)
    for j, dim in enumerate(dims):
        at = [*icomps[:-1], f"({icomps[-1]}) + {j}"] if j else icomps
        comps[dim] = _index(g, op, ind, at, direct, dim, what)


def _index(g: Gen, op: Operation, ind: SSAValue, icomps: list[str], direct: SSAValue,
           dim: int, what: str) -> str:
    """Read the one index at `ind[icomps]` (the unit waits for it) and check it against
    dimension `dim` of `direct`; the source of the index."""
    ipc = plan(g, ind, Access.single(_rank(ind), op))
    k = g.tmp("_k")
    ip = static_plan(g, ipc)
    if ip is None:
        g.helper(f"{k} = {generic(g)}.sload({ipc})(P, {g.v(ind)}, {tuple_src(icomps)})", op)
    else:
        w = g.tmp("_w")
        inline.vload(g, op, parts(g, ind), inline.address(g, op, ip, ipc, icomps), ip, ipc,
                     k, w)
        scalar_loaded(g, op, k, w)
    dt = direct.type
    assert isinstance(dt, MemRefType)
    extent = dt.get_shape()[dim]
    g.emit(f"{k} = int({k})", op)
    g.emit(f"if not 0 <= {k} < {extent}: P._bad_index({k}, {dim}, {extent}, {what!r})", op)
    return k


@handles("agen.indirect_vector_load")
def _indirect_vector_load(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.indirect_vector_load")
    _no_multicast(op)
    direct = op.direct_memref  # type: ignore[attr-defined]
    comps = _comps(g, op.direct_map.data, op.direct_map_indices)  # type: ignore[attr-defined]
    _indices(g, op, op.indirect_memref, op.indirect_map.data,  # type: ignore[attr-defined]
             op.indirect_map_indices, direct, op.replaced_dims, comps)  # type: ignore
    acc = Access(op.load_set.data, op.load_order.data, _rank(direct), op)  # type: ignore
    pc = plan(g, direct, acc)
    r = g.define(op.results[0])
    load(g, op, direct, comps, pc, r, "w" + r[1:])


@handles("agen.composite_indirect_load_and_store")
def _composite_indirect_ls(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.composite_indirect_load_and_store")
    _no_multicast(op)
    ind, dind = op.indirect_src_memref, op.indirect_dst_memref  # type: ignore[attr-defined]
    if (ind is None and dind is None) or not _async(op):
        raise UnsupportedOpError("composite_indirect_load_and_store: an indirect side and a "
                                 "region that only yields (a DMA) are supported", op=op)
    src, dst = op.direct_src_memref, op.direct_dst_memref  # type: ignore[attr-defined]
    _, known = _steps(g, op, op.load_direct_time_addr_map,  # type: ignore[attr-defined]
                      op.store_direct_time_addr_map)  # type: ignore[attr-defined]
    if known != [((), ())]:
        raise UnsupportedOpError("composite_indirect_load_and_store: one time step at offset "
                                 "zero is supported", op=op)
    # the indices: after the unit's transfers in flight (its staging DMAs) have landed
    g.emit("if p_dmadone > p_t: p_t = p_dmadone", op)
    scomps = _comps(g, op.direct_src_map.data,  # type: ignore[attr-defined]
                    op.direct_src_map_indices)  # type: ignore[attr-defined]
    if ind is not None:
        _indices(g, op, ind, op.indirect_src_map.data,  # type: ignore[attr-defined]
                 op.indirect_src_map_indices, src, op.indirect_dims("src"),  # type: ignore
                 scomps)
    dcomps = _comps(g, op.direct_dst_map.data,  # type: ignore[attr-defined]
                    op.direct_dst_map_indices)  # type: ignore[attr-defined]
    if dind is not None:
        _indices(g, op, dind, op.indirect_dst_map.data,  # type: ignore[attr-defined]
                 op.indirect_dst_map_indices, dst, op.indirect_dims("dst"),  # type: ignore
                 dcomps, "scattered")
    lacc = Access(op.load_set.data, op.load_order.data, _rank(src), op)  # type: ignore
    sacc = Access(op.store_set.data, op.store_order.data, _rank(dst), op)  # type: ignore
    la, sa = plan(g, src, lacc), plan(g, dst, sacc)
    lp, sp = static_plan(g, la), static_plan(g, sa)
    if lp is None or sp is None:
        steps = g.cg.const(known)
        g.helper(f"{generic(g)}.dma({la}, {sa})(P, {g.v(src)}, {tuple_src(scomps)}, "
                 f"{g.v(dst)}, {tuple_src(dcomps)}, {steps})", op)
    else:
        inline.dma(g, op, parts(g, src), scomps, parts(g, dst), dcomps, lp, sp, la, sa)
