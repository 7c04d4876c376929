"""Upstream-valid input this project's stricter (P) rules would refuse (shared/spec/ktir.md §4,
the turn-2 decision): where the meaning is unambiguous the tools warn, at the op, and go on.

An access tile's result type against its set (§4.4, (P) "the result shape equals the extents
of `order(set)`"). Upstream's verifier does not compare them, and its tests write both kinds
of disagreement the decision's example names: a type smaller than the set (`1x64` over a
2-row set) and a static size over an extent that depends on a symbol (`32x64` over
`d0 < s0`). In both the type's shape wins: the tile is the set's points within the type's
box, starting where the set starts, so the set gets the box's constraint (`-d0 + 0 >= 0`;
`-d0 + 31 >= 0`) and the tile's meaning is that of a consistent tile. A type *larger* than
the set stays an error: nothing says where the extra positions lie; nor can a dimension whose
start depends on a symbol be cut to a static size.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir.affine import (
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineExpr,
    AffineMap,
    AffineSet,
)

from ktir import affine


def _shape(extents: Sequence[int | None]) -> str:
    return "x".join("?" if e is None else str(e) for e in extents)


def fit_tile_set(aset: AffineSet, order: AffineMap, shape: Sequence[int]
                 ) -> tuple[AffineSet, str] | None:
    """The set cut to the type's box and the warning saying so, when the type is smaller
    than the set's extents (or static over a symbolic extent) and the cut is unambiguous;
    None when there is nothing to fit or the rule's error stands (the verifier reports it)."""
    if len(shape) != aset.num_dims or len(order.results) != len(shape):
        return None
    try:
        extents = affine.order_extents(aset, order)
    except affine.NonLinearError:
        return None
    if any(want is not None and got != DYNAMIC_INDEX and got > want
           for want, got in zip(extents, shape)):
        return None  # too large somewhere: the verifier's message stands
    cuts: list[AffineConstraintExpr] = []
    for e, want, got in zip(order.results, extents, shape):
        if got == DYNAMIC_INDEX or want == got:
            continue
        try:
            lo, _ = affine.expr_bounds(aset, e)
        except affine.NonLinearError:
            return None
        if lo is None:
            return None  # where the dimension starts depends on a symbol
        # e <= lo + got - 1
        cuts.append(AffineConstraintExpr(AffineConstraintKind.ge,
                                         AffineExpr.constant(lo + got - 1) - e,
                                         AffineExpr.constant(0)))
    if not cuts:
        return None
    fitted = AffineSet(aset.num_dims, aset.num_symbols, (*aset.constraints, *cuts))
    if None in extents:
        what = (f"is static where the extent of the access_tile_set under its order map "
                f"({_shape(extents)}) depends on a symbol")
    else:
        what = (f"is smaller than the extents {_shape(extents)} of the access_tile_set under "
                "its order map")
    message = (f"result shape {_shape(shape)} {what}; the type's shape wins (the tile is the "
               "set's points within that box, from where the set starts)")
    return fitted, message
