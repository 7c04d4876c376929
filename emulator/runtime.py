"""One process per (program_unit, unit) and the helpers its generated code calls
(shared/spec/dataflow-ir.md §7 E4-E9, E13).

Each process keeps its own clock `t` (cycles, float), advanced by the timing model: a vector
op costs its class interval and its result is ready after the class latency; a send holds the
sender for bytes/bandwidth and reaches the receiver after the link latency; a full FIFO holds
the sender until the slot it needs was freed by a receive; a vector access or DMA reserves
every link instance on its route first-come first-served, and the time its bytes need of each
memory with its own bandwidth on the way (machine.Port, shared by every unit); a unit has
`max_outstanding` transfer slots, taken in turn, so a transfer waits for the one that many
before it to complete; an asynchronous DMA returns at once and completes in issue order;
`sync_send` arrives after the device's signal latency. That
work is written once, as the templates of codegen_inline.py, which the generated programs
contain (codegen_access.py compiles them per plan for views known only at run time); they
keep the clock and counters in locals and write them back here. The helpers below are the
cold paths: channel and signal lookup, routes, loop guards and faults.
Blocking (empty FIFO, full FIFO, no signal) is not a helper's business: the generated code
checks the condition and yields to the engine (engine.py), which resumes the process when the
channel or signal changes. Functional effects happen at issue: DMA data is copied when the
transfer is issued, which a race-free program cannot observe (E9, E14).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from emulator.access import Access, Plan, View
from emulator.errors import (
    ChannelTypeError,
    CycleLimitError,
    OutOfBoundsError,
    RuntimeFault,
    UnboundSymbolError,
    loop_limit_message,
)
from emulator.machine import Channel, Handle, LinkInst, Machine, Mem, Port, Signal
from emulator.races import close

if TYPE_CHECKING:
    from emulator.engine import Engine

MAX_SLOTS = 4096  # slots per unit at most: a unit allowed more in flight gets this many

# (links, latency, lowest bytes per cycle, ports of the memories with their own bandwidth) of
# a memory route
Route = tuple[list[LinkInst], float, float, tuple[Port, ...]]


class Process:
    """The state of one unit running one program."""

    __slots__ = ("busy", "dmadone", "done", "end", "epoch", "gen", "idle", "idle_limit",
                 "iters", "known", "limit", "m", "name", "nev", "open", "pend", "program", "rc",
                 "resume", "rin", "rlog", "rout", "routes", "rx_", "si_", "sites", "sl", "slot",
                 "slots", "so_", "st_data", "st_dma", "st_link", "st_recv", "st_send",
                 "st_signal", "start", "t", "trace", "tx_", "unit", "vid", "waiting", "wake")

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
        # the unit's `max_outstanding` transfer slots, taken in turn: the completion cycle of
        # the last transfer in each, and the next slot (at most MAX_SLOTS are modelled)
        mo = unit.unit.max_outstanding if unit.unit is not None else 1  # type: ignore
        self.slots = [start] * min(mo, MAX_SLOTS)
        self.slot = 0
        self.busy = 0.0
        self.st_recv = self.st_send = self.st_signal = self.st_dma = 0.0
        self.st_data = self.st_link = 0.0
        self.sl = eng.signal_latency
        self.nev = 0
        self.sites = [0] * eng.nsites
        self.iters = 0
        self.limit = eng.cycle_limit
        self.idle = 0  # iterations of loops without timed work (spin)
        self.idle_limit = eng.loop_limit
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

    # ---- loops -----------------------------------------------------------------------------

    def loop(self, trips: int) -> None:
        """Guard against loops that never advance time: iterations count against the limit."""
        self.iters += trips
        if self.iters > self.limit:
            raise CycleLimitError(f"more than {int(self.limit)} loop iterations (cycle_limit "
                                  "also bounds iterations, so a loop without timed ops cannot "
                                  "spin forever)")

    def spin(self, trips: int) -> None:
        """The guard of a loop whose body does no timed work: its iterations count against
        the loop limit, since no clock would stop it."""
        self.idle += trips
        if self.idle > self.idle_limit:
            raise CycleLimitError(loop_limit_message(self.name, self.idle, self.idle_limit))
        self.loop(trips)

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
                              min(lk.bpc for lk in links),
                              (mem.port,) if mem.port is not None else ())
        return r

    def _oob(self, base: tuple, plan: Plan) -> None:
        raise OutOfBoundsError(f"coordinates {tuple(base)} + the access set leave the "
                               f"view's shape {plan.shape}")

    def _bad_index(self, k: int, dim: int, extent: int, what: str = "gathered") -> None:
        raise OutOfBoundsError(f"index {k} read from the index memref is outside dimension "
                               f"{dim} of the {what} view (0 to {extent - 1})")

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

    def _dma_route(self, smem: Mem, dmem: Mem) -> Route:
        lin, lat_in, bpc_in, pin = self._route(smem, True)
        lout, lat_out, bpc_out, pout = self._route(dmem, False)
        r = self.routes[(smem, dmem)] = (lin + lout, lat_in + lat_out, min(bpc_in, bpc_out),
                                         pin + pout)
        return r

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
