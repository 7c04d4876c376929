"""Which functions of a DataflowIR module are host code, which are bodies with programs, and
their compiled forms (shared/spec/dataflow-ir.md §1, §7 E2/E4).

A *body* is a function whose block holds `dataflow.program_unit`s: its other ops are the
prelude (run once at launch: units, constants, maps), each program becomes a generator run
once per listed unit. Every other function is host code (symbol binding, calls, scalars), or,
when a program calls it, a plain or generator function of that program.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue

import emulator.codegen_access
import emulator.codegen_control
import emulator.codegen_indirect
import emulator.codegen_matrix
from emulator.codegen import Codegen, Gen
from emulator.errors import (
    CycleLimitError,
    EmulationError,
    UnsupportedOpError,
    loop_limit_message,
)
from emulator.machine import Machine
from emulator.runtime import no_memory, no_region, plan_of, shift, symbol
from ktir.limits import DEFAULT_LOOP_LIMIT
from spyrecode.dialects.dataflow import ProgramUnitOp

assert emulator.codegen_access  # imported for their ops' handlers
assert emulator.codegen_control
assert emulator.codegen_indirect
assert emulator.codegen_matrix


@dataclass
class Program:
    op: ProgramUnitOp
    fn: Callable
    outer: list[SSAValue]


@dataclass
class Body:
    fn: FuncOp
    prelude: Callable
    programs: list[Program]


def functions(module: ModuleOp) -> dict[str, FuncOp]:
    """Every function with a body, by symbol name (declarations are skipped)."""
    out: dict[str, FuncOp] = {}
    for op in module.walk():
        if isinstance(op, FuncOp) and op.body.blocks:
            name = op.sym_name.data
            if name in out:
                raise UnsupportedOpError(f"function @{name} is defined twice", op=op)
            out[name] = op
    return out


def is_body(fn: FuncOp) -> bool:
    return any(isinstance(op, ProgramUnitOp) for op in fn.body.block.ops)


def _inside(value: SSAValue, region_op: Operation) -> bool:
    owner = value.owner
    op: Operation | None = owner if isinstance(owner, Operation) else owner.parent_op()
    while op is not None:
        if op is region_op:
            return True
        op = op.parent_op()
    return False


def outer_values(pu: Operation) -> list[SSAValue]:
    seen: dict[SSAValue, None] = {}
    for op in pu.walk():
        if op is pu:
            continue
        for v in op.operands:
            if v not in seen and not _inside(v, pu):
                seen[v] = None
    return list(seen)


class HostLoops:
    """`SPIN(trips)` of host and prelude code: the iterations of its loops, none of which
    takes emulated time, count against the loop limit."""

    def __init__(self, limit: int):
        self.limit, self.iters = limit, 0

    def __call__(self, trips: int) -> None:
        self.iters += trips
        if self.iters > self.limit:
            raise CycleLimitError(loop_limit_message("host code", self.iters, self.limit))


class Compiler:
    """Compiles the functions of one module for one machine, each once."""

    def __init__(self, funcs: dict[str, FuncOp], machine: Machine, races: bool,
                 trace: bool = False, dump: Path | None = None,
                 loop_limit: int = DEFAULT_LOOP_LIMIT):
        self.funcs = funcs
        self.cg = Codegen(self.function, races, trace, dump)
        self.cg.g.update(NOMEM=no_memory, PLANOF=plan_of, SHIFT=shift, SYM=symbol,
                         NOREGION=no_region)
        self.bind(machine, loop_limit)
        self._bodies: dict[str, Body] = {}
        self._hosts: dict[str, Callable] = {}
        self._called: dict[str, tuple[str, bool] | None] = {}

    def bind(self, machine: Machine, loop_limit: int = DEFAULT_LOOP_LIMIT) -> None:
        """Run the compiled code on `machine` from now on: the generated code reaches the
        machine only through the global `M` (every static fact is a constant of its own), so
        a fresh machine per run reuses everything compiled for the same device."""
        self.cg.g.update(M=machine, SPIN=HostLoops(loop_limit))

    def func(self, name: str, at: Operation | None = None) -> FuncOp:
        fn = self.funcs.get(name)
        if fn is None:
            have = ", ".join("@" + n for n in sorted(self.funcs)) or "none"
            raise EmulationError(f"no function @{name} with a body (defined: {have})", op=at)
        return fn

    def host(self, fn: FuncOp) -> Callable:
        name = fn.sym_name.data
        if name not in self._hosts:
            g = Gen(self.cg, "host")
            args = [g.define(a) for a in fn.body.block.args]
            if args:
                g.emit(f"{', '.join(args)}, = A", fn)
            g.block(fn.body.block)
            self._hosts[name] = self.cg.build(
                f"host_{_py(name)}", "A, S, CALL", g, f"{name}.host",
                f"host code of @{name}: A, its arguments; CALL, how it calls a function")
        return self._hosts[name]

    def body(self, fn: FuncOp) -> Body:
        name = fn.sym_name.data
        if name in self._bodies:
            return self._bodies[name]
        if fn.body.block.args:
            raise UnsupportedOpError("a function holding dataflow.program_unit ops takes no "
                                     "arguments (bind kernel arguments with symbols)", op=fn)
        programs = []
        for k, pu in enumerate(op for op in fn.body.block.ops if isinstance(op, ProgramUnitOp)):
            outer = outer_values(pu)
            g = Gen(self.cg, "program")
            names = [f"e{i}_{_py(v.name_hint)}" if v.name_hint else f"e{i}"
                     for i, v in enumerate(outer)]
            g.names.update(zip(outer, names, strict=True))
            if names:
                g.emit(f"{', '.join(names)}, = E", pu)
            if pu.iter_arg is not None:
                g.names[pu.iter_arg] = "me"
                g.emit("me = P.unit", pu)
            g.block(pu.block)
            label = unit_label(pu)
            fn_ = self.cg.build(f"program{k}_{_py(label)}__{_py(name)}", "E, P, T, S, IC", g,
                                f"{name}.program{k}.{label}",
                                f"program {k} of @{name}, run by {_units(pu)}", generator=True)
            programs.append(Program(pu, fn_, outer))
        g = Gen(self.cg, "prelude")
        for op in fn.body.block.ops:
            if not isinstance(op, ProgramUnitOp):
                g.op(op)
        g.flush()
        envs = []
        for p in programs:
            vals = [g.v(v) for v in (*p.outer, *p.op.units)]
            envs.append("[" + "".join(v + ", " for v in vals) + "]")
        g.emit(f"return [{', '.join(envs)}]", fn)
        prelude = self.cg.build(f"prelude_{_py(name)}", "S", g, f"{name}.prelude",
                                f"prelude of @{name}: run once per launch; returns each "
                                "program's values and units")
        body = self._bodies[name] = Body(fn, prelude, programs)
        return body

    def called_from_programs(self, name: str) -> bool:
        """Whether a program compiled so far calls @name (it is then program code)."""
        return name in self._called

    def function(self, name: str, at: Operation) -> tuple[str, bool]:
        """A function called from a program: (Python name, whether it may block)."""
        if name in self._called:
            done = self._called[name]
            if done is None:
                raise UnsupportedOpError(f"recursive call of @{name}", op=at)
            return done
        fn = self.func(name, at)
        if is_body(fn):
            raise UnsupportedOpError(f"a program cannot call @{name}, which launches programs",
                                     op=at)
        self._called[name] = None
        g = Gen(self.cg, "program")
        args = [n for a in fn.body.block.args for n in g.with_ready_names(a, g.define(a))]
        g.block(fn.body.block)
        py = f"fn_{_py(name)}"
        self.cg.build(py, "P, T, S, IC" + "".join(", " + a for a in args), g,
                      f"{name}.function", f"@{name}, called from programs",
                      generator=g.has_yield)
        self._called[name] = (py, g.has_yield)
        return py, g.has_yield


def _unit_names(pu: ProgramUnitOp) -> list[tuple[str, str | None]]:
    """(name, kind) of each unit a program lists, where a `dataflow.get_unit` names it
    (else the unit's name in the IR and no kind)."""
    out = []
    for u in pu.units:
        owner = u.owner
        if isinstance(owner, Operation) and owner.name == "dataflow.get_unit":
            out.append((owner.unit_name, owner.kind))  # type: ignore[attr-defined]
        else:
            out.append((u.name_hint or "unit", None))
    return out


def unit_label(pu: ProgramUnitOp) -> str:
    """A short name of the units running a program: the unit, `DMA_INx32` for 32 units of
    kind DMA_IN, else their kinds or names."""
    units = _unit_names(pu)
    if len(units) == 1:
        return units[0][0]
    kinds = list(dict.fromkeys(k or n for n, k in units))
    return f"{kinds[0]}x{len(units)}" if len(kinds) == 1 else "+".join(kinds)


def _units(pu: ProgramUnitOp) -> str:
    names = [n for n, _ in _unit_names(pu)]
    if len(names) <= 4:
        return ", ".join(names)
    return f"{', '.join(names[:3])}, ... ({len(names)} units)"


def _py(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name)
