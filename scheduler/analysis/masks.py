"""Which accesses are masked, and whether the scheduler can mask them.

KTIR masks like Triton (ktir.md §4.2): an access at a coordinate outside its view's
`coordinate_set` loads 0 and stores nothing. The scheduler masks the transfers of a view whose
shape is dynamic (`sizes: [%n]`, `memref<?xf32>`) or whose coordinate set is not the box of
its static shape, and those of a tile it cannot prove inside its view (a partial tile) or
whose set has symbols: they carry the set (and the tile's) as `source_mask` / `dest_mask`,
its symbols bound to the view's dynamic sizes (and the tile's subscripts and symbols). A masked view must keep coordinates equal to element
indices: every constraint of its set bounds one dimension (a box whose bounds may use the
symbols), every dimension starts at 0 and ends inside the view's shape (its dynamic size, for
a `?` dimension).
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstraintExpr, AffineExpr, AffineSet

from ktir import affine
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import int_list
from scheduler.analysis.index_exprs import IndexExprs, Range

_NOT_YET = "not supported by the scheduler yet"


def is_masked(view: ktdp.ConstructMemoryViewOp) -> bool:
    """Whether the transfers of `view` carry its coordinate set as a mask."""
    if view.sizes:
        return True
    sizes = int_list(view.static_sizes)
    aset = view.coordinate_set.data
    return not (affine.is_box(aset) and affine.dim_bounds(aset) == [(0, s - 1) for s in sizes])


def tile_inside(exprs: IndexExprs, tile: ktdp.ConstructAccessTileOp,
                view: ktdp.ConstructMemoryViewOp) -> bool:
    """Whether every point of `tile` provably lies in the (unmasked) view's box, over the
    ranges `exprs` knows for the tile ids, loop indices and arguments."""
    if is_masked(view) or tile.symbol_operands:
        return False
    sizes = int_list(view.static_sizes)
    bounds = affine.dim_bounds(tile.access_tile_set.data)
    args = [exprs.expr(v) for v in tile.indices]
    if any(a is None for a in args):
        return False
    for d, sub in enumerate(tile.base_map.data.results):
        lo, hi = exprs.range_of(sub.replace_dims_and_symbols(args, []))  # type: ignore
        blo, bhi = bounds[d]
        if lo is None or hi is None or blo is None or bhi is None or lo + blo < 0 \
                or hi + bhi > sizes[d] - 1:
            return False
    return True


def group_arg_ranges(fn: func.FuncOp) -> dict[SSAValue, Range]:
    """The ranges of a compute group's arguments over every host call of it (a host loop
    index, a constant); unknown for the others. The host module holds the calls, beside the
    groups' own modules (compute-group-extraction)."""
    top: Operation = fn
    while (parent := top.parent_op()) is not None:
        top = parent
    found: dict[int, Range] = {}
    seen: set[int] = set()
    for host in top.regions[0].block.ops if top.regions else ():
        if not isinstance(host, ModuleOp) or host.sym_name is not None:
            continue
        exprs = IndexExprs()
        for call in host.walk():
            if not isinstance(call, func.CallOp) or \
                    call.callee.root_reference.data != fn.sym_name.data:
                continue
            for i, v in enumerate(call.arguments):
                e = exprs.expr(v)
                r = exprs.range_of(e) if e is not None else (None, None)
                if i in seen:
                    old = found.get(i, (None, None))
                    r = (None if old[0] is None or r[0] is None else min(old[0], r[0]),
                         None if old[1] is None or r[1] is None else max(old[1], r[1]))
                seen.add(i)
                found[i] = r
    return {a: found[i] for i, a in enumerate(fn.args) if i in found}


def mask_of(view: ktdp.ConstructMemoryViewOp, tile: ktdp.ConstructAccessTileOp | None = None
            ) -> tuple[AffineSet, list[SSAValue]]:
    """The mask of a transfer through `view`: its coordinate set (symbols: the view's dynamic
    sizes) and, for a tile whose set has symbols (upstream's 32x64 tile over rows d0 < M),
    the tile's set at coordinate c - base (further symbols: the tile's subscripts, then its
    own symbols)."""
    vset = view.coordinate_set.data
    syms: list[SSAValue] = list(view.sizes)
    if tile is None or not tile.symbol_operands:
        return vset, syms
    tset = tile.access_tile_set.data
    n_v, n_i = vset.num_symbols, len(tile.indices)
    base = [e.replace_dims_and_symbols([AffineExpr.symbol(n_v + j) for j in range(n_i)], [])
            for e in tile.base_map.data.results]
    local = [AffineExpr.dimension(d) - base[d] for d in range(vset.num_dims)]
    own = [AffineExpr.symbol(n_v + n_i + k) for k in range(tset.num_symbols)]
    cons = list(vset.constraints) + [
        AffineConstraintExpr(c.kind, c.lhs.replace_dims_and_symbols(local, own),
                             c.rhs.replace_dims_and_symbols(local, own))
        for c in tset.constraints]
    return (AffineSet(vset.num_dims, n_v + n_i + tset.num_symbols, tuple(cons)),
            syms + list(tile.indices) + list(tile.symbol_operands))


def view_unsupported(view: ktdp.ConstructMemoryViewOp) -> str | None:
    """Why the scheduler cannot lower (or mask) the view, or None."""
    if view.strides:
        return f"views with dynamic strides: {_NOT_YET}"
    aset = view.coordinate_set.data
    if not is_masked(view):
        return None
    sizes = int_list(view.static_sizes)
    ineqs, nonlinear = affine.inequalities(aset)
    if nonlinear or not affine.is_box(aset):
        return (f"a coordinate_set that is not a box (each constraint bounding one "
                f"dimension) as the mask of its accesses: {_NOT_YET}")
    n = aset.num_dims
    symbol_of_dim = {}
    for d, s in enumerate(sizes):
        if s == DYNAMIC_INDEX:
            symbol_of_dim[d] = len(symbol_of_dim)
    for d, size in enumerate(sizes):
        lows = [(c, k) for c, k in ineqs if c[d] > 0]
        highs = [(c, k) for c, k in ineqs if c[d] < 0]
        if not any(not any(c[n:]) and k == 0 for c, k in lows) or \
                any(any(c[n:]) or k < 0 for c, k in lows):
            return (f"a coordinate_set whose dimension {d} does not start at 0 "
                    f"(d{d} >= 0), which normalize-view-origins did not move (it moves views "
                    "that only access tiles read, from a constant origin; not a part of a "
                    f"distributed view, nor a lower bound with symbols): {_NOT_YET}")
        if not any(_within(c, k, d, n, size, symbol_of_dim.get(d)) for c, k in highs):
            bound = f"s{symbol_of_dim[d]} - 1" if d in symbol_of_dim else str(size - 1)
            return (f"a coordinate_set that does not keep dimension {d} inside the view "
                    f"(no bound d{d} <= {bound}; coordinates beyond the view's shape are "
                    "a view overflow, not masked)")
    return None


def _within(c: tuple[int, ...], k: int, d: int, n: int, size: int, sym: int | None) -> bool:
    """`c . (dims, syms) + k >= 0` implies dim d <= its size - 1."""
    if c[d] != -1:
        return False
    syms = c[n:]
    if sym is None:
        return not any(syms) and k <= size - 1
    return all(v == (1 if i == sym else 0) for i, v in enumerate(syms)) and k <= -1
