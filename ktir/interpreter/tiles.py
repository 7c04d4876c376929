"""Access-tile geometry: the points of a tile set in the order its map gives (spec §4.4).

A geometry depends only on (set, order, symbol values), so it is computed once and shared by
every tile built with them; `Tile` adds the base (a view or a tensor) and the base point,
`PointTile` holds the explicit coordinates of an indirect tile (§4.5).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from xdsl.ir.affine import AffineDimExpr, AffineMap, AffineSet

from ktir import affine


class Geometry:
    """The points of an access-tile set relative to its base point, in enumeration order.

    A box-shaped set under a permutation order (the common case) is described by its bounds
    alone; its points are only materialised when a gather needs them.
    """

    def __init__(self, aset: AffineSet, order: AffineMap, syms: tuple[int, ...]):
        perm = _permutation(order)
        box = affine.box(aset, syms) if perm is not None and affine.is_box(aset) else None
        self._rel: dict[tuple[int, ...], tuple[np.ndarray, int, int, bool]] = {}
        if box is not None and perm is not None:
            affine.check_int64_box(aset, box)  # as the enumerated path does
            ext = [hi - lo + 1 for lo, hi in box]
            self.n = int(np.prod(ext)) if all(e > 0 for e in ext) else 0
            self.shape = tuple(max(ext[k], 0) for k in perm) if self.n else tuple(
                0 for _ in perm)
            self.pmin = tuple(lo for lo, _ in box) if self.n else ()
            self.pmax = tuple(hi for _, hi in box) if self.n else ()
            self.identity = True
            self.perm: tuple[int, ...] | None = perm
            self._pts: np.ndarray | None = None
            self._flat: np.ndarray | None = None
            return
        pts, pos, shape = affine.enumerate_points(aset, order, syms)
        self._pts = pts
        self.shape = shape
        self.n = len(pts)
        size = int(np.prod(shape)) if shape else 1
        if pos.shape[1]:
            flat = np.ravel_multi_index(tuple(pos.T), shape) if self.n else np.zeros(0, np.int64)
        else:
            flat = np.zeros(self.n, dtype=np.int64)
        self._flat = flat.astype(np.int64)
        self.identity = self.n == size and bool(np.all(self._flat == np.arange(self.n)))
        if self.n:
            self.pmin = tuple(int(x) for x in pts.min(axis=0))
            self.pmax = tuple(int(x) for x in pts.max(axis=0))
        else:
            self.pmin = self.pmax = ()
        self.perm = None

    @property
    def flatpos(self) -> np.ndarray:
        if self._flat is None:
            self._flat = np.arange(self.n, dtype=np.int64)
        return self._flat

    def _axes(self) -> list[np.ndarray]:
        """Per tile axis j, the set coordinate `pmin[perm j] + q_j`, broadcastable."""
        assert self.perm is not None
        r = len(self.shape)
        return [(np.arange(self.shape[j], dtype=np.int64) + self.pmin[k]).reshape(
            [self.shape[j] if i == j else 1 for i in range(r)]) for j, k in enumerate(self.perm)]

    @property
    def pts(self) -> np.ndarray:
        if self._pts is None:
            assert self.perm is not None
            pts = np.empty((self.n, len(self.perm)), dtype=np.int64)
            if self.n:  # an empty set has no bounds to enumerate from
                for j, (k, ax) in enumerate(zip(self.perm, self._axes())):
                    pts[:, k] = np.broadcast_to(ax, self.shape).reshape(-1)
            self._pts = pts
        return self._pts

    def rel(self, strides: tuple[int, ...], arr: np.ndarray) -> tuple[np.ndarray, int, int, bool]:
        """Address offsets of the points for these strides: (offsets, min, max, contiguous)."""
        got = self._rel.get(strides)
        if got is None:
            if not self.n:
                rel = np.zeros(0, np.int64)
            elif self.perm is not None and self._pts is None:
                total: Any = 0
                for k, ax in zip(self.perm, self._axes()):
                    total = total + ax * strides[k]
                rel = np.broadcast_to(total, self.shape).reshape(-1)
            else:
                rel = self.pts @ arr
            lo = int(rel.min()) if self.n else 0
            hi = int(rel.max()) if self.n else -1
            contig = self.identity and hi - lo == self.n - 1 and bool(
                np.all(np.diff(rel) == 1))
            got = self._rel[strides] = (rel, lo, hi, contig)
        return got


def _permutation(order: AffineMap) -> tuple[int, ...] | None:
    perm = []
    for e in order.results:
        if not isinstance(e, AffineDimExpr):
            return None
        perm.append(e.position)
    return tuple(perm) if sorted(perm) == list(range(order.num_dims)) else None


@lru_cache(maxsize=1024)
def geometry(aset: AffineSet, order: AffineMap, syms: tuple[int, ...]) -> Geometry:
    return Geometry(aset, order, syms)


class Tile:
    """`construct_access_tile`: a base (view or tensor), a base point and a geometry."""

    __slots__ = ("base", "geom", "origin")

    def __init__(self, base: Any, origin: tuple[int, ...], geom: Geometry):
        self.base = base
        self.origin = origin
        self.geom = geom


class PointTile:
    """`construct_indirect_access_tile`: explicit coordinates (strict: no masking)."""

    __slots__ = ("base", "coords", "flatpos", "identity", "shape")

    def __init__(self, base: Any, coords: np.ndarray, flatpos: np.ndarray,
                 shape: tuple[int, ...], identity: bool):
        self.base = base
        self.coords = coords
        self.flatpos = flatpos
        self.shape = shape
        self.identity = identity


def assemble(vals: np.ndarray, flatpos: np.ndarray, shape: tuple[int, ...], identity: bool,
             dtype: np.dtype) -> np.ndarray:
    """Place values given in enumeration order at their tile positions (holes are 0)."""
    if identity:
        return vals.reshape(shape)
    out = np.zeros(shape, dtype=dtype)
    out.reshape(-1)[flatpos] = vals
    return out


def in_order(data: np.ndarray, flatpos: np.ndarray, identity: bool) -> np.ndarray:
    flat = np.ascontiguousarray(data).reshape(-1)
    return flat if identity else flat[flatpos]
