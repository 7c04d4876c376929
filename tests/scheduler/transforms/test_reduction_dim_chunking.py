"""reduction-dim-chunking end to end: a softmax whose rows do not fit in the scratchpad runs
in chunks on the emulator and matches the reference interpreter within the stated tolerance,
reading X from device memory once a pass (max, sum, normalise) plus the chunk partials.

Tolerance: each chunk's partial sum is rounded to the element type (f16) before the partials
are summed, where the interpreter rounds the row's sum once; that is one more rounding of the
denominator (relative 2^-11 each, two of them) before the output's own: RTOL = 2e-3.
Max is exact (no rounding), so only the sum's order changes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arch_descriptions.model.load import load_device
from arch_descriptions.model.overrides import override_description
from ktir.diagnostics import KtirDiagnostic
from ktir_tools.run import run_and_check
from tests.ktir_tools.checks import assert_matches

LIT = Path(__file__).resolve().parents[3] / "filecheck" / "scheduler" / "transforms" / \
    "reduction-dim-chunking"
KERNEL = LIT / "chunked.mlir"  # softmax, 2 rows of 4096 f16
ROWS, COLS, F16 = 2, 4096, 2
RTOL = 2e-3
SCRATCHPAD = 8192  # a row is 8 KiB: with its output row it does not fit


def small_device(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}-8k.mlir"
    path.write_text(override_description(load_device(name),
                                         {"memory.scratchpad.size": SCRATCHPAD}))
    return path


def ddr_read(report) -> int:
    return sum(v for k, v in report.emulation.bytes_per_datapath.items()
               if k.startswith("DDR->"))


@pytest.mark.parametrize("device", ["sample_device", "spyre"])
def test_long_rows_run_in_chunks(tmp_path: Path, device: str) -> None:
    report = run_and_check(KERNEL, small_device(tmp_path, device), rtol=RTOL)
    assert_matches(report)
    row_bytes = ROWS * COLS * F16
    partials = ddr_read(report) - 3 * row_bytes  # three passes over X
    assert 0 < partials <= 2 * ROWS * 4 * 64 * F16, report.to_json()  # 4 chunks' partials


def test_rows_that_fit_are_one_pass(tmp_path: Path) -> None:
    """The same kernel on the full-size scratchpad: X read once, no workspace."""
    report = run_and_check(KERNEL, "sample_device", rtol=RTOL)
    assert_matches(report)
    assert ddr_read(report) == ROWS * COLS * F16


def test_unchunkable_row_is_a_located_diagnostic(tmp_path: Path) -> None:
    text = KERNEL.read_text().replace(
        "%max_scalar = tensor.extract %row_max[%c0] : tensor<1xf16>",
        "%max_scalar = tensor.extract %row_13[%c0, %c0] : tensor<1x4096xf16>")
    bad = tmp_path / "bad.mlir"
    bad.write_text(text)
    with pytest.raises(KtirDiagnostic, match=re.escape(
            "'tensor.extract' op reads a row of 4096 columns too long for the scratchpad")):
        run_and_check(bad, small_device(tmp_path, "sample_device"))
