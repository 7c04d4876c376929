"""The SpyreCode runtime, on the emulator: prepare once, launch many (shared/spec/spyrecode.md
§4).

    plan = prepare("out/add", "spyre")          # verify, parse, check capacities, compile
    r = launch(plan, {0: a_ptr, 1: b_ptr, 2: c_ptr}, {"DDR": ddr_bytes})
    c = r.read("DDR", c_ptr, (96, 64), "float16")

`prepare` does everything that does not depend on argument values: it reads the artifact
(manifest, checksums, format version), checks the device's description hash, parses and
verifies the programs, checks the grid against the cores and the scratchpad reservations
against the memories of the description, and compiles the programs for the emulator
(`emulator.load`). `launch` binds each argument symbol — a tensor pointer given in bytes
becomes an element address (refused unless divisible by the element width), a `shape` is
checked (`mod granularity`, `<= upperbound`), a scalar bound at compile time must keep its
value — evaluates the closed-form derived symbols, and runs the prepared programs on a fresh
machine whose memories start with `memory`'s bytes. A launch changes nothing in the plan and
compiles nothing, so launches repeat with other tensors and shapes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ktir.errors import KtirDiagnostic
from ktir.limits import DEFAULT_LOOP_LIMIT
from ktir.semantics import wrap_int
from spyrecode.artifact import Artifact, ArtifactError, Symbol, read_artifact

ArgValues = Mapping[int | str, Any] | Sequence[Any]


class LaunchError(KtirDiagnostic):
    """An argument a launch cannot take; the message names the symbol."""

    def __init__(self, kernel: str, sym: Symbol, message: str):
        super().__init__(f"error: launch of @{kernel}: symbol {sym.id} '{sym.name}' "
                         f"({sym.kind}, argument {sym.argument}): {message}")


@dataclass(frozen=True, eq=False)
class Plan:
    """A prepared artifact. Read-only: launches never change it."""

    artifact: Artifact
    device: Any  # arch_descriptions.model.Device
    module: Any  # the joined DataflowIR
    program: Any  # emulator.LoadedProgram
    arguments: tuple[Symbol, ...]  # by argument position
    derived: tuple[Symbol, ...]
    seconds: float  # the time prepare took

    @property
    def kernel(self) -> str:
        return self.artifact.kernel

    @property
    def programs(self) -> int:
        return int(self.artifact.jobplan["launch"].get("start", {}).get("programs", 0))


@dataclass
class LaunchResult:
    emulation: Any  # emulator.EmulationResult
    symbols: dict[int, int | float | None]  # id -> bound value (derived: None = per call)
    seconds: float  # the whole launch: binding, checks, memory in and out, emulation
    memory: dict[str, np.ndarray] = field(default_factory=dict)  # final bytes, by kind

    @property
    def overhead_seconds(self) -> float:
        """What the launch costs beyond running the programs."""
        return self.seconds - self.emulation.wall_seconds

    def read(self, kind: str, byte_address: int, shape: tuple[int, ...] | int,
             dtype: Any) -> np.ndarray:
        dt = np.dtype(dtype)
        shp = (shape,) if isinstance(shape, int) else tuple(shape)
        if byte_address % dt.itemsize:
            raise KtirDiagnostic(f"error: byte address {byte_address} is not a multiple of "
                                 f"the {dt.itemsize}-byte {dt}")
        return self.emulation.read(kind, byte_address // dt.itemsize, shp, dt)


def _device(spec: Any, artifact: Artifact) -> Any:
    from arch_descriptions.model import Device, load_device

    if isinstance(spec, Device):
        return spec
    return load_device(artifact.device_name if spec is None else spec)


def prepare(path: str | os.PathLike, device: Any = None, *, trace: bool = False,
            check_races: bool = True) -> Plan:
    """Read, verify and load the artifact at `path` (a directory or .tar) for `device` (a
    Device, a shipped name or a file; default: the device the manifest names). Raises
    `KtirDiagnostic` (`ArtifactError` naming the file) on anything wrong with it."""
    from emulator import EmulationError, load

    t0 = time.perf_counter()
    art = read_artifact(path)
    dev = _device(device, art)
    art.check_device(dev)
    module = art.program_module()
    _check_capacities(art, dev)
    entry = str(art.jobplan["launch"]["entry"])
    try:
        program = load(module, dev, entry=entry, trace=trace, check_races=check_races)
    except EmulationError as e:
        raise ArtifactError(f"{art.source}/programs", f"the emulator refuses the programs: "
                                                      f"{e.message}") from None
    table = art.symbols.by_id()
    arguments = sorted((s for s in table.values() if s.argument is not None),
                       key=lambda s: s.argument or 0)
    for k, s in enumerate(arguments):
        if s.argument != k:
            raise ArtifactError(f"{art.source}/symbols.json", f"no symbol for argument {k} "
                                                              f"of @{art.kernel}")
    derived = tuple(s for s in table.values() if s.kind == "derived")
    return Plan(art, dev, module, program, tuple(arguments), derived,
                time.perf_counter() - t0)


def _check_capacities(art: Artifact, dev: Any) -> None:
    prep = art.jobplan["prepare"]
    where = f"{art.source}/jobplan.json"
    cores = prep.get("cores", 1)
    if dev.max_cores is not None and isinstance(cores, int) and cores > dev.max_cores:
        raise ArtifactError(where, f"the kernel needs {cores} cores; device @{dev.name} has "
                                   f"{dev.max_cores}")
    for r in prep.get("reservations", []):
        mem = dev.memories.get(r["memory"])
        if mem is None:
            raise ArtifactError(where, f"reserves memory '{r['memory']}', which device "
                                       f"@{dev.name} does not have")
        if mem.size is not None and r["bytes"] > mem.size:
            raise ArtifactError(where, f"reserves {r['bytes']} B of memory '{r['memory']}'; "
                                       f"device @{dev.name} has {mem.size} B")


def _by_position(plan: Plan, args: ArgValues) -> dict[int, Any]:
    if not isinstance(args, Mapping):
        return dict(enumerate(args))
    names = {s.name: s.argument for s in plan.arguments}
    out: dict[int, Any] = {}
    for k, v in args.items():
        if isinstance(k, str):
            if k not in names:
                raise KtirDiagnostic(f"error: launch of @{plan.kernel}: no argument named "
                                     f"'{k}' (arguments: {', '.join(names)})")
            k = names[k]
        if not isinstance(k, int) or not 0 <= k < len(plan.arguments):
            raise KtirDiagnostic(f"error: launch of @{plan.kernel}: no argument {k!r} (it "
                                 f"takes {len(plan.arguments)})")
        out[k] = v
    return out


def _integer(plan: Plan, s: Symbol, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int | np.integer):
        raise LaunchError(plan.kernel, s, f"expects an integer, got {v!r}")
    return int(v)


def check_value(plan: Plan, s: Symbol, v: Any) -> Any:
    """The value symbol `s` takes for argument value `v` (a tensor's byte pointer becomes an
    element address), or a `LaunchError` naming the symbol."""
    if s.kind == "tensor_address":
        ptr = _integer(plan, s, v)
        width = s.element_bytes or 1
        if ptr < 0:
            raise LaunchError(plan.kernel, s, f"byte pointer {ptr} is negative")
        if ptr % width:
            raise LaunchError(plan.kernel, s, f"byte pointer {ptr} is not a multiple of "
                              f"{width}, the byte width of its {s.element_type} elements")
        return ptr // width
    if s.kind == "shape":
        v = _integer(plan, s, v)
        if v < 0:
            raise LaunchError(plan.kernel, s, f"shape value {v} is negative")
        if s.granularity and v % s.granularity:
            raise LaunchError(plan.kernel, s, f"shape value {v} violates 'mod "
                              f"{s.granularity} == 0' (granularity {s.granularity})")
        if s.upperbound is not None and v > s.upperbound:
            raise LaunchError(plan.kernel, s, f"shape value {v} violates '<= "
                              f"{s.upperbound}' (upperbound {s.upperbound})")
        return v
    v = _scalar(plan, s, v)
    if s.value is not None and v != s.value:
        raise LaunchError(plan.kernel, s, f"was bound to {s.value} at compile time; the "
                          f"launch gives {v} (recompile to change it)")
    return v


def missing(plan: Plan, s: Symbol) -> LaunchError:
    return LaunchError(plan.kernel, s, "missing argument: the launch gives no value for it")


def bind(plan: Plan, args: ArgValues) -> tuple[list[Any], dict[int, Any]]:
    """The emulator's arguments (by position) and the value of every symbol, checked."""
    given = _by_position(plan, args)
    argv: list[Any] = []
    values: dict[int, Any] = {}
    for s in plan.arguments:
        assert s.argument is not None
        if s.argument not in given:
            if s.kind != "scalar" or s.value is None:
                raise missing(plan, s)
            given[s.argument] = s.value
        v = values[s.id] = check_value(plan, s, given[s.argument])
        argv.append(v)
    for s in plan.derived:
        values[s.id] = _evaluate(s.expression, values) if s.expression is not None else None
    return argv, values


def _scalar(plan: Plan, s: Symbol, v: Any) -> int | float:
    t = s.type
    if t.startswith(("f", "bf", "!spyreop")):
        if isinstance(v, bool) or not isinstance(v, int | float | np.number):
            raise LaunchError(plan.kernel, s, f"expects a number, got {v!r}")
        return float(v)
    n = _integer(plan, s, v)
    width = 64 if t == "index" else int(t[1:]) if t[1:].isdigit() else 64
    return wrap_int(n, width)


def _evaluate(e: Any, values: Mapping[int, Any]) -> int | None:
    """A derived symbol's expression (spyrecode.artifact.symbols) on 64-bit values."""
    from ktir.semantics import tdiv, trem

    if "symbol" in e:
        return values.get(e["symbol"])
    if "const" in e:
        return int(e["const"])
    a, b = (_evaluate(x, values) for x in e["args"])
    if a is None or b is None:
        return None
    op = e["op"]
    if op in ("floordiv", "div", "rem") and b == 0:
        return None
    ops = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
           "floordiv": lambda: a // b, "div": lambda: tdiv(a, b), "rem": lambda: trem(a, b),
           "min": lambda: min(a, b), "max": lambda: max(a, b)}
    return wrap_int(ops[op](), 64) if op in ops else None


def launch(plan: Plan, args: ArgValues, memory: Mapping[str, np.ndarray] | None = None, *,
           cycle_limit: int = 10**9, loop_limit: int = DEFAULT_LOOP_LIMIT,
           work: Any = None) -> LaunchResult:
    """Bind `args` (by position or name: byte pointers for tensors, values for shapes and
    scalars), check them, and run the prepared programs with each memory kind of `memory`
    starting with its bytes (a uint8 array from byte 0). Raises `KtirDiagnostic` for an
    argument the artifact refuses, `emulator.EmulationError` for a fault while running."""
    t0 = time.perf_counter()
    argv, values = bind(plan, args)
    init = {kind: [(0, np.ascontiguousarray(data).view(np.uint8).reshape(-1))]
            for kind, data in (memory or {}).items()}
    em = plan.program.run(argv, init, cycle_limit=cycle_limit, loop_limit=loop_limit,
                          work=work)
    final = {kind: em.machine.memory(kind).buf.copy() for kind in (memory or {})}
    return LaunchResult(em, values, time.perf_counter() - t0, final)


def bytes_needed(buffers: Sequence[tuple[int, np.ndarray]]) -> int:
    """The bytes of a memory holding each (byte address, array) of `buffers`."""
    return max((addr + a.nbytes for addr, a in buffers), default=0)


def memory_image(buffers: Sequence[tuple[int, np.ndarray]], size: int | None = None
                 ) -> np.ndarray:
    """A memory's starting bytes: each array at its byte address, zeros elsewhere."""
    out = np.zeros(max(size or 0, bytes_needed(buffers)), np.uint8)
    for addr, a in buffers:
        raw = np.ascontiguousarray(a).view(np.uint8).reshape(-1)
        out[addr: addr + raw.size] = raw
    return out


__all__ = ["LaunchError", "LaunchResult", "Plan", "bind", "check_value", "launch", "memory_image",
           "prepare"]
