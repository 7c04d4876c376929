"""Compile a kernel, execute it on the emulator and check it against the reference interpreter.

`run_and_check("add.mlir", "spyre")` is what `ktir run` does: the reference interpreter plans
the arguments and makes the inputs (seeded) and computes the expected outputs; the compiler
produces DataflowIR for the device; the emulator runs it with the same element addresses and
the inputs placed in the device's global memory; every buffer the reference wrote (pointer
arguments, and the fixed buffers a kernel addresses with constants) is read back from the
emulator and compared — bitwise by default (an element-wise kernel performs the same fp16
operations in the same order on both sides), or within `rtol`/`atol` when given. Last, the
whole global memory is compared byte for byte outside those buffers: neither side may have
written anywhere else (for a kernel that writes nothing, this is the one check). The
emulation is measured against the bound of what the kernel must do (ktir_tools/work.py).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ktir.limits import DEFAULT_LOOP_LIMIT


@dataclass
class OutputCheck:
    name: str
    shape: tuple[int, ...]
    dtype: str
    match: bool
    max_abs_err: float
    mismatches: int
    first_mismatch: tuple[int, ...] | None = None
    expected: float | None = None  # at the first mismatch
    got: float | None = None


@dataclass
class RunReport:
    kernel: str
    device: str
    tiles: int
    compile_seconds: float
    reference_seconds: float
    emulate_seconds: float
    programs: int
    emulation: Any  # emulator.EmulationResult
    checks: list[OutputCheck] = field(default_factory=list)
    outputs: dict[str, np.ndarray] = field(default_factory=dict)
    rtol: float = 0.0
    atol: float = 0.0
    work: Any = None  # arch_descriptions.model.Work: what the bound charges (ktir_tools/work.py)
    notes: list[str] = field(default_factory=list)  # runtime_args given no value (stderr)
    schedule: list[Any] | None = None  # scheduler.analysis.schedule_model.Group, when asked

    def group_cycles(self) -> dict[str, int]:
        """Emulated cycles per compute group (summed over its launches)."""
        out: dict[str, int] = {}
        for name, first, last in self.emulation.launch_spans:
            group = name.removesuffix("_body")
            out[group] = out.get(group, 0) + last - first
        return out

    @property
    def match(self) -> bool:
        return bool(self.checks) and all(c.match for c in self.checks)

    @property
    def max_abs_err(self) -> float:
        return max((c.max_abs_err for c in self.checks), default=0.0)

    def to_json(self) -> dict[str, Any]:
        em = self.emulation
        return {
            "kernel": self.kernel, "device": self.device, "tiles": self.tiles,
            "match": self.match, "max_abs_err": self.max_abs_err,
            "cycles": em.cycles, "roofline_cycles": em.roofline_cycles,
            "efficiency": em.efficiency, "bound": em.roofline.bound,
            "binding_resource": em.binding_resource,
            "roofline_terms": {t.resource.name: t.total for t in em.roofline.terms},
            "round_trip_cycles": em.roofline.latency,
            "compile_s": self.compile_seconds, "emulate_s": self.emulate_seconds,
            "reference_s": self.reference_seconds, "programs": self.programs,
            "rtol": self.rtol, "atol": self.atol,
            "outputs": [{"name": c.name, "shape": list(c.shape), "dtype": c.dtype,
                         "match": c.match, "max_abs_err": c.max_abs_err,
                         "mismatches": c.mismatches,
                         "first_mismatch": list(c.first_mismatch) if c.first_mismatch else None}
                        for c in self.checks],
            "bytes_per_datapath": dict(em.bytes_per_datapath),
            "bytes_per_memory": {k: n for k, (n, _) in em.memory_ports.items()},
            "warnings": list(em.warnings),
            "notes": list(self.notes),
            **({"schedule": self.schedule_json()} if self.schedule is not None else {}),
        }

    def schedule_json(self) -> list[dict[str, Any]]:
        got = self.group_cycles()
        return [{"group": g.name, "tiles": g.tiles, "predicted_cycles": round(g.predicted),
                 "emulated_cycles": got.get(g.name),
                 "pipelines": [{"instances": p.instances, "buffer_copies": p.copies,
                                "predicted_cycles": round(p.predicted),
                                "stages": [{"unit": s.unit, "cycles": round(s.cycles),
                                            "moves": s.moves, "ops": s.ops}
                                           for s in p.stages],
                                "buffers": [{"name": b.name, "memory": b.memory,
                                             "shape": list(b.shape), "element": b.element,
                                             "bytes": b.bytes} for b in p.buffers]}
                               for p in g.pipelines]}
                for g in self.schedule or ()]


def compare(name: str, got: np.ndarray, want: np.ndarray, rtol: float = 0.0,
            atol: float = 0.0) -> OutputCheck:
    """Bitwise (NaNs with the same bits) when both tolerances are 0, else `isclose` with NaN
    matching NaN."""
    if rtol == 0.0 and atol == 0.0:
        bad = got.view(np.uint8).reshape(*got.shape, -1) != want.view(np.uint8).reshape(
            *want.shape, -1)
        bad = bad.any(axis=-1)
    else:
        bad = ~np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol,
                          atol=atol, equal_nan=True)
    with np.errstate(all="ignore"):
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
    finite = diff[np.isfinite(diff)]
    check = OutputCheck(name, tuple(want.shape), str(want.dtype), not bad.any(),
                        float(finite.max()) if finite.size else 0.0, int(bad.sum()))
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        check.first_mismatch, check.expected, check.got = idx, float(want[idx]), float(got[idx])
    return check


def stored(spec, data: np.ndarray) -> np.ndarray:
    """`data` as the device memory holds it (bf16/df16 as their 16-bit patterns)."""
    if spec.elem is not None and spec.elem.encode is not None:
        return spec.elem.encode(data)
    return data


def launch_args(specs, inputs: dict[str, np.ndarray], memory: str, fixed=(),
                scratchpad: str | None = None, tiles: int = 1
                ) -> tuple[list[Any], dict[str, list[tuple[int, np.ndarray]]]]:
    """The emulator's `args` and `memory_init` for the interpreter's argument plan: buffers
    pass their element address and start in `memory` with their input data (bf16/df16 as
    their 16-bit patterns; a pointer whose views are scratchpad views, in those scratchpads),
    scalars pass their value; fixed buffers start in `memory` with
    theirs, and fixed scratchpad buffers (constant-address scratchpad views) in the
    scratchpad memory kind `scratchpad` of their core (`"LX@1"`; a view of each tile's own
    scratchpad in each of the `tiles` cores)."""
    argv: list[Any] = []
    init: list[tuple[int, np.ndarray]] = []
    for s in specs:
        if s.kind == "pointer":
            argv.append(s.address)
            if s.memory != "scratchpad":
                init.append((s.start, stored(s, inputs[s.name])))
        else:
            argv.append(s.value)
    init += [(s.start, stored(s, inputs[s.name])) for s in fixed if s.memory != "scratchpad"]
    out = {memory: init}
    from ktir.interpreter.arguments import scratchpad_points

    # a pointer argument whose views live in scratchpads is seeded there like a fixed one;
    # each placement in the scratchpad of its own tile (or of every tile)
    seeded = [s for s in specs if s.kind == "pointer" and s.memory == "scratchpad"]
    for s in [*seeded, *(f for f in fixed if f.memory == "scratchpad")]:
        if scratchpad is None:
            continue
        et = s.elem
        data = (et.encode(inputs[s.name]) if et.encode is not None
                else inputs[s.name].astype(et.storage))
        for ct, addrs, where in scratchpad_points(s):
            for core in range(tiles) if ct is None else [ct]:
                vals = (data[core] if ct is None else data)[where]
                out.setdefault(f"{scratchpad}@{core}", []).extend(_runs(addrs, vals))
    return argv, out


def read_scratchpad(em, spec, scratchpad: str, grid) -> np.ndarray:
    """A fixed scratchpad buffer as the emulator left it in the scratchpads of its cores."""
    from ktir.interpreter.arguments import scratchpad_points

    et = spec.elem
    raw = np.zeros(spec.shape, et.storage)
    for ct, addrs, where in scratchpad_points(spec):
        if not addrs.size:
            continue
        lo = int(addrs.min())
        for core in range(int(np.prod(grid))) if ct is None else [ct]:
            span = em.read(f"{scratchpad}@{core}", lo, int(addrs.max()) - lo + 1, et.storage)
            raw[(core, *where) if ct is None else where] = span[addrs - lo]
    return et.decode(raw) if et.decode is not None else raw


def _runs(addrs: np.ndarray, vals: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Scattered elements as (start address, contiguous values) runs."""
    if not addrs.size:
        return []
    order = np.argsort(addrs, kind="stable")
    a, v = addrs[order], vals[order]
    cuts = np.flatnonzero(np.diff(a) != 1) + 1
    return [(int(a[i]), np.ascontiguousarray(v[i:j]))
            for i, j in zip([0, *cuts], [*cuts, a.size])]


GLOBAL_MEMORY = "(rest of global memory)"


def compare_rest(emulated: np.ndarray, reference: np.ndarray, checked: list[tuple[int, int]]
                 ) -> OutputCheck:
    """Global memory outside the checked byte ranges, byte for byte (what neither side
    wrote reads as zeros on both: memory grows on demand)."""
    n = max(emulated.size, reference.size)
    a = np.zeros(n, np.uint8)
    b = np.zeros(n, np.uint8)
    a[: emulated.size] = emulated
    b[: reference.size] = reference
    for lo, hi in checked:
        a[lo:hi] = b[lo:hi] = 0
    bad = np.flatnonzero(a != b)
    check = OutputCheck(GLOBAL_MEMORY, (n,), "uint8", not bad.size, 0.0, int(bad.size))
    if bad.size:
        first = int(bad[0])
        check.first_mismatch = (first,)
        check.expected, check.got = float(b[first]), float(a[first])
        check.max_abs_err = float(np.abs(a.astype(np.int16) - b.astype(np.int16)).max())
    return check


def compile_time_args(module, args: dict[str, str] | None, function: str | None = None
                      ) -> dict[str, str]:
    """The `--arg` values the compiler binds: numbers given to scalar arguments of the kernel
    (shapes such as `96x64xf16` describe buffers; runtime_args stay symbolic, bound at
    launch)."""
    from ktir.dialects.ktdp import RuntimeArgType
    from ktir.interpreter import select_kernel

    if not args:
        return {}
    fn = select_kernel(module, function)
    out: dict[str, str] = {}
    for a in fn.args:
        name = a.name_hint or f"arg{a.index}"
        text = args.get(name)
        if text is None or isinstance(a.type, RuntimeArgType):
            continue
        if _is_number(text):
            out[name] = text
    return out


def scratchpad_pointers(module, args: dict[str, str] | None, function: str | None = None
                        ) -> dict[str, str]:
    """Pointer arguments whose views live in scratchpads, bound for the compiler to the
    address the interpreter seeds them at: a constant-address view, so address-assignment
    places the groups' buffers after it (reserved_bytes) instead of over the data."""
    from ktir.interpreter import select_kernel
    from ktir.interpreter.arguments import plan_kernel

    from ktir.diagnostics import KtirDiagnostic

    given = dict(args or {})
    try:
        specs, _ = plan_kernel(select_kernel(module, function), given)
    except KtirDiagnostic:  # the compiler (or the reference run) says what is wrong
        return {}
    return {s.name: str(s.address) for s in specs
            if s.kind == "pointer" and s.memory == "scratchpad" and s.name not in given}


def _is_number(text: str) -> bool:
    for parse in (lambda t: int(t, 0), float):
        try:
            parse(text)
            return True
        except ValueError:
            pass
    return False


def check_compiled(module, device) -> None:
    """What `ktir compile` and `ktir run` emit is DataflowIR `ktir emulate` accepts: the
    emulator's static acceptance check on it (the compiler has verified it already). A
    refusal is a compiler bug, reported as a located internal error, never an artifact."""
    from emulator import EmulationError, check_program
    from ktir.diagnostics import KtirDiagnostic, op_error

    try:
        check_program(module, device)
    except EmulationError as e:
        what = (f"internal error: the compiler produced DataflowIR the emulator refuses: "
                f"{e.message}")
        text = op_error(e.op, what).text if e.op is not None else f"error: {what}"
        raise KtirDiagnostic(f"{text}\nnote: this is a compiler bug; please report it with the "
                             "kernel") from None


def check_fits(source, ref, dev) -> None:
    """The buffers the reference placed one after another must lie inside the device's
    global memory (each view fitting alone is checked when compiling): an error at the
    kernel naming the buffer that does not, before anything runs."""
    from ktir.diagnostics import op_error
    from ktir.interpreter.runner import select_kernel

    size = dev.memories[dev.global_memory_kind].size
    if size is None:
        return
    for s in ref.specs:
        if s.kind == "pointer" and s.memory == "global" and s.elem is not None:
            end = (s.start + s.count) * s.elem.itemsize
            if end > size:
                raise op_error(select_kernel(source, ref.kernel),
                               f"the buffers of its arguments need {end} B of memory "
                               f"\"{dev.global_memory_kind}\" of device @{dev.name}, which "
                               f"holds {size} B (argument '{s.name}', "
                               f"{'x'.join(map(str, s.shape))}x{s.element_type}, ends at byte "
                               f"{end})")


def located_copy(module, path: Path):
    """`module` written to `path` and parsed back, so that every op has a `file:line` there
    (the comments of dumped emulator programs point at it; the compiler's own ops carry no
    source location)."""
    from emulator.sources import DumpError
    from ktir.context import load_module

    try:
        path.write_text(str(module) + "\n")
    except OSError as e:
        raise DumpError(path.parent, e) from None
    return load_module(path)


def run_and_check(kernel: str | Path, device: str | Path, *, args: dict[str, str] | None = None,
                  seed: int = 0, inputs: dict[str, np.ndarray] | None = None,
                  function: str | None = None, rtol: float = 0.0, atol: float = 0.0,
                  trace: bool = False, cycle_limit: int = 10**9,
                  loop_limit: int = DEFAULT_LOOP_LIMIT, dump_programs=None,
                  on_step=None, after_step=None, disable: Sequence[str] = (),
                  schedule_report: bool = False, on_emulate=None) -> RunReport:
    """Compile `kernel` for `device`, emulate it, compare with the reference interpreter.
    Raises `KtirDiagnostic` (compile) or `emulator.EmulationError` (execution).

    `dump_programs` (default $KTIR_DUMP_PROGRAMS): a folder for the DataflowIR
    (`<kernel>.dfir.mlir`) and the Python the emulator generates from it. `disable`: passes
    of the pipeline to skip, by name (`ktir compile --disable`). `schedule_report`: describe
    the schedule at the post_scheduling checkpoint (`RunReport.schedule`). `on_emulate`:
    called as the emulation starts (a CLI's progress line)."""
    from emulator import emulate
    from emulator.sources import dump_dir
    from ktir.context import load_module
    from ktir.interpreter import run_kernel
    from ktir.interpreter.arguments import default_notes
    from ktir.interpreter.runner import select_kernel
    from ktir_tools.work import kernel_work
    from scheduler.driver import compile_module
    from spyrecode.dialects.dataflow import ProgramUnitOp

    source = load_module(kernel)
    t0 = time.perf_counter()
    at_checkpoint: list[Any] = []

    def after(name: str, module, seconds: float) -> None:
        if schedule_report and name == "post_scheduling":
            at_checkpoint.append(module.clone())
        if after_step is not None:
            after_step(name, module, seconds)

    bound = {**compile_time_args(source, args, function),
             **scratchpad_pointers(source, args, function)}
    compiled = compile_module(source.clone(), device, args=bound,
                              disable=disable, on_step=on_step, after_step=after)
    dev = compiled.device
    check_compiled(compiled.module, dev)
    t1 = time.perf_counter()
    ref = run_kernel(source, args=args, seed=seed, inputs=inputs, function=function,
                     scratchpad_bytes=dev.scratchpad_bytes)
    work = kernel_work(select_kernel(source, function), ref.specs, ref.outputs, ref.grid, dev)
    t2 = time.perf_counter()
    mem = dev.global_memory_kind
    check_fits(source, ref, dev)
    argv, init = launch_args(ref.specs, ref.inputs, mem, ref.fixed,
                             dev.memory_for_space("ct_local"), int(np.prod(ref.grid)))
    workspace = workspace_range(compiled.module, ref.kernel, len(ref.device_bytes))
    if workspace is not None:  # the exchange's device-memory slots, after every buffer
        argv.append(workspace[2])
    program = compiled.module
    if (dump := dump_dir(dump_programs)) is not None:
        program = located_copy(program, dump / f"{Path(kernel).stem}.dfir.mlir")
    if on_emulate is not None:
        on_emulate()
    em = emulate(program, dev, entry=ref.kernel, args=argv, memory_init=init,
                 trace=trace, cycle_limit=cycle_limit, loop_limit=loop_limit,
                 dump_programs=dump, work=work)
    t3 = time.perf_counter()
    report = RunReport(ref.kernel, dev.name, int(np.prod(ref.grid)), t1 - t0, t2 - t1, t3 - t2,
                       sum(1 for o in compiled.module.walk() if isinstance(o, ProgramUnitOp)),
                       em, rtol=rtol, atol=atol, work=work, notes=default_notes(ref.specs))
    if at_checkpoint:
        from scheduler.analysis.schedule_model import describe

        report.schedule = describe(at_checkpoint[0], dev)
    checked: list[tuple[int, int]] = []
    for name, want in ref.outputs.items():
        spec = ref.buffer(name)
        et, start = spec.elem, spec.start
        assert et is not None
        assert start is not None
        if spec.memory == "scratchpad":  # a fixed scratchpad buffer the kernel wrote
            got = read_scratchpad(em, spec, dev.memory_for_space("ct_local"), ref.grid)
            report.outputs[name] = got
            report.checks.append(compare(name, got, want, rtol, atol))
            continue
        if et.decode is not None:  # bf16/df16: 16-bit patterns in memory
            got = et.decode(em.read(mem, start, want.shape, et.storage))
        else:
            got = em.read(mem, start, want.shape, want.dtype)
        report.outputs[name] = got
        report.checks.append(compare(name, got, want, rtol, atol))
        checked.append((start * et.itemsize, (start + spec.count) * et.itemsize))
    if workspace is not None:  # the compiler's own scratch space: neither side's output
        checked.append(workspace[:2])
    report.checks.append(compare_rest(em.machine.memory(mem).buf, ref.device_bytes, checked))
    return report


def workspace_range(module, kernel: str, used_bytes: int) -> tuple[int, int, int] | None:
    """(first byte, end byte, element address) of the device-memory workspace the compiled
    `kernel` asks for with its last argument (`ktdf.workspace = {bytes, element_bytes}`,
    inter-tile-exchange on a device whose cores share only device memory), placed on a stick
    boundary after the `used_bytes` the kernel's buffers take; None when it asks for none."""
    from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr
    from xdsl.dialects.func import FuncOp

    from scheduler.analysis.slots import STICK_BYTES
    from scheduler.transforms.inter_tile_exchange import WORKSPACE_ATTR

    for fn in module.walk():
        if not isinstance(fn, FuncOp) or fn.sym_name.data != kernel or fn.is_declaration:
            continue
        if fn.arg_attrs is None or not fn.arg_attrs.data:
            return None
        got = fn.arg_attrs.data[-1].data.get(WORKSPACE_ATTR)
        if not isinstance(got, DictionaryAttr):
            return None
        size, eb = (got.data[k] for k in ("bytes", "element_bytes"))
        assert isinstance(size, IntegerAttr)
        assert isinstance(eb, IntegerAttr)
        start = -(-max(used_bytes, 1) // STICK_BYTES) * STICK_BYTES
        return start, start + size.value.data, start // eb.value.data
    return None
