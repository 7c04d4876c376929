"""The four checkpoints are live: a Python pattern and a device PDL pattern fire at the
checkpoint they are attached to and at no other step of the pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import arith
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from arch_descriptions.model.load import DEVICES_DIR
from ktir.context import make_context, parse_module
from ktir.diagnostics import KtirDiagnostic
from scheduler.checkpoints import Checkpoint, KtdfarchApplyPatternsPass, register_pattern
from scheduler.pipeline import FULL, instantiate, select
from scheduler.transforms.ensure_device_declaration import EnsureDeviceDeclarationPass
from tests.strategies.kernels import ElementwiseSpec, elementwise_kernel

KERNEL = elementwise_kernel(ElementwiseSpec(rows=4, cols=64, grid=2, chain=(("add", 0, 1),)))


def _is_const(v) -> bool:
    return isinstance(v.owner, arith.ConstantOp)


class CommuteConstantFactor(RewritePattern):
    """`muli %x, %c` -> `muli %c, %x` for a constant %c; records the step it ran in."""

    def __init__(self, log: list[str], step: list[str]):
        self.log, self.step = log, step

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.MuliOp, rewriter: PatternRewriter) -> None:
        self.log.append(self.step[0])
        if _is_const(op.rhs) and not _is_const(op.lhs):
            rewriter.replace(op, arith.MuliOp(op.rhs, op.lhs))


def _commuted(module) -> int:
    """How many `muli` have their constant factor first (the kernel writes it second)."""
    return sum(1 for o in module.walk() if isinstance(o, arith.MuliOp)
               and _is_const(o.lhs) and not _is_const(o.rhs))


def _run(device: str, on_step=None) -> list[tuple[str, int]]:
    """Run the whole pipeline step by step; per step, its name and `_commuted` after it."""
    ctx = make_context()
    module = parse_module(KERNEL, "kernel.mlir")
    EnsureDeviceDeclarationPass(device=device).apply(ctx, module)
    trace = []
    steps = select(FULL)
    for step, p in zip(steps, instantiate(steps)):
        if on_step is not None:
            on_step(str(step))
        p.apply(ctx, module)
        module.verify()
        trace.append((str(step), _commuted(module)))
    return trace


@pytest.mark.parametrize("checkpoint", list(Checkpoint))
def test_python_pattern_fires_only_at_its_checkpoint(checkpoint):
    log: list[str] = []
    step = [""]
    remove = register_pattern(checkpoint, lambda: CommuteConstantFactor(log, step))
    try:
        trace = _run("sample_device", on_step=lambda s: step.__setitem__(0, s))
    finally:
        remove()
    assert log
    assert set(log) == {checkpoint.value}
    names = [s for s, _ in trace]
    at = names.index(checkpoint.value)
    assert all(n == 0 for _, n in trace[:at])  # nothing rewritten before the checkpoint
    assert trace[at][1] > 0  # the checkpoint rewrote the index math


def test_pattern_filters_by_device_name_and_kind():
    log: list[str] = []
    step = [""]

    def track(s: str) -> None:
        step[0] = s

    removers = [register_pattern(Checkpoint.PRE_MAPPING, lambda: CommuteConstantFactor(log, step),
                                 devices=["spyre"]),
                register_pattern(Checkpoint.POST_LOWERING,
                                 lambda: CommuteConstantFactor(log, step), kinds=["SFU"])]
    try:
        _run("sample_device", on_step=track)  # has an SFU, is not spyre
        assert set(log) == {"post_lowering"}
        log.clear()
        _run("spyre", on_step=track)  # is spyre, has no SFU
        assert set(log) == {"pre_mapping"}
    finally:
        for r in removers:
            r()
    log.clear()
    _run("sample_device", on_step=track)
    assert log == []  # unregistered again


PDL_COMMUTE = """
  patterns ["{groups}"] {{
    pdl.pattern @commute_constant_factor : benefit(1) {{
      %t = pdl.type : index
      %x = pdl.operand
      %v = pdl.attribute
      %cst = pdl.operation "arith.constant" {{"value" = %v}} -> (%t : !pdl.type)
      %c = pdl.result 0 of %cst
      %mul = pdl.operation "arith.muli" (%x, %c : !pdl.value, !pdl.value) -> (%t : !pdl.type)
      pdl.rewrite %mul {{
        %new = pdl.operation "arith.muli" (%c, %x : !pdl.value, !pdl.value) -> (%t : !pdl.type)
        pdl.replace %mul with %new
      }}
    }}
  }}
"""


def _device_with_patterns(tmp_path: Path, groups: str) -> Path:
    """sample_device plus a `patterns` block, as a hardware architect would write it."""
    text = (DEVICES_DIR / "sample_device.mlir").read_text().rstrip()
    assert text.endswith("}")
    path = tmp_path / f"sample_{groups}.mlir"
    path.write_text(text[:-1] + PDL_COMMUTE.format(groups=groups) + "}\n")
    return path


@pytest.mark.parametrize("checkpoint", list(Checkpoint))
def test_device_pdl_pattern_fires_only_at_its_checkpoint(tmp_path, checkpoint):
    trace = _run(str(_device_with_patterns(tmp_path, checkpoint.value)))
    names = [s for s, _ in trace]
    at = names.index(checkpoint.value)
    changed = [names[i] for i in range(len(trace))
               if trace[i][1] != (trace[i - 1][1] if i else 0)]
    # The first change is made by the checkpoint's own step; a pattern running earlier (at any
    # other checkpoint) would have changed the IR before it.
    assert changed
    assert changed[0] == checkpoint.value
    assert all(n == 0 for _, n in trace[:at])


def test_unknown_checkpoint_is_a_diagnostic():
    ctx = make_context()
    module = parse_module(KERNEL, "kernel.mlir")
    with pytest.raises(KtirDiagnostic, match="unknown checkpoint 'pre_mappin'"):
        KtdfarchApplyPatternsPass(groups=("pre_mappin",)).apply(ctx, module)
