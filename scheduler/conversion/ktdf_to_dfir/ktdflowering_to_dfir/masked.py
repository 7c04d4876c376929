"""Masked DMA: a `ktdf.data_transfer` with a `source_mask` / `dest_mask` (transfers.py).

The box moves whole when it lies inside the mask, element by element otherwise:

    %in = <every constraint of the mask holds at the box's worst corner>   // arith on index
    scf.if %in {
      agen.composite_load_and_store src:%x[%v0] dst:%buf[0] ... (the unmasked DMA)
    } else {
      agen.vector_store %zeros, %buf[0] ...     // source_mask only: the padding (a shuffle
                                                // broadcasting one zero lane)
      agen.composite_load_and_store src:%x[%v0] dst:%buf[0]
        time_symbols(%v0, %n), load_iv(%e : vector<1xf32>) {
        load_set = (d0) : (d0 == 0), time_set = (t0)[s0, s1] : (t0 >= 0, -t0 + 31 >= 0,
        t0 + s0 >= 0, -(t0 + s0) + s1 - 1 >= 0), load_time_addr_map = (t0) -> (t0), ...}
    }
The element-wise DMA's time points are the box's points whose coordinate (base + t) lies in
the mask; its symbols are the masked side's subscript operands, then the mask's symbols (the
view's dynamic sizes). Both are index values the program reads (loop indices, symbols).
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, VectorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineExpr,
    AffineMap,
    AffineSet,
)

from ktir import affine
from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from scheduler.dialects.ktdf import DataTransferOp
from spyrecode.dialects import agen, vectorchain
from spyrecode.dialects.agen_access import Access, TimeLoop


def _const(v: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(v, IndexType()))


def _linear(ops: list[Operation], terms: list[tuple[int, SSAValue]], k: int) -> SSAValue:
    """`sum(c * v) + k` as index arithmetic appended to `ops`."""
    acc: SSAValue | None = None
    for c, v in terms:
        if c == 0:
            continue
        if c != 1:
            m = _const(c)
            mul = arith.MuliOp(v, m.result)
            ops += [m, mul]
            v = mul.result
        if acc is None:
            acc = v
        else:
            add = arith.AddiOp(acc, v)
            ops.append(add)
            acc = add.result
    if acc is None or k:
        c = _const(k)
        ops.append(c)
        if acc is None:
            return c.result
        add = arith.AddiOp(acc, c.result)
        ops.append(add)
        acc = add.result
    return acc


def _inside(t: DataTransferOp, side: Access, mask: AffineSet, sizes: list[int]
            ) -> tuple[list[Operation], SSAValue]:
    """An i1 that holds when every point of the box lies in the mask."""
    n_x = len(side.indices)
    try:
        forms = [affine.linear_form(e, n_x, 0) for e in side.map.results]  # type: ignore
    except affine.NonLinearError:
        raise op_error(t, "a masked transfer needs subscripts linear in its indices") from None
    ineqs, nonlinear = affine.inequalities(mask)
    if nonlinear:
        raise op_error(t, "a mask with non-linear constraints cannot be lowered")
    ops: list[Operation] = []
    cond: SSAValue | None = None
    rank, syms = mask.num_dims, list(t.mask_symbols)
    zero = _const(0)
    ops.append(zero)
    for c, k in ineqs:
        # c . (base + corner, symbols) + k >= 0 at the corner where each term is smallest
        coeff_x = [sum(c[d] * forms[d][0][j] for d in range(rank)) for j in range(n_x)]
        const = k + sum(c[d] * forms[d][1] + min(0, c[d] * (sizes[d] - 1))
                        for d in range(rank))
        terms = list(zip(coeff_x, side.indices)) + list(zip(c[rank:], syms))
        value = _linear(ops, terms, const)
        ge = arith.CmpiOp(value, zero.result, "sge")
        ops.append(ge)
        if cond is None:
            cond = ge.result
        else:
            both = arith.AndIOp(cond, ge.result)
            ops.append(both)
            cond = both.result
    if cond is None:
        true = arith.ConstantOp.from_int_and_width(1, 1)
        ops.append(true)
        cond = true.result
    return ops, cond


def _time_set(side: Access, mask: AffineSet, sizes: list[int]) -> AffineSet:
    """Points t of the box whose coordinate base + t lies in the mask; symbols: the side's
    subscript operands, then the mask's symbols."""
    n_x = len(side.indices)
    rank = len(sizes)
    base = [e.replace_dims_and_symbols([AffineExpr.symbol(j) for j in range(n_x)], [])
            for e in side.map.results]  # type: ignore[union-attr]
    dims = [base[d] + AffineExpr.dimension(d) for d in range(rank)]
    syms = [AffineExpr.symbol(n_x + s) for s in range(mask.num_symbols)]
    cons = list(ktdp.box_set(sizes).constraints)
    for c in mask.constraints:
        cons.append(AffineConstraintExpr(c.kind, c.lhs.replace_dims_and_symbols(dims, syms),
                                         c.rhs.replace_dims_and_symbols(dims, syms)))
    return AffineSet(rank, n_x + mask.num_symbols, tuple(cons))


def _point(rank: int) -> AffineSet:
    return AffineSet(rank, 0, tuple(AffineConstraintExpr(
        AffineConstraintKind.eq, AffineExpr.dimension(d), AffineExpr.constant(0))
        for d in range(rank)))


def masked_dma(t: DataTransferOp, s: Access, d: Access, sizes: list[int],
               whole: Operation) -> list[Operation]:
    """`whole` (the unmasked DMA of the box) when the box lies in the mask, else the
    element-wise DMA of its points inside (after zeros, for a source mask)."""
    assert t.mask is not None
    side_name, mask = t.mask
    side = s if side_name == "source" else d
    if side.map is None:
        side = Access(side.memref, side.indices, AffineMap.identity(len(side.indices)))
    rank = len(sizes)
    for v in (s.memref, d.memref):
        if v.type.get_num_dims() != rank:  # type: ignore[union-attr]
            raise op_error(t, "a masked transfer needs both sides of the rank of its box")
    check, cond = _inside(t, side, mask, sizes)
    elt = t.source.type.element_type  # type: ignore[union-attr]
    ident = AffineMap.identity(rank)
    partial: list[Operation] = []
    if side_name == "source":  # what the mask hides reads as 0
        lanes = math.prod(sizes)
        # one zero lane broadcast (a box of 65,536 lanes spelled out costs a second)
        seed = vectorchain.ConstantBitstreamOp([0], VectorType(elt, [1]))
        zeros = vectorchain.ShuffleOp(seed.result, [0], lanes, VectorType(elt, [lanes]))
        partial += [seed, zeros, agen.VectorStoreOp(zeros.output, d.memref, d.indices, d.map,
                                                    ktdp.box_set(sizes), ident)]
    time = TimeLoop(_time_set(side, mask, sizes), ident,
                    [*side.indices, *t.mask_symbols])
    partial.append(agen.CompositeLoadAndStoreOp(
        s, d, _point(rank), ident, _point(rank), ident, time, ident, ident,
        VectorType(elt, [1])))
    then, other = Block(), Block()
    then.add_ops([whole, scf.YieldOp()])
    other.add_ops([*partial, scf.YieldOp()])
    return [*check, scf.IfOp(cond, [], Region(then), Region(other))]
