"""Gathers end to end: kernels reading through `ktdp.construct_indirect_access_tile` compile,
run on the emulator and match the reference interpreter; what the scheduler does not gather
yet (an index per lane, a scatter) is a located diagnostic."""

from __future__ import annotations

from pathlib import Path

import pytest

from ktir.diagnostics import KtirDiagnostic
from ktir_tools.run import run_and_check

KERNELS = Path(__file__).resolve().parent / "kernels"
RFC = Path(__file__).resolve().parents[2] / "filecheck" / "ktir" / "interpreter" / "Inputs"


@pytest.mark.parametrize("device", ["sample_device", "spyre", "stream_device"])
def test_indexed_add_matches_reference(device: str) -> None:
    # a 4-D table row picked by an i64 index per tile (grid 2 x 8), added to a direct tile
    report = run_and_check(KERNELS / "indexed_add_small.mlir", device,
                           args={"dim1_start": "0"})
    assert report.checks, report.to_json()
    assert report.match, report.to_json()
    em = report.emulation
    assert em.cycles >= em.roofline_cycles > 0


@pytest.mark.parametrize(("kernel", "where", "why"), [
    ("indirect-access-copy-elements", "ktdp.load", "a gather of one index per lane"),
    ("indirect-scatter-elements", "ktdp.store", r"stores through indirect access tiles"),
])
def test_unsupported_indirect_tiles_are_located(kernel: str, where: str, why: str) -> None:
    with pytest.raises(KtirDiagnostic, match=rf"{kernel}\.mlir:\d+:\d+: error: '{where}' op "
                                             rf".*{why}.*not supported by the scheduler yet"):
        run_and_check(RFC / f"{kernel}.mlir", "spyre")
