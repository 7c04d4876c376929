"""Lane-aware handlers of `ktdp` (see `lanes.py`): tile ids, views and access tiles, and loads
and stores of every lane's tile at once (one strided copy or gather when no lane's tile needs
masking, else lane by lane through the tile-by-tile code). A store records what each lane
wrote, for the check at the end of the run that no two lanes wrote one element.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from numpy.lib.stride_tricks import as_strided
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from ktir.dialects.ktdp import (
    ConstructAccessTileOp,
    ConstructDistributedMemoryViewOp,
    ConstructMemoryViewOp,
    GetComputeTileIdOp,
    LoadOp,
    StoreOp,
)
from ktir.interpreter import ops_ktdp
from ktir.interpreter.core import (
    Compiler,
    Fn,
    affine_reader,
    fail,
    lanes_handles,
)
from ktir.interpreter.dtypes import value_type
from ktir.interpreter.lanes import (
    UNIFORM,
    LaneAbort,
    LanesContext,
    LaneTile,
    PerLane,
    Runs,
    both_closures,
    runs_of,
    tile_closure,
    value_rank,
    varying,
)
from ktir.interpreter.memory import _CONTIG, _STRIDED, View
from ktir.interpreter.tiles import PointTile, Tile

# Lanes whose tiles start unevenly spaced (e.g. a 2-D grid's tiles, or lanes sharing a tile)
# are read and written with one strided copy per lane when a tile holds this many elements
# or more: a gather through an index array costs ~10 ns an element, the copies ~1.
_LANE_COPY_MIN = 1024

# ---------------------------------------------------------------------------- ktdp


@lanes_handles(GetComputeTileIdOp)
def _tile_id(c: Compiler, op: GetComputeTileIdOp) -> Fn:
    outs = c.slots_of(op.ids)
    if len(outs) == 1:
        (o,) = outs

        def run_linear(r: list[Any]) -> None:
            r[o] = r[0].tile

        return run_linear

    def run(r: list[Any]) -> None:
        coords = r[0].coords
        if len(coords) != len(outs):
            raise LaneAbort
        for s, v in zip(outs, coords):
            r[s] = v

    return run


@lanes_handles(ConstructMemoryViewOp, ConstructDistributedMemoryViewOp)
def _view(c: Compiler, op: Operation) -> Fn:
    per_tile = ops_ktdp._memory_view if isinstance(op, ConstructMemoryViewOp) else \
        ops_ktdp._distributed_view
    fn = tile_closure(c, op, per_tile)
    ins = c.slots_of(op.operands)

    def run(r: list[Any]) -> None:
        for s in ins:
            v = r[s]
            if type(v) is np.ndarray or isinstance(v, PerLane):
                raise LaneAbort  # views that differ between tiles: tile by tile
        fn(r)

    return run


@lanes_handles(ConstructAccessTileOp)
def _access_tile(c: Compiler, op: ConstructAccessTileOp) -> Fn:
    fn, each = both_closures(c, op, ops_ktdp._access_tile)
    b, o = c.slot(op.base), c.slot(op.result)
    idx, syms = c.slots_of(op.indices), c.slots_of(op.symbol_operands)
    origin_of = affine_reader(op.base_map.data, idx)
    rank = len(op.base_map.data.results)
    base_rank = value_rank(op.base.type)

    def run(r: list[Any]) -> None:
        if any(type(r[s]) is np.ndarray for s in syms) or varying(r[b], base_rank):
            each(r)  # a shape or a base per lane
            return
        if not any(type(r[s]) is np.ndarray for s in idx):
            fn(r)
            return
        fn(r)  # the tile of lane 0's shape; then every lane's base point
        tile = r[o]
        ctx: LanesContext = r[0]
        origins = np.empty((ctx.lanes, rank), dtype=np.int64)
        for j, x in enumerate(origin_of(r)):  # a number or one per lane
            origins[:, j] = x
        r[o] = LaneTile(tile.base, origins, tile.geom)

    return run


def _lane_starts(view: View, p: Any, origins: np.ndarray) -> np.ndarray | None:
    """Each lane's start address when no lane's tile needs masking, else None."""
    if p.start is None:
        return None
    if ((origins < p.omin_a) | (origins > p.omax_a)).any():
        return None
    return p.base + origins @ p.strides_a


def _typed_for(view: View, lo: int, hi: int, op: Operation, r: list[Any]) -> np.ndarray:
    typed = view.mem.typed(view.et.storage)
    if lo < 0 or hi >= typed.size:
        typed = view._typed(lo, hi, op, r)
    return typed


def _read_lanes(view: View, tile: LaneTile, active: np.ndarray | None, op: Operation,
                r: list[Any]) -> np.ndarray | None:
    """Every lane's tile at once, when none needs masking (else None); an inactive lane
    reads the first live lane's tile."""
    g = tile.geom
    n = len(tile.origins)
    if g.n == 0:
        return np.zeros((n, *g.shape), dtype=view.et.compute)
    p = view.plan(g)
    origins = tile.origins
    if active is not None:
        origins = np.where(active[:, None], origins, origins[int(np.argmax(active))])
    starts = _lane_starts(view, p, origins)
    if starts is None:
        return None
    typed = _typed_for(view, int(starts.min()) + p.rmin, int(starts.max()) + p.rmax, op, r)
    d = np.diff(starts)
    strided = g.perm is not None and p.mode in (_CONTIG, _STRIDED)
    if strided and len(d) and (d == d[0]).all() and d[0] >= 0:
        item = view.et.itemsize
        vals = as_strided(typed[int(starts[0]) + p.first:], shape=(n, *g.shape),
                          strides=(int(d[0]) * item, *p.bstrides))
        if view.et.decode is None:
            vals = vals.copy()  # never a view of memory
    elif strided and g.n >= _LANE_COPY_MIN:  # lanes unevenly spaced: one strided copy each
        vals = np.empty((n, *g.shape), dtype=view.et.storage)
        for k, s in enumerate(starts.tolist()):
            vals[k] = as_strided(typed[s + p.first:], shape=g.shape, strides=p.bstrides)
    else:
        flat = typed[starts[:, None] + p.rel[None, :]]
        if g.identity:
            vals = flat.reshape(n, *g.shape)
        else:
            vals = np.zeros((n, int(np.prod(g.shape))), dtype=view.et.storage)
            vals[:, g.flatpos] = flat
            vals = vals.reshape(n, *g.shape)
    return view.et.decode(vals) if view.et.decode is not None else vals


@lanes_handles(LoadOp)
def _load(c: Compiler, op: LoadOp) -> Fn:
    fn = tile_closure(c, op, ops_ktdp._load)
    t, o = c.slot(op.tile), c.slot(op.result)

    def each(r: list[Any], tile: Any) -> None:
        ctx: LanesContext = r[0]
        vals = []
        live = ctx.live()
        try:
            for k in live:
                r[0], r[t] = ctx.tiles[k], tile.lane(k) if type(tile) is LaneTile else tile[k]
                fn(r)
                vals.append(r[o])
        finally:
            r[0], r[t] = ctx, tile
        r[o] = np.stack(ctx.spread(vals, live))

    def run(r: list[Any]) -> None:
        tile = r[t]
        if type(tile) is LaneTile:
            base = tile.base
            vals = _read_lanes(base, tile, r[0].active, op, r) if type(base) is View else None
            if vals is not None:
                r[o] = vals
            else:
                each(r, tile)
            return
        if isinstance(tile, PerLane):
            each(r, tile)
            return
        fn(r)

    return run


def _tile_addresses(tile: Any, op: Operation, r: list[Any]) -> np.ndarray:
    """The element addresses a store through one lane's tile writes (masked points left
    out); LaneAbort for bases whose writes this cannot tell (distributed views)."""
    base = tile.base
    if type(base) is not View or not base.lay.injective:
        raise LaneAbort
    if type(tile) is PointTile:
        _, addr = base._addresses(tile.coords, op, r, strict=True)
        return addr
    g = tile.geom
    if g.n == 0:
        return np.zeros(0, dtype=np.int64)
    p = base.plan(g)
    if p.start is not None:
        start = p.start(tile.origin)
        if start is not None:
            return start + p.rel
    _, addr = base._addresses(g.pts + np.asarray(tile.origin, dtype=np.int64), op, r,
                              strict=False)
    return addr


def _runs(p: Any) -> Runs:
    """The runs of a plan's tile offsets (cached on the plan)."""
    got = getattr(p, "lane_runs", None)
    if got is None:
        got = p.lane_runs = runs_of(p.rel)
    return got


@lanes_handles(StoreOp)
def _store(c: Compiler, op: StoreOp) -> Fn:
    fn = tile_closure(c, op, ops_ktdp._store)
    d, t = c.slot(op.data), c.slot(op.tile)
    et = value_type(cast(TensorType, op.data.type))
    rank = len(cast(TensorType, op.data.type).get_shape())
    start0 = np.zeros(1, dtype=np.int64)

    def lanes_of(tile: Any, n: int) -> list[Any]:
        if type(tile) is LaneTile:
            return [tile.lane(k) for k in range(n)]
        if isinstance(tile, PerLane):
            return list(tile)
        return [tile] * n

    def record(ctx: LanesContext, tile: Any, r: list[Any], lane: int) -> None:
        addr = _tile_addresses(tile, op, r)
        ctx.writes.add(tile.base.mem, et.itemsize, start0, runs_of(addr),
                       np.array([lane], dtype=np.int64))

    def run(r: list[Any]) -> None:
        tile, data = r[t], r[d]
        ctx: LanesContext = r[0]
        vary_data = type(data) is np.ndarray and data.ndim == rank + 1
        live = ctx.live()
        if not live:
            return
        if type(tile) is LaneTile and type(tile.base) is View and _store_fast(
                tile, data if vary_data else None, ctx, r, data):
            return
        if not vary_data and type(tile) in (Tile, PointTile):
            record(ctx, tile, r, UNIFORM)
            fn(r)
            return
        tiles = lanes_of(tile, ctx.lanes)
        try:
            for k in live:
                r[0] = ctx.tiles[k]
                record(ctx, tiles[k], r, k)
                r[t], r[d] = tiles[k], data[k] if vary_data else data
                fn(r)
        finally:
            r[0], r[t], r[d] = ctx, tile, data

    def _store_fast(tile: LaneTile, lanes_data: np.ndarray | None, ctx: LanesContext,
                    r: list[Any], data: Any) -> bool:
        view: View = tile.base
        g = tile.geom
        if not view.lay.injective:
            return False
        shape = data.shape[1:] if lanes_data is not None else np.shape(data)
        if tuple(shape) != tuple(g.shape):
            raise fail(op, r, f"stores a tensor of shape {tuple(shape)} through a tile of "
                       f"shape {g.shape}")
        if g.n == 0:
            return True
        p = view.plan(g)
        origins, lanes = tile.origins, ctx.tile
        if ctx.active is not None:  # only the live lanes store
            origins, lanes = origins[ctx.active], lanes[ctx.active]
            if lanes_data is not None:
                lanes_data = lanes_data[ctx.active]
        n = len(lanes)
        starts = _lane_starts(view, p, origins)
        if starts is None:
            return False
        lo, hi = int(starts.min()) + p.rmin, int(starts.max()) + p.rmax
        typed = _typed_for(view, lo, hi, op, r)
        ctx.writes.add(view.mem, view.et.itemsize, starts, _runs(p), lanes)
        vals = np.broadcast_to(data, (n, *g.shape)) if lanes_data is None else lanes_data
        if vals.dtype != et.compute:
            vals = vals.astype(et.compute)
        flat = vals.reshape(n, -1)
        if not g.identity:
            flat = flat[:, g.flatpos]
        if view.et.encode is not None:
            flat = view.et.encode(flat)
        d = np.diff(starts)
        strided = g.perm is not None and p.mode in (_CONTIG, _STRIDED) and g.identity
        if strided and len(d) and (d == d[0]).all() and d[0] > 0:
            item = view.et.itemsize
            as_strided(typed[int(starts[0]) + p.first:], shape=(n, *g.shape),
                       strides=(int(d[0]) * item, *p.bstrides))[...] = vals if \
                view.et.encode is None else flat.reshape(n, *g.shape)
        elif strided and g.n >= _LANE_COPY_MIN:  # lanes unevenly spaced, in lane order
            src = vals if view.et.encode is None else flat.reshape(n, *g.shape)
            for k, s in enumerate(starts.tolist()):
                as_strided(typed[s + p.first:], shape=g.shape, strides=p.bstrides)[...] = src[k]
        else:
            typed[starts[:, None] + p.rel[None, :]] = flat
        view._written(lo, hi)
        return True

    return run


def _memory(tile: Any) -> Any:
    return tile.base.mem


