"""The transfers of a leaf read, or a value stored, through
`ktdp.construct_indirect_access_tile`: one `ktdf.ind_data_transfer` per vector, a gather in the
Load stage, a scatter in the Store stage (construct-three-stage-pipeline).

The tile's dimensions are its intermediate variables; each follows the iteration space as a
direct tile's dimensions do (`lower + offset + stride * iv`; a stored tile follows it
identically). Substituted into the tile's subscript maps they give, per base dimension, a
direct coordinate or the position in an index view. One vector is one box of the base view,
so an indirect subscript must stay constant across the vector (one index per vector: a row, a
page), and a direct subscript follows at most one vectorised variable, with coefficient 1 (its
lanes in the vector's order):

    %Tv[ind(%Iv[%first + %i]), (%d)]    (vector 1x64 over (i, d))
    -> ktdf.ind_data_transfer from %Tv_cast[ind(%Iv_cast[%first + %v0]), (%v1)] size [1, 64]
         to %slot size [64]
    ktdp.store %x, %Yv[ind(%Iv[%i]), (%d)]
    -> ktdf.ind_data_transfer from %slot size [64] to %Yv_cast[ind(%Iv_cast[%v0]), (%v1)]
         size [1, 64]

The index views stay in device memory here; path-expansion stages the index into the
scratchpad the transfer unit reads. The vector is kept 1 along the iteration dims an index
depends on (`indexed_dims`), so a per-element gather or scatter (an index per lane) is
refused only when the index varies along the tile's innermost, contiguous dims. The vectors
of a scatter are stored in the order of the iteration space, the tile's enumeration order:
of equal indices the last stored wins, as in the reference interpreter.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from xdsl.ir import SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)

from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from scheduler.analysis import masks
from scheduler.analysis.index_exprs import fold_constants
from scheduler.conversion.ktir_to_ktdf.elementwise_fusion import Access, Follow
from scheduler.dialects.ktdf import IndDataTransferOp
from scheduler.dialects.ktdf_transfers import Subscript
from scheduler.dialects.ktdf_types import is_true

_NOT_YET = "not supported by the scheduler yet"


def linear_coefficient(e: AffineExpr, pos: int) -> int | None:
    """The coefficient of dimension `pos` in `e` when `e` is linear in it (0: absent), None
    when it appears under a floordiv, mod, ceildiv or a product of two non-constants."""
    if isinstance(e, AffineDimExpr):
        return 1 if e.position == pos else 0
    if not isinstance(e, AffineBinaryOpExpr):
        return 0
    lhs, rhs = linear_coefficient(e.lhs, pos), linear_coefficient(e.rhs, pos)
    if lhs is None or rhs is None:
        return None
    if e.kind is AffineBinaryOpKind.Add:
        return lhs + rhs
    if e.kind is AffineBinaryOpKind.Mul:
        if isinstance(e.rhs, AffineConstantExpr):
            return lhs * e.rhs.value
        if isinstance(e.lhs, AffineConstantExpr):
            return rhs * e.lhs.value
        return None if lhs or rhs else 0
    return None if lhs or rhs else 0


def indexed_dims(acc: Access, follows: list[Follow]) -> set[int]:
    """The iteration dims an indirect subscript of `acc` depends on (none for a direct
    tile): the vector stays 1 along them, so that it needs one index. A stored tile follows
    the iteration space one to one (`follows` of the identity)."""
    tile = acc.tile
    if not isinstance(tile, ktdp.ConstructIndirectAccessTileOp):
        return set()
    n_cap = len(tile.captured_variables)
    out: set[int] = set()
    for kind, m in zip(tile.per_dim_subscript_kinds.data, tile.per_dim_subscript_maps.data):
        if not is_true(kind):
            continue
        for t, f in enumerate(follows):
            if f.dim is not None and any(linear_coefficient(e, n_cap + t) != 0
                                         for e in m.data.results):
                out.add(f.dim)
    return out


def _side(acc: Access, follows: list[Follow], ivs: list[SSAValue], vec: tuple[int, ...],
          read_shape: list[int], cast: Callable[[ktdp.ConstructMemoryViewOp], SSAValue]
          ) -> tuple[list[SSAValue], list[Subscript], list[int]]:
    """The subscript operands, the per-dimension subscripts (index views cast to device
    memory) and the box sizes of one vector of `acc` (an indirect tile)."""
    tile = acc.tile
    assert isinstance(tile, ktdp.ConstructIndirectAccessTileOp)
    op = acc.op
    shape = "x".join(map(str, vec))
    if masks.is_masked(acc.view):
        raise op_error(op, f"an indirect access tile over a masked view: {_NOT_YET}")
    operands, repl = fold_constants(tile.captured_variables)  # constants fold into subscripts
    n_cap, n_idx = len(tile.captured_variables), len(operands)
    for t, f in enumerate(follows):
        e = AffineExpr.constant(acc.lower[t] + f.offset)
        if f.dim is not None:
            e = e + AffineExpr.dimension(n_idx + f.dim) * f.stride
        repl.append(e)
    vectorised = [t for t, f in enumerate(follows) if f.dim is not None and vec[f.dim] > 1]
    index_views = iter(tile.indirect_memrefs)
    subscripts: list[Subscript] = []
    sizes: list[int] = []
    order: list[int] = []  # the iteration dims the lanes run along, in base-dim order
    for d, (kind, m) in enumerate(zip(tile.per_dim_subscript_kinds.data,
                                      tile.per_dim_subscript_maps.data)):
        exprs = m.data.results
        new = [e.replace_dims_and_symbols(repl, []) for e in exprs]
        coeffs = {t: [linear_coefficient(e, n_cap + t) for e in exprs] for t in vectorised}
        if is_true(kind):
            view = next(index_views).owner
            assert isinstance(view, ktdp.ConstructMemoryViewOp)
            if any(any(c != 0 for c in cs) for cs in coeffs.values()):
                raise op_error(op, f"an indirect subscript (dimension {d}) that varies along "
                                   f"the vector ({shape}): one index per lane, {_NOT_YET}")
            subscripts.append((cast(view), new))
            sizes.append(1)
            continue
        along = [t for t, cs in coeffs.items() if cs[0] != 0]
        if len(along) > 1 or any(coeffs[t][0] != 1 for t in along):
            raise op_error(op, f"a direct subscript (dimension {d}) of an indirect tile that "
                               f"is not one vectorised variable plus an offset (vector "
                               f"{shape}): {_NOT_YET}")
        subscripts.append(new[0])
        f = follows[along[0]] if along else None
        sizes.append(vec[f.dim] if f is not None and f.dim is not None else 1)
        if f is not None and f.dim is not None:
            order.append(f.dim)
    if order != sorted(set(order)) or math.prod(sizes) != math.prod(read_shape):
        raise op_error(op, f"an indirect tile whose box does not deliver the vector's lanes "
                           f"in order (vector {shape}): {_NOT_YET}")
    return [*operands, *ivs], subscripts, sizes


def indirect_transfer(acc: Access, follows: list[Follow], ivs: list[SSAValue],
                      vec: tuple[int, ...], read_shape: list[int],
                      cast: Callable[[ktdp.ConstructMemoryViewOp], SSAValue],
                      slot: SSAValue) -> IndDataTransferOp:
    """The gather of one vector of `acc` (an indirect tile) into `slot`."""
    operands, subscripts, sizes = _side(acc, follows, ivs, vec, read_shape, cast)
    return IndDataTransferOp(cast(acc.view), operands, subscripts, sizes, slot, [], None,
                             [math.prod(sizes)])


def indirect_store(acc: Access, ivs: list[SSAValue], vec: tuple[int, ...],
                   cast: Callable[[ktdp.ConstructMemoryViewOp], SSAValue],
                   slot: SSAValue) -> IndDataTransferOp:
    """The scatter of one vector from `slot` through `acc` (a store through an indirect
    tile, whose dimensions follow the iteration space one to one)."""
    ident = [Follow(d, 1, 0) for d in range(len(vec))]
    operands, subscripts, sizes = _side(acc, ident, ivs, vec, list(vec), cast)
    return IndDataTransferOp(slot, [], None, [math.prod(vec)], cast(acc.view), operands,
                             None, sizes, dest_subscripts=subscripts)


__all__ = ["indexed_dims", "indirect_store", "indirect_transfer", "linear_coefficient"]
