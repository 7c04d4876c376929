"""Affine-set helpers that xDSL 0.74 lacks: membership, bounds, ordered enumeration.

xDSL's `AffineSet` only prints. KTIR needs three things from a set: does it contain a point,
what is its bounding box (tile shapes, verifier checks), and which points does it hold in the
order an access-tile map gives (the interpreter and the emulator). Bounds come from
Fourier-Motzkin elimination over the linear constraints; constraints with `mod`/`floordiv`
only filter points, so a bounding box may be loose for them but enumeration is exact.
Enumeration is vectorised with numpy and cached per (set, order, symbol values).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from itertools import product

import numpy as np
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineConstraintKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSet,
    AffineSymExpr,
)

from ktir.limits import over

# An inequality  sum(coeffs[i] * x[i]) + const >= 0  over dims followed by symbols.
Ineq = tuple[tuple[int, ...], int]
Bound = tuple[int | None, int | None]


class NonLinearError(ValueError):
    """The expression uses mod/floordiv/ceildiv or a product of variables."""


class UnboundedSetError(ValueError):
    """A set that has to be enumerated has a dimension without a finite bound."""


class SetTooLargeError(UnboundedSetError):
    """A set whose bounding box holds more points than the element limit (ktir/limits.py)."""


def wide_constant(amap: AffineMap) -> int | None:
    """A constant of `amap` outside the 64-bit range of index values, if any (evaluating the
    map over int64 arrays cannot hold it)."""
    todo: list[AffineExpr] = list(amap.results)
    while todo:
        e = todo.pop()
        if isinstance(e, AffineConstantExpr):
            if not -(1 << 63) <= e.value < 1 << 63:
                return e.value
        elif isinstance(e, AffineBinaryOpExpr):
            todo += [e.lhs, e.rhs]
    return None


def linear_form(expr: AffineExpr, n_dims: int, n_syms: int) -> tuple[list[int], int]:
    """Coefficients over (dims..., symbols...) and the constant of a linear expression."""
    coeffs = [0] * (n_dims + n_syms)

    def walk(e: AffineExpr, scale: int) -> int:
        if isinstance(e, AffineConstantExpr):
            return scale * e.value
        if isinstance(e, AffineDimExpr):
            coeffs[e.position] += scale
            return 0
        if isinstance(e, AffineSymExpr):
            coeffs[n_dims + e.position] += scale
            return 0
        assert isinstance(e, AffineBinaryOpExpr)
        if e.kind is AffineBinaryOpKind.Add:
            return walk(e.lhs, scale) + walk(e.rhs, scale)
        if e.kind is AffineBinaryOpKind.Mul:
            if isinstance(e.rhs, AffineConstantExpr):
                return walk(e.lhs, scale * e.rhs.value)
            if isinstance(e.lhs, AffineConstantExpr):
                return walk(e.rhs, scale * e.lhs.value)
        raise NonLinearError(f"'{e}' is not linear")

    const = walk(expr, 1)
    return coeffs, const


def _normalise(coeffs: Sequence[int], const: int) -> Ineq:
    g = 0
    for c in coeffs:
        g = math.gcd(g, c)
    if g > 1:
        # integer tightening: sum(c/g x) >= ceil(-const/g)  <=>  ... + floor(const/g) >= 0
        return tuple(c // g for c in coeffs), const // g
    return tuple(coeffs), const


def inequalities(aset: AffineSet) -> tuple[list[Ineq], list[int]]:
    """Linear constraints of a set as `>= 0` inequalities, and indices of non-linear ones."""
    ineqs, nonlinear = _inequalities(aset)
    return list(ineqs), list(nonlinear)


@lru_cache(maxsize=4096)
def _inequalities(aset: AffineSet) -> tuple[tuple[Ineq, ...], tuple[int, ...]]:
    """`inequalities`, once per set: verifiers and passes ask about the same few sets (a
    transfer's box, its mask) over and over, and sets are immutable values."""
    out: list[Ineq] = []
    nonlinear: list[int] = []
    for i, c in enumerate(aset.constraints):
        try:
            lc, lk = linear_form(c.lhs, aset.num_dims, aset.num_symbols)
            rc, rk = linear_form(c.rhs, aset.num_dims, aset.num_symbols)
        except NonLinearError:
            nonlinear.append(i)
            continue
        diff = [a - b for a, b in zip(lc, rc)]
        k = lk - rk
        if c.kind is AffineConstraintKind.ge:
            out.append(_normalise(diff, k))
        elif c.kind is AffineConstraintKind.le:
            out.append(_normalise([-a for a in diff], -k))
        else:
            out.append(_normalise(diff, k))
            out.append(_normalise([-a for a in diff], -k))
    return tuple(out), tuple(nonlinear)


def _substitute(ineqs: list[Ineq], values: dict[int, int]) -> list[Ineq]:
    """Fix some variables to constants (their coefficient folds into the constant)."""
    res: list[Ineq] = []
    for coeffs, const in ineqs:
        k = const + sum(coeffs[i] * v for i, v in values.items())
        res.append((tuple(0 if i in values else c for i, c in enumerate(coeffs)), k))
    return res


def _eliminate(ineqs: list[Ineq], var: int) -> list[Ineq]:
    pos = [q for q in ineqs if q[0][var] > 0]
    neg = [q for q in ineqs if q[0][var] < 0]
    out = {q for q in ineqs if q[0][var] == 0}
    for pc, pk in pos:
        a = pc[var]
        for nc, nk in neg:
            b = -nc[var]
            coeffs = [b * x + a * y for x, y in zip(pc, nc)]
            out.add(_normalise(coeffs, b * pk + a * nk))
    return list(out)


def _bounds_of_var(ineqs: list[Ineq], var: int) -> Bound:
    lo: int | None = None
    hi: int | None = None
    for coeffs, const in ineqs:
        c = coeffs[var]
        if c == 0:
            if all(x == 0 for x in coeffs) and const < 0:
                return (1, 0)  # infeasible: empty range
            continue
        if any(x != 0 for i, x in enumerate(coeffs) if i != var):
            continue
        if c > 0:  # c*x + k >= 0  ->  x >= ceil(-k/c)
            v = -(const // c)
            lo = v if lo is None else max(lo, v)
        else:  # x <= floor(k/-c)
            v = const // (-c)
            hi = v if hi is None else min(hi, v)
    return lo, hi


def _project_bounds(ineqs: list[Ineq], n_vars: int, var: int) -> Bound:
    cur = ineqs
    for other in range(n_vars):
        if other != var:
            cur = _eliminate(cur, other)
    return _bounds_of_var(cur, var)


def _known_symbols(aset: AffineSet, symbols: Sequence[int | None] | None) -> dict[int, int]:
    if symbols is None:
        return {}
    return {aset.num_dims + i: v for i, v in enumerate(symbols) if v is not None}


def dim_bounds(aset: AffineSet, symbols: Sequence[int | None] | None = None) -> list[Bound]:
    """Inclusive (lo, hi) per dimension; None where unbounded. Unknown symbols range freely."""
    ineqs, _ = inequalities(aset)
    ineqs = _substitute(ineqs, _known_symbols(aset, symbols))
    n = aset.num_dims + aset.num_symbols
    return [_project_bounds(ineqs, n, d) for d in range(aset.num_dims)]


def expr_bounds(
    aset: AffineSet, expr: AffineExpr, symbols: Sequence[int | None] | None = None
) -> Bound:
    """Inclusive range of a linear expression over the set (its dims), exact over rationals."""
    ineqs, _ = inequalities(aset)
    ineqs = _substitute(ineqs, _known_symbols(aset, symbols))
    n = aset.num_dims + aset.num_symbols
    coeffs, const = linear_form(expr, aset.num_dims, aset.num_symbols)
    # a fresh variable y = expr, as two inequalities
    ext = [((*c, 0), k) for c, k in ineqs]
    ext.append(((*(-x for x in coeffs), 1), -const))
    ext.append(((*coeffs, -1), const))
    ext = _substitute(ext, _known_symbols(aset, symbols))
    return _project_bounds(ext, n + 1, n)


def contains(aset: AffineSet, point: Sequence[int], symbols: Sequence[int] = ()) -> bool:
    """Whether the integer point satisfies every constraint of the set."""
    dims, syms = list(point), list(symbols)
    for c in aset.constraints:
        v = c.lhs.eval(dims, syms) - c.rhs.eval(dims, syms)
        if c.kind is AffineConstraintKind.ge and v < 0:
            return False
        if c.kind is AffineConstraintKind.le and v > 0:
            return False
        if c.kind is AffineConstraintKind.eq and v != 0:
            return False
    return True


def eval_expr_np(
    expr: AffineExpr, dims: Sequence[np.ndarray | int], syms: Sequence[int] = ()
) -> np.ndarray | int:
    """Evaluate an affine expression elementwise over numpy arrays of dimension values."""
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return syms[expr.position]
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = eval_expr_np(expr.lhs, dims, syms)
    rhs = eval_expr_np(expr.rhs, dims, syms)
    match expr.kind:
        case AffineBinaryOpKind.Add:
            return lhs + rhs
        case AffineBinaryOpKind.Mul:
            return lhs * rhs
        case AffineBinaryOpKind.FloorDiv:
            return lhs // rhs
        case AffineBinaryOpKind.CeilDiv:
            return -((-lhs) // rhs)
        case AffineBinaryOpKind.Mod:
            return lhs % rhs


def eval_map_np(
    amap: AffineMap, dims: Sequence[np.ndarray | int], syms: Sequence[int] = ()
) -> list[np.ndarray | int]:
    return [eval_expr_np(e, dims, syms) for e in amap.results]


def mask(aset: AffineSet, dims: Sequence[np.ndarray], syms: Sequence[int]) -> np.ndarray:
    ok = np.ones(dims[0].shape if dims else (1,), dtype=bool)
    for c in aset.constraints:
        v = np.asarray(eval_expr_np(c.lhs, dims, syms)) - np.asarray(
            eval_expr_np(c.rhs, dims, syms)
        )
        if c.kind is AffineConstraintKind.ge:
            ok &= v >= 0
        elif c.kind is AffineConstraintKind.le:
            ok &= v <= 0
        else:
            ok &= v == 0
    return ok


def box(aset: AffineSet, symbols: Sequence[int] = ()) -> list[tuple[int, int]]:
    """Finite inclusive bounding box of a set with all symbols bound; raises if unbounded."""
    bounds = dim_bounds(aset, list(symbols) if symbols else None)
    out: list[tuple[int, int]] = []
    for d, (lo, hi) in enumerate(bounds):
        if lo is None or hi is None:
            raise UnboundedSetError(f"dimension d{d} of '{aset}' has no finite bound")
        out.append((lo, hi))
    return out


def _mask_in_64_bits(aset: AffineSet, dims: Sequence[np.ndarray],
                     syms: Sequence[int]) -> np.ndarray:
    try:
        return mask(aset, dims, syms)
    except OverflowError:  # a constant of the set itself beyond int64
        raise SetTooLargeError(f"the set '{aset}' has constants beyond 64 bits") from None


def check_int64_box(aset: AffineSet, bb: Sequence[tuple[int, int]]) -> None:
    """Raise SetTooLargeError when a bound of `bb`, the box of `aset`, does not fit int64
    (the points and the coordinates built from them are int64 arrays)."""
    if any(not -(1 << 63) <= b < 1 << 63 for lo_hi in bb for b in lo_hi):
        raise SetTooLargeError(f"the set '{aset}' has bounds beyond 64 bits")


@lru_cache(maxsize=512)
def _points_cached(
    aset: AffineSet, order: AffineMap | None, symbols: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    bb = box(aset, symbols)
    n = aset.num_dims
    volume = math.prod(max(hi - lo + 1, 0) for lo, hi in bb)
    if (msg := over("elements", volume, f"the set '{aset}'")) is not None:
        raise SetTooLargeError(msg)
    check_int64_box(aset, bb)
    if n == 0:
        pts = np.zeros((1, 0), dtype=np.int64)
        if not _mask_in_64_bits(aset, [], symbols).all():
            pts = pts[:0]
    elif any(hi < lo for lo, hi in bb):
        pts = np.zeros((0, n), dtype=np.int64)
    else:
        axes = [np.arange(lo, hi + 1, dtype=np.int64) for lo, hi in bb]
        grid = np.meshgrid(*axes, indexing="ij")
        flat = [g.reshape(-1) for g in grid]
        keep = _mask_in_64_bits(aset, flat, symbols)
        pts = np.stack([f[keep] for f in flat], axis=1) if flat else np.zeros((0, 0), np.int64)
    if order is None or n == 0:
        keys = pts.copy()
    else:
        cols = [pts[:, d] for d in range(n)]
        keys = np.stack(
            [np.broadcast_to(np.asarray(v, dtype=np.int64), (len(pts),)) for v in
             eval_map_np(order, cols, symbols)],
            axis=1,
        ) if order.results else np.zeros((len(pts), 0), np.int64)
    if len(pts) and keys.shape[1]:
        idx = np.lexsort(keys.T[::-1])
        pts, keys = pts[idx], keys[idx]
    if len(pts) and keys.shape[1]:
        lo = keys.min(axis=0)
        positions = keys - lo
        shape = tuple(int(x) for x in keys.max(axis=0) - lo + 1)
    else:
        positions = keys
        shape = tuple(0 for _ in range(keys.shape[1])) if not len(pts) else ()
    pts.setflags(write=False)
    positions.setflags(write=False)
    return pts, positions, shape


def enumerate_points(
    aset: AffineSet, order: AffineMap | None = None, symbols: Sequence[int] = ()
) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """Points of a set in the lexicographic order of `order(p)`.

    Returns (points[N, dims], positions[N, results], shape): position = order(p) - min(order(S))
    and shape is the bounding box of order(S). Arrays are read-only and cached.
    """
    return _points_cached(aset, order, tuple(int(s) for s in symbols))


def points_list(aset: AffineSet, order: AffineMap | None = None,
                symbols: Sequence[int] = ()) -> list[tuple[int, ...]]:
    """Convenience form of `enumerate_points` as Python tuples (for tests and small sets)."""
    pts, _, _ = enumerate_points(aset, order, symbols)
    return [tuple(int(x) for x in p) for p in pts]


def order_extents(aset: AffineSet, order: AffineMap) -> list[int | None]:
    """Extent of each result of `order` over the set, None where it depends on a symbol.

    Symbols are left free, so a dimension bounded by a symbol has no finite extent.
    Non-linear order results fall back to enumeration when the set is small and bounded.
    """
    out: list[int | None] = []
    for e in order.results:
        try:
            lo, hi = expr_bounds(aset, e)
        except NonLinearError:
            lo = hi = None
            if aset.num_symbols == 0:
                try:
                    _, _pos, shape = enumerate_points(aset, order)
                    return list(shape)
                except UnboundedSetError:
                    pass
        out.append(None if lo is None or hi is None else max(0, hi - lo + 1))
    return out


def is_box(aset: AffineSet) -> bool:
    """True when every constraint bounds a single dimension by constants/symbols."""
    ineqs, nonlinear = inequalities(aset)
    if nonlinear:
        return False
    return all(sum(1 for c in coeffs[: aset.num_dims] if c != 0) <= 1 for coeffs, _ in ineqs)


def box_points(bounds: Sequence[tuple[int, int]]) -> list[tuple[int, ...]]:
    """All integer points of an inclusive box, row-major (small boxes only)."""
    return list(product(*(range(lo, hi + 1) for lo, hi in bounds)))
