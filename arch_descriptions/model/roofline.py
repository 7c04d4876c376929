"""The bound on cycles a run is measured against (shared/spec/arch.md §8), from the description
and what a kernel must do, never from what a schedule happened to move.

A kernel's `Work` is its compulsory traffic (every input byte read once from the memory it
lives in, every output byte written once) and its element operations, on the cores its grid
uses. Each resource the work must pass turns its share into cycles: a memory with its own
`bytes_per_cycle` carries all of its traffic; the datapaths out of a memory (every instance on
the cores used, together) carry its reads, those into it its writes; the compute units of the
cores used carry the element operations at their lanes per cycle. A contraction's multiply-
accumulates (a matmul's M x N x K) are element operations of the SIMD lanes on a device without
a matrix engine; where the compute unit has one (`ktdf_arch.feature.matrix`) that takes the
contraction's input type, they leave the lanes' share and go to the engines of the cores used,
at their MACs per cycle: a separate resource, so the bound takes the larger of the two, not
their sum (a schedule may overlap the engine with the lanes). To each the bound adds the
round trip of the latency from the global memory to the compute unit and back, so that a
small kernel, which no schedule can stream, still gets a meaningful bound: the last byte read
must still make the trip, the first byte written must have made it, compute sits in its
middle (a kernel that reads nothing adds only the way back). A memory that carries reads and
writes overlaps the trip with the smaller of the two (its reads stream while the first data
travels, or its writes while the last does), so it adds the trip less that share: with more
than a trip's worth each way, none. The bound is the
largest of these; no schedule on the machine the description states can beat it (the tests
check that the emulator never does).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arch_descriptions.model.device import Device


@dataclass(frozen=True)
class Work:
    """What a kernel must do whatever its schedule."""

    reads: Mapping[str, int]          # memory kind -> compulsory bytes read
    writes: Mapping[str, int]         # memory kind -> bytes written
    element_ops: Mapping[str, int]    # element type ("f16") -> element operations
    cores: int                        # cores the kernel's grid uses
    # the multiply-accumulates of contractions among `element_ops`: (input element type,
    # the element_ops type they are counted under, MACs)
    contractions: tuple[tuple[str, str, int], ...] = ()


@dataclass(frozen=True)
class Resource:
    """A resource that bounds a run on a number of cores: a memory's own port, the datapaths
    out of (reads) or into (writes) a memory, or the compute units."""

    name: str                         # "DDR", "DDR -> MNILU", "SFU"
    kind: str                         # "memory", "datapath" or "compute"
    memory: str | None                # the memory whose traffic it carries (compute: None)
    carries: str                      # "reads", "writes", "reads + writes", "element ops",
                                      # "MACs" (a matrix engine)
    rate: float = 0.0                 # bytes per cycle (memory, datapath)
    lanes: Mapping[str, float] = field(default_factory=dict)  # compute: ops/cycle by type
    instances: int = 1                # datapath or unit instances it sums

    def describe_rate(self) -> str:
        n = self.instances
        if self.kind == "compute":
            per = ", ".join(f"{t}: {k:g}" for t, k in self.lanes.items()) or "1"
            what = "MACs" if self.carries == "MACs" else "element ops"
            return f"{per} {what}/cycle on {n} unit{'s' * (n != 1)}"
        if self.kind == "memory":
            return f"{self.rate:g} B/cycle, shared by every transfer"
        return f"{self.rate:g} B/cycle over {n} link{'s' * (n != 1)}"


@dataclass(frozen=True)
class Term:
    """One resource's share of a kernel's work, in cycles, and the part of the round trip
    that cannot overlap it."""

    resource: Resource
    amount: float                     # bytes, or element operations
    cycles: float                     # the resource busy with it
    latency: float = 0.0              # of the round trip, what adds to it

    @property
    def total(self) -> float:
        return self.cycles + self.latency

    def describe(self, trip: int) -> str:
        r = self.resource
        if r.kind == "compute":
            head = (f"{r.name}: {self.amount:.0f} {r.carries} / ({r.describe_rate()}) = "
                    f"{self.cycles:.0f} cycles")
        else:
            head = (f"{r.name}: {self.amount:.0f} B {r.carries} / {r.rate:g} B/cycle = "
                    f"{self.cycles:.0f} cycles")
        if self.latency == trip:
            return f"{head} + round trip {trip}"
        return f"{head} + {self.latency:.0f} of the {trip}-cycle round trip (the rest overlaps)"


@dataclass(frozen=True)
class Roofline:
    """The bound: the largest term plus one round trip of the latency."""

    terms: tuple[Term, ...]
    latency: int                      # one round trip, global memory -> compute -> back
    route: tuple[str, ...]            # the round trip's resources

    @property
    def binding(self) -> Term | None:
        """The term that sets the bound (None: the kernel does no work)."""
        return max(self.terms, key=lambda t: t.total, default=None)

    @property
    def cycles(self) -> int:
        top = self.binding
        return math.ceil((top.total if top else self.latency) - 1e-9)

    @property
    def bound(self) -> str:
        """What bounds the run: "memory" (a memory or its datapaths), "compute", or
        "latency" (no work)."""
        top = self.binding
        if top is None or top.cycles == 0:
            return "latency"
        return "compute" if top.resource.kind == "compute" else "memory"

    @property
    def binding_resource(self) -> str:
        top = self.binding
        return top.resource.name if top is not None and top.cycles > 0 else "latency"

    def describe(self) -> str:
        """"DDR: 36864 B reads + writes / 128 B/cycle = 288 cycles + 124 of the 220-cycle
        round trip (the rest overlaps) = 412 cycles"."""
        top = self.binding
        if top is None or top.cycles == 0:
            return f"no work: round trip {self.latency} cycles"
        return f"{top.describe(self.latency)} = {self.cycles} cycles"


def _instances(per_core: int, shared: int, cores: int) -> int:
    return per_core * cores + shared


def _name(ends: list[str], memory: str, out: bool) -> str:
    others = ", ".join(sorted(set(ends)))
    others = others if len(set(ends)) == 1 else "{" + others + "}"
    return f"{memory} -> {others}" if out else f"{others} -> {memory}"


def resources(device: Device, cores: int) -> list[Resource]:
    """Every resource the bound charges, for `cores` cores (capped at the cores the device
    writes out): memory ports, datapaths per memory and direction, compute units."""
    if device.max_cores is not None:
        cores = min(cores, device.max_cores)
    out: list[Resource] = []
    for mem in device.memories.values():
        if mem.bytes_per_cycle is not None:
            out.append(Resource(mem.kind, "memory", mem.kind, "reads + writes",
                                rate=float(mem.bytes_per_cycle),
                                instances=_instances(mem.per_core, mem.shared, cores)))
        for direction, links in (("reads", [d for d in device.datapaths if d.src == mem.kind]),
                                 ("writes", [d for d in device.datapaths
                                             if d.dst == mem.kind])):
            n = [_instances(d.per_core, d.shared, cores) for d in links]
            if not links or not sum(n):
                continue
            ends = [d.dst if direction == "reads" else d.src for d in links]
            out.append(Resource(_name(ends, mem.kind, direction == "reads"), "datapath",
                                mem.kind, direction,
                                rate=float(sum(d.bytes_per_cycle * k
                                               for d, k in zip(links, n, strict=True))),
                                instances=sum(n)))
    units = [u for u in device.units.values() if u.is_compute]
    for u in units:
        k = _instances(u.per_core, u.shared, cores)
        out.append(Resource(u.kind, "compute", None, "element ops",
                            lanes={t: float(n * k) for t, n in u.lanes_per_cycle.items()},
                            instances=k))
        if u.matrix is not None:
            out.append(Resource(f"{u.kind} matrix", "compute", None, "MACs",
                                lanes={t: float(u.matrix.macs_per_cycle * k)
                                       for t in u.matrix.inputs}, instances=k))
    return out


def round_trip(device: Device) -> tuple[int, tuple[str, ...]]:
    """Latency of one round trip from the global memory to the compute unit and back: the
    datapaths' latencies plus each memory's access latency where the trip touches it."""
    g, c = device.global_memory_kind, device.compute_kind
    there, back = device.route(g, c), device.route(c, g)
    return _latency(device, there) + _latency(device, back), tuple(there + back[1:])


def _latency(device: Device, path: list[str]) -> int:
    total = sum(dp.latency for a, b in itertools.pairwise(path)
                if (dp := device.datapath(a, b)) is not None)
    return total + sum(device.memories[k].latency for k in path if k in device.memories)


def roofline(device: Device, work: Work) -> Roofline:
    """The bound of `work` on `device` (see the module docstring)."""
    latency, route = round_trip(device)
    # a kernel that reads nothing (it writes what it computes from constants) has no data
    # to wait for: only the way back from the compute unit cannot overlap its work
    trip = latency if any(work.reads.values()) else _latency(
        device, device.route(device.compute_kind, device.global_memory_kind))
    terms: list[Term] = []
    engine = device.matrix_engine
    on_engine = [(t_in, t, n) for t_in, t, n in work.contractions
                 if engine is not None and engine.accepts(t_in)]
    simd_ops = dict(work.element_ops)
    for _, t, n in on_engine:  # the engine's MACs leave the lanes' share
        simd_ops[t] = max(0, simd_ops.get(t, 0) - n)
    for r in resources(device, work.cores):
        if r.kind == "compute" and r.carries == "MACs":
            if on_engine:
                macs = sum(n for *_, n in on_engine)
                per = max(r.lanes.values(), default=1.0)
                terms.append(Term(r, float(macs), macs / per, trip))
            continue
        if r.kind == "compute":
            fastest = max(r.lanes.values(), default=1.0) or 1.0
            cycles = sum(n / (r.lanes.get(t) or fastest) for t, n in simd_ops.items())
            terms.append(Term(r, float(sum(simd_ops.values())), cycles, trip))
            continue
        assert r.memory is not None
        reads, writes = work.reads.get(r.memory, 0), work.writes.get(r.memory, 0)
        if r.carries == "reads + writes" and reads + writes:
            overlap = min(reads, writes) / r.rate
            terms.append(Term(r, float(reads + writes), (reads + writes) / r.rate,
                              max(0.0, trip - overlap)))
        elif (moved := reads if r.carries == "reads" else writes):
            terms.append(Term(r, float(moved), moved / r.rate, trip))
    return Roofline(tuple(terms), latency, route)
