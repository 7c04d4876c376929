"""Inter-tile communication (spec §6) and the cooperative scheduler of the grid.

`inter_tile_produce` records a tile's partials under (produce op, instance, group), where the
instance counts how often that tile has executed the op, so the k-th produce of every tile
meets the k-th reduce/consume of every other. `inter_tile_reduce` and `inter_tile_consume`
suspend the tile (they are generators yielding a `Wait`) until all of its sources have
produced; the fold starts from the identity and takes the partials in ascending producer tile
id, so every consumer sees the same bits. A tile that belongs to no consumer set gets the
identity (reduce) or zeros (consume).

`run_grid` resumes tiles round-robin. When every unfinished tile waits and none can go on,
the kernel is deadlocked: the diagnostic names each waiting tile, the op it waits at and the
producers it still misses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from ktir.dialects.ktdp import (
    InterTileConsumeOp,
    InterTileProduceOp,
    InterTileReduceOp,
    TileFutureType,
)
from ktir.dialects.ktdp_intertile import dependency_sources, group_ids, members_by_group
from ktir.interpreter.core import Compiler, Fn, TileContext, Wait, compile_error, fail, handles
from ktir.interpreter.dtypes import value_type

Key = tuple[Operation, int, int]  # (produce op, instance, group)


@dataclass
class Future:
    """What `inter_tile_produce` returns on a tile: which production it took part in."""

    op: InterTileProduceOp
    instance: int


@dataclass
class Exchange:
    """Partials produced so far, and folds already computed (shared by all tiles)."""

    partials: dict[Key, dict[int, list[Any]]] = field(default_factory=dict)
    folds: dict[tuple[Any, ...], list[Any]] = field(default_factory=dict)
    finished: set[int] = field(default_factory=set)


def _membership(aset: Any, groups: list[int], n: int) -> dict[int, int]:
    """tile -> group for a `(i)[g]` set (the first group whose set holds the tile)."""
    out: dict[int, int] = {}
    for g, members in members_by_group(aset, groups, n).items():
        for t in members:
            out.setdefault(t, g)
    return out


class _Groups:
    """Group structure of one future, per number of tiles."""

    def __init__(self, op: Operation, future_type: TileFutureType):
        try:
            self.ids = group_ids(future_type)
        except Exception as e:
            raise compile_error(op, f"has a tile_future whose groups are unbounded ({e})") from None
        self._cache: dict[tuple[int, int], Any] = {}

    def members(self, aset: Any, n: int) -> dict[int, int]:
        key = (id(aset), n)
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = _membership(aset, self.ids, n)
        return got


@handles(InterTileProduceOp)
def _produce(c: Compiler, op: InterTileProduceOp) -> Fn:
    o = c.slot(op.future)
    body = c.compile_region(op.body)
    if body.gen:
        raise compile_error(op, "may not contain inter-tile communication in its region")
    (gid,) = body.arg_slots
    groups = _Groups(op, cast(TileFutureType, op.future.type))
    pset = op.producer_tiles_per_group.data

    def run(r: list[Any]) -> None:
        ctx: TileContext = r[0]
        k = ctx.counters.get(op, 0)
        ctx.counters[op] = k + 1
        g = groups.members(pset, ctx.machine.num_tiles).get(ctx.tile)
        if g is not None:
            r[gid] = g
            body.run(r)
            assert ctx.exchange is not None
            ctx.exchange.partials.setdefault((op, k, g), {})[ctx.tile] = body.results(r)
        r[o] = Future(op, k)

    return run


def _results_shaped(values: list[Any], types: list[Any]) -> list[Any]:
    return [np.reshape(v, cast(TensorType, t).get_shape()) for v, t in zip(values, types)]


def _wait(op: Operation, r: list[Any], key: Key, sources: list[int]) -> Wait:
    ctx: TileContext = r[0]
    ex = ctx.exchange
    assert ex is not None
    got = ex.partials.setdefault(key, {})

    def ready() -> bool:
        return all(s in got for s in sources)

    def describe() -> str:
        missing = [s for s in sources if s not in got]
        return (f"tile {ctx.tile} (grid coordinates ({', '.join(map(str, ctx.coords))})) waits "
                f"at '{op.name}' for the partials of tile(s) {', '.join(map(str, missing))} "
                f"(group {key[2]}, instance {key[1]})")

    return Wait(op, ready, describe)


def _producer(op: Operation, r: list[Any], fut: Any) -> Future:
    if not isinstance(fut, Future):
        raise fail(op, r, "takes a value that is not a tile future")
    return fut


@handles(InterTileReduceOp)
def _reduce(c: Compiler, op: InterTileReduceOp) -> Fn:
    f = c.slot(op.future)
    ids = c.slots_of(op.identities)
    outs = c.slots_of(op.results_)
    rtypes = [v.type for v in op.results_]
    comb = c.compile_vector_region(op.combiner)
    if comb.gen:
        raise compile_error(op, "may not contain inter-tile communication in its combiner")
    nparts = len(ids)
    lhs, rhs = comb.arg_slots[:nparts], comb.arg_slots[nparts:]
    ftype = cast(TileFutureType, op.future.type)
    groups = _Groups(op, ftype)
    cset = op.consumer_tiles_per_group.data

    def fold(r: list[Any], acc: list[Any], parts: dict[int, list[Any]],
             sources: list[int]) -> list[Any]:
        for p in sorted(sources):
            for s, v in zip(lhs, acc):
                r[s] = v
            for s, v in zip(rhs, parts[p]):
                r[s] = v
            comb.run(r)
            acc = comb.results(r)
        return acc

    def run(r: list[Any]) -> Iterator[Wait]:
        ctx: TileContext = r[0]
        fut = _producer(op, r, r[f])
        n = ctx.machine.num_tiles
        identity = [r[s] for s in ids]
        g = groups.members(cset, n).get(ctx.tile)
        if g is None:
            result = identity
        else:
            pset = fut.op.producer_tiles_per_group.data
            sources = [t for t, pg in groups.members(pset, n).items() if pg == g]
            key = (fut.op, fut.instance, g)
            w = _wait(op, r, key, sources)
            while not w.ready():
                yield w
            assert ctx.exchange is not None
            memo = (op, key, tuple(sorted(sources)))
            result = ctx.exchange.folds.get(memo)
            if result is None:
                result = ctx.exchange.folds[memo] = fold(
                    r, identity, ctx.exchange.partials[key], sources)
        for s, v in zip(outs, _results_shaped(result, rtypes)):
            r[s] = v

    return run


@handles(InterTileConsumeOp)
def _consume(c: Compiler, op: InterTileConsumeOp) -> Fn:
    f = c.slot(op.future)
    outs = c.slots_of(op.results_)
    rtypes = [v.type for v in op.results_]
    groups = _Groups(op, cast(TileFutureType, op.future.type))
    cset = op.consumer_tiles_per_group.data
    dep = op.producer_dependency_per_consumer
    zeros: Callable[[], list[Any]] = lambda: [  # noqa: E731
        np.zeros(cast(TensorType, t).get_shape(), dtype=value_type(t).compute) for t in rtypes]

    def run(r: list[Any]) -> Iterator[Wait]:
        ctx: TileContext = r[0]
        fut = _producer(op, r, r[f])
        n = ctx.machine.num_tiles
        g = groups.members(cset, n).get(ctx.tile)
        if g is None:
            result = zeros()
        else:
            pset = fut.op.producer_tiles_per_group.data
            producers = [t for t, pg in groups.members(pset, n).items() if pg == g]
            if dep is not None:
                allowed = set(dependency_sources(dep.data, ctx.tile, g, n))
                producers = [p for p in producers if p in allowed]
            if len(producers) != 1:
                raise fail(op, r, f"has {len(producers)} sources in group {g}; a consumer "
                           "needs exactly one")
            key = (fut.op, fut.instance, g)
            w = _wait(op, r, key, producers)
            while not w.ready():
                yield w
            assert ctx.exchange is not None
            result = ctx.exchange.partials[key][producers[0]]
        for s, v in zip(outs, _results_shaped(result, rtypes)):
            r[s] = v

    return run


# ---------------------------------------------------------------------------- scheduler


def run_grid(tiles: list[tuple[TileContext, Iterator[Wait]]]) -> None:
    """Run tile coroutines until all finish; a diagnostic on deadlock."""
    waiting: dict[int, Wait | None] = {ctx.tile: None for ctx, _ in tiles}
    live = list(tiles)
    while live:
        progressed = False
        still = []
        for ctx, gen in live:
            w = waiting[ctx.tile]
            if w is not None and not w.ready():
                still.append((ctx, gen))
                continue
            try:
                waiting[ctx.tile] = next(gen)
                progressed = True
                still.append((ctx, gen))
            except StopIteration:
                waiting.pop(ctx.tile)
                assert ctx.exchange is not None
                ctx.exchange.finished.add(ctx.tile)
                progressed = True
        live = still
        if live and not progressed:
            blocked = [w for w in waiting.values() if w is not None]
            lines = "; ".join(w.describe() for w in blocked)
            done = sorted(ctx.exchange.finished) if ctx.exchange is not None else []
            if done:
                lines += (f"; tile(s) {', '.join(map(str, done))} finished without producing "
                          "what is missing")
            from ktir.diagnostics import op_error

            raise op_error(blocked[0].op, f"deadlock: every unfinished tile is waiting: {lines}")
