"""Running every tile of the grid at once: values with a lane axis, one lane per tile.

Tile by tile, a kernel of 32 tiles runs each op 32 times on small arrays; most of that time is
Python. In lanes mode the kernel is compiled once more so that a value which differs between
tiles ("varying") carries a leading axis of one lane per tile (a scalar becomes a (T,) array, a
tensor<AxB> a (T, A, B) array), while a value that is the same on every tile ("uniform") stays
as it is tile by tile. Element-wise numpy code then serves both; ops with axes, control flow,
tiles, loads and stores have lane-aware handlers (`ops_lanes.py`, `ops_lanes_ktdp.py`), and
any other pure op runs once per lane on its lane's operands (`per_lane`), which is exact by
construction. Control flow that differs between lanes runs masked: a lane past the end of its
loop, or on the other side of a branch, keeps its values and stores nothing.

The result is the one of running the tiles one after another (D2) when no tile reads or
overwrites what another tile writes: lanes keep each tile's program order, and only the
interleaving between tiles changes. So a kernel runs in lanes mode only when
  - at compile time (`NotBatchable` otherwise): it has no inter-tile communication and no
    calls, every view lives in device memory, and no buffer that the kernel stores to is
    also loaded from (each is one pointer argument's buffer; constant-address views count
    as one buffer that may alias any);
  - at run time (`LaneAbort` otherwise): no two lanes store to the same element (the element
    ranges each lane stored are checked at the end, `Writes`), and the values that must be
    one scalar (an `index_switch` case, a view's sizes) agree between lanes.
A kernel that fails either check, or raises any error in lanes mode, is run again tile by
tile from fresh memory, so diagnostics and results are always those of the sequential run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from ktir.dialects.ktdp import (
    ConstructAccessTileOp,
    ConstructDistributedMemoryViewOp,
    ConstructIndirectAccessTileOp,
    ConstructMemoryViewOp,
    InterTileConsumeOp,
    InterTileProduceOp,
    InterTileReduceOp,
    LoadOp,
    MemoryKind,
    MemorySpaceAttr,
    StoreOp,
)
from ktir.dialects.spyreop import DF16Type
from ktir.interpreter.core import TileContext
from ktir.interpreter.dtypes import ElemType, from_array_item, value_type

if TYPE_CHECKING:
    from ktir.interpreter.core import Compiler, Fn
    from ktir.interpreter.memory import Machine, Memory


class NotBatchable(Exception):
    """The kernel cannot run in lanes mode (found when compiling); it runs tile by tile."""


class LaneAbort(Exception):
    """The lanes diverge or conflict at run time; the kernel is run again tile by tile."""


class PerLane(tuple):
    """A varying value that is not an array (a tile, a view): one object per lane."""


@dataclass
class LanesContext:
    """Register slot 0 in lanes mode: the whole grid, and each tile's own context."""

    lanes: int
    tile: np.ndarray
    coords: tuple[Any, ...]
    machine: Machine
    tiles: list[TileContext]
    writes: Writes = field(default_factory=lambda: Writes())
    exchange: Any = None
    # the lanes that execute (None: all); the others are past the end of a loop or on the
    # other side of a branch: what they compute is discarded, they store nothing
    active: np.ndarray | None = None

    def where(self) -> str:
        return "(on every tile at once)"

    def live(self) -> list[int]:
        """The active lanes, in order."""
        return list(range(self.lanes)) if self.active is None else [
            int(t) for t in np.flatnonzero(self.active)]

    def spread(self, vals: list[Any], live: list[int]) -> list[Any]:
        """Values of the live lanes as values of every lane (an inactive lane gets the
        first live lane's: a placeholder that is never stored nor kept)."""
        if len(live) == self.lanes:
            return vals
        out = [vals[0]] * self.lanes
        for t, v in zip(live, vals):
            out[t] = v
        return out


def lanes_context(machine: Machine, grid: tuple[int, ...],
                  tiles: list[TileContext]) -> LanesContext:
    """The context of a lanes run; a grid coordinate that is the same on every tile (a grid
    dimension of size 1) is uniform."""
    n = len(tiles)
    coords = tuple(
        np.array([t.coords[k] for t in tiles], dtype=np.int64) if d > 1 else 0
        for k, d in enumerate(grid))
    return LanesContext(n, np.arange(n, dtype=np.int64), coords, machine, tiles)


# ---------------------------------------------------------------------------- values


SCALAR = -1  # value_rank of a scalar type


def value_rank(t: Attribute) -> int | None:
    """How values of type `t` are laid out: the rank of a tensor, SCALAR for a number,
    None for anything else (views, tiles, futures)."""
    if isinstance(t, TensorType):
        return len(t.get_shape())
    if isinstance(t, IndexType | IntegerType | AnyFloat | DF16Type):
        return SCALAR
    return None


def varying(v: Any, rank: int | None) -> bool:
    """Whether `v`, a value of a type of this rank, has a lane axis."""
    if rank is None:
        return isinstance(v, PerLane | LaneTile)
    if type(v) is not np.ndarray:
        return False
    return rank == SCALAR or v.ndim == rank + 1


def lane_value(v: Any, t: int, rank: int | None, et: ElemType | None) -> Any:
    """Lane `t` of a varying value, as the tile-by-tile interpreter holds it."""
    if rank is None:
        return v.lane(t) if isinstance(v, LaneTile) else v[t]
    if rank == SCALAR:
        assert et is not None
        return from_array_item(v[t], et)
    return v[t]


def stacked(vals: Sequence[Any], rank: int | None, et: ElemType | None) -> Any:
    """One value per lane as a varying value."""
    if rank is None:
        return PerLane(vals)
    if rank == SCALAR:
        assert et is not None
        return np.array(vals, dtype=et.compute)
    return np.stack(vals)


def scalar_of(v: Any) -> Any:
    """A value the lanes must agree on, as one scalar (LaneAbort when they do not)."""
    if type(v) is not np.ndarray:
        return v
    if v.size == 0:
        raise LaneAbort
    first = v.reshape(-1)[0]
    if not (v == first).all():
        raise LaneAbort
    return first.item()


def merge(mask: np.ndarray, new: Any, old: Any, rank: int | None, et: ElemType | None,
          lanes: int) -> Any:
    """`new` in the lanes of `mask`, `old` in the others."""
    if new is old:
        return new
    if rank is None:
        if isinstance(new, PerLane) and isinstance(old, PerLane):
            return PerLane(n if m else o for n, o, m in zip(new, old, mask))
        raise LaneAbort
    a, b = np.asarray(new), np.asarray(old)
    if rank == SCALAR:
        shape: tuple[int, ...] = (lanes,)
    else:
        shape = (lanes, *(a.shape[1:] if varying(new, rank) else a.shape))
    out = np.where(mask.reshape((lanes,) + (1,) * (len(shape) - 1)), a, b)
    if et is not None and out.dtype != et.compute:
        out = out.astype(et.compute)
    return np.broadcast_to(out, shape).copy() if out.shape != shape else out


@dataclass
class LaneTile:
    """`construct_access_tile` whose base point differs between lanes (one row per lane)."""

    base: Any
    origins: np.ndarray  # (T, rank) int64
    geom: Any

    def lane(self, t: int) -> Any:
        from ktir.interpreter.tiles import Tile

        return Tile(self.base, tuple(int(x) for x in self.origins[t]), self.geom)


# ---------------------------------------------------------------------------- per-lane fallback


def _outer_reads(op: Operation) -> list[SSAValue]:
    """The operands of `op` and every value defined outside it that its regions use."""
    seen: dict[SSAValue, None] = dict.fromkeys(op.operands)
    for inner in op.walk():
        if inner is op:
            continue
        for v in inner.operands:
            owner = v.owner
            top = owner if isinstance(owner, Operation) else owner.parent_op()
            while top is not None and top is not op:
                top = top.parent_op()
            if top is None:
                seen.setdefault(v)
    return list(seen)


def _elem_or_none(t: Attribute) -> ElemType | None:
    try:
        return value_type(t)
    except Exception:
        return None


def per_lane(c: Compiler, op: Operation, fn: Fn, always: bool = False) -> Fn:
    """Run `fn` (the op compiled tile by tile) once per lane, on that lane's operands and
    tile context, and stack what it yields; once when no input varies (unless `always`:
    the op reads the tile id)."""
    reads = [(c.slot(v), value_rank(v.type), _elem_or_none(v.type)) for v in _outer_reads(op)]
    outs = [(c.slot(v), value_rank(v.type), _elem_or_none(v.type)) for v in op.results]

    def run(r: list[Any]) -> None:
        vary = [(s, k, et) for s, k, et in reads if varying(r[s], k)]
        if not vary and not always:
            fn(r)
            return
        ctx: LanesContext = r[0]
        saved = [r[s] for s, _, _ in vary]
        results: list[list[Any]] = [[] for _ in outs]
        live = ctx.live()
        try:
            for t in live:
                for (s, k, et), v in zip(vary, saved):
                    r[s] = lane_value(v, t, k, et)
                r[0] = ctx.tiles[t]
                fn(r)
                for acc, (o, _, _) in zip(results, outs):
                    acc.append(r[o])
        finally:
            r[0] = ctx
            for (s, _, _), v in zip(vary, saved):
                r[s] = v
        for (o, k, et), vals in zip(outs, results):
            r[o] = stacked(ctx.spread(vals, live), k, et)

    return run


def tile_closure(c: Compiler, op: Operation, per_tile: Any) -> Fn:
    """`op` compiled by its tile-by-tile handler `per_tile` (its regions tile by tile too)."""
    old, c.lanes = c.lanes, 0
    try:
        fn = per_tile(c, op)
    finally:
        c.lanes = old
    return fn


def both_closures(c: Compiler, op: Operation, per_tile: Any) -> tuple[Fn, Fn]:
    """(the tile-by-tile closure, the same run per lane)."""
    fn = tile_closure(c, op, per_tile)
    return fn, per_lane(c, op, fn)


# ---------------------------------------------------------------------------- batchability


def _defining(v: SSAValue) -> Operation | None:
    owner = v.owner
    return owner if isinstance(owner, Operation) else None


def _view_ops(v: SSAValue, op: Operation) -> list[ConstructMemoryViewOp]:
    """The memory views a tile base can be, or NotBatchable when that is not static."""
    d = _defining(v)
    if isinstance(d, ConstructMemoryViewOp):
        return [d]
    if isinstance(d, ConstructDistributedMemoryViewOp):
        return [x for p in d.parts for x in _view_ops(p, op)]
    if isinstance(v.type, TensorType):
        return []  # a tensor base: no memory
    raise NotBatchable(f"{op.name}: the base of its tile is not a static view")


def _pointer_roots(v: SSAValue, pointers: set[SSAValue], seen: set[SSAValue]) -> set[SSAValue]:
    """The pointer arguments whose value can flow into `v` (through any op or loop)."""
    if v in seen:
        return set()
    seen.add(v)
    if v in pointers:
        return {v}
    out: set[SSAValue] = set()
    owner = v.owner
    if isinstance(owner, Operation):
        for o in owner.operands:
            out |= _pointer_roots(o, pointers, seen)
    elif isinstance(v, BlockArgument):
        parent = owner.parent_op()
        if parent is not None and not isinstance(parent, func.FuncOp):
            for o in parent.operands:
                out |= _pointer_roots(o, pointers, seen)
            for region in parent.regions:  # what the regions yield flows back in
                for block in region.blocks:
                    last = block.last_op
                    if last is not None:
                        for o in last.operands:
                            out |= _pointer_roots(o, pointers, seen)
    return out


def check_batchable(fn: func.FuncOp, pointer_names: set[str]) -> None:
    """Raise NotBatchable unless the static conditions of lanes mode hold (module doc)."""
    pointers = {a for a in fn.args if (a.name_hint or f"arg{a.index}") in pointer_names}
    stored: list[tuple[Operation, frozenset[SSAValue]]] = []
    loaded: list[tuple[Operation, frozenset[SSAValue]]] = []
    for op in fn.walk():
        if isinstance(op, InterTileProduceOp | InterTileReduceOp | InterTileConsumeOp):
            raise NotBatchable("inter-tile communication")
        if isinstance(op, func.CallOp):
            raise NotBatchable("func.call")
        if isinstance(op, ConstructMemoryViewOp):
            space = op.memory_space
            if not isinstance(space, MemorySpaceAttr) or space.kind.data != MemoryKind.GLOBAL:
                raise NotBatchable("a view outside device memory")
        if isinstance(op, LoadOp | StoreOp):
            tile = _defining(op.tile)
            if isinstance(tile, ConstructAccessTileOp):
                views, index_views = _view_ops(tile.base, op), []
            elif isinstance(tile, ConstructIndirectAccessTileOp):
                views = _view_ops(tile.base, op)
                index_views = [x for v in tile.indirect_memrefs for x in _view_ops(v, op)]
            else:
                raise NotBatchable(f"{op.name}: its tile is not built by a static op")
            for v in index_views:
                loaded.append((v, frozenset(_pointer_roots(v.offset, pointers, set()))))
            bucket = stored if isinstance(op, StoreOp) else loaded
            for v in views:
                bucket.append((v, frozenset(_pointer_roots(v.offset, pointers, set()))))
    for sv, sk in stored:
        for lv, lk in loaded:
            if not sk or not lk or sk & lk:
                raise NotBatchable("a buffer is both stored to and loaded from")
    for i, (sv, sk) in enumerate(stored):
        for tv, tk in stored[i + 1:]:
            if (not sk or not tk or sk & tk) and (value_type(sv.result.type).itemsize !=
                                                  value_type(tv.result.type).itemsize):
                raise NotBatchable("a buffer is stored with several element sizes")


# ---------------------------------------------------------------------------- stores


UNIFORM = -1  # the lane of a store every lane makes alike


@dataclass
class Writes:
    """The element ranges each lane stored to, checked at the end of the run: two lanes
    storing to one element would make the result depend on the tile order. A kernel never
    loads what it stores (check_batchable), so the check can wait until the end."""

    lo: list[np.ndarray] = field(default_factory=list)  # byte ranges [lo, hi] per memory
    hi: list[np.ndarray] = field(default_factory=list)
    lane: list[np.ndarray] = field(default_factory=list)
    mem: list[int] = field(default_factory=list)

    def add(self, mem: Memory, itemsize: int, starts: np.ndarray, runs: Runs,
            lane: np.ndarray) -> None:
        """Lane `lane[i]` stored the runs at element address `starts[i]` + run offsets."""
        lo = (starts[:, None] + runs.offsets[None, :]).reshape(-1)
        hi = lo + np.broadcast_to(runs.lengths - 1, (len(starts), len(runs.lengths))).reshape(-1)
        self.lo.append(lo * itemsize)
        self.hi.append(hi * itemsize + (itemsize - 1))
        self.lane.append(np.repeat(lane, len(runs.lengths)))
        self.mem.append(id(mem))

    def check(self) -> None:
        """LaneAbort when ranges of two lanes meet (a uniform store meets any lane's)."""
        by_mem: dict[int, list[int]] = {}
        for i, m in enumerate(self.mem):
            by_mem.setdefault(m, []).append(i)
        for idx in by_mem.values():
            lo = np.concatenate([self.lo[i] for i in idx])
            hi = np.concatenate([self.hi[i] for i in idx])
            lane = np.concatenate([self.lane[i] for i in idx])
            _check_ranges(lo, hi, lane)


def _check_ranges(lo: np.ndarray, hi: np.ndarray, lane: np.ndarray) -> None:
    if len(lo) < 2:
        return
    # merge each lane's own ranges (a lane may overwrite itself): shift lanes apart
    span = int(hi.max()) - int(lo.min()) + 2
    shift = (lane.astype(np.int64) + 1) * span - int(lo.min())
    a, b = lo + shift, hi + shift
    order = np.argsort(a, kind="stable")
    a, b = a[order], b[order]
    reach = np.maximum.accumulate(b)
    new = np.ones(len(a), dtype=bool)
    new[1:] = a[1:] > reach[:-1]
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:], len(a)) - 1
    mlo = a[starts] - shift[order][starts]
    mhi = reach[ends] - shift[order][starts]
    # merged ranges of one lane are disjoint: any overlap left is between two lanes
    order = np.argsort(mlo, kind="stable")
    mlo, mhi = mlo[order], mhi[order]
    if len(mlo) > 1 and (mlo[1:] <= np.maximum.accumulate(mhi)[:-1]).any():
        raise LaneAbort


@dataclass(frozen=True)
class Runs:
    """A tile's element offsets (relative to its start) as maximal runs of consecutive
    addresses."""

    offsets: np.ndarray
    lengths: np.ndarray


def runs_of(rel: np.ndarray) -> Runs:
    """The runs of a set of element offsets (in any order, without repeats)."""
    if rel.size == 0:
        return Runs(np.zeros(0, np.int64), np.zeros(0, np.int64))
    s = np.sort(rel.reshape(-1))
    cut = np.flatnonzero(np.diff(s) != 1) + 1
    first = np.concatenate([[0], cut])
    last = np.concatenate([cut, [len(s)]])
    return Runs(s[first].astype(np.int64), (last - first).astype(np.int64))
