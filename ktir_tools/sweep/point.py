"""One point of a sweep: compile + emulate + check (ktir_tools/run.py), measured into a row.

`run_point(job)` runs in a worker (a local process or a Ray task, maybe on another machine), so
a `Job` carries the kernel's and the device's text, not paths: the worker writes them into its
own folder and runs them there, and diagnostics are given back naming the kernel file as the
sweep file wrote it and the device by its label. A point that fails (a kernel that does not
fit the scratchpad, an emulation error, even a compiler bug) is a row with its diagnostic;
only the loss of the worker itself is not (the executor reports that).
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MEASURES: dict[str, type] = {
    "status": str, "match": bool, "cycles": int, "bound_cycles": int, "bound": str,
    "binding_resource": str, "efficiency": float, "element_ops": int,
    "compulsory_bytes": int, "arithmetic_intensity": float, "ops_per_cycle": float,
    "peak_ops_per_cycle": float, "peak_bytes_per_cycle": float, "round_trip_cycles": int,
    "tiles": int, "programs": int, "max_abs_err": float, "scratchpad_peak_bytes": int,
    "bytes_per_datapath": str, "compile_s": float, "reference_s": float, "emulate_s": float,
    "error": str,
}
"""The columns a point measures, with their types (None where a point could not say)."""

TIMINGS = ("compile_s", "reference_s", "emulate_s")
"""Columns that differ from run to run (wall times); everything else is deterministic."""


@dataclass(frozen=True)
class Job:
    """What a worker needs to run one point."""

    key: str                      # the point's content hash
    kernel_file: str              # as the sweep file names it (for diagnostics)
    kernel_text: str
    device_label: str             # `spyre{memory.scratchpad.size=65536}`
    device_text: str
    scratchpad_kind: str
    args: tuple[tuple[str, str], ...] = ()
    seed: int = 0
    function: str | None = None
    rtol: float = 0.0
    atol: float = 0.0
    disable: tuple[str, ...] = ()
    cycle_limit: int = 10**9


_WORKDIR: list[Path] = []


def _workdir() -> Path:
    """This process's folder for kernel and device files (removed when it exits)."""
    if not _WORKDIR:
        path = Path(tempfile.mkdtemp(prefix="ktir-sweep-"))
        atexit.register(shutil.rmtree, path, ignore_errors=True)
        _WORKDIR.append(path)
    return _WORKDIR[0]


def _materialise(text: str, name: str) -> Path:
    """`text` in a file called `name` under a folder named by its content: the same device
    text is the same path, so the device model cache (per path and content) serves it."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    path = _workdir() / digest / name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    return path


def placed_bytes(module, memory_kind: str) -> int:
    """The most bytes address-assignment placed in one instance of `memory_kind` (the largest
    compute group): each placed buffer is a constant address cast to a memref of that
    memory."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import (
        IntegerAttr,
        MemRefType,
        StringAttr,
        UnrealizedConversionCastOp,
    )

    from scheduler.transforms.address_assignment import buffer_bytes, element_bytes

    peak = 0
    for op in module.walk():
        if not isinstance(op, UnrealizedConversionCastOp) or len(op.results) != 1:
            continue
        t = op.results[0].type
        if not isinstance(t, MemRefType) or t.memory_space != StringAttr(memory_kind):
            continue
        owner = op.operands[0].owner if op.operands else None
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
            peak = max(peak, owner.value.value.data * element_bytes(t) + buffer_bytes(t))
    return peak


def _clean(text: str, replacements: dict[str, str]) -> str:
    for old, new in replacements.items():
        text = text.replace(old, new)
    return text


def run_point(job: Job) -> dict[str, Any]:
    """The measured columns of one point (MEASURES)."""
    from emulator import EmulationError
    from ktir.errors import KtirDiagnostic
    from ktir_tools.run import run_and_check

    row: dict[str, Any] = dict.fromkeys(MEASURES)
    kernel = _materialise(job.kernel_text, Path(job.kernel_file).name)
    device = _materialise(job.device_text, "device.mlir")
    names = {str(kernel): job.kernel_file, str(device): job.device_label}
    peak: list[int] = []

    def after_step(name: str, module, seconds: float) -> None:
        if name == "address-assignment":
            peak.append(placed_bytes(module, job.scratchpad_kind))

    t0 = time.perf_counter()
    try:
        report = run_and_check(kernel, device, args=dict(job.args), seed=job.seed,
                               function=job.function, rtol=job.rtol, atol=job.atol,
                               cycle_limit=job.cycle_limit, disable=job.disable,
                               after_step=after_step)
    except (KtirDiagnostic, EmulationError) as e:
        row.update(status="error", error=_clean(e.text, names),
                   compile_s=time.perf_counter() - t0)
        row["scratchpad_peak_bytes"] = peak[0] if peak else None
        return row
    except Exception as e:  # a compiler or emulator bug: still a row, with what it said
        row.update(status="error", error=_clean(f"internal error: {type(e).__name__}: {e}",
                                                names))
        return row
    row.update(_measure(report))
    row["scratchpad_peak_bytes"] = peak[0] if peak else None
    return row


def _measure(report) -> dict[str, Any]:
    em, work = report.emulation, report.work
    roof = em.roofline
    ops = sum(work.element_ops.values())
    nbytes = sum(work.reads.values()) + sum(work.writes.values())
    compute = [t for t in roof.terms if t.resource.kind == "compute"]
    moving = [t.cycles for t in roof.terms if t.resource.kind != "compute"]
    out: dict[str, Any] = {
        "status": "ok" if report.match else "mismatch", "match": report.match,
        "cycles": em.cycles, "bound_cycles": roof.cycles, "bound": roof.bound,
        "binding_resource": roof.binding_resource, "efficiency": em.efficiency,
        "element_ops": ops, "compulsory_bytes": nbytes,
        "arithmetic_intensity": ops / nbytes if nbytes else None,
        "ops_per_cycle": ops / em.cycles if em.cycles else None,
        "peak_ops_per_cycle": (compute[0].amount / compute[0].cycles
                               if compute and compute[0].cycles else None),
        "peak_bytes_per_cycle": nbytes / max(moving) if moving and max(moving) else None,
        "round_trip_cycles": roof.latency, "tiles": report.tiles, "programs": report.programs,
        "max_abs_err": report.max_abs_err,
        "bytes_per_datapath": json.dumps(dict(sorted(em.bytes_per_datapath.items()))),
        "compile_s": report.compile_seconds, "reference_s": report.reference_seconds,
        "emulate_s": report.emulate_seconds,
    }
    if not report.match:
        bad = [c for c in report.checks if not c.match]
        out["error"] = "; ".join(f"{c.name}: {c.mismatches} element(s) differ from the "
                                 f"reference (first at {list(c.first_mismatch or ())})"
                                 for c in bad) or "the kernel wrote no buffer to check"
    return out
