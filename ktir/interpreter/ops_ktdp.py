"""`ktdp` tile ids, views, access tiles, loads, stores and runtime arguments (spec §4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from ktir import affine
from ktir.dialects.ktdp import (
    ConstructAccessTileOp,
    ConstructDistributedMemoryViewOp,
    ConstructIndirectAccessTileOp,
    ConstructMemoryViewOp,
    ExtractKind,
    GetComputeTileIdOp,
    LoadOp,
    MemoryKind,
    MemorySpaceAttr,
    RuntimeArgExtractOp,
    StoreOp,
)
from ktir.dialects.ktdp_types import int_list
from ktir.interpreter.core import (
    Compiler,
    Fn,
    affine_reader,
    compile_error,
    fail,
    fill_dynamic,
    handles,
)
from ktir.interpreter.dtypes import value_type
from ktir.interpreter.memory import DistributedView, Layout, TensorBase, View, layout
from ktir.interpreter.tiles import Geometry, PointTile, Tile, assemble, geometry, in_order


@dataclass(frozen=True)
class RuntimeArg:
    """The value bound to a `!ktdp.runtime_arg` argument at launch."""

    value: int | float
    granularity: int | None
    upperbound: int | None


@handles(GetComputeTileIdOp)
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
            raise fail(op, r, f"asks for {len(outs)} grid coordinates of a {len(coords)}-D grid")
        for s, v in zip(outs, coords):
            r[s] = v

    return run


@handles(ConstructMemoryViewOp)
def _memory_view(c: Compiler, op: ConstructMemoryViewOp) -> Fn:
    off, o = c.slot(op.offset), c.slot(op.result)
    dsizes, dstrides = c.slots_of(op.sizes), c.slots_of(op.strides)
    ssizes, sstrides = int_list(op.static_sizes), int_list(op.static_strides)
    cset = op.coordinate_set.data
    nsym = cset.num_symbols
    et = value_type(op.result.type)
    space = op.memory_space
    if not isinstance(space, MemorySpaceAttr):
        raise compile_error(op, f"memory space {space} has no meaning in the interpreter (only "
                            "#ktdp.memory_space<global> and <ct_local> do)")
    is_global = space.kind.data == MemoryKind.GLOBAL
    ct_id = space.ct_id.data
    layouts: dict[tuple[Any, ...], Layout] = {}

    def run(r: list[Any]) -> None:
        sizes = fill_dynamic(ssizes, r, dsizes) if dsizes else tuple(ssizes)
        strides = fill_dynamic(sstrides, r, dstrides) if dstrides else tuple(sstrides)
        syms = tuple(r[s] for s in dsizes[:nsym])
        key = (syms, sizes, strides)
        lay = layouts.get(key)
        if lay is None:
            if any(s < 0 for s in sizes) or any(s < 0 for s in strides):
                raise fail(op, r, f"has negative sizes {list(sizes)} or strides {list(strides)}")
            try:
                lay = layouts[key] = layout(cset, syms, sizes, strides)
            except affine.NonLinearError as e:
                raise fail(op, r, f"has a coordinate_set the interpreter cannot bound: {e}")
        machine = r[0].machine
        mem = machine.device if is_global else machine.scratchpad(
            ct_id if ct_id >= 0 else r[0].tile)
        r[o] = View(op, mem, et, r[off], sizes, strides, cset, syms, lay)

    return run


@handles(ConstructDistributedMemoryViewOp)
def _distributed_view(c: Compiler, op: ConstructDistributedMemoryViewOp) -> Fn:
    parts, o = c.slots_of(op.parts), c.slot(op.result)

    def run(r: list[Any]) -> None:
        views = [r[p] for p in parts]
        for v in views:
            if not isinstance(v, View):
                raise fail(op, r, "takes parts that are not memory views")
        r[o] = DistributedView(op, views)

    return run


class _GeometryCache:
    """Geometries of one op's set and order, keyed by the symbol values (no set hashing)."""

    def __init__(self, op: Operation, aset: Any, order: Any):
        self.op, self.aset, self.order = op, aset, order
        self.cache: dict[tuple[int, ...], Geometry] = {}

    def get(self, syms: tuple[int, ...], r: list[Any]) -> Geometry:
        g = self.cache.get(syms)
        if g is None:
            try:
                g = self.cache[syms] = geometry(self.aset, self.order, syms)
            except affine.UnboundedSetError as e:
                raise fail(self.op, r, f"has an unbounded tile set ({e})") from None
        return g


def _base(v: Any, op: Operation, r: list[Any], t: Any) -> Any:
    if isinstance(v, View | DistributedView):
        return v
    if isinstance(v, np.ndarray):
        return TensorBase(v, value_type(t))
    raise fail(op, r, f"has a base that is not a view or a tensor ({type(v).__name__})")


@handles(ConstructAccessTileOp)
def _access_tile(c: Compiler, op: ConstructAccessTileOp) -> Fn:
    b, o = c.slot(op.base), c.slot(op.result)
    idx, syms = c.slots_of(op.indices), c.slots_of(op.symbol_operands)
    origin_of = affine_reader(op.base_map.data, idx)
    geoms = _GeometryCache(op, op.access_tile_set.data, op.access_tile_order.data)
    btype = op.base.type

    if not syms:
        fixed: list[Geometry] = []

        def run_static(r: list[Any]) -> None:
            if not fixed:
                fixed.append(geoms.get((), r))
            base = r[b]
            if type(base) is not View:
                base = _base(base, op, r, btype)
            r[o] = Tile(base, origin_of(r), fixed[0])

        return run_static

    def run(r: list[Any]) -> None:
        g = geoms.get(tuple(r[s] for s in syms), r)
        base = r[b]
        if type(base) is not View:
            base = _base(base, op, r, btype)
        r[o] = Tile(base, origin_of(r), g)

    return run


@handles(ConstructIndirectAccessTileOp)
def _indirect_tile(c: Compiler, op: ConstructIndirectAccessTileOp) -> Fn:
    b, o = c.slot(op.base), c.slot(op.result)
    views = c.slots_of(op.indirect_memrefs)
    view_types = [v.type for v in op.indirect_memrefs]
    captured, syms = c.slots_of(op.captured_variables), c.slots_of(op.symbol_operands)
    kinds = [bool(cast(Any, k).value.data) for k in op.per_dim_subscript_kinds.data]
    maps = [m.data for m in op.per_dim_subscript_maps.data]
    geoms = _GeometryCache(op, op.variables_space_set.data, op.variables_space_order.data)
    btype = op.base.type

    def run(r: list[Any]) -> None:
        g = geoms.get(tuple(r[s] for s in syms), r)
        dims: list[Any] = [r[s] for s in captured]
        dims += [g.pts[:, j] for j in range(g.pts.shape[1])]
        coords = np.empty((g.n, len(maps)), dtype=np.int64)
        vi = 0
        for d, (ind, amap) in enumerate(zip(kinds, maps)):
            vals = affine.eval_map_np(amap, dims)
            if not ind:
                coords[:, d] = vals[0]
                continue
            src = _base(r[views[vi]], op, r, view_types[vi])
            vi += 1
            icoords = np.stack([np.broadcast_to(np.asarray(v, dtype=np.int64), (g.n,))
                                for v in vals], axis=1)
            got, _ = src.read_points(icoords, op, r, strict=True)
            coords[:, d] = got.astype(np.int64)
        base = _base(r[b], op, r, btype)
        r[o] = PointTile(base, coords, g.flatpos, g.shape, g.identity)

    return run


@handles(LoadOp)
def _load(c: Compiler, op: LoadOp) -> Fn:
    t, o = c.slot(op.tile), c.slot(op.result)
    et = value_type(op.result.type)

    def run(r: list[Any]) -> None:
        tile = r[t]
        if type(tile) is Tile:
            r[o] = tile.base.read(tile.origin, tile.geom, op, r)
            return
        vals, _ = tile.base.read_points(tile.coords, op, r, strict=True)
        r[o] = assemble(vals, tile.flatpos, tile.shape, tile.identity, et.compute)

    return run


@handles(StoreOp)
def _store(c: Compiler, op: StoreOp) -> Fn:
    d, t = c.slot(op.data), c.slot(op.tile)
    et = value_type(cast(TensorType, op.data.type))

    def run(r: list[Any]) -> None:
        tile, data = r[t], r[d]
        shape = tile.geom.shape if type(tile) is Tile else tile.shape
        if np.shape(data) != shape:
            raise fail(op, r, f"stores a tensor of shape {np.shape(data)} through a tile of "
                       f"shape {shape}")
        if data.dtype != et.compute:
            data = data.astype(et.compute)
        base = tile.base
        if not isinstance(base, View | DistributedView):
            raise fail(op, r, "stores through a tile whose base is not a memory view")
        if type(tile) is Tile:
            base.write(tile.origin, tile.geom, data, op, r)
        else:
            base.write_points(tile.coords, in_order(data, tile.flatpos, tile.identity), op, r,
                              strict=True)

    return run


@handles(RuntimeArgExtractOp)
def _runtime_arg(c: Compiler, op: RuntimeArgExtractOp) -> Fn:
    a, o = c.slot(op.arg), c.slot(op.result)
    field = {ExtractKind.VALUE: "value", ExtractKind.GRANULARITY: "granularity",
             ExtractKind.UPPERBOUND: "upperbound"}[op.extract_kind]

    def run(r: list[Any]) -> None:
        v = r[a]
        if not isinstance(v, RuntimeArg):
            raise fail(op, r, "reads a runtime_arg that was not bound at launch")
        r[o] = getattr(v, field)

    return run
