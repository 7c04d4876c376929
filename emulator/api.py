"""`emulate`: run a DataflowIR module on a device (shared/spec/dataflow-ir.md §7).

The entry function runs as host code: `symbol.create_id` binds kernel arguments to symbol ids
in the scope of the function that binds them, and a `func.call` of a function holding
`dataflow.program_unit`s launches it: its prelude runs once, one process per listed unit
starts at the current time, and the call returns when every process has ended and its
transfers have drained (E2, E4). A call of any other function just runs it. Launches follow
each other in time.
"""

from __future__ import annotations

import gc
import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp
from xdsl.dialects.func import FuncOp

from arch_descriptions.model import Device, Work
from arch_descriptions.model.device import MAX_TEMPLATE_CORES
from emulator.codegen_matrix import matrix_cost
from emulator.engine import Engine, cycles, failing_op
from emulator.errors import EmulationError, LeftoverError, RuntimeFault, WiringError
from emulator.machine import Handle, Machine
from emulator.programs import Compiler, functions, is_body
from emulator.races import RaceChecker
from emulator.results import EmulationResult, UnitStats
from emulator.runtime import Process
from emulator.sources import dump_dir
from emulator.trace import chrome_trace
from ktir.dialects.ktdp_types import RUNTIME_ARG_ATTR, RuntimeArgType, runtime_arg_violation
from ktir.limits import DEFAULT_LOOP_LIMIT

MemoryInit = dict[str, list[tuple[int, np.ndarray]]]


def grid_size(fn: FuncOp) -> int | None:
    g = fn.attributes.get("grid") or fn.properties.get("grid")
    if not isinstance(g, ArrayAttr):
        return None
    n = 1
    for d in g.data:
        if isinstance(d, IntegerAttr):
            n *= d.value.data
    return n


def _cores(device: Device, funcs: dict[str, FuncOp], entry: FuncOp) -> int:
    grids = [n for f in (entry, *funcs.values()) if (n := grid_size(f)) is not None]
    grid = grids[0] if grids else 1
    if device.max_cores is not None:
        if grid > device.max_cores:
            raise WiringError(f"the kernel's grid has {grid} tiles but device @{device.name} "
                              f"has {device.max_cores} cores", op=entry)
        return device.max_cores
    if grid > MAX_TEMPLATE_CORES:
        raise WiringError(f"the kernel's grid has {grid:,} tiles: the emulator instantiates "
                          f"template device @{device.name}'s core once per tile, for at most "
                          f"{MAX_TEMPLATE_CORES:,} tiles", op=entry)
    return grid


def located(fn: Callable, *args: object) -> Any:
    """Run generated host or prelude code; a failure names the op it comes from."""
    try:
        return fn(*args)
    except EmulationError as e:
        raise e.locate(op=failing_op(e.__traceback__)) from None
    except (TypeError, ZeroDivisionError, ValueError, KeyError) as e:
        op = failing_op(e.__traceback__)
        if op is None:
            raise
        raise RuntimeFault(f"{type(e).__name__}: {e}", op=op) from None


def place(machine: Machine, memory_init: MemoryInit | None) -> None:
    """Initial memory contents: `{"DDR": [(element_address, array)], "L1@3": [...]}`; an
    array's bytes go to byte `element_address * array.itemsize`. A per-core kind without
    `@<core>` is written into every core's instance."""
    for key, items in (memory_init or {}).items():
        kind = machine.kinds.get(key.lower())
        if kind in machine.device.memories and machine.device.memories[kind].per_core:
            mems = machine.memories_of_kind(kind)
        else:
            mems = [machine.memory(key)]
        for addr, arr in items:
            a = np.ascontiguousarray(arr)
            for m in mems:
                m.write_bytes(int(addr) * a.itemsize, a)


class Run:
    """The state of one `emulate` call."""

    def __init__(self, module: ModuleOp, device: Device, entry: str, cycle_limit: int,
                 trace: bool, strict: bool, check_races: bool, dump: Path | None = None,
                 work: Work | None = None, loop_limit: int = DEFAULT_LOOP_LIMIT):
        self.device = device
        self.work = work
        self.loop_limit = loop_limit
        self.compiler: Compiler | None = None
        self.module = module
        self.entry = entry
        self.cycle_limit, self.trace, self.strict = cycle_limit, trace, strict
        self.check_races = check_races
        self.dump = dump
        self.t = 0.0
        self.procs: list[Process] = []
        self.warnings: list[str] = []
        self.launches = 0
        self.spans: list[tuple[str, int, int]] = []  # (body function, first, last cycle)
        self.costs: dict[str, list[tuple[float, float, str, int]]] = {}

    def start(self, memory_init: MemoryInit | None) -> None:
        funcs = functions(self.module)
        fn = _entry(funcs, self.entry)
        self.machine = Machine(self.device, _cores(self.device, funcs, fn))
        place(self.machine, memory_init)
        self.compiler = Compiler(funcs, self.machine, self.check_races, self.trace, self.dump,
                                 self.loop_limit)
        self.fn = fn

    def start_loaded(self, loaded: LoadedProgram, memory_init: MemoryInit | None) -> None:
        """Start on a fresh machine with the code `loaded` compiled (and its cost tables)."""
        self.machine = Machine(self.device, loaded.cores)
        place(self.machine, memory_init)
        self.compiler = loaded.compiler
        self.compiler.bind(self.machine, self.loop_limit)
        self.costs = loaded.costs
        self.fn = loaded.fn

    def call(self, name: str, args: Sequence[object], scope: dict[int, object]) -> tuple:
        assert self.compiler is not None
        fn = self.compiler.func(name)
        if len(args) != len(fn.body.block.args):
            raise EmulationError(f"@{name} takes {len(fn.body.block.args)} argument(s), got "
                                 f"{len(args)}", op=fn)
        if is_body(fn):
            self.launch(fn, scope)
            return ()
        if name == self.entry:
            check_runtime_args(fn, args)
        host = self.compiler.host(fn)
        return located(host, tuple(args), dict(scope), self.call)

    def cost_table(self, kind: str) -> list[tuple[float, float, str, int]]:
        assert self.compiler is not None
        sites = self.compiler.cg.sites
        table = self.costs.setdefault(kind, [])
        unit = self.device.units.get(kind)
        for i in range(len(table), len(sites)):
            cls, n, elem, label = sites[i]
            if unit is None:
                table.append((2.0, 1.0, label, i))
                continue
            if cls == "matrix":  # elem: the block "MxKxN"
                table.append(matrix_cost(unit, elem, label, i))
                continue
            rate = unit.elements_per_cycle(elem) if unit.lanes_per_cycle else n
            ivl = unit.op_interval.get(cls, 1) * max(1, math.ceil(n / rate))
            table.append((float(unit.op_latency.get(cls, 2)), float(ivl), label, i))
        return table

    def launch(self, fn: FuncOp, scope: dict[int, object]) -> None:
        assert self.compiler is not None
        body = self.compiler.body(fn)
        start = self.t
        envs = located(body.prelude, scope)
        races = RaceChecker() if self.check_races else None
        eng = Engine(self.machine, cycle_limit=self.cycle_limit, trace=self.trace, races=races,
                     loop_limit=self.loop_limit)
        eng.ops = self.compiler.cg.ops
        eng.nsites = len(self.compiler.cg.sites)  # type: ignore[attr-defined]
        procs: list[Process] = []
        owner: dict[Handle, object] = {}
        for prog, env in zip(body.programs, envs, strict=True):
            units, env = env[len(prog.outer):], env[:len(prog.outer)]
            for u in units:
                if not isinstance(u, Handle):
                    raise RuntimeFault(f"{u!r} is not a unit handle", op=prog.op)
                if u.mem is not None:
                    raise WiringError(f"{u.name} is a memory: only execution units run "
                                      "programs", op=prog.op)
                if u in owner:
                    raise WiringError(f"unit {u.name} is listed by two program_units (a unit "
                                      "runs at most one program, E4)", op=prog.op)
                owner[u] = prog
                p = Process(eng, u, prog, self.t)
                if races is not None:
                    races.register(p)
                kind = u.kind
                ic = float(u.unit.issue_cycles) if u.unit is not None else 0.0  # type: ignore
                p.gen = prog.fn(env, p, self.cost_table(kind), scope, ic)
                procs.append(p)
        eng.run(procs)
        for p in procs:  # drop the finished generators and the race records now, by
            p.gen = p.resume = p.rc = None  # reference counting, not by the cycle collector
        self.procs.extend(procs)
        self.t = max([self.t, *(p.end for p in procs)])
        self.launches += 1
        self.spans.append((fn.sym_name.data, cycles(start), cycles(self.t)))
        self._leftovers()

    def _leftovers(self) -> None:
        m = self.machine
        msgs = [c.state() + " at the end" for c in m.channels.values() if c.q]
        msgs += [s.state() + " at the end" for s in m.signals.values() if s.times]
        if msgs and self.strict:
            raise LeftoverError("; ".join(msgs))
        self.warnings.extend(msgs)
        for c in m.channels.values():
            c.q.clear()
        for s in m.signals.values():
            s.times.clear()
            s.clocks.clear()

    def result(self, wall: float) -> EmulationResult:
        m = self.machine
        units: dict[str, UnitStats] = {}
        events = 0
        for p in self.procs:
            st = units.setdefault(p.name, UnitStats(p.name, p.unit.kind, start=p.start))
            st.busy += p.busy
            for k, v in p.stall.items():
                st.stalled[k] = st.stalled.get(k, 0.0) + v
            st.events += p.nev
            st.end = max(st.end, p.end)
            events += p.nev
        per_kind: dict[str, int] = {}
        per_link: dict[str, int] = {}
        for lk in m.links.values():
            if lk.nbytes:
                key = f"{lk.dp.src}->{lk.dp.dst}"
                per_kind[key] = per_kind.get(key, 0) + lk.nbytes
                per_link[lk.name] = lk.nbytes
        warnings = list(self.warnings) + list(m.warnings)
        if self.device.defaults_used:
            warnings.append("timing defaults used (shared/spec/arch.md §8): "
                            + "; ".join(self.device.defaults_used))
        return EmulationResult(
            machine=m, cycles=cycles(self.t), clock_ghz=self.device.clock_ghz, units=units,
            bytes_per_datapath=per_kind, bytes_per_link=per_link,
            memory_ports={p.name: (p.nbytes, p.busy) for p in m.ports if p.nbytes},
            roofline=self.device.roofline(self.work) if self.work is not None else None,
            events=events, warnings=warnings,
            trace_events=chrome_trace(self.procs, self.device) if self.trace else None,
            launches=self.launches, wall_seconds=wall, launch_spans=list(self.spans))


def _entry(funcs: dict[str, FuncOp], entry: str) -> FuncOp:
    fn = funcs.get(entry)
    if fn is None:
        have = ", ".join("@" + n for n in sorted(funcs)) or "none"
        raise EmulationError(f"no function @{entry} to run (functions: {have})")
    return fn


def _compile_all(compiler: Compiler, funcs: dict[str, FuncOp]) -> None:
    """Bodies with their programs and the functions they call, every other function as host
    code: all that `emulate` would compile before and during its launches."""
    entries = list(funcs.values())
    bodies = [f for f in entries if is_body(f)]
    for fn in bodies:
        compiler.body(fn)
    for fn in entries:
        if fn not in bodies and not compiler.called_from_programs(fn.sym_name.data):
            compiler.host(fn)


class LoadedProgram:
    """A DataflowIR module compiled once for a device, to run many times (SpyreCode's prepare
    once, launch many: shared/spec/spyrecode.md §4). `load` compiles every function as
    `check_program` does; each `run` starts a fresh machine (memories, FIFOs, signals, clock)
    with its own arguments and memory contents and runs the shared generated code, which is
    never recompiled (the templates of views known only at run time, compiled on first use,
    stay for the next run). Runs follow each other; the module must not change meanwhile."""

    def __init__(self, module: ModuleOp, device: Device, entry: str, *, trace: bool = False,
                 check_races: bool = True, dump: Path | None = None):
        self.module, self.device, self.entry = module, device, entry
        self.trace, self.check_races, self.dump = trace, check_races, dump
        funcs = functions(module)
        self.fn = _entry(funcs, entry)
        self.cores = _cores(device, funcs, self.fn)
        self.compiler = Compiler(funcs, Machine(device, self.cores), check_races, trace, dump)
        _compile_all(self.compiler, funcs)
        self.costs: dict[str, list[tuple[float, float, str, int]]] = {}

    def run(self, args: Sequence[int | float], memory_init: MemoryInit | None = None, *,
            cycle_limit: int = 10**9, strict: bool = False, work: Work | None = None,
            loop_limit: int = DEFAULT_LOOP_LIMIT) -> EmulationResult:
        """One launch: like `emulate` with the same options, on the code compiled by `load`."""
        t0 = time.perf_counter()
        run = Run(self.module, self.device, self.entry, cycle_limit, self.trace, strict,
                  self.check_races, self.dump, work, loop_limit)
        run.start_loaded(self, memory_init)
        with np.errstate(all="ignore"), _no_cyclic_gc():
            run.call(self.entry, list(args), {})
        return run.result(time.perf_counter() - t0)


def load(dfir_module: ModuleOp, device: Device, *, entry: str, trace: bool = False,
         check_races: bool = True, dump_programs: str | os.PathLike | None = None
         ) -> LoadedProgram:
    """Compile `entry`'s module for `device` once, for `LoadedProgram.run` to launch many
    times. Raises the `EmulationError` `emulate` would raise before its first launch."""
    return LoadedProgram(dfir_module, device, entry, trace=trace, check_races=check_races,
                         dump=dump_dir(dump_programs))


def check_program(dfir_module: ModuleOp, device: Device) -> None:
    """The emulator's static acceptance check: compile every function of the module the way
    `emulate` would (bodies with their programs and the functions they call, every other
    function as host code) without running anything. Raises the `EmulationError`
    (`UnsupportedOpError`, `WiringError`, ...) `emulate` would raise for the same module
    before its first launch; returns None when it accepts the module."""
    funcs = functions(dfir_module)
    entries = list(funcs.values())
    machine = Machine(device, _cores(device, funcs, entries[0]) if entries else 1)
    _compile_all(Compiler(funcs, machine, races=False), funcs)


def check_runtime_args(fn, args: Sequence[object]) -> None:
    """A runtime argument (an argument attribute `ktdp.runtime_arg` = its former type) takes
    a value that respects its granularity and upper bound, as the launch promises."""
    attrs = fn.arg_attrs.data if fn.arg_attrs is not None else ()
    for i, (d, v) in enumerate(zip(attrs, args)):
        t = d.data.get(RUNTIME_ARG_ATTR)
        why = runtime_arg_violation(t, v) if isinstance(t, RuntimeArgType) else None
        if why is not None:
            name = fn.body.block.args[i].name_hint or f"arg{i}"
            raise EmulationError(f"argument {i} (%{name}) of @{fn.sym_name.data}: {why} "
                                 f"({t})", op=fn)


def emulate(dfir_module: ModuleOp, device: Device, *, entry: str, args: Sequence[int | float],
            memory_init: MemoryInit | None = None, cycle_limit: int = 10**9,
            trace: bool = False, strict: bool = False, check_races: bool = True,
            dump_programs: str | os.PathLike | None = None,
            work: Work | None = None, loop_limit: int = DEFAULT_LOOP_LIMIT) -> EmulationResult:
    """Run `entry` of a DataflowIR module on `device` with `args` (element addresses and
    scalars, by position). Raises an `EmulationError` subclass on any fault.

    `work`: what the kernel must do (compulsory bytes, element operations, cores), which only
    the caller knows; the result then carries its bound (`roofline`, `efficiency`). The
    DataflowIR alone cannot tell it: the bytes a schedule moves are not the kernel's.

    `dump_programs` (default: $KTIR_DUMP_PROGRAMS) names a directory to write the Python
    generated for each function and program into, one file each, as it is compiled; the
    generated code then runs from those files, so tracebacks and pdb point into them.

    `cycle_limit` bounds the emulated time (and the iterations of loops that take time);
    `loop_limit` the iterations, per unit, of loops whose body does no timed work (no
    transfer, vector op or signal), which no clock would stop."""
    t0 = time.perf_counter()
    run = Run(dfir_module, device, entry, cycle_limit, trace, strict, check_races,
              dump_dir(dump_programs), work, loop_limit)
    run.start(memory_init)
    with np.errstate(all="ignore"), _no_cyclic_gc():
        run.call(entry, list(args), {})
    return run.result(time.perf_counter() - t0)


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Pause Python's cycle collector while programs run: a run allocates millions of small,
    acyclic objects (messages, tokens, race records) that reference counting frees, and the
    collector's passes over the live ones cost a quarter of the run. Cycles made meanwhile
    are collected once it is back on."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
