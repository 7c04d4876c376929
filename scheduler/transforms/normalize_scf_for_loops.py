"""`normalize-scf-for-loops`: every `scf.for` with constant bounds counts from 0 by 1, and
its index's affine uses in transfer subscripts are folded into the transfer maps.

Upstream runs it after `path-expansion` so that later loop passes (its tiling, stage
coarsening, parallelisation across instances) see the trip count as the upper bound and one
iteration as one step of a subscript's map. Here the loops `construct-three-stage-pipeline`
builds walk the vector dimension in steps of the vector length; after this pass they walk
vector numbers and the subscript carries the scale:

    scf.for %v1 = %c0 to %c256 step %c64 {
      ktdf.data_transfer from %A[%i, %v1] size [1, 64] to %buf[0, 0] size [1, 64] }
becomes
    scf.for %v1 = %c0 to %c4 step %c1 {
      ktdf.data_transfer from %A[%i, %v1 * 64] size [1, 64] to %buf[0, 0] size [1, 64] }

A use the maps cannot absorb (a call's operand, arithmetic, a nested loop's bound) reads the
old index recomputed at the top of the body, `%v = lb + %k * step` (the rewrite
`normalize-tile-loops` applies to tile-strided loops, shared in scheduler/rewriting.py).
Loops whose lower bound or step is not a constant are left alone (their trip count would be
computed at run time; no loop of this pipeline has one), and so are host loops, those whose
body calls a compute group: they are the host program, not a schedule, and `sink-host-loops`
moves a loop whose body is one call into that group as it is (the recompute would be a second
op in its body). A normalisation: the schedule and
its cycles do not change (stage-coarsening reads the scaled subscripts as it read the
strided ones); the loop passes after it can rely on the form.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, ModuleOp
from xdsl.ir import Operation, SSAValue, Use
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from scheduler.analysis.index_exprs import trip_count
from scheduler.dialects.ktdf import DataTransferOp
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns, count_iterations


def fold_index(amap: AffineMap, indices: Sequence[SSAValue], iv: SSAValue, lb: int,
               step: int) -> AffineMap:
    """`amap` over `indices` with each index `iv` read as `lb + iv * step`."""
    dims = [AffineExpr.dimension(d) * step + lb if v is iv else AffineExpr.dimension(d)
            for d, v in enumerate(indices)]
    return amap.replace_dims_and_symbols(dims, [], amap.num_dims, 0)


def subscript_positions(t: DataTransferOp) -> set[int]:
    """Operand positions of a transfer's subscripts (not its sizes or mask symbols)."""
    ns, nss = len(t.source_indices), len(t.source_sizes)
    first_dest = 1 + ns + nss + 1
    return set(range(1, 1 + ns)) | set(range(first_dest, first_dest + len(t.dest_indices)))


class NormalizeForLoop(RewritePattern):
    """A constant-bound loop not already 0..n step 1: count iterations, fold its index
    into the transfer maps that read it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, loop: scf.ForOp, rewriter: PatternRewriter) -> None:
        if not isinstance(loop.lb.type, IndexType):
            return
        old = (loop.lb, loop.ub, loop.step)
        lb, step, count = const_int(loop.lb), const_int(loop.step), trip_count(loop)
        if lb is None or step is None or count is None or (lb == 0 and step == 1):
            return
        if any(isinstance(o, func.CallOp) for o in loop.body.walk()):
            return  # a host loop (see the module docstring)
        iv = loop.body.block.args[0]
        # The block argument becomes the iteration number: the subscripts that read it
        # keep it and their maps absorb `lb + k * step`; every other use gets the recompute.
        def folds(use: Use) -> bool:
            return isinstance(use.operation, DataTransferOp) and \
                use.index in subscript_positions(use.operation)

        for t in {u.operation for u in iv.uses if folds(u)}:
            assert isinstance(t, DataTransferOp)
            for side in ("source", "dest"):
                amap = t.source_map if side == "source" else t.dest_map
                idx = t.source_indices if side == "source" else t.dest_indices
                if amap is not None and any(v is iv for v in idx):
                    t.properties[f"{side}_map"] = AffineMapAttr(
                        fold_index(amap.data, idx, iv, lb, step))
            rewriter.notify_op_modified(t)
        # the new bounds where the old lower bound is defined: a perfect nest stays perfect
        owner = loop.lb.owner
        at = InsertPoint.after(owner) if isinstance(owner, Operation) else None
        count_iterations(loop, count, rewriter, keep=folds, at=at)
        for v in dict.fromkeys(old):  # the old bounds, when nothing else reads them
            if isinstance(v.owner, arith.ConstantOp) and not v.uses:
                rewriter.erase(v.owner)


class NormalizeScfForLoopsPass(ModulePass):
    """Every constant-bound `scf.for` from 0 by 1 (see the module docstring).

    Before:  scf.for %v = 0 to 256 step 64 { data_transfer from %A[%i, %v] ... }
    After:   scf.for %v = 0 to 4 step 1 { data_transfer from %A[%i, %v * 64] ... }
    Idempotent: a normalised loop is 0..n step 1.
    """

    name = "normalize-scf-for-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [NormalizeForLoop()])
