"""One process per (program_unit, unit) and the helpers its generated code calls
(shared/spec/dataflow-ir.md §7 E4-E9, E13).

Each process keeps its own clock `t` (cycles, float), advanced by the timing model: a vector
op costs its class interval and its result is ready after the class latency; a send holds the
sender for bytes/bandwidth and reaches the receiver after the link latency; a full FIFO holds
the sender until the slot it needs was freed by a receive; a vector access or DMA reserves
every link instance on its route first-come first-served; an asynchronous DMA returns at once
and completes in issue order; `sync_send` arrives after the device's signal latency. The
per-event work (FIFOs, signals, vector ops, accesses and one-step DMAs through views whose
layout is known when compiling) is written inline into the generated programs
(codegen_inline.py), which keep the clock and counters in locals and write them back here;
the helpers below do the rest: accesses through views known only at run time, multi-step
DMAs, scalar loads and stores, opaque ops, and the cold paths (routes, faults).
Blocking (empty FIFO, full FIFO, no signal) is not a helper's business: the generated code
checks the condition and yields to the engine (engine.py), which resumes the process when the
channel or signal changes. Functional effects happen at issue: DMA data is copied when the
transfer is issued, which a race-free program cannot observe (E9, E14).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from emulator.access import Access, Plan, View
from emulator.errors import (
    ChannelTypeError,
    CycleLimitError,
    OutOfBoundsError,
    RuntimeFault,
    UnboundSymbolError,
)
from emulator.machine import Channel, Handle, LinkInst, Machine, Mem, Signal
from emulator.races import close

if TYPE_CHECKING:
    from emulator.engine import Engine

# (links, latency, lowest bytes per cycle) of a memory route
Route = tuple[list[LinkInst], float, float]


class Process:
    """The state of one unit running one program."""

    __slots__ = ("busy", "dmadone", "done", "end", "epoch", "gen", "iters", "known",
                 "limit", "m", "name", "nev", "open", "pend", "program", "rc", "resume", "rin",
                 "rlog", "rout", "routes", "rx_", "si_", "sites", "sl", "so_", "st_data",
                 "st_dma", "st_link", "st_recv", "st_send", "st_signal", "start", "t", "trace",
                 "tx_", "unit", "vid", "waiting", "wake")

    def __init__(self, eng: Engine, unit: Handle, program: object, start: float):
        self.wake = eng.wake
        self.m: Machine = eng.machine
        self.unit = unit
        self.name = unit.name
        self.program = program
        self.t = start
        self.start = start
        self.pend = start          # completion of outstanding async DMAs and stores
        self.dmadone = start       # completion of the last async DMA (in-order completion)
        self.busy = 0.0
        self.st_recv = self.st_send = self.st_signal = self.st_dma = 0.0
        self.st_data = self.st_link = 0.0
        self.sl = eng.signal_latency
        self.nev = 0
        self.sites = [0] * eng.nsites
        self.iters = 0
        self.limit = eng.cycle_limit
        self.trace: list | None = [] if eng.trace else None
        self.rc = eng.races
        self.rx_: dict[Handle, Channel] = {}
        self.tx_: dict[Handle, Channel] = {}
        self.si_: dict[Handle, Signal] = {}
        self.so_: dict[Handle, Signal] = {}
        self.rin: dict[Mem, Route] = {}     # routes memory -> this unit,
        self.rout: dict[Mem, Route] = {}    # this unit -> memory,
        self.routes: dict[tuple[Mem, Mem], Route] = {}  # and memory -> this unit -> memory
        self.gen = None
        self.resume = None  # gen.send
        self.waiting: tuple | None = None
        self.done = False
        self.end = start
        # race checker (races.py): index, signals sent so far, the highest epoch known of
        # each unit, every signal token received, and the records of DMAs in flight
        self.vid = self.epoch = 0
        self.known: list[int] = []
        self.rlog: list[tuple[int, int, int]] = []
        self.open: list[list] = []

    def __repr__(self) -> str:
        return f"<process {self.name}>"

    @property
    def stall(self) -> dict[str, float]:
        """Cycles stalled by cause (see results.UnitStats)."""
        return {"recv": self.st_recv, "send": self.st_send, "signal": self.st_signal,
                "dma": self.st_dma, "data": self.st_data, "link": self.st_link}

    # ---- channels and signals -------------------------------------------------------------

    def rx(self, peer: Handle) -> Channel:
        c = self.rx_.get(peer)
        if c is None:
            c = self.rx_[_handle(peer, "receive from")] = self.m.channel(peer, self.unit)
        return c

    def tx(self, peer: Handle) -> Channel:
        c = self.tx_.get(peer)
        if c is None:
            c = self.tx_[_handle(peer, "send to")] = self.m.channel(self.unit, peer)
        return c

    def si(self, peer: Handle) -> Signal:
        s = self.si_.get(peer)
        if s is None:
            s = self.si_[_handle(peer, "wait for a signal from")] = self.m.signal(peer,
                                                                                 self.unit)
        return s

    def so(self, peer: Handle) -> Signal:
        s = self.so_.get(peer)
        if s is None:
            s = self.so_[_handle(peer, "signal")] = self.m.signal(self.unit, peer)
        return s

    def mismatch(self, c: Channel, tkey: str, sent: str) -> None:
        raise ChannelTypeError(f"received {tkey} from {c.src.name}, but it sent {sent}")

    # ---- compute ---------------------------------------------------------------------------

    def vop(self, ready: float, cost: tuple[float, float, str, int]) -> float:
        lat, ivl, name, site = cost
        self.sites[site] += 1
        s = self.t
        if ready > s:
            self.st_data += ready - s
            s = ready
        self.t = t = s + ivl
        self.busy += ivl
        self.nev += 1
        if self.trace is not None:
            self.trace.append((name, s, ivl, None))
        if t > self.limit:
            self._limit()
        return s + lat

    def loop(self, trips: int) -> None:
        """Guard against loops that never advance time: iterations count against the limit."""
        self.iters += trips
        if self.iters > self.limit:
            raise CycleLimitError(f"more than {int(self.limit)} loop iterations (cycle_limit "
                                  "also bounds iterations, so a loop without timed ops cannot "
                                  "spin forever)")

    def _limit(self) -> None:
        raise CycleLimitError(f"the run passed the cycle limit of {int(self.limit)} cycles")

    # ---- memories --------------------------------------------------------------------------

    def _route(self, mem: Mem, to_unit: bool) -> Route:
        """(links, latency incl. the memory's, lowest bandwidth) between a memory and this
        unit."""
        table = self.rin if to_unit else self.rout
        r = table.get(mem)
        if r is None:
            mh = self.m.handles[mem.name.lower()]
            links = self.m.route(mh, self.unit, to_unit)
            r = table[mem] = (links, sum(lk.lat for lk in links) + mem.latency,
                              min(lk.bpc for lk in links))
        return r

    def _oob(self, base: tuple, plan: Plan) -> None:
        raise OutOfBoundsError(f"coordinates {tuple(base)} + the access set leave the "
                               f"view's shape {plan.shape}")

    def _lanes(self, n: int, plan: Plan) -> None:
        raise ChannelTypeError(f"a {n}-lane vector stored through a {plan.n}-point store set")

    def _span(self, mem: Mem, start: int, base: tuple, plan: Plan) -> tuple[int, int, int]:
        """Element address and byte range [lo, hi) of one access through a view of `mem`
        from `start`, bounds-checked (view shape, then memory)."""
        a = plan.addr(base)  # type: ignore[operator]
        if a is None:
            self._oob(base, plan)
        a += start
        lo, hi = (a + plan.lo) * plan.isz, (a + plan.hi) * plan.isz
        if lo < 0 or hi > mem.limit:
            mem.check(lo, hi)
        return a, lo, hi

    def read(self, view: View, base: tuple, plan: Plan, pending: bool = False) -> np.ndarray:
        """The lanes of one access (functional part only)."""
        mem = view[0]
        a, lo, hi = self._span(mem, view[1], base, plan)
        typed = mem.typed(plan.storage)
        raw = typed[a: a + plan.n].copy() if plan.contiguous else typed[a + plan.offsets]
        if self.rc is not None:
            self.rc.access(self, mem, lo, hi, False, None if pending else self.epoch)
        return raw if plan.dec is None else plan.dec(raw)

    def write(self, view: View, base: tuple, plan: Plan, v: np.ndarray,
              pending: bool = False) -> None:
        mem = view[0]
        a, lo, hi = self._span(mem, view[1], base, plan)
        if len(v) != plan.n:
            self._lanes(len(v), plan)
        raw = v if plan.enc is None else plan.enc(v)
        typed = mem.typed(plan.storage)
        if plan.contiguous:
            typed[a: a + plan.n] = raw
        else:
            typed[a + plan.offsets] = raw
        if self.rc is not None:
            self.rc.access(self, mem, lo, hi, True, None if pending else self.epoch)

    def _reserve(self, links: list[LinkInst], s: float, ser: float, nbytes: int) -> float:
        """Reserve a route's links first-come first-served for `ser` cycles from cycle `s`
        or, when one is busy, from when the last is free (returned)."""
        for lk in links:
            if lk.busy > s:
                self.st_link += lk.busy - s
                s = lk.busy
        for lk in links:
            lk.busy = s + ser
            lk.nbytes += nbytes
        return s

    def vload(self, view: View, base: tuple, plan: Plan) -> tuple[np.ndarray, float]:
        v = self.read(view, base, plan)
        mem = view[0]
        links, lat, bpc = self._route(mem, True)
        nbytes = plan.nbytes
        ser = nbytes / bpc
        s = self._reserve(links, self.t, ser, nbytes)
        self.t = s + ser
        self.busy += ser
        self.nev += 1
        if self.trace is not None:
            self.trace.append(("vector_load", s, ser, mem.name))
        return v, s + lat + ser

    def vstore(self, view: View, base: tuple, plan: Plan, v: np.ndarray,
               ready: float) -> None:
        self.write(view, base, plan, v)
        mem = view[0]
        links, lat, bpc = self._route(mem, False)
        nbytes = plan.nbytes
        ser = nbytes / bpc
        s = self.t
        if ready > s:
            self.st_data += ready - s
            s = ready
        s = self._reserve(links, s, ser, nbytes)
        self.t = s + ser
        self.busy += ser
        self.nev += 1
        done = s + lat + ser
        if done > self.pend:
            self.pend = done
        if self.trace is not None:
            self.trace.append(("vector_store", s, ser, mem.name))

    def dma(self, sv: View, sbase: tuple, dv: View, dbase: tuple, steps: list,
            lp: Plan, sp: Plan) -> None:
        """An asynchronous composite_load_and_store: copy now, complete later in issue
        order. `steps` holds (load offset, store offset) per time point."""
        smem, dmem = sv[0], dv[0]
        for lo, so in steps:
            self.write(dv, shift(dbase, so), sp, self.read(sv, shift(sbase, lo), lp, True),
                       True)
        self._dma_time(smem, dmem, len(steps) * lp.nbytes)

    def _dma_time(self, smem: Mem, dmem: Mem, nbytes: int) -> None:
        """Reserve the route for an asynchronous transfer; it completes in issue order."""
        r = self.routes.get((smem, dmem))
        if r is None:
            r = self._dma_route(smem, dmem)
        links, lat, bpc = r
        ser = nbytes / bpc
        s = self._reserve(links, self.t, ser, nbytes)
        done = s + lat + ser
        if done < self.dmadone:
            done = self.dmadone
        self.dmadone = done
        if done > self.pend:
            self.pend = done
        self.busy += ser
        self.nev += 1
        if self.trace is not None:
            self.trace.append(("dma", s, done - s, f"{smem.name}->{dmem.name}"))
        if done > self.limit:
            self._limit()

    def _dma_route(self, smem: Mem, dmem: Mem) -> Route:
        lin, lat_in, bpc_in = self._route(smem, True)
        lout, lat_out, bpc_out = self._route(dmem, False)
        r = self.routes[(smem, dmem)] = (lin + lout, lat_in + lat_out, min(bpc_in, bpc_out))
        return r

    def scalar_load(self, view: View, idx: tuple, plan: Plan) -> object:
        v, ready = self.vload(view, idx, plan)
        if ready > self.t:
            self.t = ready
        return v[0].item()

    def scalar_store(self, view: View, idx: tuple, plan: Plan, value: object) -> None:
        arr = np.asarray([value]).astype(view[2].et.compute)
        self.vstore(view, idx, plan, arr, self.t)

    def finish(self) -> None:
        if self.pend > self.t:
            self.st_dma += self.pend - self.t
            self.t = self.pend
        if self.open:
            close(self, self.epoch)
        self.end = self.t
        self.done = True


OPAQUE: dict[str, Callable[[Process], None]] = {}


def register_opaque(name: str, fn: Callable[[Process], None]) -> None:
    """Give `dataflow.opaque {func_name = name}` a Python implementation (E11): `fn(process)`
    runs on the executing unit's process (`process.unit.name`, `process.m.memory(key)`); the
    op costs the unit's `opaque` latency class."""
    OPAQUE[name] = fn


def no_memory(unit: object) -> None:
    """`get_logical_memory_view` of something that is not a memory unit."""
    h = _handle(unit, "view the memory of")
    raise RuntimeFault(f"{h.name} is an execution unit, not a memory: it has no logical "
                       "memory view")


def plan_of(acc: Access, view: View) -> Plan:
    """The plan of an access through a view whose spec was not known when compiling."""
    return acc.plan(view[2])


def shift(base: tuple, off: tuple) -> tuple:
    return tuple(b + o for b, o in zip(base, off, strict=True)) if off else base


def symbol(table: dict[int, object], sid: int) -> object:
    try:
        return table[sid]
    except KeyError:
        bound = ", ".join(str(k) for k in sorted(table)) or "none"
        raise UnboundSymbolError(f"symbol {sid} is not bound (bound ids: {bound}); kernel "
                                 f"argument p binds id -(p+1) through symbol.create_id") from None


def no_region(unit: Handle) -> None:
    raise RuntimeFault(f"unit {unit.name} is in no region of the uniform op")


def _handle(v: object, what: str) -> Handle:
    if not isinstance(v, Handle):
        raise RuntimeFault(f"cannot {what} {v!r}: not a unit handle")
    return v
