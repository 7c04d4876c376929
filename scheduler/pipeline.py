"""The pass pipeline KTIR -> ScheduleIR -> DataflowIR, declared once; every driver reads it.

Three groups, each with a fixed IR contract at its boundaries (pipeline.md §1), and the four
checkpoints in their places (pipeline.md §3). A step is a pass name or a `Checkpoint`; a
checkpoint runs `ktdfarch-apply-patterns{groups=<checkpoint>}`. The order follows upstream's
`lib/Pipeline.cpp` for the passes this project implements.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ktir.diagnostics import KtirDiagnostic
from scheduler.checkpoints import Checkpoint, KtdfarchApplyPatternsPass

Step = str | Checkpoint

# KTIR (+ a device declaration) -> one ktdf Load/Compute/Store pipeline per compute group,
# each group in `module @local_schedule_N`, views cast to the device's memory kinds. Loops
# run on the host: first those strided by the tile id count iterations, and those carrying
# values are unrolled (this project's passes, like folding bitcasts of constants and counting
# view coordinates from 0; upstream has none of them).
FRONTEND: tuple[Step, ...] = (
    Checkpoint.PRE_MAPPING,
    "fold-constant-bitcasts",
    "normalize-view-origins",
    "normalize-tile-loops",
    "reduction-dim-chunking",
    "unroll-carried-loops",
    "inter-tile-exchange",
    "single-tile-branches",
    "share-invariant-loads",
    "split-distributed-views",
    "fold-reshapes-into-views",
    "generalize-contractions",
    "split-compute-chains",
    "ktir-legality-check",
    "compute-group-extraction",
    "tile-invariant-groups",
    "construct-three-stage-pipeline",
)

# ktdf on memories and FIFOs -> routed through the memory hierarchy, addresses assigned,
# 1-D grid.
SCHEDULING: tuple[Step, ...] = (
    Checkpoint.PRE_SCHEDULING,
    "path-expansion",
    "scalar-broadcast-legalization",
    "normalize-scf-for-loops",
    "tile-scf-for-loops",
    "stage-coarsening",
    "elide-copy-stages",
    "reduction-loop-exposure",
    "loop-invariant-code-motion",
    "unroll-compute-loops",
    "interleave-compute-chains",
    "sink-host-loops",
    "broadcast-promotion",
    "double-buffering",
    "parallelize-loops-across-instances",
    "tile-size-selection",
    "affine-min-canonicalization",
    "subsume-linearize-index",
    "fuse-compute-groups",
    Checkpoint.POST_SCHEDULING,
    "address-assignment",
    "normalize-grid-to-1d",
)

# scheduled ktdf -> DataflowIR: units per core, signals, one program per unit type, wrapped
# two-level per compute group.
BACKEND: tuple[Step, ...] = (
    "ktdf-to-ktdflowering",
    Checkpoint.POST_LOWERING,
    "ktdflowering-to-dfir",
    "wrap-program-dfir",
)

# The optimisation passes: each one is left out by `--disable NAME`, all of them by `-O0`
# (the naive schedule: one vector per transfer behind a handshake, one buffer per stream).
OPTIMISATIONS: tuple[str, ...] = (
    "share-invariant-loads",
    "scalar-broadcast-legalization",
    "stage-coarsening",
    "elide-copy-stages",
    "loop-invariant-code-motion",
    "unroll-compute-loops",
    "interleave-compute-chains",
    "sink-host-loops",
    "broadcast-promotion",
    "double-buffering",
    "parallelize-loops-across-instances",
    "fuse-compute-groups",
)

GROUPS: dict[str, tuple[Step, ...]] = {
    "ktir-to-ktdf": FRONTEND,
    "ktdf-schedule": SCHEDULING,
    "ktdf-to-dfir": BACKEND,
}

FULL: tuple[Step, ...] = FRONTEND + SCHEDULING + BACKEND


def step_name(step: Step) -> str:
    return f"{KtdfarchApplyPatternsPass.name}{{groups={step}}}" if isinstance(
        step, Checkpoint) else step


def spec_string(steps: Sequence[Step]) -> str:
    """The `-p` pipeline text of a sequence of steps."""
    return ",".join(step_name(s) for s in steps)


def pass_names() -> list[str]:
    return [s for s in FULL if not isinstance(s, Checkpoint)]


def _check_names(names: Iterable[str], what: str) -> None:
    known = set(pass_names())
    for n in names:
        if n not in known:
            raise KtirDiagnostic(f"error: unknown pass '{n}' to {what} (the pipeline's passes: "
                                 f"{', '.join(pass_names())})")


def disabled_passes(disable: Iterable[str] = (), opt_level: int = 1) -> tuple[str, ...]:
    """The passes to skip: `disable`, plus every optimisation pass at `opt_level` 0."""
    out = list(dict.fromkeys(disable))
    _check_names(out, "disable")
    if opt_level < 0:
        raise KtirDiagnostic(f"error: optimisation level must be 0 or more, got {opt_level}")
    if opt_level == 0:
        out += [p for p in OPTIMISATIONS if p not in out]
    return tuple(out)


def select(steps: Sequence[Step] = FULL, *, disable: Iterable[str] = (),
           stop_at: str | None = None) -> list[Step]:
    """The steps to run: without the disabled passes, up to and including `stop_at` (a
    checkpoint or a pass name)."""
    disable = tuple(disable)
    _check_names(disable, "disable")
    out: list[Step] = []
    for s in steps:
        if isinstance(s, Checkpoint) or s not in disable:
            out.append(s)
        if stop_at is not None and str(s) == stop_at:  # also where a disabled pass would run
            return out
    if stop_at is not None:
        valid = [str(s) for s in steps]
        if stop_at not in valid:
            raise KtirDiagnostic(f"error: cannot stop at '{stop_at}': neither a checkpoint nor "
                                 f"a pass of this pipeline ({', '.join(valid)})")
    return out


def instantiate(steps: Sequence[Step]) -> list[ModulePass]:
    """Pass objects for the steps (passes are looked up in the registry by name)."""
    from scheduler import get_all_passes

    registry = get_all_passes()
    out: list[ModulePass] = []
    for s in steps:
        if isinstance(s, Checkpoint):
            out.append(KtdfarchApplyPatternsPass(groups=(s.value,)))
        else:
            out.append(registry[s]()())
    return out


def _run(steps: Sequence[Step], ctx: Context, op: ModuleOp) -> None:
    for p in instantiate(steps):
        p.apply(ctx, op)


@dataclass(frozen=True)
class KtirToDfirPass(ModulePass):
    """The whole pipeline: `ktir-to-dfir{device=spyre}` (device: a shipped name or a file).

    Inserts the device declaration when the module has none (ensure-device-declaration),
    then runs FRONTEND + SCHEDULING + BACKEND. `disable` skips passes by name, `stop_at`
    ends after a checkpoint or pass. A composite, not patterns: it runs the passes above,
    each with its own patterns or analysis, in order.
    """

    name = "ktir-to-dfir"
    device: str | None = None
    disable: tuple[str, ...] = field(default=())
    stop_at: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.device is not None:
            from scheduler.transforms.ensure_device_declaration import (
                EnsureDeviceDeclarationPass,
            )

            EnsureDeviceDeclarationPass(device=self.device).apply(ctx, op)
        _run(select(FULL, disable=self.disable, stop_at=self.stop_at), ctx, op)


@dataclass(frozen=True)
class _GroupPass(ModulePass):
    """One group of the pipeline as a pass (a composite: its passes in order); `disable`
    skips passes of the group by name."""

    steps: ClassVar[tuple[Step, ...]] = ()
    disable: tuple[str, ...] = field(default=())

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _run(select(self.steps, disable=self.disable), ctx, op)


@dataclass(frozen=True)
class KtirToKtdfPass(_GroupPass):
    """The frontend group alone (KTIR -> ScheduleIR); needs a device declaration."""

    name = "ktir-to-ktdf"
    steps = FRONTEND


@dataclass(frozen=True)
class KtdfSchedulePass(_GroupPass):
    """The scheduling group alone (route, allocate, flatten the grid)."""

    name = "ktdf-schedule"
    steps = SCHEDULING


@dataclass(frozen=True)
class KtdfToDfirPass(_GroupPass):
    """The backend group alone (scheduled ScheduleIR -> DataflowIR)."""

    name = "ktdf-to-dfir"
    steps = BACKEND
