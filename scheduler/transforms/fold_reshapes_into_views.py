"""`fold-reshapes-into-views`: a reshape next to a store or load of a whole contiguous view
becomes a view of the reshaped shape.

A reshape of a row-major tensor does not move an element: it renames coordinates. Where the
tensor is stored into (or loaded from) a whole view whose elements are contiguous and in row
order, the reshape is a different view of the same memory, with no compute to fuse
(ffn_swiglu_4core flattens its 4x256 partial to 1024 for the inter-tile sum, then expands the
sum back):

    %f = tensor.collapse_shape %p [[0, 1]] : tensor<4x256xf16> into tensor<1024xf16>
    ktdp.store %f, <whole view @A : sizes [1024], strides [1]>
becomes
    ktdp.store %p, <whole view @A : sizes [4, 256], strides [256, 1]>
and `tensor.expand_shape (ktdp.load <whole view @B : [1024]>)` becomes a load of @B viewed as
4x256. Whole: the tile starts at the view's origin, covers its box in order, and the view
covers its box (no coordinate set cuts it). Contiguous: static row-major strides. Other
reshapes are left for the fusion (unit dimensions only) and split-compute-chains (merged or
split dimensions larger than 1, through a scratchpad slot).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir import affine
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import box_set, int_list
from scheduler.analysis.slots import row_major
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns, dead_code

Reshape = tensor.CollapseShapeOp | tensor.ExpandShapeOp


def _is_box(aset, sizes: list[int]) -> bool:
    """The set is exactly [0, n) in each dimension (however it is spelled)."""
    if aset.num_dims != len(sizes) or aset.num_symbols:
        return False
    ineqs, nonlinear = affine.inequalities(aset)
    # each constraint bounds one dimension: the set is the box of the bounds
    if nonlinear or any(sum(1 for a in q[0] if a) > 1 for q in ineqs):
        return False
    return affine.dim_bounds(aset) == [(0, n - 1) for n in sizes]


def whole_contiguous_view(tile: SSAValue) -> ktdp.ConstructMemoryViewOp | None:
    """The view `tile` covers whole, when that view is row-major contiguous; else None."""
    acc = tile.owner
    if not isinstance(acc, ktdp.ConstructAccessTileOp) or acc.symbol_operands:
        return None
    view = acc.base.owner
    if not isinstance(view, ktdp.ConstructMemoryViewOp) or view.sizes or view.strides:
        return None
    sizes, strides = int_list(view.static_sizes), int_list(view.static_strides)
    if strides != row_major(sizes) or not _is_box(view.coordinate_set.data, sizes):
        return None
    if list(acc.result.type.get_shape()) != sizes \
            or not _is_box(acc.access_tile_set.data, sizes) \
            or acc.access_tile_order.data != AffineMap.identity(len(sizes)):
        return None
    for e in acc.base_map.data.results:
        if isinstance(e, AffineConstantExpr):
            if e.value != 0:
                return None
        elif not (isinstance(e, AffineDimExpr) and const_int(acc.indices[e.position]) == 0):
            return None
    return view


def _static(op: Reshape) -> bool:
    """Static shapes, and a reshape that merges or splits dimensions larger than 1: one that
    only adds or drops unit dimensions (to a 0-d tensor, say: ktir-cpu's scalar_broadcast)
    is the fusion's, which folds it into the indexing."""
    types = [v.type for v in (op.src, op.result)]
    if not all(isinstance(t, TensorType) and t.has_static_shape() for t in types):
        return False
    wide = [[d for d in t.get_shape() if d != 1] for t in types]  # type: ignore[attr-defined]
    return wide[0] != wide[1]


def _tile_as(view: ktdp.ConstructMemoryViewOp, shape: list[int], rewriter: PatternRewriter,
             at: InsertPoint) -> SSAValue:
    """A whole tile over `view`'s memory seen with `shape` (row-major)."""
    t = view.result.type
    assert isinstance(t, MemRefType)
    new = ktdp.ConstructMemoryViewOp(view.offset, shape, row_major(shape),
                                     MemRefType(t.element_type, shape), view.memory_space)
    new.results[0].name_hint = view.result.name_hint
    zero = AffineMap(0, 0, tuple(AffineExpr.constant(0) for _ in shape))
    acc = ktdp.ConstructAccessTileOp(new.results[0], [], zero, box_set(shape),
                                     AffineMap.identity(len(shape)), ktdp.AccessTileType(shape))
    for o in (new, acc):
        o.location = view.location
        rewriter.insert(o, at)
    return acc.results[0]


class StoreUnreshaped(RewritePattern):
    """store(reshape(x)) into a whole contiguous view -> store(x) into that memory viewed
    with x's shape."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ktdp.StoreOp, rewriter: PatternRewriter) -> None:
        reshape = op.data.owner
        if not isinstance(reshape, Reshape) or not _static(reshape):
            return
        view = whole_contiguous_view(op.tile)
        if view is None:
            return
        src = reshape.src
        tile = _tile_as(view, list(src.type.get_shape()), rewriter,  # type: ignore[attr-defined]
                        InsertPoint.before(op))
        new = ktdp.StoreOp(src, tile)
        new.location = op.location
        rewriter.replace(op, new, [])  # a store has no results


class LoadReshaped(RewritePattern):
    """reshape(load of a whole contiguous view) -> a load of that memory viewed with the
    reshape's result shape."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, Reshape) or not _static(op):
            return
        load = op.src.owner
        if not isinstance(load, ktdp.LoadOp):
            return
        view = whole_contiguous_view(load.tile)
        if view is None:
            return
        t = op.result.type
        assert isinstance(t, TensorType)
        tile = _tile_as(view, list(t.get_shape()), rewriter, InsertPoint.before(op))
        new = ktdp.LoadOp(tile, t)
        new.location = load.location
        rewriter.replace(op, new)


class FoldReshapesIntoViewsPass(ModulePass):
    """Fold reshapes next to whole contiguous stores and loads into views (module
    docstring); a module without them is unchanged. Idempotent."""

    name = "fold-reshapes-into-views"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if apply_patterns(op, [StoreUnreshaped(), LoadReshaped()]):
            for f in op.walk():  # the reshapes a store no longer reads
                if isinstance(f, func.FuncOp) and not f.is_declaration:
                    dead_code(f.body)
