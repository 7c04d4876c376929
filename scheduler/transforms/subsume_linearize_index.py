"""`subsume-linearize-index`: a `ktdf.tiling.linearize_index` with constant strides, read as
a transfer subscript, becomes part of the transfer's map.

Tiling a loop rebuilds its index from the tile and point indices,
`%x = ktdf.tiling.linearize_index [%t : %c12], [%p : %c1]` = 12 t + p. A transfer reading
`%x` as a subscript can state that sum in its own map, over `%t` and `%p`, so no op computes
it and the address generator sees the strides:

    %x = ktdf.tiling.linearize_index [%t : %c12], [%p : %c1] : index
    ktdf.data_transfer from %src[%x, %c0] size [1, 64] to ...
becomes
    ktdf.data_transfer from %src[%t * 12 + %p, 0] size [1, 64] to ...

Both sides are rewritten, each on its own (a FIFO side has no subscripts). On a rewritten
side the other subscripts stay, constants folded into the map, each value once. A stride that
is not a constant leaves its `linearize_index` as it is; one that no longer has a reader is
erased.

A normalisation, as upstream's, and no cycles gained. In this pipeline `tile-scf-for-loops`
writes `linearize_index` (on the nests it tiles: stream_device's FIFO pipelines) and
`tile-size-selection` makes its strides constants, so the pass folds those end to end;
stage-coarsening writes its block loops with the subscripts already in the maps.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from scheduler.dialects.ktdf import DataTransferOp, TilingLinearizeIndexOp
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns


def _strides(v: SSAValue) -> list[int] | None:
    """The constant strides of the `linearize_index` defining `v`, else None."""
    op = v.owner
    if not isinstance(op, TilingLinearizeIndexOp):
        return None
    got = [const_int(s) for s in op.strides]
    return None if any(s is None for s in got) else got  # type: ignore[return-value]


def subsume(amap: AffineMap, indices: Sequence[SSAValue]
            ) -> tuple[AffineMap, list[SSAValue]] | None:
    """The side's map and subscripts with every constant-stride `linearize_index` (and
    constant) among `indices` folded in; None when there is none to fold."""
    if not any(_strides(v) is not None for v in indices):
        return None
    new: list[SSAValue] = []

    def dim(v: SSAValue) -> AffineExpr:
        for i, w in enumerate(new):
            if w is v:
                return AffineExpr.dimension(i)
        new.append(v)
        return AffineExpr.dimension(len(new) - 1)

    repl: list[AffineExpr] = []
    for v in indices:
        strides = _strides(v)
        if strides is not None:
            lin = v.owner
            assert isinstance(lin, TilingLinearizeIndexOp)
            e: AffineExpr = AffineExpr.constant(0)
            for iv, s in zip(lin.ivs, strides):
                e = e + dim(iv) * s
            repl.append(e)
        elif (c := const_int(v)) is not None:
            repl.append(AffineExpr.constant(c))
        else:
            repl.append(dim(v))
    return amap.replace_dims_and_symbols(repl, [], len(new), 0), new


class SubsumeLinearizeIndex(RewritePattern):
    """A transfer side reading a constant-stride `linearize_index`: the sum in its map."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, t: DataTransferOp, rewriter: PatternRewriter) -> None:
        sides = []
        for side in ("source", "dest"):
            amap = t.source_map if side == "source" else t.dest_map
            idx = list(t.source_indices if side == "source" else t.dest_indices)
            got = None if amap is None else subsume(amap.data, idx)
            sides.append((idx, amap, got))
        if all(got is None for _, _, got in sides):
            return
        (sidx, smap, sgot), (didx, dmap, dgot) = sides
        if sgot is not None:
            smap, sidx = AffineMapAttr(sgot[0]), sgot[1]
        if dgot is not None:
            dmap, didx = AffineMapAttr(dgot[0]), dgot[1]
        new = DataTransferOp(
            t.source, sidx, smap, t.mixed_source_sizes, t.destination, didx, dmap,
            t.mixed_dest_sizes, t.transfer_mode, mask_symbols=list(t.mask_symbols),
            source_mask=None if t.source_mask is None else t.source_mask.data,
            dest_mask=None if t.dest_mask is None else t.dest_mask.data)
        new.attributes |= t.attributes
        dead = {v.owner for v in (*t.source_indices, *t.dest_indices)
                if _strides(v) is not None}
        rewriter.replace(t, new)
        for lin in dead:
            assert isinstance(lin, TilingLinearizeIndexOp)
            if not lin.result.uses:
                rewriter.erase(lin)


class SubsumeLinearizeIndexPass(ModulePass):
    """Constant-stride `linearize_index` subscripts into transfer maps (module docstring).

    Before:  %x = ktdf.tiling.linearize_index [%t : %c12], [%p : %c1]; ... from %src[%x] ...
    After:   ... from %src[%t * 12 + %p] ...
    Idempotent: a rewritten side reads no `linearize_index`.
    """

    name = "subsume-linearize-index"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [SubsumeLinearizeIndex()])
