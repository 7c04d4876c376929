"""`affine-min-canonicalization`: the size of a loop's last, partial tile as one `affine.min`.

Tiling a loop by a size that need not divide it writes the tile's extent as
`min(iv + step, ub) - iv`: an `arith.addi`, an `arith.minsi` and an `affine.apply` of
`()[s0, s1] -> (s1 - s0)`. The same value is `min(ub - iv, step)` (when `iv + step < ub` both
are `step`, otherwise both are `ub - iv`), which one `affine.min` states directly:

    %add = arith.addi %iv, %step : index
    %min = arith.minsi %add, %ub : index
    %n = affine.apply affine_map<()[s0, s1] -> (s1 - s0)>()[%iv, %min]
becomes
    %n = affine.min affine_map<(d0)[s0, s1] -> (s0 - d0, s1)>(%iv)[%ub, %step]

Either operand order of the `addi` and the `minsi` matches. Only the `affine.apply` is
replaced: the `addi` and `minsi` stay while something else reads them (nothing is erased
here; a later canonicalisation drops them once dead). Any other map is left alone.

A normalisation, as upstream's (the expression is one op a later analysis can bound). In
this pipeline nothing writes that form today: tile sizes come from stage-coarsening, which
only takes blocks that divide the trip count, so no tile is partial; the pass runs at its
upstream place and fires on IR written in that form (filecheck/scheduler/transforms/
affine-min-canonicalization), and gains no cycles.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import affine as affine_ops
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir import affine
from scheduler.rewriting import apply_patterns

_S0, _S1 = AffineExpr.symbol(0), AffineExpr.symbol(1)
_MIN = AffineMap(1, 2, (_S0 - AffineExpr.dimension(0), _S1))


def _is_subtraction(m: AffineMap) -> bool:
    """`()[s0, s1] -> (s1 - s0)`, however the expression is spelled (`-s0 + s1`, ...)."""
    if m.num_dims or m.num_symbols != 2 or len(m.results) != 1:
        return False
    try:
        return affine.linear_form(m.results[0], 0, 2) == ([-1, 1], 0)
    except affine.NonLinearError:
        return False


def _other(op: arith.AddiOp | arith.MinSIOp, v: SSAValue) -> SSAValue | None:
    if op.lhs is v:
        return op.rhs
    if op.rhs is v:
        return op.lhs
    return None


class CanonicalizeToAffineMin(RewritePattern):
    """`affine.apply (s1 - s0)[%iv, minsi(addi(%iv, %step), %ub)]` -> `affine.min`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine_ops.ApplyOp, rewriter: PatternRewriter) -> None:
        if not _is_subtraction(op.map.data) or len(op.mapOperands) != 2:
            return
        iv, low = op.mapOperands
        mn = low.owner
        if not isinstance(mn, arith.MinSIOp):
            return
        for add_v, ub in ((mn.lhs, mn.rhs), (mn.rhs, mn.lhs)):
            add = add_v.owner
            if isinstance(add, arith.AddiOp) and (step := _other(add, iv)) is not None:
                break
        else:
            return
        new = affine_ops.MinOp([iv, ub, step], AffineMapAttr(_MIN))
        rewriter.replace(op, new)


class AffineMinCanonicalizationPass(ModulePass):
    """`min(iv + step, ub) - iv` as `affine.min (ub - iv, step)` (see the module docstring).

    Before:  %a = arith.addi %iv, %s; %m = arith.minsi %a, %ub; %n = affine.apply (s1 - s0)[%iv, %m]
    After:   %n = affine.min (d0)[s0, s1] -> (s0 - d0, s1) (%iv)[%ub, %s]
    Idempotent: an affine.min does not match.
    """

    name = "affine-min-canonicalization"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [CanonicalizeToAffineMin()])
