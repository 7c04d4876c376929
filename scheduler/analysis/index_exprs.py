"""Index arithmetic as affine expressions over a few roots, and the ranges it can take.

KTIR computes tile offsets with `arith` on `index` values (`%row0 = %id * 3`). The scheduler
needs to know that arithmetic as an affine expression — to write transfer subscripts, and to
prove that an access tile stays inside its view (the pipeline has no masking). Roots are the
values the expression cannot see through: compute-tile ids, loop induction variables, function
arguments. A root's range comes from the grid, the loop bounds, or is unknown.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)

from ktir.dialects.ktdp import GetComputeTileIdOp, kernel_grid
from scheduler.dialects.ktdf_types import const_int

Range = tuple[int | None, int | None]


def index_constant(v: int) -> arith.ConstantOp:
    """`arith.constant <v> : index`."""
    return arith.ConstantOp(_index_attr(v))


@lru_cache(maxsize=4096)
def _index_attr(v: int) -> IntegerAttr:
    """One attribute per value (attributes are immutable; the passes build thousands of
    index constants, mostly 0, 1 and the tile ids)."""
    return IntegerAttr(v, IndexType())


def trip_count(loop: scf.ForOp) -> int | None:
    """Iterations of a loop with constant bounds and a positive step, else None."""
    lb, ub, step = (const_int(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def linear_iteration(loops: list[scf.ForOp]) -> tuple[list[Operation], SSAValue, int] | None:
    """Ops (not inserted) computing the linearised iteration number of the nest `loops`
    (outermost first, the innermost fastest), that value and the total trip count; None when
    a loop's bounds are not constants."""
    ops: list[Operation] = []
    acc: SSAValue | None = None
    total = 1
    for loop in reversed(loops):
        lb, ub, step = (const_int(v) for v in (loop.lb, loop.ub, loop.step))
        if lb is None or ub is None or step is None or step <= 0:
            return None
        k: SSAValue = loop.body.block.args[0]
        for cst, make, skip in ((lb, arith.SubiOp, 0), (step, arith.DivUIOp, 1),
                                (total, arith.MuliOp, 1)):
            if cst != skip:
                c = index_constant(cst)
                d = make(k, c)
                ops += [c, d]
                k = d.result
        if acc is not None:
            a = arith.AddiOp(acc, k)
            ops.append(a)
            k = a.result
        acc = k
        total *= max(0, -(-(ub - lb) // step))
    if acc is None:
        return None
    return ops, acc, total


@dataclass
class IndexExprs:
    """Affine views of index values in one function; roots are numbered dims in `roots`."""

    roots: list[SSAValue] = field(default_factory=list)
    # ranges known from elsewhere (a compute group's arguments: what the host passes)
    arg_ranges: dict[SSAValue, Range] = field(default_factory=dict)
    _cache: dict[SSAValue, AffineExpr | None] = field(default_factory=dict)

    def root(self, v: SSAValue) -> AffineExpr:
        for i, r in enumerate(self.roots):
            if r is v:
                return AffineExpr.dimension(i)
        self.roots.append(v)
        return AffineExpr.dimension(len(self.roots) - 1)

    def expr(self, v: SSAValue) -> AffineExpr | None:
        """The affine expression of `v`, or None when it is not affine in the roots."""
        if v in self._cache:
            return self._cache[v]
        e = self._compute(v)
        self._cache[v] = e
        return e

    def _compute(self, v: SSAValue) -> AffineExpr | None:
        if not isinstance(v.type, IndexType):
            return None
        if (c := const_int(v)) is not None:
            return AffineExpr.constant(c)
        owner = v.owner
        if isinstance(owner, arith.AddiOp | arith.SubiOp | arith.MuliOp):
            lhs, rhs = self.expr(owner.lhs), self.expr(owner.rhs)
            if lhs is None or rhs is None:
                return None
            if isinstance(owner, arith.AddiOp):
                return lhs + rhs
            if isinstance(owner, arith.SubiOp):
                return lhs - rhs
            if _is_const(lhs) or _is_const(rhs):
                return lhs * rhs
            return None
        if isinstance(owner, arith.FloorDivSIOp | arith.DivUIOp | arith.DivSIOp
                      | arith.RemUIOp | arith.RemSIOp):
            lhs, rhs = self.expr(owner.lhs), self.expr(owner.rhs)
            if lhs is None or rhs is None or not _is_const(rhs) or _const(rhs) <= 0:
                return None
            # divsi/remsi agree with floordiv/mod on the non-negative values tile math uses;
            # the range check below proves non-negativity before anything relies on it.
            if isinstance(owner, arith.RemUIOp | arith.RemSIOp):
                return lhs % _const(rhs)
            return lhs // _const(rhs)
        return self.root(v)

    def root_range(self, r: SSAValue) -> Range:
        if r in self.arg_ranges:
            return self.arg_ranges[r]
        owner = r.owner
        if isinstance(owner, GetComputeTileIdOp):
            grid = kernel_grid(owner) or (1,)
            if len(owner.ids) == 1:
                return (0, math.prod(grid) - 1)
            idx = list(owner.ids).index(r)
            return (0, grid[idx] - 1)
        if isinstance(r, BlockArgument) and isinstance(r.block.parent_op(), scf.ForOp):
            loop = r.block.parent_op()
            assert isinstance(loop, scf.ForOp)
            if r.index != 0:
                return (None, None)
            lb, ub, st = (self.constant(v) for v in (loop.lb, loop.ub, loop.step))
            if lb is None or ub is None or st is None or st <= 0 or ub <= lb:
                return (lb, None) if lb is not None else (None, None)
            return (lb, lb + ((ub - 1 - lb) // st) * st)
        return (None, None)

    def constant(self, v: SSAValue) -> int | None:
        e = self.expr(v)
        return _const(e) if e is not None and _is_const(e) else None

    def range_of(self, e: AffineExpr) -> Range:
        """Interval of an affine expression over the roots' ranges (interval arithmetic)."""
        ranges = [self.root_range(r) for r in self.roots]
        return _interval(e, ranges)

    def depends_on_tile_id(self, v: SSAValue) -> bool:
        """Whether `v` (any type) is computed from a compute-tile id."""
        seen: set[SSAValue] = set()
        stack = [v]
        while stack:
            cur = stack.pop()
            if cur in seen:
                continue
            seen.add(cur)
            owner = cur.owner
            if isinstance(owner, GetComputeTileIdOp):
                return True
            if isinstance(owner, Operation):
                stack.extend(owner.operands)
        return False


def _is_const(e: AffineExpr) -> bool:
    return isinstance(e, AffineConstantExpr)


def _const(e: AffineExpr) -> int:
    assert isinstance(e, AffineConstantExpr)
    return e.value


def _interval(e: AffineExpr, ranges: list[Range]) -> Range:
    if isinstance(e, AffineConstantExpr):
        return (e.value, e.value)
    if isinstance(e, AffineDimExpr):
        return ranges[e.position]
    if not isinstance(e, AffineBinaryOpExpr):
        return (None, None)
    a, b = _interval(e.lhs, ranges), _interval(e.rhs, ranges)
    if e.kind is AffineBinaryOpKind.Add:
        return (_add(a[0], b[0]), _add(a[1], b[1]))
    if e.kind is AffineBinaryOpKind.Mul:
        if a[0] is None or a[1] is None or b[0] is None or b[1] is None:
            if b[0] is not None and b[0] == b[1]:
                k = b[0]
                lo, hi = (_mul(a[0], k), _mul(a[1], k)) if k >= 0 else (_mul(a[1], k),
                                                                         _mul(a[0], k))
                return (lo, hi)
            return (None, None)
        prods = [x * y for x in a for y in b]
        return (min(prods), max(prods))
    if e.kind in (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv):
        if b[0] is None or b[0] != b[1] or b[0] <= 0:
            return (None, None)
        k = b[0]
        if e.kind is AffineBinaryOpKind.FloorDiv:
            return (None if a[0] is None else a[0] // k, None if a[1] is None else a[1] // k)
        return (None if a[0] is None else -(-a[0] // k), None if a[1] is None else -(-a[1] // k))
    if e.kind is AffineBinaryOpKind.Mod:
        if b[0] is None or b[0] != b[1] or b[0] <= 0:
            return (None, None)
        if a[0] is not None and a[1] is not None and a[0] >= 0 and a[1] < b[0]:
            return a
        return (0, b[0] - 1)
    return (None, None)


def _add(x: int | None, y: int | None) -> int | None:
    return None if x is None or y is None else x + y


def _mul(x: int | None, k: int) -> int | None:
    return None if x is None else x * k


def fold_constants(values: Sequence[SSAValue]) -> tuple[list[SSAValue], list[AffineExpr]]:
    """An affine expression per value: its constant when it is one, else the next dimension,
    whose operand is the value (the operands returned, in dimension order)."""
    operands: list[SSAValue] = []
    exprs: list[AffineExpr] = []
    for v in values:
        c = const_int(v)
        if c is None:
            exprs.append(AffineExpr.dimension(len(operands)))
            operands.append(v)
        else:
            exprs.append(AffineExpr.constant(c))
    return operands, exprs


def loops_between(op: Operation, top: Operation) -> list[scf.ForOp]:
    """The `scf.for` loops around `op` below `top` (at any depth, other regions between),
    outermost first."""
    loops: list[scf.ForOp] = []
    cur = op.parent_op()
    while cur is not None and cur is not top:
        if isinstance(cur, scf.ForOp):
            loops.append(cur)
        cur = cur.parent_op()
    return list(reversed(loops))


def enclosing_loops(p: Operation) -> list[scf.ForOp]:
    """The `scf.for` loops `p` sits directly in (no other region between), outermost first."""
    loops: list[scf.ForOp] = []
    cur = p.parent_op()
    while isinstance(cur, scf.ForOp):
        loops.append(cur)
        cur = cur.parent_op()
    return list(reversed(loops))


def grid_tiles(op: Operation) -> int:
    """The number of tiles of the kernel (function) around `op` (1 without a grid)."""
    cur = op.parent_op()
    while cur is not None and not isinstance(cur, func.FuncOp):
        cur = cur.parent_op()
    grid = kernel_grid(cur) if cur is not None else None
    return math.prod(grid) if grid else 1
