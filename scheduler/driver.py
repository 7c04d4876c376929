"""Compile a KTIR kernel for a device: the pipeline of `scheduler.pipeline`, run in process.

`compile_kernel("add.mlir", "spyre")` parses and verifies the kernel, declares the device,
runs the steps one by one and returns the module with per-step timings. The IR is verified
where each group of the pipeline ends (its contract holds there); `verify_each=True` verifies
after every step, so a broken pass is caught where it breaks (verification is about half of
the compile time, hence not the default). `ktir compile`, `ktir run` and the benchmarks
all go through here, so what they measure and print is the same pipeline `ktir-opt -p
'ktir-to-dfir{device=...}'` runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from ktir.diagnostics import KtirDiagnostic, verify_located
from scheduler.pipeline import BACKEND, FRONTEND, FULL, SCHEDULING, Step, instantiate, select

EMIT = {"ktdf": FRONTEND + SCHEDULING, "dfir": FULL}
"""What `--emit` stops after: scheduled ScheduleIR, or DataflowIR."""

_GROUP_ENDS = {str(g[-1]) for g in (FRONTEND, SCHEDULING, BACKEND)}


@dataclass
class StepTiming:
    step: str
    seconds: float


@dataclass
class CompileResult:
    module: ModuleOp
    device: object  # arch_descriptions.model.Device
    steps: list[StepTiming] = field(default_factory=list)
    parse_seconds: float = 0.0

    @property
    def seconds(self) -> float:
        """Wall time of the pipeline (not of parsing)."""
        return sum(s.seconds for s in self.steps)

    def split_files(self) -> dict[str, str]:
        from scheduler.transforms.emit_split_dfir import split_files

        return split_files(self.module)


def pipeline_steps(emit: str = "dfir", *, stop_at: str | None = None,
                   disable: Sequence[str] = ()) -> list[Step]:
    if emit not in EMIT:
        raise KtirDiagnostic(f"error: --emit must be one of {', '.join(EMIT)}, not '{emit}'")
    return select(EMIT[emit], disable=disable, stop_at=stop_at)


def compile_module(module: ModuleOp, device: str | Path, *, emit: str = "dfir",
                   stop_at: str | None = None, disable: Sequence[str] = (),
                   args: dict[str, str] | None = None,
                   ctx: Context | None = None, verify_each: bool = False,
                   on_step: Callable[[int, int, str], None] | None = None,
                   after_step: Callable[[str, ModuleOp, float], None] | None = None
                   ) -> CompileResult:
    """Compile `module` (changed in place) for `device`, a shipped name or a device file.

    `args` binds scalar kernel arguments to values first (`bind-arguments`: NAME -> VALUE
    text). `on_step(i, n, name)` is called before step i of n (progress); `after_step(name,
    module)` after it, with its time in seconds (progress, `--print-ir-after-all`)."""
    from arch_descriptions.model import device_from_module
    from ktir.context import make_context
    from scheduler.transforms.bind_arguments import BindArgumentsPass
    from scheduler.transforms.ensure_device_declaration import EnsureDeviceDeclarationPass

    ctx = ctx or make_context()
    steps = pipeline_steps(emit, stop_at=stop_at, disable=disable)
    if args:
        BindArgumentsPass(values=tuple(f"{k}={v}" for k, v in args.items())).apply(ctx, module)
    EnsureDeviceDeclarationPass(device=str(device)).apply(ctx, module)
    result = CompileResult(module, device_from_module(module))
    for i, (step, p) in enumerate(zip(steps, instantiate(steps))):
        name = str(step)
        if on_step is not None:
            on_step(i, len(steps), name)
        t0 = time.perf_counter()
        p.apply(ctx, module)
        if verify_each or name in _GROUP_ENDS or i == len(steps) - 1:
            try:
                verify_located(module, ctx)
            except KtirDiagnostic as e:  # a pass produced invalid IR: say where
                raise KtirDiagnostic(
                    f"{e}\nnote: the IR no longer verifies after step '{name}' (a compiler bug: "
                    "please report it with the kernel; --verify-each names the pass)") from None
        result.steps.append(StepTiming(name, time.perf_counter() - t0))
        if after_step is not None:
            after_step(name, module, result.steps[-1].seconds)
    return result


def compile_kernel(kernel: str | Path, device: str | Path, **options) -> CompileResult:
    """Parse and verify the KTIR file `kernel`, then `compile_module` it."""
    from ktir.context import load_module

    t0 = time.perf_counter()
    module = load_module(kernel)
    parse_seconds = time.perf_counter() - t0
    result = compile_module(module, device, **options)
    result.parse_seconds = parse_seconds
    return result
