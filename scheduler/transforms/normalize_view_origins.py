"""`normalize-view-origins`: a memory view whose coordinate set starts past 0 counts its
coordinates from 0.

KTIR places a view's first element at the lowest point of its `coordinate_set` (ktir.md §4.2:
coordinate `c` is element `c - lo`): the right half of a 256x4096 matrix, seen as its own view,
is `sizes: [256, 2048]` with `d1 >= 2048, d1 <= 4095` and the base address of column 2048.
The scheduler addresses and masks views by element index, so such a view becomes the same view
with its set moved to start at 0, and every access tile built on it subtracts the origin from
its subscripts:

    %v = construct_memory_view %X1 ... {coordinate_set = (d0, d1) : (..., d1 - 2048 >= 0,
                                                                      -d1 + 4095 >= 0)}
    %t = construct_access_tile %v[%row, %col]
becomes
    %v = construct_memory_view %X1 ... {coordinate_set = (d0, d1) : (..., d1 >= 0,
                                                                      -d1 + 2047 >= 0)}
    %t = construct_access_tile %v[%row, %col - 2048]

The elements each tile touches, and which of its points are masked off, do not change. Only
views whose origin is a constant (the lower bound of each dimension, without symbols) and
whose every use is an access tile's base are moved; a view that is a part of a distributed
view keeps its coordinates (they say which part holds a point), and the legality check says
why it is refused.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, ModuleOp
from xdsl.ir.affine import AffineConstraintExpr, AffineExpr, AffineMap, AffineSet
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir import affine
from ktir.dialects import ktdp
from scheduler.rewriting import apply_patterns


def view_origin(view: ktdp.ConstructMemoryViewOp) -> list[int] | None:
    """The constant lowest point of the view's box-shaped set, or None (not a box, or a lower
    bound that depends on a symbol or is missing)."""
    aset = view.coordinate_set.data
    if not affine.is_box(aset):
        return None
    origin = []
    for lo, _ in affine.dim_bounds(aset):
        if lo is None:
            return None
        origin.append(lo)
    return origin


def _shifted_set(aset: AffineSet, origin: list[int]) -> AffineSet:
    """The set of the points `c - origin` for `c` in `aset`."""
    dims = [AffineExpr.dimension(d) + o for d, o in enumerate(origin)]
    syms = [AffineExpr.symbol(s) for s in range(aset.num_symbols)]
    return AffineSet(aset.num_dims, aset.num_symbols, tuple(
        AffineConstraintExpr(c.kind, c.lhs.replace_dims_and_symbols(dims, syms),
                             c.rhs.replace_dims_and_symbols(dims, syms))
        for c in aset.constraints))


class NormalizeViewOrigin(RewritePattern):
    """A view of access tiles whose set starts at a constant point other than 0."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, view: ktdp.ConstructMemoryViewOp,
                          rewriter: PatternRewriter) -> None:
        origin = view_origin(view)
        if origin is None or not any(origin):
            return
        users = [u.operation for u in view.result.uses]
        if not all(isinstance(u, ktdp.ConstructAccessTileOp) and u.base is view.result
                   for u in users):
            return
        view.coordinate_set = AffineSetAttr(_shifted_set(view.coordinate_set.data, origin))
        rewriter.notify_op_modified(view)
        for tile in users:
            assert isinstance(tile, ktdp.ConstructAccessTileOp)
            m = tile.base_map.data
            tile.base_map = AffineMapAttr(AffineMap(m.num_dims, m.num_symbols, tuple(
                e - o for e, o in zip(m.results, origin))))
            rewriter.notify_op_modified(tile)


class NormalizeViewOriginsPass(ModulePass):
    """Views whose coordinate set starts past 0 count from 0 (see the module docstring).

    Before:  %v = construct_memory_view ... {coordinate_set = (d0) : (d0 - 8 >= 0, -d0 + 15 >= 0)}
             %t = construct_access_tile %v[%i]
    After:   %v = construct_memory_view ... {coordinate_set = (d0) : (d0 >= 0, -d0 + 7 >= 0)}
             %t = construct_access_tile %v[%i - 8]
    Idempotent: a moved view starts at 0.
    """

    name = "normalize-view-origins"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [NormalizeViewOrigin()])
