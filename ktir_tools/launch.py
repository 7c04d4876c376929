"""Compile a kernel to SpyreCode, and launch an artifact the way `ktir launch` does.

`compile_spyrecode("add.mlir", "spyre", out="out/add")` runs the pipeline, checks that the
emulator accepts the DataflowIR (as `ktir compile` does) and writes the verified artifact.
`launch_kernel("out/add")` prepares it (or takes a prepared plan), plans the buffers from the
artifact's KTIR source as the reference interpreter does (`--arg` values, `--inputs` arrays,
seeded inputs otherwise), places them in a global-memory image, passes byte pointers, scalars
and shapes by position, launches, and reads every buffer back; with `check=True` the
reference interpreter runs with the same arguments and inputs and every buffer it wrote, and
the rest of global memory, is compared as in `ktir run` (ktir_tools/run.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ktir.limits import DEFAULT_LOOP_LIMIT
from ktir_tools.run import (
    RunReport,
    check_compiled,
    check_fits,
    compare,
    compare_rest,
    stored,
    workspace_range,
)
from ktir_tools.runtime import Plan, launch, memory_image, prepare


def compile_spyrecode(kernel: str | Path, device: str | Path, *,
                      args: dict[str, str] | None = None, out: str | Path | None = None,
                      on_step=None, after_step=None) -> dict[str, bytes]:
    """The artifact's files for `kernel` compiled for `device` with scalar `args` bound;
    written (verified, atomically) to `out` (a directory, or an archive if it ends in .tar)."""
    from ktir.context import load_module
    from ktir.interpreter import select_kernel
    from ktir.limits import read_limited
    from scheduler.driver import compile_module
    from spyrecode.artifact import build_artifact, write_artifact

    text = read_limited(kernel).decode("utf-8")
    source = load_module(kernel)
    fn = select_kernel(source)
    bound = dict(args or {})
    compiled = compile_module(source.clone(), device, args=bound, on_step=on_step,
                              after_step=after_step)
    check_compiled(compiled.module, compiled.device)
    if workspace_range(compiled.module, fn.sym_name.data, 0) is not None:
        from ktir.diagnostics import op_error

        raise op_error(fn, f"exchanges partials between tiles through a device-memory "
                           f"workspace on device @{compiled.device.name} (its cores share no "
                           "scratchpad path), which a SpyreCode artifact does not carry yet: "
                           "run it with `ktir run`, or compile for a device with a ring "
                           "(e.g. spyre)")
    files = build_artifact(fn, text, compiled.module, compiled.device, bound)
    if out is not None:
        write_artifact(files, out)
    return files


@dataclass
class LaunchReport(RunReport):
    prepare_seconds: float = 0.0
    launch_seconds: float = 0.0  # the whole launch (binding, memory in and out, emulation)
    overhead_seconds: float = 0.0  # launch minus emulation
    checked: bool = False
    symbols: dict[int, Any] | None = None


def _plan_buffers(fn, args: dict[str, str], inputs: dict[str, Any] | None, seed: int):
    """The reference interpreter's argument plan and inputs without running it (what
    `run_kernel` computes before its run)."""
    from ktir.diagnostics import KtirDiagnostic, op_error
    from ktir.interpreter import RunResult
    from ktir.interpreter.arguments import check_input, kernel_grid_of, make_inputs, plan_kernel

    given = dict(inputs or {})
    overrides: dict[str, Any] = dict(args)
    arrays = {k: v for k, v in given.items() if np.ndim(v) or isinstance(v, np.ndarray)}
    for k, v in given.items():
        if k not in arrays:
            overrides.setdefault(k, repr(v) if isinstance(v, float) else str(v))
    try:
        specs, fixed = plan_kernel(fn, overrides)
    except KtirDiagnostic:
        if not arrays:
            raise
        names = {a.name_hint or f"arg{a.index}" for a in fn.args}
        shaped = {**overrides, **{k: tuple(np.shape(v)) for k, v in arrays.items()
                                  if k in names and k not in overrides}}
        specs, fixed = plan_kernel(fn, shaped)
    by_name = {s.name: s for s in (*specs, *fixed)}
    data = make_inputs(specs + fixed, seed)
    for k, v in arrays.items():
        if k not in by_name or by_name[k].kind not in ("pointer", "fixed"):
            raise op_error(fn, f"has no buffer argument or fixed buffer named '{k}'")
        data[k] = check_input(by_name[k], v)
    return RunResult(fn.sym_name.data, kernel_grid_of(fn), specs, data, {}, fixed)


def _byte_pointer(spec) -> int:
    """The byte pointer of a pointer argument the interpreter placed (element address)."""
    assert spec.address is not None
    assert spec.elem is not None
    return spec.address * spec.elem.itemsize


def _check_values(plan: Plan, given: dict[str, str], inputs: dict[str, Any] | None) -> None:
    """The `--arg` values of shapes and scalars checked against symbols.json first, so that a
    violated constraint or a missing value names the symbol (as `launch` would)."""
    from ktir_tools.runtime import check_value, missing

    numbers = {k: v for k, v in (inputs or {}).items() if not np.ndim(v)}
    for s in plan.arguments:
        if s.kind not in ("shape", "scalar"):
            continue
        if s.name in given:
            text = given[s.name]
            try:
                value: Any = int(text, 0)
            except ValueError:
                try:
                    value = float(text)
                except ValueError:
                    continue  # the planner names what it cannot read
            check_value(plan, s, value)
        elif s.name in numbers:
            check_value(plan, s, numbers[s.name].item())
        elif s.value is None and not (s.kind == "shape" and s.upperbound is not None):
            raise missing(plan, s)  # (a runtime_arg takes the largest value it admits)


def launch_kernel(artifact: str | Path | None = None, device: Any = None, *,
                  plan: Plan | None = None, args: dict[str, str] | None = None,
                  inputs: dict[str, Any] | None = None, seed: int = 0, check: bool = False,
                  rtol: float = 0.0, atol: float = 0.0, cycle_limit: int = 10**9,
                  loop_limit: int = DEFAULT_LOOP_LIMIT) -> LaunchReport:
    """One launch of an artifact (prepared here unless `plan` is given); see the module
    docstring. Raises `KtirDiagnostic` or `emulator.EmulationError`."""
    from ktir.context import parse_module
    from ktir.interpreter import run_kernel, select_kernel
    from ktir.interpreter.arguments import default_notes
    from ktir_tools.work import kernel_work

    if plan is None:
        assert artifact is not None
        plan = prepare(artifact, device)
    art, dev = plan.artifact, plan.device
    source = parse_module(art.text("kernel.mlir"), f"{art.source}/kernel.mlir")
    fn = select_kernel(source, art.kernel)
    given = {**art.compile_args, **(args or {})}
    _check_values(plan, given, inputs)
    t0 = time.perf_counter()
    work = None
    if check:
        ref = run_kernel(source, args=given, seed=seed, inputs=inputs, function=art.kernel,
                         scratchpad_bytes=dev.scratchpad_bytes)
        work = kernel_work(fn, ref.specs, ref.outputs, ref.grid, dev)
    else:
        ref = _plan_buffers(fn, given, inputs, seed)
    t1 = time.perf_counter()
    check_fits(source, ref, dev)
    mem = dev.global_memory_kind
    buffers = [(s.start * s.elem.itemsize, stored(s, ref.inputs[s.name]))
               for s in (*ref.specs, *ref.fixed)
               if s.kind in ("pointer", "fixed") and s.elem is not None and s.start is not None]
    argv = [_byte_pointer(s) if s.kind == "pointer" else s.value for s in ref.specs]
    result = launch(plan, argv, {mem: memory_image(buffers)}, cycle_limit=cycle_limit,
                    loop_limit=loop_limit, work=work)
    em = result.emulation
    report = LaunchReport(ref.kernel, dev.name, int(np.prod(ref.grid)), 0.0, t1 - t0,
                          em.wall_seconds, plan.programs, em, rtol=rtol, atol=atol,
                          prepare_seconds=plan.seconds, launch_seconds=result.seconds,
                          overhead_seconds=result.overhead_seconds, checked=check,
                          symbols=result.symbols, notes=default_notes(ref.specs))
    names = [s.name for s in (*ref.specs, *ref.fixed)
             if s.kind in ("pointer", "fixed") and s.memory == "global" and s.elem is not None]
    names = [*ref.outputs, *(n for n in names if n not in ref.outputs)]
    checked: list[tuple[int, int]] = []
    for name in names:
        spec = ref.buffer(name)
        et = spec.elem
        assert et is not None
        assert spec.start is not None
        assert spec.shape is not None
        raw = em.read(mem, spec.start, spec.shape, et.storage)
        got = et.decode(raw) if et.decode is not None else raw
        report.outputs[name] = got
        if name in ref.outputs:
            report.checks.append(compare(name, got, ref.outputs[name], rtol, atol))
            checked.append((spec.start * et.itemsize, (spec.start + spec.count) * et.itemsize))
    if check:
        report.checks.append(compare_rest(em.machine.memory(mem).buf, ref.device_bytes,
                                          checked))
    return report
