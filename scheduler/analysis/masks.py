"""Which accesses are masked, and whether the scheduler can mask them.

KTIR masks like Triton (ktir.md §4.2): an access at a coordinate outside its view's
`coordinate_set` loads 0 and stores nothing. The scheduler masks the transfers of a view whose
shape is dynamic (`sizes: [%n]`, `memref<?xf32>`) or whose coordinate set is not the box of
its static shape: their transfers carry the set as `source_mask` / `dest_mask`, its symbols
bound to the view's dynamic sizes. A masked view must keep coordinates equal to element
indices: every constraint of its set bounds one dimension (a box whose bounds may use the
symbols), every dimension starts at 0 and ends inside the view's shape (its dynamic size, for
a `?` dimension).
"""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineSet

from ktir import affine
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import int_list

_NOT_YET = "not supported by the scheduler yet"


def is_masked(view: ktdp.ConstructMemoryViewOp) -> bool:
    """Whether the transfers of `view` carry its coordinate set as a mask."""
    if view.sizes:
        return True
    sizes = int_list(view.static_sizes)
    aset = view.coordinate_set.data
    return not (affine.is_box(aset) and affine.dim_bounds(aset) == [(0, s - 1) for s in sizes])


def mask_of(view: ktdp.ConstructMemoryViewOp) -> tuple[AffineSet, list[SSAValue]]:
    """The mask of a view's transfers: its coordinate set and the values of its symbols."""
    return view.coordinate_set.data, list(view.sizes)


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
                    f"(d{d} >= 0): {_NOT_YET}")
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
