"""unroll-compute-loops on the softmax example: a second run changes nothing (the fused
steps' chain is covered by their issue time), and the unrolled schedule is bitwise equal to
the reference interpreter on both shipped devices."""

from __future__ import annotations

from pathlib import Path

import pytest

from ktir.context import load_module, make_context
from ktir_tools.run import run_and_check
from scheduler.driver import compile_module
from scheduler.transforms.unroll_compute_loops import UnrollComputeLoopsPass

SOFTMAX = Path(__file__).parents[3] / "examples" / "kernels" / "softmax.mlir"


def test_second_run_changes_nothing() -> None:
    module = compile_module(load_module(SOFTMAX), "spyre", emit="ktdf", args={"M": "64"},
                            stop_at="unroll-compute-loops").module
    once = str(module)
    assert once.count("ktdf.read_from_fifo") == 9  # the max alone, the others four per step
    UnrollComputeLoopsPass().apply(make_context(), module)
    assert str(module) == once


@pytest.mark.parametrize("device", ["spyre", "sample_device"])
def test_unrolled_softmax_is_bitwise(device: str) -> None:
    on = run_and_check(SOFTMAX, device, args={"M": "70"})
    off = run_and_check(SOFTMAX, device, args={"M": "70"}, disable=("unroll-compute-loops",))
    assert on.match
    assert off.match
    assert on.emulation.cycles < off.emulation.cycles
