"""The machine: unit and memory instances, link instances, FIFOs and signals, all built from
the device model (arch_descriptions.model) and nothing else (shared/spec/dataflow-ir.md §7 E3,
E5, E7, E8).

Instances are named as the compiler names them: `C<core>-<KIND>` per core, `C<core>-<KIND>-CL<k>`
per corelet, the global memory by its kind. `dataflow.get_unit` names are matched
case-insensitively; a corelet-level kind named without `-CL<k>` is corelet 0. Memories are byte
stores of the description's `size`, allocated lazily (only the touched prefix exists). FIFOs
exist per ordered unit pair joined by a datapath instance and take its queue depth/size,
latency and bandwidth; signals exist per ordered pair. A memory with its own bandwidth
(`ktdf_arch.bytes_per_cycle` on the memory) has a `Port` that every transfer to or from the
instance shares (shared/spec/arch.md §8).
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from collections import deque
from typing import TYPE_CHECKING

import numpy as np

from arch_descriptions.model import Datapath, Device
from emulator.errors import CapacityError, OutOfBoundsError, WiringError
from ktir.limits import over

if TYPE_CHECKING:
    from emulator.runtime import Process

_CORE = re.compile(r"^c(\d+)-(.+?)(?:-cl(\d+))?$", re.IGNORECASE)
_GROW = 1 << 16
_PRUNE_AT = 256  # busy intervals a Port keeps before it forgets those in the past


class Port:
    """The bandwidth of one memory instance, shared by every transfer that reads or writes it.

    A calendar of the cycles the memory is busy (disjoint intervals, sorted): a transfer of n
    bytes from cycle s takes n / bytes_per_cycle cycles of it, the earliest free ones from s
    on, split over gaps if need be, and finishes when it has them all. So concurrent streams
    share the bandwidth (32 cores streaming get 1/32 each over time) and the total never
    exceeds it, whatever order the engine runs the processes in: a transfer issued later in
    the run but earlier in simulated time fills the gaps the others left. Intervals that end
    before every clock a transfer can still start at no longer matter and are dropped when the
    calendar grows (`prune`): that is the earliest clock of the runnable processes (`clocks`,
    the engine's heap; a parked process resumes no earlier than the one that wakes it) and of
    the transfer being placed (its process's clock only grows)."""

    __slots__ = ("bpc", "clocks", "ends", "name", "nbytes", "starts")

    def __init__(self, name: str, bytes_per_cycle: int):
        self.name = name
        self.bpc = float(bytes_per_cycle)
        self.starts: list[float] = []
        self.ends: list[float] = []
        self.nbytes = 0
        self.clocks: list[float] | None = None  # the engine's heap of runnable clocks

    @property
    def busy(self) -> float:
        """Cycles taken, in total."""
        return self.nbytes / self.bpc

    def take(self, s: float, nbytes: int | float) -> float:
        """Take the time `nbytes` need from cycle `s` on; the cycle they are all through."""
        self.nbytes += nbytes
        d = nbytes / self.bpc
        ends = self.ends
        if ends:
            last = ends[-1]
            if s >= last - 1e-9:  # after everything taken so far: the common case
                if s <= last + 1e-9:
                    ends[-1] = last = last + d
                    return last
                if len(ends) > _PRUNE_AT:
                    self._forget(s)
                self.starts.append(s)
                ends.append(s + d)
                return s + d
        else:
            self.starts.append(s)
            ends.append(s + d)
            return s + d
        if len(ends) > _PRUNE_AT:
            self._forget(s)
        starts = self.starts
        i = bisect_right(ends, s)  # the first interval that ends after s
        t = s
        while True:
            if i < len(starts) and starts[i] <= t:  # inside a busy interval: skip it
                t = ends[i]
                i += 1
                continue
            if i == len(starts):  # after the last interval
                if i and ends[i - 1] == t:
                    ends[i - 1] = t + d
                else:
                    starts.append(t)
                    ends.append(t + d)
                return t + d
            gap = starts[i] - t
            if d < gap:  # fits before interval i
                if i and ends[i - 1] == t:
                    ends[i - 1] = t + d
                else:
                    starts.insert(i, t)
                    ends.insert(i, t + d)
                return t + d
            through = starts[i]  # fill the gap: it joins interval i (and i - 1, if adjacent)
            if i and ends[i - 1] == t:
                ends[i - 1] = ends[i]
                del starts[i], ends[i]
                i -= 1
            else:
                starts[i] = t
            d -= gap
            if d <= 1e-9:
                return through
            t = ends[i]
            i += 1

    def _forget(self, s: float) -> None:
        clocks = self.clocks
        if clocks is not None:
            self.prune(min(s, clocks[0]) if clocks else s)

    def prune(self, t: float) -> None:
        """Forget the intervals that end by cycle `t` (no transfer starts before it)."""
        k = bisect_right(self.ends, t)
        if k:
            del self.starts[:k], self.ends[:k]


class Mem:
    """One memory instance: `size` bytes, the touched prefix held in a numpy byte buffer, and
    its `port` when the memory has its own bandwidth."""

    __slots__ = ("buf", "depth", "kind", "latency", "limit", "mv", "name", "port", "size",
                 "views")

    def __init__(self, name: str, kind: str, size: int | None, latency: int, depth: int,
                 port: Port | None = None):
        self.name, self.kind, self.size, self.latency, self.depth = name, kind, size, latency, depth
        self.port = port
        self.buf = np.zeros(0, dtype=np.uint8)
        self.views: dict[np.dtype, np.ndarray] = {}
        self.limit = 0  # bytes [0, limit) are allocated and inside the memory
        self.mv = memoryview(self.buf)

    def check(self, lo: int, hi: int) -> None:
        """Bytes [lo, hi) must lie in [0, size); grows the buffer to hold them."""
        if lo < 0 or (self.size is not None and hi > self.size):
            what = f"bytes [{lo}, {hi}) of {self.name}"
            if self.size is not None:
                what += f" ({self.size} bytes)"
            if self.depth >= 1 and lo >= 0:
                raise CapacityError(f"scratchpad overflow: access to {what}")
            raise OutOfBoundsError(f"out of bounds: access to {what}")
        if hi > len(self.buf):
            self._grow(hi)

    def _grow(self, hi: int) -> None:
        if (msg := over("buffer_bytes", hi, f"memory {self.name}")) is not None:
            raise CapacityError(msg)
        cap = max(hi, 2 * len(self.buf))
        cap = -(-cap // _GROW) * _GROW
        new = np.zeros(cap, dtype=np.uint8)
        new[: len(self.buf)] = self.buf
        self.buf = new
        self.mv = memoryview(new)
        self.views = {}
        self.limit = cap if self.size is None else min(cap, self.size)

    def typed(self, dtype: np.dtype) -> np.ndarray:
        v = self.views.get(dtype)
        if v is None:
            v = self.views[dtype] = self.buf.view(dtype)
        return v

    def write_bytes(self, byte_addr: int, data: bytes | np.ndarray) -> None:
        raw = np.frombuffer(bytes(data), dtype=np.uint8) if isinstance(data, bytes) else \
            np.ascontiguousarray(data).view(np.uint8).reshape(-1)
        self.check(byte_addr, byte_addr + raw.size)
        self.buf[byte_addr: byte_addr + raw.size] = raw

    def read_bytes(self, byte_addr: int, n: int) -> np.ndarray:
        self.check(byte_addr, byte_addr + n)
        return self.buf[byte_addr: byte_addr + n].copy()


class Handle:
    """A unit handle (`dataflow.get_unit`): an exec unit or a memory instance. Handles only
    compare (identity), key maps and feed ops."""

    __slots__ = ("core", "corelet", "index", "kind", "mem", "name", "unit")

    def __init__(self, name: str, kind: str, core: int | None, corelet: int | None,
                 mem: Mem | None, unit: object, index: int):
        self.name, self.kind, self.core, self.corelet = name, kind, core, corelet
        self.mem, self.unit, self.index = mem, unit, index

    def __repr__(self) -> str:
        return self.name


class LinkInst:
    """One datapath instance; transfers reserve it first-come first-served (E13)."""

    __slots__ = ("bpc", "busy", "dp", "dst", "lat", "name", "nbytes", "src")

    def __init__(self, src: str, dst: str, dp: Datapath):
        self.dp, self.src, self.dst, self.name = dp, src, dst, f"{src}->{dst}"
        self.bpc, self.lat = float(dp.bytes_per_cycle), float(dp.latency)
        self.busy = 0.0
        self.nbytes = 0


class Channel:
    """The FIFO from one unit to another (E7): `depth` messages and at most `size` bytes in
    flight (`inflight`, counted only when there is a `size`); a message is (vector, arrival
    cycle, type key, bytes), and when races are checked also the sender's ordering token
    (races.py). It is full when it holds `depth` messages or a message of n
    bytes would pass `size` (codegen_inline.send)."""

    __slots__ = ("depth", "dst", "inflight", "link", "npush", "pops", "q", "rw", "size", "src",
                 "sw")

    def __init__(self, src: Handle, dst: Handle, link: LinkInst):
        self.src, self.dst, self.link = src, dst, link
        self.depth = link.dp.queue_depth
        self.size = link.dp.queue_size
        self.q: deque = deque()
        self.pops: deque[float] = deque()
        self.npush = 0
        self.inflight = 0
        self.rw: Process | None = None
        self.sw: Process | None = None

    def state(self) -> str:
        extra = f", {self.inflight}/{self.size} bytes" if self.size is not None else ""
        return f"FIFO {self.src.name} -> {self.dst.name} holds {len(self.q)}/{self.depth}{extra}"


class Signal:
    """The counting semaphore from one unit to another (E8): one arrival cycle per pending
    signal (and, when races are checked, the sender's ordering token)."""

    __slots__ = ("clocks", "dst", "src", "times", "waiter")

    def __init__(self, src: Handle, dst: Handle):
        self.src, self.dst = src, dst
        self.times: deque[float] = deque()
        self.clocks: deque[tuple] = deque()
        self.waiter: Process | None = None

    def state(self) -> str:
        return f"signal {self.src.name} -> {self.dst.name} count {len(self.times)}"


class Machine:
    """Instances of a device for a number of cores, created on first use."""

    def __init__(self, device: Device, cores: int):
        self.device = device
        self.cores = cores
        self.corelets = device.corelets_per_core
        self.kinds = {k.lower(): k for k in (*device.memories, *device.units)}
        self.handles: dict[str, Handle] = {}
        self.mems: dict[str, Mem] = {}
        n = None if device.max_cores is not None else cores
        self.links: dict[tuple[str, str], LinkInst] = {
            (lk.src.lower(), lk.dst.lower()): LinkInst(lk.src, lk.dst, lk.datapath)
            for lk in device.links(n)}
        self.channels: dict[tuple[Handle, Handle], Channel] = {}
        self.signals: dict[tuple[Handle, Handle], Signal] = {}
        self.ports: list[Port] = []  # of the memory instances with their own bandwidth
        self._routes: dict[tuple[str, str, bool], list[LinkInst]] = {}
        self.warnings: list[str] = []

    # ---- names ---------------------------------------------------------------------------

    def kind(self, name: str) -> str:
        k = self.kinds.get(name.lower())
        if k is None:
            have = ", ".join(sorted(self.kinds.values()))
            raise WiringError(f"device @{self.device.name} has no unit or memory of kind "
                              f"'{name}' (kinds: {have})")
        return k

    def _corelet_level(self, kind: str) -> bool:
        dev = self.device
        if kind in dev.units:
            return dev.units[kind].is_corelet
        m = dev.memories[kind]
        return m.depth >= 2 and self.corelets > 1 and m.per_core == self.corelets

    def instance_name(self, kind: str, core: int | None, corelet: int | None) -> str:
        dev = self.device
        model = dev.memories.get(kind) or dev.units.get(kind)
        if model is None or model.per_core == 0:
            return kind
        if core is None:
            raise WiringError(f"'{kind}' exists per core: name a core")
        if not 0 <= core < self.cores:
            raise WiringError(f"core {core} does not exist: the kernel runs on {self.cores} "
                              f"core(s) of device @{dev.name}")
        if not self._corelet_level(kind):
            if corelet not in (None, 0):
                raise WiringError(f"'{kind}' is one per core; it has no corelet {corelet}")
            return f"C{core}-{kind}"
        cl = 0 if corelet is None else corelet
        if not 0 <= cl < self.corelets:
            raise WiringError(f"corelet {cl} does not exist ({self.corelets} per core on "
                              f"device @{dev.name})")
        return f"C{core}-{kind}-CL{cl}"

    def handle(self, name: str, kind_name: str, core: int | None = None,
               corelet: int | None = None) -> Handle:
        """The instance a `get_unit` names (E3): kind must exist, indices must exist, the
        name must agree with kind and indices."""
        kind = self.kind(kind_name)
        m = _CORE.match(name)
        if m is not None:
            core = int(m.group(1)) if core is None else core
            corelet = int(m.group(3)) if corelet is None and m.group(3) else corelet
        canon = self.instance_name(kind, core, corelet)
        given = name.lower()
        if given not in (canon.lower(), canon.lower().removesuffix("-cl0")):
            raise WiringError(f"unit name '{name}' does not match its type '{kind_name}'"
                              f"{'' if core is None else f' on core {core}'} (expected "
                              f"'{canon}')")
        return self.lookup(canon, kind, core, corelet)

    def lookup(self, canon: str, kind: str, core: int | None, corelet: int | None) -> Handle:
        h = self.handles.get(canon.lower())
        if h is not None:
            return h
        dev = self.device
        mem = None
        if kind in dev.memories:
            mm = dev.memories[kind]
            port = None
            if mm.bytes_per_cycle is not None:
                port = Port(canon, mm.bytes_per_cycle)
                self.ports.append(port)
            mem = self.mems[canon.lower()] = Mem(canon, kind, mm.size, mm.latency, mm.depth,
                                                 port)
        h = Handle(canon, kind, core, corelet if kind in dev.units or mem else None, mem,
                   dev.units.get(kind), len(self.handles))
        self.handles[canon.lower()] = h
        return h

    def memory(self, key: str) -> Mem:
        """A memory by `KIND` (the global memory), `KIND@<core>`, `KIND@<instance>` or an
        instance name ("C3-L1")."""
        kind_part, _, where = key.partition("@")
        if not where and kind_part.lower() in self.mems:
            return self.mems[kind_part.lower()]
        m = _CORE.match(kind_part)
        if not where and m is not None:
            kind = self.kind(m.group(2))
            core, cl = int(m.group(1)), int(m.group(3)) if m.group(3) else None
            return self._mem_of(self.instance_name(kind, core, cl), kind, core, cl)
        kind = self.kind(kind_part)
        if kind not in self.device.memories:
            raise WiringError(f"'{kind}' is an execution unit, not a memory")
        if not where:
            return self._mem_of(self.instance_name(kind, None, None), kind, None, None)
        if where.isdigit():
            return self._mem_of(self.instance_name(kind, int(where), None), kind, int(where),
                                None)
        mm = _CORE.match(where)
        if mm is None:
            raise WiringError(f"memory key '{key}': expected KIND, KIND@<core> or "
                              "KIND@C<core>-<KIND>[-CL<k>]")
        core, cl = int(mm.group(1)), int(mm.group(3)) if mm.group(3) else None
        return self._mem_of(self.instance_name(kind, core, cl), kind, core, cl)

    def memories_of_kind(self, kind: str) -> list[Mem]:
        """Every instance of a memory kind (for a per-core kind: one per core)."""
        mm = self.device.memories[kind]
        if mm.per_core == 0:
            return [self.memory(kind)]
        out = []
        for c in range(self.cores):
            for k in range(self.corelets if self._corelet_level(kind) else 1):
                name = self.instance_name(kind, c, k if self._corelet_level(kind) else None)
                out.append(self._mem_of(name, kind, c, k))
        return out

    def _mem_of(self, canon: str, kind: str, core: int | None, cl: int | None) -> Mem:
        h = self.lookup(canon, kind, core, cl)
        assert h.mem is not None
        return h.mem

    # ---- wiring --------------------------------------------------------------------------

    def link(self, src: str, dst: str) -> LinkInst | None:
        return self.links.get((src.lower(), dst.lower()))

    def channel(self, src: Handle, dst: Handle) -> Channel:
        ch = self.channels.get((src, dst))
        if ch is not None:
            return ch
        if src is dst:
            raise WiringError(f"unit {src.name} may not send to itself")
        for h in (src, dst):
            if h.mem is not None:
                raise WiringError(f"{h.name} is a memory: FIFOs join execution units")
        lk = self.link(src.name, dst.name)
        if lk is None:
            raise WiringError(f"no datapath from {src.name} to {dst.name} on device "
                              f"@{self.device.name}: they cannot exchange vectors")
        if not lk.dp.ordered:
            self.warnings.append(f"the queue {src.name} -> {dst.name} is not declared "
                                 "'ordered'; the emulator delivers in order anyway (E7)")
        ch = self.channels[(src, dst)] = Channel(src, dst, lk)
        return ch

    def signal(self, src: Handle, dst: Handle) -> Signal:
        s = self.signals.get((src, dst))
        if s is None:
            if src is dst:
                raise WiringError(f"unit {src.name} may not signal itself")
            s = self.signals[(src, dst)] = Signal(src, dst)
        return s

    def route(self, mem: Handle, unit: Handle, to_unit: bool) -> list[LinkInst]:
        """Link instances from a memory to a unit (to_unit) or back, along the routing
        graph's shortest path; intermediate resources are the unit's own core/corelet. A
        memory of another core that this path does not reach (a neighbour's scratchpad) is
        reached over the shortest chain of link instances through other instances of the
        unit's own kind (the ring's stops): every transfer routed over a link instance
        shares it."""
        key = (mem.name, unit.name, to_unit)
        r = self._routes.get(key)
        if r is not None:
            return r
        a, b = (mem, unit) if to_unit else (unit, mem)
        kinds = (self.device.route(mem.kind, unit.kind) if to_unit
                 else self.device.route(unit.kind, mem.kind))
        if not kinds:
            raise WiringError(f"no route from {a.name} to {b.name} on device "
                              f"@{self.device.name}")
        names = [a.name]
        for k in kinds[1:-1]:
            names.append(self.instance_name(k, unit.core, unit.corelet)
                         if self.device.memories.get(k) or self.device.units.get(k) else k)
        names.append(b.name)
        r = [self.link(x, y) for x, y in itertools.pairwise(names)]
        if None in r:
            r = self._instance_route(a.name, b.name, unit.kind)
        if r is None:
            x, y = next(p for p, lk in zip(itertools.pairwise(names), r, strict=True)
                        if lk is None)  # the first missing link of the kind-level path
            raise WiringError(f"no datapath from {x} to {y} on device @{self.device.name}"
                              f" ({mem.name} is not reachable from {unit.name})")
        self._routes[key] = r
        return r

    def _instance_route(self, src: str, dst: str, via: str) -> list[LinkInst] | None:
        """The shortest chain of link instances from one instance to another whose stops
        are instances of the kind `via` or switch ports (BFS)."""
        succ: dict[str, list[LinkInst]] = {}
        for (a, b), lk in self.links.items():
            m = _CORE.match(b)
            stop = (m.group(2) if m else b).lower()
            if b == dst.lower() or stop == via.lower() or stop not in self.kinds:
                succ.setdefault(a, []).append(lk)
        prev: dict[str, LinkInst | None] = {src.lower(): None}
        todo = deque([src.lower()])
        while todo:
            cur = todo.popleft()
            if cur == dst.lower():
                out: list[LinkInst] = []
                while (lk := prev[cur]) is not None:
                    out.append(lk)
                    cur = lk.src.lower()
                return out[::-1]
            for lk in succ.get(cur, ()):
                if lk.dst.lower() not in prev:
                    prev[lk.dst.lower()] = lk
                    todo.append(lk.dst.lower())
        return None
