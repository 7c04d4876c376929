"""Running a kernel: place the inputs, run every tile of the grid, read the outputs back.

Tiles run one after another in linear-id order (D2: the first grid dimension varies fastest),
each with its own register file; a kernel with inter-tile communication runs its tiles as
coroutines instead (`intertile.run_grid`). The result holds every device-memory buffer the
kernel stored to, by argument name (or by fixed-buffer name, for the ranges it addresses
with constants), and the device memory's final bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from ktir import limits
from ktir.diagnostics import KtirDiagnostic, op_error, op_location
from ktir.interpreter.arguments import (
    ArgumentSpec,
    buffer_arguments,
    check_input,
    kernel_grid_of,
    make_inputs,
    plan_kernel,
    scratchpad_points,
)
from ktir.interpreter.core import Program, TileContext
from ktir.interpreter.intertile import Exchange, run_grid
from ktir.interpreter.memory import Machine, Memory
from ktir.interpreter.ops_ktdp import RuntimeArg

DEFAULT_SCRATCHPAD_BYTES = 2 * 1024 * 1024


@cache
def keep_freed_memory() -> bool:
    """Ask glibc's malloc to keep freed memory for reuse rather than hand it back to the system.

    A run makes and drops many tile-sized temporaries (the f16 carriers are rounded into fresh
    float32 arrays after every op); by default glibc serves each one above its 128 KiB-ish
    mmap threshold with a fresh mapping, or trims the heap after it, so every temporary pays a
    page fault per 4 KiB it touches: on the 2-core machine that was 9 ms of system time of the
    13.6 ms one rounding of 1M values costs, and 0.7 -> 0.5 s of the run of layer norm
    1151x8192. With the thresholds raised (arrays up to 32 MiB from the heap, which is trimmed
    only past 1 GiB free) the pages are touched once. False where the C library has no
    `mallopt` (not glibc); process-wide, once. The process's own symbols are searched
    (`CDLL(None)`: the C library it runs on), not a library found by name: `ctypes.util`
    imports `subprocess` and `locale`, a few ms of every start-up."""
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_top_pad, m_mmap_threshold = -1, -2, -3
    ok = mallopt(m_mmap_threshold, 32 << 20) == 1  # glibc's largest on 64-bit
    ok &= mallopt(m_trim_threshold, 1 << 30) == 1
    ok &= mallopt(m_top_pad, 64 << 20) == 1
    return bool(ok)


@dataclass
class RunResult:
    """Everything about one run: the kernel, its arguments (by position), its fixed buffers
    (constant-address ranges of device memory), inputs, written buffers, and the bytes of
    device memory at the end."""

    kernel: str
    grid: tuple[int, ...]
    specs: list[ArgumentSpec]
    inputs: dict[str, np.ndarray]
    outputs: dict[str, np.ndarray]
    fixed: list[ArgumentSpec] = field(default_factory=list)
    device_bytes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint8))
    vectorised: bool = False  # every tile ran at once (lanes.py), not one after another

    def buffer(self, name: str) -> ArgumentSpec:
        """The pointer argument or fixed buffer called `name`."""
        return next(s for s in (*self.specs, *self.fixed) if s.name == name)


def select_kernel(module: Operation, name: str | None = None) -> func.FuncOp:
    """The kernel to run: `name`, else the only function with a grid, else the only one."""
    funcs = [o for o in module.walk() if isinstance(o, func.FuncOp) and o.body.blocks]
    if name is not None:
        for f in funcs:
            if f.sym_name.data == name:
                return f
        raise KtirDiagnostic(f"error: no function @{name} (the module has "
                             f"{', '.join('@' + f.sym_name.data for f in funcs) or 'none'})")
    with_grid = [f for f in funcs if "grid" in f.attributes]
    pick = with_grid if with_grid else funcs
    if len(pick) == 1:
        return pick[0]
    if not pick:
        decls = [o for o in module.walk() if isinstance(o, func.FuncOp) and not o.body.blocks]
        if decls:
            raise op_error(decls[0], f"@{decls[0].sym_name.data} is only declared (it has no "
                           "body), and the module holds no function with one to run")
        located = next((o for o in module.body.block.ops if op_location(o) is not None), None)
        if located is not None:  # the file's name and where it starts
            raise op_error(located, "is not a function: the module holds no function to run")
        raise KtirDiagnostic("error: the module holds no function to run")
    raise KtirDiagnostic("error: the module holds several kernels ("
                         f"{', '.join('@' + f.sym_name.data for f in pick)}); name one")


def tile_coords(t: int, grid: tuple[int, ...]) -> tuple[int, ...]:
    out = []
    for d in grid:
        out.append(t % d)
        t //= d
    return tuple(out)


def _load(module_or_path: Any) -> Operation:
    if isinstance(module_or_path, str | Path):
        from ktir.context import load_module

        return load_module(module_or_path)
    if isinstance(module_or_path, ModuleOp | func.FuncOp):
        return module_or_path
    raise TypeError(f"expected a module, a func.func or a path, got {type(module_or_path)}")


def _place(machine: Machine, spec: ArgumentSpec, arr: np.ndarray,
           stored: np.ndarray | None = None) -> None:
    """`arr` (carriers) into the buffer of `spec`; `stored`: the same values as the memory
    holds them, when the caller has them (an fp16 input for an f16 buffer)."""
    et = spec.elem
    assert et is not None
    assert spec.start is not None
    data = stored if stored is not None else et.encode(arr) if et.encode is not None else arr
    if spec.memory == "global":
        mem = machine.device
        err = mem.check(spec.start, spec.start + max(spec.count, 1) - 1, et.itemsize)
        assert err is None, err
        mem.typed(et.storage)[spec.start: spec.start + spec.count] = data.reshape(-1)
        return
    own = spec.placements and spec.placements[0].ct is None
    for tile in range(machine.num_tiles) if own else [-1]:
        for p in spec.placements:
            mem = machine.scratchpad(tile if p.ct is None else p.ct)
            src = data[tile] if own else data
            idx = np.indices(tuple(hi - lo + 1 for lo, hi in p.box)).reshape(len(p.box), -1)
            coords = idx + np.asarray([lo for lo, _ in p.box], dtype=np.int64)[:, None]
            local = coords - np.asarray(p.lo, dtype=np.int64)[:, None]
            keep = ((local >= 0) & (local < np.asarray(p.sizes)[:, None])).all(axis=0)
            addr = spec.start + p.delta + (np.asarray(p.strides) @ local[:, keep])
            if addr.size:
                err = mem.check(int(addr.min()), int(addr.max()), et.itemsize)
                if err is not None and spec.kind == "fixed":
                    continue  # a view past the scratchpad: the kernel's access reports it
                if err is not None:
                    raise KtirDiagnostic(f"error: input '{spec.name}' {err}")
                mem.typed(et.storage)[addr] = src[tuple(coords[:, keep])]


def _read_back_scratchpad(machine: Machine, spec: ArgumentSpec, seeded: np.ndarray
                          ) -> np.ndarray | None:
    """A fixed scratchpad buffer as the run left it, when the run changed it (scratchpads
    keep no write log: the bytes are compared with what was seeded)."""
    et = spec.elem
    assert et is not None
    assert spec.shape is not None
    before = et.encode(seeded) if et.encode is not None else seeded.astype(et.storage)
    raw = before.copy()
    for ct, addrs, where in scratchpad_points(spec):
        for tile in range(machine.num_tiles) if ct is None else [ct]:
            mem = machine.scratchpad(tile)
            if addrs.size and mem.check(int(addrs.min()), int(addrs.max()),
                                        et.itemsize) is None:
                raw[(tile, *where) if ct is None else where] = mem.typed(et.storage)[addrs]
    if raw.tobytes() == before.tobytes():
        return None
    return et.decode(raw) if et.decode is not None else raw


def _written(mem: Memory, lo: int, hi: int) -> bool:
    return any(a < hi and lo < b for a, b in mem.writes)


def _read_back(machine: Machine, spec: ArgumentSpec) -> np.ndarray:
    et = spec.elem
    assert et is not None
    assert spec.start is not None
    assert spec.shape is not None
    raw = machine.device.typed(et.storage)[spec.start: spec.start + spec.count]
    # no copy: the buffers are disjoint slices of device memory, which the run no longer uses
    vals = et.decode(raw) if et.decode is not None else raw
    return vals.reshape(spec.shape)


def run_kernel(module_or_path: Any, *, args: dict[str, Any] | None = None, seed: int = 0,
               scratchpad_bytes: int | None = None, function: str | None = None,
               inputs: dict[str, Any] | None = None,
               vectorise: bool | None = None) -> RunResult:
    """Plan the arguments, run the kernel on every tile, collect the written buffers.
    `scratchpad_bytes`: per tile; None (e.g. a device that states no size) takes
    DEFAULT_SCRATCHPAD_BYTES. `vectorise`: None runs every tile at once when that gives the
    sequential result (lanes.py) and tile by tile otherwise; False always tile by tile; True
    insists on lanes mode (raises when the kernel does not allow it; for tests)."""
    keep_freed_memory()
    module = _load(module_or_path)
    fn = module if isinstance(module, func.FuncOp) else select_kernel(module, function)
    try:
        return _run_on(fn, args, seed, scratchpad_bytes, inputs, vectorise)
    except MemoryError as e:  # within the limits, but more than the machine has free now
        raise op_error(fn, f"ran out of memory: {str(e) or 'an allocation failed'} (run it on "
                           "smaller sizes, or with less else running)") from None


def _run_on(fn: func.FuncOp, args: dict[str, Any] | None, seed: int,
            scratchpad_bytes: int | None, inputs: dict[str, Any] | None,
            vectorise: bool | None) -> RunResult:
    given = dict(inputs or {})
    overrides = {k: _value_text(k, v) for k, v in (args or {}).items()}
    buffers = buffer_arguments(fn)
    arrays = {k: v for k, v in given.items()
              if np.ndim(v) or (isinstance(v, np.ndarray) and k in buffers)}
    for k, v in given.items():
        if k not in arrays:  # a number, or a 0-d array (an .npz holds scalars so)
            overrides.setdefault(k, _value_text(k, v))
    specs, fixed = _plan(fn, overrides, arrays)
    by_name = {s.name: s for s in (*specs, *fixed)}
    for k in arrays:
        if k not in by_name:
            raise op_error(fn, f"has no argument or fixed buffer named '{k}' (arguments: "
                           f"{', '.join(s.name for s in specs) or 'none'}; fixed buffers: "
                           f"{', '.join(s.name for s in fixed) or 'none'})")
        if by_name[k].kind not in ("pointer", "fixed"):
            raise op_error(fn, f"argument '{k}' is a {by_name[k].kind}, not a buffer")
    placed = specs + fixed
    made = make_inputs(placed, seed, skip=arrays)
    data = {s.name: check_input(s, arrays[s.name]) if s.name in arrays else made[s.name]
            for s in placed if s.name in arrays or s.name in made}
    stored = {k: np.asarray(arrays[k]).reshape(s.shape) for k, s in by_name.items()
              if k in arrays and s.elem is not None and s.elem.encode is not None
              and np.asarray(arrays[k]).dtype == s.elem.storage and s.elem.is_float}
    grid = kernel_grid_of(fn)
    ntiles = int(np.prod(grid))
    if ntiles > limits.CURRENT.tiles:  # before a context per tile is made
        raise op_error(fn, f"has a grid of {ntiles:,} tiles, more than the interpreter's limit "
                       f"of {limits.CURRENT.tiles:,} (raise it with --max-tiles)")
    device_bytes = max(((cast(int, s.start) + s.count) * s.elem.itemsize for s in placed
                        if s.memory == "global" and s.elem is not None), default=0)
    if scratchpad_bytes is None:
        scratchpad_bytes = DEFAULT_SCRATCHPAD_BYTES

    def fresh_machine() -> Machine:
        m = Machine(ntiles, scratchpad_bytes, device_bytes)
        for s in placed:
            if s.kind in ("pointer", "fixed"):
                _place(m, s, data[s.name], stored.get(s.name))
        return m

    machine = fresh_machine()
    argv: list[Any] = []
    for s in specs:
        if s.kind == "pointer":
            argv.append(s.address)
        elif s.kind == "runtime_arg":
            t = fn.args[s.index].type
            argv.append(RuntimeArg(cast(Any, s.value), getattr(t, "granularity_value", None),
                                   getattr(t, "upperbound_value", None)))
        else:
            argv.append(_scalar_value(s))
    exchange = Exchange()
    contexts = [TileContext(t, tile_coords(t, grid), machine, exchange) for t in range(ntiles)]
    vectorised = False
    # IEEE results (inf, nan, wrap-around) are values here, not warnings
    with np.errstate(all="ignore"):
        if vectorise is not False and ntiles > 1 and not fixed:  # fixed buffers: tile by tile
            vectorised = _run_lanes(fn, specs, machine, grid, contexts, argv, vectorise)
            if not vectorised and machine.touched:
                machine = fresh_machine()
                for ctx in contexts:
                    ctx.machine = machine
        if not vectorised:  # tile by tile (D2: in linear-id order)
            program = Program(fn)
            if program.suspends:
                run_grid([(ctx, program.body.run_gen(program.frame(ctx, argv)))
                          for ctx in contexts])
            else:
                for ctx in contexts:
                    program.body.run(program.frame(ctx, argv))
    outputs = {}
    for s in placed:
        if s.kind in ("pointer", "fixed") and s.memory == "global" and s.elem is not None:
            lo = cast(int, s.start) * s.elem.itemsize
            if _written(machine.device, lo, lo + s.count * s.elem.itemsize):
                outputs[s.name] = _read_back(machine, s)
    for s in fixed:  # scratchpad buffers the kernel wrote into
        if s.memory == "scratchpad" and (arr := _read_back_scratchpad(
                machine, s, data[s.name])) is not None:
            outputs[s.name] = arr
    # device memory itself, not a copy (the run is over; outputs decoded from it are copies
    # for carrier types, views otherwise)
    return RunResult(fn.sym_name.data, grid, specs, data, outputs, fixed=fixed,
                     device_bytes=machine.device.buf, vectorised=vectorised)
def _plan(fn: func.FuncOp, overrides: dict[str, str], arrays: dict[str, Any]
          ) -> tuple[list[ArgumentSpec], list[ArgumentSpec]]:
    """The argument plan and the fixed buffers; the given arrays' shapes serve only where the
    kernel's views do not tell a buffer's shape (an array must then match the shape the views
    give)."""
    try:
        return plan_kernel(fn, dict(overrides))
    except KtirDiagnostic:
        if not arrays:
            raise
    plan: dict[str, str | tuple[int, ...]] = dict(overrides)
    arg_names = {a.name_hint or f"arg{a.index}" for a in fn.args}
    for k, v in arrays.items():
        if k in arg_names:  # else a fixed buffer's name, checked once they are known
            plan.setdefault(k, tuple(np.shape(v)))
    return plan_kernel(fn, plan)


def _run_lanes(fn: func.FuncOp, specs: list[ArgumentSpec], machine: Machine,
               grid: tuple[int, ...], contexts: list[TileContext], argv: list[Any],
               strict: bool | None) -> bool:
    """Run every tile at once (lanes.py); False when the kernel must run tile by tile.
    `strict` (tests): raise instead of falling back."""
    from ktir.interpreter.core import Compiler
    from ktir.interpreter.lanes import NotBatchable, check_batchable, lanes_context

    try:
        check_batchable(fn, {s.name for s in specs if s.kind == "pointer"})
        program = Program(fn, Compiler(lanes=len(contexts)))
    except (NotBatchable, KtirDiagnostic):
        if strict:
            raise
        return False
    machine.touched = True
    try:
        ctx = lanes_context(machine, grid, contexts)
        program.body.run(program.frame(ctx, argv))
        ctx.writes.check()
    except Exception:
        if strict:
            raise
        return False
    return True


def _value_text(name: str, v: Any) -> str:
    """A scalar input as the text of `--arg NAME=VALUE`."""
    if isinstance(v, np.ndarray | np.generic):
        if v.dtype.kind not in "biuf":
            raise KtirDiagnostic(f"error: input '{name}' is a scalar of type {v.dtype}, not a "
                                 "number")
        v = v.item()
    if isinstance(v, bool):
        return "true" if v else "false"
    return repr(v) if isinstance(v, float) else str(v)


def _scalar_value(s: ArgumentSpec) -> Any:
    assert s.dtype is not None
    if s.dtype == np.float16:  # held as a float32 carrier inside the kernel
        return np.float32(np.float16(s.value))
    if s.dtype.kind == "f":
        return float(cast(Any, s.value)) if s.dtype == np.float64 else s.dtype.type(s.value)
    return int(cast(Any, s.value))


def interpret(module_or_path: Any, *, args: dict[str, Any] | None = None, seed: int = 0,
              scratchpad_bytes: int | None = None, function: str | None = None,
              **arrays: Any) -> dict[str, np.ndarray]:
    """Run a KTIR kernel on numpy; returns every device-memory buffer it wrote, by name.

    `arrays` gives inputs by argument name: arrays for buffers (their shape is used when the
    kernel's views cannot tell it), numbers for scalars and runtime_args. `args` takes the
    same `NAME=VALUE` strings as `ktir interpret --arg`. Missing buffers are seeded random
    (`make_inputs`). Failures raise `KtirDiagnostic`.
    """
    return run_kernel(module_or_path, args=args, seed=seed, scratchpad_bytes=scratchpad_bytes,
                      function=function, inputs=arrays).outputs
