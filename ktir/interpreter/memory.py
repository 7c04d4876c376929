"""Memories, views and access tiles: where every `ktdp.load`/`ktdp.store` element lives.

The machine has one device memory and one scratchpad per compute tile, each a byte store (a
numpy uint8 array). A view's offset counts elements of its element type (D1), so element
address `a` of type T is `store.view(T)[a]`. Access semantics follow spec §4.2-4.5:
coordinates outside a view's `coordinate_set` are masked (a load reads 0, a store is dropped),
coordinates inside the set but outside `[lo, lo + size)` are a "view overflow", a distributed
view gives each coordinate to the first part whose set holds it, and indirect tiles must stay
inside their base.

Speed: the points of an access tile relative to its base point are enumerated once per
(set, order, symbols) by `ktir.affine` and their address offsets once per stride tuple, so a
load or store of a tile that lies inside a box-shaped set is one bounds check plus one numpy
slice, strided view or gather.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided
from xdsl.ir import Operation
from xdsl.ir.affine import AffineSet

from ktir import affine
from ktir.interpreter.core import fail
from ktir.interpreter.dtypes import ElemType
from ktir.interpreter.tiles import Geometry, assemble, in_order

STICK_BYTES = 128
DEVICE_MEMORY_BYTES = 1 << 34
_STRIDED_MIN = 4096  # above this many elements a strided copy beats a gather


class Memory:
    """A byte store; device memory grows on demand up to its capacity, scratchpads do not."""

    def __init__(self, name: str, size: int, capacity: int, growable: bool, tile: int = -1):
        self.name = name
        self.capacity = capacity
        self.growable = growable
        self.tile = tile
        self.buf = np.zeros(_round_up(size, STICK_BYTES), dtype=np.uint8)
        self._typed: dict[np.dtype, np.ndarray] = {}
        self.writes: list[tuple[int, int]] = []

    def typed(self, dtype: np.dtype) -> np.ndarray:
        t = self._typed.get(dtype)
        if t is None:
            t = self._typed[dtype] = self.buf.view(dtype)
        return t

    def check(self, lo: int, hi: int, itemsize: int) -> str | None:
        """Make elements [lo, hi] addressable; a message when they are not."""
        lo_b, hi_b = lo * itemsize, (hi + 1) * itemsize
        if lo_b >= 0 and hi_b <= self.buf.size:
            return None
        if lo_b < 0:
            return f"addresses byte {lo_b} of {self.name}, below its start"
        if self.growable and hi_b <= self.capacity:
            self._grow(hi_b)
            return None
        if self.tile >= 0:
            return (f"overflows the scratchpad: it addresses bytes [{lo_b}, {hi_b}) of "
                    f"{self.name}, which holds {self.capacity} bytes")
        return (f"addresses bytes [{lo_b}, {hi_b}) beyond the end of {self.name} "
                f"({self.capacity} bytes)")

    def _grow(self, need: int) -> None:
        size = min(max(_round_up(need, STICK_BYTES), 2 * self.buf.size), self.capacity)
        new = np.zeros(size, dtype=np.uint8)
        new[: self.buf.size] = self.buf
        self.buf = new
        self._typed.clear()


def _round_up(n: int, k: int) -> int:
    return max(k, -(-n // k) * k)


class Machine:
    """Device memory plus the scratchpads of every tile (created on first use)."""

    def __init__(self, num_tiles: int, scratchpad_bytes: int, device_bytes: int = 0):
        self.num_tiles = num_tiles
        self.scratchpad_bytes = scratchpad_bytes
        self.device = Memory("device memory", device_bytes, DEVICE_MEMORY_BYTES, True)
        self._pads: dict[int, Memory] = {}
        self.touched = False  # a run has started on it

    def scratchpad(self, tile: int) -> Memory:
        m = self._pads.get(tile)
        if m is None:
            m = self._pads[tile] = Memory(f"the scratchpad of tile {tile}",
                                          self.scratchpad_bytes, self.scratchpad_bytes, False,
                                          tile)
        return m


# ---------------------------------------------------------------------------- view layouts


@dataclass(frozen=True)
class Layout:
    """What a view's coordinate set and strides imply, computed once per parameter tuple."""

    lo: tuple[int, ...]
    box: tuple[tuple[int, int], ...] | None  # the set, when it is exactly this box
    safe: bool  # no point of the set can overflow [lo, lo + size)
    injective: bool  # distinct coordinates have distinct addresses
    strides: np.ndarray


@lru_cache(maxsize=1024)
def layout(cset: AffineSet, syms: tuple[int, ...], sizes: tuple[int, ...],
           strides: tuple[int, ...]) -> Layout:
    bounds = affine.dim_bounds(cset, list(syms) if syms else None)
    lo = tuple(b[0] if b[0] is not None else 0 for b in bounds)
    finite = all(b[0] is not None and b[1] is not None for b in bounds)
    box = tuple((b[0], b[1]) for b in bounds) if finite and affine.is_box(cset) else None  # type: ignore[misc]
    safe = finite and all(b[1] - lk < s for b, lk, s in zip(bounds, lo, sizes))  # type: ignore[operator]
    return Layout(lo, box, safe, _injective(sizes, strides),
                  np.asarray(strides, dtype=np.int64))


def _injective(sizes: tuple[int, ...], strides: tuple[int, ...]) -> bool:
    span = 0
    for size, stride in sorted(zip(sizes, strides), key=lambda p: p[1]):
        if size <= 1:
            continue
        if stride <= span:
            return False
        span += stride * (size - 1)
    return True


def _mask(aset: AffineSet, coords: np.ndarray, syms: tuple[int, ...]) -> np.ndarray:
    if coords.shape[0] == 0:
        return np.zeros(0, dtype=bool)
    return affine.mask(aset, [coords[:, k] for k in range(coords.shape[1])], list(syms))


# ---------------------------------------------------------------------------- views


_CONTIG, _STRIDED, _GATHER = 0, 1, 2


class _Plan:
    """How one view reads or writes one tile geometry without masking: the range of base
    points for which the whole tile is inside the view's box-shaped set (and cannot
    overflow), the address of a base point, and the copy method."""

    def __init__(self, view: View, g: Geometry):
        lay, strides = view.lay, view.strides
        self.fast = lay.box is not None and g.n > 0
        self.omin: tuple[int, ...] = ()
        self.omax: tuple[int, ...] = ()
        if self.fast:
            assert lay.box is not None
            lo_ok = [c for c, _ in lay.box]
            hi_ok = [d for _, d in lay.box]
            if not lay.safe:
                lo_ok = [max(a, lk) for a, lk in zip(lo_ok, lay.lo)]
                hi_ok = [min(b, lk + s - 1) for b, lk, s in zip(hi_ok, lay.lo, view.sizes)]
            self.omin = tuple(a - p for a, p in zip(lo_ok, g.pmin))
            self.omax = tuple(b - p for b, p in zip(hi_ok, g.pmax))
        self.base = view.offset - sum(lk * s for lk, s in zip(lay.lo, strides))
        self.start = _start_fn(self.omin, self.omax, self.base, strides) if self.fast else None
        # the same, for many base points at once (lanes mode)
        self.omin_a = np.asarray(self.omin, dtype=np.int64)
        self.omax_a = np.asarray(self.omax, dtype=np.int64)
        self.strides_a = np.asarray(strides, dtype=np.int64)
        self.rel, self.rmin, self.rmax, contig = g.rel(strides, lay.strides)
        item = view.et.itemsize
        self.first = sum(p * s for p, s in zip(g.pmin, strides))
        self.bstrides = tuple(strides[k] * item for k in g.perm) if g.perm is not None else ()
        if contig:
            self.mode = _CONTIG
        elif g.perm is not None and g.n >= _STRIDED_MIN:
            self.mode = _STRIDED
        else:
            self.mode = _GATHER


def _start_fn(omin: tuple[int, ...], omax: tuple[int, ...], base: int,
              strides: tuple[int, ...]) -> Any:
    """`origin -> address of the base point`, or None when the origin leaves [omin, omax]
    (straight-line Python generated for this plan)."""
    terms = " + ".join([str(base)] + [f"o[{k}] * {s}" for k, s in enumerate(strides) if s])
    checks = " and ".join(f"{a} <= o[{k}] <= {b}" for k, (a, b) in enumerate(zip(omin, omax)))
    return eval(f"lambda o: ({terms}) if {checks or 'True'} else None", {"__builtins__": {}})


@dataclass
class View:
    """One `construct_memory_view` as executed by a tile."""

    op: Operation
    mem: Any  # Memory
    et: ElemType
    offset: int
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    cset: AffineSet
    syms: tuple[int, ...]
    lay: Layout

    def __post_init__(self) -> None:
        self._plans: dict[int, _Plan] = {}

    def _fits(self, lo: tuple[int, ...], hi: tuple[int, ...]) -> bool:
        """Whether the box [lo, hi] lies inside the set and cannot overflow the view."""
        box = self.lay.box
        if box is None:
            return False
        for a, b, (c, d) in zip(lo, hi, box):
            if a < c or b > d:
                return False
        if self.lay.safe:
            return True
        return all(a - lk >= 0 and b - lk < s
                   for a, b, lk, s in zip(lo, hi, self.lay.lo, self.sizes))

    def _typed(self, lo: int, hi: int, op: Operation, r: list[Any]) -> np.ndarray:
        err = self.mem.check(lo, hi, self.et.itemsize)
        if err is not None:
            raise fail(op, r, err)
        return self.mem.typed(self.et.storage)

    def plan(self, g: Geometry) -> _Plan:
        p = self._plans.get(id(g))
        if p is None:
            p = self._plans[id(g)] = _Plan(self, g)
        return p

    def _fast(self, p: _Plan, origin: tuple[int, ...], op: Operation,
              r: list[Any]) -> tuple[np.ndarray, int] | None:
        """(typed memory, start address) when the tile at `origin` needs no masking."""
        if p.start is None:
            return None
        start = p.start(origin)
        if start is None:
            return None
        typed = self.mem.typed(self.et.storage)
        if start + p.rmin < 0 or start + p.rmax >= typed.size:
            typed = self._typed(start + p.rmin, start + p.rmax, op, r)
        return typed, start

    def read(self, origin: tuple[int, ...], g: Geometry, op: Operation,
             r: list[Any]) -> np.ndarray:
        if g.n == 0:
            return np.zeros(g.shape, dtype=self.et.compute)
        p = self.plan(g)
        got = self._fast(p, origin, op, r)
        if got is None:
            coords = g.pts + np.asarray(origin, dtype=np.int64)
            vals, _ = self.read_points(coords, op, r, strict=False)
            return assemble(vals, g.flatpos, g.shape, g.identity, self.et.compute)
        typed, start = got
        dec = self.et.decode
        if p.mode == _CONTIG:
            a = start + p.rmin
            vals = typed[a: a + g.n].reshape(g.shape)
        elif p.mode == _STRIDED:
            vals = as_strided(typed[start + p.first:], shape=g.shape, strides=p.bstrides)
        else:
            vals = assemble(typed[start + p.rel], g.flatpos, g.shape, g.identity,
                            self.et.storage)
            return dec(vals) if dec is not None else vals
        return dec(vals) if dec is not None else vals.copy()  # never a view of memory

    def write(self, origin: tuple[int, ...], g: Geometry, data: np.ndarray, op: Operation,
              r: list[Any]) -> None:
        if g.n == 0:
            return
        if self.et.encode is not None:
            data = self.et.encode(data)
        p = self.plan(g)
        got = self._fast(p, origin, op, r) if self.lay.injective else None
        if got is None:
            coords = g.pts + np.asarray(origin, dtype=np.int64)
            self.write_points(coords, in_order(data, g.flatpos, g.identity), op, r,
                              strict=False, encoded=True)
            return
        typed, start = got
        if p.mode == _CONTIG:
            a = start + p.rmin
            typed[a: a + g.n] = data.reshape(-1)
        elif p.mode == _STRIDED:
            as_strided(typed[start + p.first:], shape=g.shape, strides=p.bstrides)[...] = data
        else:
            typed[start + p.rel] = in_order(data, g.flatpos, g.identity)
        self._written(start + p.rmin, start + p.rmax)

    def _written(self, lo: int, hi: int) -> None:
        mem = self.mem
        if mem.tile < 0:
            item = self.et.itemsize
            mem.writes.append((lo * item, (hi + 1) * item))

    def _addresses(self, coords: np.ndarray, op: Operation, r: list[Any],
                   strict: bool) -> tuple[np.ndarray | None, np.ndarray]:
        """(inside-set mask or None when all are inside, addresses of the inside points);
        a coordinate that overflows the view is an error."""
        inside: np.ndarray | None = None
        if len(coords):
            cmin, cmax = coords.min(axis=0), coords.max(axis=0)
            box = self.lay.box
            if box is None or any(a < c or b > d for a, b, (c, d) in zip(cmin, cmax, box)):
                inside = _mask(self.cset, coords, self.syms)
                if inside.all():
                    inside = None
        if inside is not None:
            if strict:
                bad = coords[np.argmin(inside)]
                raise fail(op, r, f"accesses coordinate ({', '.join(map(str, bad))}) outside "
                           "the coordinate_set of its base view")
            coords = coords[inside]
        local = coords - np.asarray(self.lay.lo, dtype=np.int64)
        if not self.lay.safe and len(local):
            over = ((local < 0) | (local >= np.asarray(self.sizes, dtype=np.int64))).any(axis=1)
            if over.any():
                bad = coords[np.argmax(over)]
                raise fail(op, r, f"overflows its view: coordinate ({', '.join(map(str, bad))})"
                           f" is in the coordinate_set but outside the view's "
                           f"{'x'.join(map(str, self.sizes))} elements (view overflow)")
        addr = self.offset + local @ self.lay.strides
        return inside, addr

    def read_points(self, coords: np.ndarray, op: Operation, r: list[Any],
                    strict: bool) -> tuple[np.ndarray, np.ndarray]:
        """Values at explicit coordinates (0 where masked) and the inside mask."""
        inside, addr = self._addresses(coords, op, r, strict)
        if not len(addr):
            return np.zeros(len(coords), dtype=self.et.compute), np.zeros(len(coords), bool)
        typed = self._typed(int(addr.min()), int(addr.max()), op, r)
        vals = typed[addr]
        if self.et.decode is not None:
            vals = self.et.decode(vals)
        if inside is None:
            return vals, np.ones(len(coords), dtype=bool)
        out = np.zeros(len(coords), dtype=self.et.compute)
        out[inside] = vals
        return out, inside

    def write_points(self, coords: np.ndarray, vals: np.ndarray, op: Operation, r: list[Any],
                     strict: bool, encoded: bool = False) -> None:
        inside, addr = self._addresses(coords, op, r, strict)
        if not len(addr):
            return
        v = vals if inside is None else vals[inside]
        if not encoded and self.et.encode is not None:
            v = self.et.encode(v)
        if not self.lay.injective:  # last store to an address wins
            rev = addr[::-1]
            _, first = np.unique(rev, return_index=True)
            keep = len(addr) - 1 - first
            addr, v = addr[keep], v[keep]
        lo, hi = int(addr.min()), int(addr.max())
        typed = self._typed(lo, hi, op, r)
        typed[addr] = v
        self._written(lo, hi)


@dataclass
class DistributedView:
    """`construct_distributed_memory_view`: the first part whose set holds a coordinate."""

    op: Operation
    parts: list[View]

    @property
    def et(self) -> ElemType:
        return self.parts[0].et

    def _single(self, lo: tuple[int, ...], hi: tuple[int, ...]) -> View | None:
        for i, p in enumerate(self.parts):
            if p._fits(lo, hi):
                for q in self.parts[:i]:
                    if q.lay.box is None or _boxes_meet(q.lay.box, lo, hi):
                        return None
                return p
        return None

    def read(self, origin: tuple[int, ...], g: Geometry, op: Operation,
             r: list[Any]) -> np.ndarray:
        if g.n:
            lo = tuple(o + p for o, p in zip(origin, g.pmin))
            hi = tuple(o + p for o, p in zip(origin, g.pmax))
            part = self._single(lo, hi)
            if part is not None:
                return part.read(origin, g, op, r)
        coords = g.pts + np.asarray(origin, dtype=np.int64)
        vals, _ = self.read_points(coords, op, r, strict=False)
        return assemble(vals, g.flatpos, g.shape, g.identity, self.et.compute)

    def write(self, origin: tuple[int, ...], g: Geometry, data: np.ndarray, op: Operation,
              r: list[Any]) -> None:
        if g.n:
            lo = tuple(o + p for o, p in zip(origin, g.pmin))
            hi = tuple(o + p for o, p in zip(origin, g.pmax))
            part = self._single(lo, hi)
            if part is not None:
                part.write(origin, g, data, op, r)
                return
        coords = g.pts + np.asarray(origin, dtype=np.int64)
        self.write_points(coords, in_order(data, g.flatpos, g.identity), op, r, strict=False)

    def _owners(self, coords: np.ndarray) -> np.ndarray:
        owner = np.full(len(coords), -1, dtype=np.int64)
        for i, p in enumerate(self.parts):
            free = owner < 0
            if not free.any():
                break
            hit = _mask(p.cset, coords, p.syms) & free
            owner[hit] = i
        return owner

    def read_points(self, coords: np.ndarray, op: Operation, r: list[Any],
                    strict: bool) -> tuple[np.ndarray, np.ndarray]:
        owner = self._owners(coords)
        if strict and (owner < 0).any():
            bad = coords[np.argmax(owner < 0)]
            raise fail(op, r, f"reads coordinate ({', '.join(map(str, bad))}) that no part "
                       "of the distributed view holds")
        out = np.zeros(len(coords), dtype=self.et.compute)
        for i, p in enumerate(self.parts):
            sel = owner == i
            if sel.any():
                out[sel], _ = p.read_points(coords[sel], op, r, strict=True)
        return out, owner >= 0

    def write_points(self, coords: np.ndarray, vals: np.ndarray, op: Operation, r: list[Any],
                     strict: bool) -> None:
        owner = self._owners(coords)
        if strict and (owner < 0).any():
            bad = coords[np.argmax(owner < 0)]
            raise fail(op, r, f"writes coordinate ({', '.join(map(str, bad))}) that no part "
                       "of the distributed view holds")
        for i, p in enumerate(self.parts):
            sel = owner == i
            if sel.any():
                p.write_points(coords[sel], vals[sel], op, r, strict=True)


def _boxes_meet(box: tuple[tuple[int, int], ...], lo: tuple[int, ...],
                hi: tuple[int, ...]) -> bool:
    return all(a <= d and c <= b for (c, d), a, b in zip(box, lo, hi))


@dataclass
class TensorBase:
    """An access tile over an SSA tensor (a gather from a value; loads only)."""

    value: np.ndarray
    et: ElemType

    def read(self, origin: tuple[int, ...], g: Geometry, op: Operation,
             r: list[Any]) -> np.ndarray:
        coords = g.pts + np.asarray(origin, dtype=np.int64)
        vals, _ = self.read_points(coords, op, r, strict=False)
        return assemble(vals, g.flatpos, g.shape, g.identity, self.et.compute)

    def read_points(self, coords: np.ndarray, op: Operation, r: list[Any],
                    strict: bool) -> tuple[np.ndarray, np.ndarray]:
        shape = np.asarray(self.value.shape, dtype=np.int64)
        inside = ((coords >= 0) & (coords < shape)).all(axis=1) if len(coords) else np.zeros(
            0, bool)
        if strict and not inside.all():
            bad = coords[np.argmin(inside)]
            raise fail(op, r, f"reads coordinate ({', '.join(map(str, bad))}) outside its "
                       f"base tensor of shape {tuple(self.value.shape)}")
        out = np.zeros(len(coords), dtype=self.value.dtype)
        if inside.any():
            c = coords[inside]
            out[inside] = self.value[tuple(c.T)]
        return out, inside
