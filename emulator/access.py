"""Static descriptions of memory views and vector accesses, precomputed once per op site
(shared/spec/dataflow-ir.md §3, §7 E5/E6).

A `ViewSpec` is the static half of a `get_logical_memory_view` (linear layout, shape, element
type); a `View` adds the memory instance and start address at run time. An `Access` is the
`*_set`/`*_order` of an agen op: the points relative to the base coordinate in lane order.
`Access.plan(spec)` gives, per view spec, a compiled function base -> first element address
(None when the points leave the view's shape) and the lane offsets.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap, AffineSet

from emulator.errors import UnsupportedOpError
from emulator.numerics import etype
from ktir import affine
from ktir.affine import NonLinearError


class ViewSpec:
    """layout(idx) = const + sum(coeffs[d] * idx[d]) over a memref of `shape`."""

    __slots__ = ("coeffs", "const", "et", "isz", "shape", "storage", "type")

    def __init__(self, coeffs: tuple[int, ...], const: int, mtype: MemRefType, op: Operation):
        for v in (*coeffs, const):
            if not -(1 << 63) <= v < 1 << 63:
                raise UnsupportedOpError(f"the view's layout has the coefficient {v}, beyond "
                                         "the 64-bit range of element addresses", op=op)
        self.coeffs, self.const = coeffs, const
        self.shape = tuple(int(d) for d in mtype.get_shape())
        self.et = etype(mtype, op)
        self.storage = self.et.storage
        self.isz = self.et.itemsize
        self.type = mtype

    def __repr__(self) -> str:
        terms = [f"{c}*d{d}" if c != 1 else f"d{d}" for d, c in enumerate(self.coeffs) if c] + \
            ([str(self.const)] if self.const else [])
        return f"ViewSpec({self.type}, element {' + '.join(terms) or '0'})"

    @staticmethod
    def of_map(layout: AffineMap, mtype: MemRefType, op: Operation) -> ViewSpec:
        try:
            coeffs, const = affine.linear_form(layout.results[0], layout.num_dims, 0)
        except NonLinearError:
            raise UnsupportedOpError("layout_map must be linear (no mod/floordiv) for the "
                                     "emulator", op=op) from None
        return ViewSpec(tuple(coeffs), const, mtype, op)

    def compose(self, offsets: tuple[int, ...], strides: tuple[int, ...], mtype: MemRefType,
                op: Operation) -> ViewSpec:
        """The spec of a static subview: idx -> self(offsets + idx * strides)."""
        c = tuple(a * s for a, s in zip(self.coeffs, strides, strict=True))
        k = self.const + sum(a * o for a, o in zip(self.coeffs, offsets, strict=True))
        return ViewSpec(c, k, mtype, op)


# A memref at run time: (memory instance, start element address, ViewSpec).
View = tuple


class AddrForm:
    """`base -> k + sum(coeffs[d] * base[d])`, defined when every `lo <= base[d] <= hi` of
    `bounds` (dim, lo, hi) holds: lane 0's element address relative to the view's start."""

    __slots__ = ("bounds", "coeffs", "k")

    def __init__(self, k: int, coeffs: tuple[int, ...], bounds: tuple[tuple[int, int, int], ...]):
        self.k, self.coeffs, self.bounds = k, coeffs, bounds

    def src(self, names: list[str]) -> tuple[str, str]:
        """(condition, address) as Python source over the base coordinates `names`."""
        cond = " and ".join(f"{lo} <= {names[d]} <= {hi}" for d, lo, hi in self.bounds)
        terms = [names[d] if c == 1 else f"{c} * {names[d]}"
                 for d, c in enumerate(self.coeffs) if c]
        return cond or "True", " + ".join(([str(self.k)] if self.k else []) + terms) or "0"

    def at(self, base: tuple[int, ...]) -> int | None:
        if not all(lo <= base[d] <= hi for d, lo, hi in self.bounds):
            return None
        return self.k + sum(c * b for c, b in zip(self.coeffs, base, strict=True))

    def compile(self) -> object:
        names = [f"b{d}" for d in range(len(self.coeffs))]
        cond, expr = self.src(names)
        unpack = f"    {', '.join(names)}, = b\n" if names else ""
        src = f"def f(b):\n{unpack}    if not ({cond}):\n        return None\n    return {expr}\n"
        ns: dict = {}
        exec(compile(src, "<emulator-address>", "exec"), ns)
        return ns["f"]


class Plan:
    """How one access reads/writes through one view spec: `addr(base)` is the address of
    lane 0 relative to the view's start (None when the points leave the view's shape; `form`
    says how it is computed), lanes sit at `offsets` from it, and the touched elements span
    [lo, hi) around it. `runs` are the bytes touched within that span, as sorted disjoint
    (start, end) byte offsets from its first byte; None when the access touches all of it
    (the race checker compares exact bytes, races.py)."""

    __slots__ = ("addr", "compute", "contiguous", "dec", "enc", "form", "hi", "isz", "lo", "n",
                 "nbytes", "offsets", "runs", "shape", "storage")

    def __init__(self, form: AddrForm, offsets: np.ndarray, lo: int, hi: int, contiguous: bool,
                 n: int, spec: ViewSpec):
        self.form, self.addr = form, form.compile()
        self.offsets, self.lo, self.hi = offsets, lo, hi
        self.contiguous, self.n = contiguous, n
        self.isz, self.storage, self.shape = spec.isz, spec.storage, spec.shape
        self.dec, self.enc = spec.et.decode, spec.et.encode
        self.compute = spec.et.compute  # the dtype of the lanes in registers
        self.nbytes = n * spec.isz
        self.runs = byte_runs(offsets - lo, hi - lo, spec.isz)

    def __repr__(self) -> str:
        how = "contiguous" if self.contiguous else "gathered"
        return (f"Plan({self.n} lanes {how} of {self.storage} in a view of shape "
                f"{self.shape}, elements [{self.lo}, {self.hi}) from lane 0)")


def byte_runs(elements: np.ndarray, span: int, isz: int) -> tuple[tuple[int, int], ...] | None:
    """The bytes of elements `elements` (offsets in [0, span)) as sorted, disjoint,
    non-adjacent (start, end) byte runs; None when they fill the span."""
    e = np.unique(elements)
    if len(e) == span:
        return None
    cut = np.flatnonzero(np.diff(e) != 1) + 1
    starts, ends = e[np.r_[0, cut]], e[np.r_[cut - 1, len(e) - 1]] + 1
    return intern_runs(tuple((int(a) * isz, int(b) * isz) for a, b in zip(starts, ends,
                                                                        strict=True)))


_RUNS: dict[tuple, tuple] = {}


def intern_runs(runs: tuple) -> tuple:
    """One object per distinct pattern, so that generated code compares patterns by `is`."""
    return _RUNS.setdefault(runs, runs)


class Access:
    """Points B + p (p in `aset`) of a rank-`rank` memref, in lexicographic order of
    `order(p)`: one lane each."""

    def __init__(self, aset: AffineSet | None, order: AffineMap | None, rank: int,
                 op: Operation, count: int | None = None):
        self.op = op
        if aset is None:
            assert count is not None
            pts = np.arange(count, dtype=np.int64)[:, None]
        else:
            if aset.num_symbols:
                raise UnsupportedOpError("access sets with symbols are not supported", op=op)
            try:
                pts, _, _ = affine.enumerate_points(aset, order)
            except affine.UnboundedSetError as e:
                raise UnsupportedOpError(str(e), op=op) from None
        arr = np.asarray(pts, dtype=np.int64)
        # a 0-d memref has one point of no coordinates: (1, 0), which -1 cannot infer
        self.points = arr.reshape(-1, rank) if rank else arr.reshape(len(arr), 0)
        self.n = len(self.points)
        self.rank = rank
        self.pmin = self.points.min(axis=0) if self.n else np.zeros(rank, np.int64)
        self.pmax = self.points.max(axis=0) if self.n else np.zeros(rank, np.int64)
        self.plans: dict[ViewSpec, Plan] = {}

    def __repr__(self) -> str:
        return f"Access({self.n} points of rank {self.rank}, of '{self.op.name}')"

    @staticmethod
    def single(rank: int, op: Operation) -> Access:
        """One element at the base coordinate (scalar memref.load/store)."""
        acc = Access(None, None, 1, op, count=1)
        acc.points = np.zeros((1, rank), dtype=np.int64)
        acc.rank, acc.pmin, acc.pmax = rank, np.zeros(rank, np.int64), np.zeros(rank, np.int64)
        return acc

    def plan(self, spec: ViewSpec) -> Plan:
        p = self.plans.get(spec)
        if p is None:
            p = self.plans[spec] = self._plan(spec)
        return p

    def _plan(self, spec: ViewSpec) -> Plan:
        if len(spec.coeffs) != self.rank:
            raise UnsupportedOpError(f"the access has rank {self.rank} but the view has rank "
                                     f"{len(spec.coeffs)}", op=self.op)
        off = (self.points @ np.asarray(spec.coeffs, dtype=np.int64)) if self.n else \
            np.zeros(0, np.int64)
        first = int(off[0]) if self.n else 0
        contiguous = bool(self.n) and bool(np.array_equal(off, first + np.arange(self.n)))
        lo = int(off.min()) if self.n else 0
        hi = int(off.max()) + 1 if self.n else 0
        return Plan(addr_form(spec, self), off - first, lo - first, hi - first,
                    contiguous, self.n, spec)


def addr_form(spec: ViewSpec, acc: Access) -> AddrForm:
    """How lane 0's start-relative address follows from the base B; undefined when B + p
    leaves the view's shape for some point p (dims with unknown extent are not checked)."""
    bounds = []
    for d in range(acc.rank):
        ext = spec.shape[d] if d < len(spec.shape) else -1
        if ext >= 0:
            bounds.append((d, -int(acc.pmin[d]), ext - 1 - int(acc.pmax[d])))
    first = (acc.points[0] if acc.n else np.zeros(acc.rank, np.int64))
    k = spec.const + int(sum(int(c) * int(p) for c, p in zip(spec.coeffs, first, strict=True)))
    return AddrForm(k, tuple(int(c) for c in spec.coeffs), tuple(bounds))
