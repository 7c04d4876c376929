"""The discrete-event scheduler (shared/spec/dataflow-ir.md §7 E4, E12, E14).

Processes are generators; each runs until it must wait (empty FIFO, full FIFO, no signal) and
then parks on that channel or signal, which wakes it when its state changes. Runnable
processes run in order of their local clocks, and of waking among equal clocks, so the
process furthest behind in simulated time runs first and links are reserved roughly
first-come first-served: a heap of the distinct clocks (floats, cheap to compare) with a FIFO
of processes per clock. Because the programs form a Kahn process network the numbers do not
depend on this order (E14).
A launch ends when every process has ended; if processes remain and none can run, that is a
deadlock, reported with each blocked unit, the op it waits on and the FIFO/signal state.
"""

from __future__ import annotations

import heapq
import math
from types import TracebackType

from xdsl.ir import Operation

from emulator.errors import DeadlockError, EmulationError, RuntimeFault
from emulator.machine import Handle, Machine
from emulator.races import RaceChecker
from emulator.runtime import Process
from emulator.sources import GLOBAL, Sources
from ktir.diagnostics import op_location
from ktir.limits import DEFAULT_LOOP_LIMIT

_WAITS = {1: "to receive from", 2: "to send to", 3: "for a signal from"}


class Engine:
    def __init__(self, machine: Machine, *, cycle_limit: int, trace: bool,
                 races: RaceChecker | None, loop_limit: int = DEFAULT_LOOP_LIMIT):
        self.machine = machine
        self.cycle_limit = float(cycle_limit)
        self.loop_limit = loop_limit
        self.trace = trace
        self.races = races
        self.signal_latency = float(machine.device.signal_latency)
        self.ops: list[Operation] = []
        self.times: list[float] = []  # heap of the clocks of runnable processes
        self.runnable: dict[float, list[Process]] = {}  # per clock, in waking order
        push, times, runnable = heapq.heappush, self.times, self.runnable

        def wake(p: Process) -> None:
            """Make a parked process runnable."""
            t = p.t
            queue = runnable.get(t)
            if queue is None:
                runnable[t] = [p]
                push(times, t)
            else:
                queue.append(p)
        self.wake = wake

    def run(self, procs: list[Process]) -> None:
        if self.races is not None:
            self.races.start()
        for p in procs:
            p.resume = p.gen.send  # type: ignore[union-attr]
            self.wake(p)
        times, runnable = self.times, self.runnable
        pop = heapq.heappop
        for port in self.machine.ports:  # the clocks of the runnable processes (Port.prune)
            port.clocks = times
        while times:
            t = times[0]
            queue = runnable[t]
            p = queue.pop(0)
            if not queue:
                pop(times)
                del runnable[t]
            try:
                p.waiting = p.resume(None)  # type: ignore[misc]
            except StopIteration:
                try:
                    p.finish()
                except EmulationError as e:
                    raise e.locate(unit=p.name, cycle=p.t) from None
            except EmulationError as e:
                raise e.locate(unit=p.name, op=failing_op(e.__traceback__),
                               cycle=p.t) from None
            except Exception as e:  # a program fault surfacing as a Python error
                raise _fault(e, p) from None
        live = [p for p in procs if not p.done]
        if live:
            raise self._deadlock(live)

    def _deadlock(self, live: list[Process]) -> DeadlockError:
        lines = []
        for p in live:
            kind, obj, k = p.waiting or (0, None, -1)
            op = self.ops[k] if 0 <= k < len(self.ops) else None
            where = _where(op)
            peer = obj.src if kind in (1, 3) else obj.dst  # type: ignore[union-attr]
            lines.append(f"  {p.name} at cycle {int(p.t)} waits {_WAITS.get(kind, '?')} "
                         f"{peer.name} in {where}: {obj.state()}")  # type: ignore[union-attr]
        t = max(p.t for p in live)
        return DeadlockError(f"deadlock: every unfinished process is blocked "
                             f"({len(live)} of them)\n" + "\n".join(lines), cycle=t)


def _where(op: Operation | None) -> str:
    if op is None:
        return "?"
    loc = op_location(op)
    return f"'{op.name}'" + (f" at {loc[0]}:{loc[1]}:{loc[2]}" if loc else "")


def failing_op(tb: TracebackType | None) -> Operation | None:
    """The op of the innermost generated-code frame of a traceback."""
    found = None
    while tb is not None:
        sources = tb.tb_frame.f_globals.get(GLOBAL)
        if isinstance(sources, Sources):
            found = sources.op_at(tb.tb_frame.f_code.co_filename, tb.tb_lineno) or found
        tb = tb.tb_next
    return found


def _fault(e: Exception, p: Process) -> EmulationError:
    op = failing_op(e.__traceback__)
    if isinstance(e, ZeroDivisionError):
        msg = "division by zero"
    elif isinstance(e, TypeError) and any(isinstance(x, Handle) for x in _operands(e)):
        msg = f"a unit handle used as a number ({e})"
    elif isinstance(e, TypeError):
        msg = f"invalid operand types ({e}); unit handles only compare and key maps"
    else:
        msg = f"{type(e).__name__}: {e}"
    if op is None:  # a fault in the emulator itself, not in the program: keep the traceback
        raise e
    return RuntimeFault(msg, unit=p.name, op=op, cycle=p.t)


def _operands(e: Exception) -> list[object]:
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return list(tb.tb_frame.f_locals.values()) if tb is not None else []


def cycles(t: float) -> int:
    return math.ceil(t - 1e-9) if t > 0 else 0

