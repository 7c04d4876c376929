"""The four checkpoints of the pipeline and the rewrite patterns that attach to them.

A checkpoint is a fixed point of the pipeline (pipeline.md §3) where device-specific rewrites
run: `pre_mapping` (legal KTIR, nothing decided), `pre_scheduling` (ScheduleIR just built),
`post_scheduling` (final pipeline structure, memory not yet allocated), `post_lowering`
(units materialised, before DataflowIR). Two kinds of pattern run there:

* Python `RewritePattern`s registered here with `register_pattern(checkpoint, factory,
  devices=..., kinds=...)`, for every device, for devices of the given names, or for devices
  that have a resource (memory or exec unit) of one of the given kinds — a pattern for
  "every machine with an SFU" keeps working on new device files;
* PDL patterns from the device file's `patterns ["<checkpoint>", ...] { pdl.pattern ... }`
  blocks (an empty group list means every checkpoint), run by xDSL's PDL interpreter with the
  native constraints `ktdf_arch.has_feature` and `ktdf_arch.mapped_to` registered.

The pass that runs them, `ktdfarch-apply-patterns{groups=<checkpoint>}`, is placed at each
checkpoint by `scheduler.pipeline`; with nothing registered it leaves the IR untouched. A module
without a device (or with several) is an error, not a silent no-op (upstream's limit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from xdsl.context import Context
from xdsl.dialects import pdl
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriteWalker,
    RewritePattern,
)

from ktir.diagnostics import KtirDiagnostic


class Checkpoint(StrEnum):
    PRE_MAPPING = "pre_mapping"
    PRE_SCHEDULING = "pre_scheduling"
    POST_SCHEDULING = "post_scheduling"
    POST_LOWERING = "post_lowering"


@dataclass(frozen=True)
class _Entry:
    factory: Callable[[], RewritePattern]
    devices: frozenset[str] | None
    kinds: frozenset[str] | None

    def applies_to(self, device) -> bool:
        if self.devices is not None and (device is None or device.name not in self.devices):
            return False
        if self.kinds is not None and (device is None or self.kinds.isdisjoint(
                set(device.memories) | set(device.units))):
            return False
        return True


_REGISTRY: dict[Checkpoint, list[_Entry]] = {c: [] for c in Checkpoint}


def register_pattern(checkpoint: Checkpoint | str, factory: Callable[[], RewritePattern], *,
                     devices: Iterable[str] | None = None,
                     kinds: Iterable[str] | None = None) -> Callable[[], None]:
    """Run patterns from `factory()` at `checkpoint` (for the named devices/kinds only, when
    given). Returns a function that unregisters it again (tests use it)."""
    entry = _Entry(factory, None if devices is None else frozenset(devices),
                   None if kinds is None else frozenset(kinds))
    bucket = _REGISTRY[Checkpoint(checkpoint)]
    bucket.append(entry)
    return lambda: bucket.remove(entry)


def python_patterns(checkpoint: Checkpoint, device) -> list[RewritePattern]:
    return [e.factory() for e in _REGISTRY[checkpoint] if e.applies_to(device)]


# ------------------------------------------------------------------------- PDL from devices


def _native_constraints(device) -> dict[str, Callable[..., bool]]:
    """Constraints a device pattern may call (arch.md §7), closed over the device."""

    def has_feature(op: Operation, name: Attribute, *rest: Attribute) -> bool:
        feats = op.attributes.get("ktdf_arch.features")
        key = getattr(name, "data", name)
        return feats is not None and key in getattr(feats, "data", {})

    def mapped_to(op: Operation, *rest: Attribute) -> bool:
        return "ktdf_arch.maps_to" in op.attributes

    return {"ktdf_arch.has_feature": has_feature, "ktdf_arch.mapped_to": mapped_to}


def pdl_patterns(checkpoint: Checkpoint, device, ctx: Context) -> list[RewritePattern]:
    """The device's PDL patterns for this checkpoint, ready for the greedy driver."""
    if device is None:
        return []
    from xdsl.interpreters.pdl import PDLRewritePattern

    found = list(device.patterns(str(checkpoint)))
    if not found:
        return []
    holder = ModuleOp([p.clone() for p in found])  # the PDL interpreter wants a module parent
    natives = _native_constraints(device)
    return [PDLRewritePattern(r, ctx, None, natives) for r in holder.walk()
            if isinstance(r, pdl.RewriteOp)]


# ------------------------------------------------------------------------- the pass


@dataclass(frozen=True)
class KtdfarchApplyPatternsPass(ModulePass):
    """Apply the rewrite patterns attached to a checkpoint (Python ones registered in
    `scheduler.checkpoints`, PDL ones from the device's `patterns` blocks), greedily.

    `ktdfarch-apply-patterns{groups=pre_scheduling}`; several groups may be given
    (`groups=pre_mapping,post_lowering`). Without patterns the IR is unchanged.

    It is the pattern driver itself: a module pass only because the patterns to run depend
    on the module's device (its name, its resource kinds, its PDL blocks), found once.
    """

    name = "ktdfarch-apply-patterns"
    groups: tuple[str, ...] = field(default=())
    max_iterations: int = 100

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        checkpoints = []
        for g in self.groups:
            try:
                checkpoints.append(Checkpoint(g))
            except ValueError:
                raise KtirDiagnostic(
                    f"error: unknown checkpoint '{g}' (expected one of "
                    f"{', '.join(c.value for c in Checkpoint)})") from None
        from scheduler.analysis.device import device_of

        device = device_of(op, self.name)  # none (or several) is a located error, not a no-op
        patterns: list[RewritePattern] = []
        for c in checkpoints:
            patterns += python_patterns(c, device) + pdl_patterns(c, device, ctx)
        if not patterns:
            return
        # No dead-code elimination on the side: a checkpoint changes what its patterns
        # rewrite and nothing else (unused `get_unit`s, say, are still needed downstream).
        walker = PatternRewriteWalker(GreedyRewritePatternApplier(patterns, dce_enabled=False),
                                      apply_recursively=False)
        for _ in range(self.max_iterations):
            if not walker.rewrite_module(op):
                return
        raise KtirDiagnostic(f"error: the patterns of checkpoint(s) {', '.join(self.groups)} "
                             f"did not converge after {self.max_iterations} rounds")
