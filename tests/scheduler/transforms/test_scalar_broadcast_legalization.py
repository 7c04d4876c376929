"""scalar-broadcast-legalization end to end: a column broadcast (each row of x scaled by its own
value of c) compiles with the load unit splatting c into whole vectors, and matches the
reference interpreter bit for bit on every shipped device, with and without the pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from ktir_tools.run import run_and_check
from scheduler.driver import compile_kernel

KERNEL = Path(__file__).resolve().parents[2] / "ktir_tools" / "kernels" / "row_scale.mlir"


@pytest.mark.parametrize("device", ["spyre", "sample_device", "stream_device"])
@pytest.mark.parametrize("disable", [(), ("scalar-broadcast-legalization",)])
def test_row_scale_matches(device, disable) -> None:
    r = run_and_check(KERNEL, device, disable=disable)
    assert r.match, r.to_json()


def test_load_unit_splats_and_compute_loses_its_broadcast() -> None:
    on = str(compile_kernel(KERNEL, "spyre").module)
    off = str(compile_kernel(KERNEL, "spyre", disable=("scalar-broadcast-legalization",)).module)
    # the tile's 8 values of c in one DMA (stage-coarsening), each splat over a vector
    assert "splat = 64 : i32} : memref<8x1xf16>, vector<64xf16>" in on
    assert "splat = " not in off
    fast = run_and_check(KERNEL, "spyre").emulation.cycles
    slow = run_and_check(KERNEL, "spyre", disable=("scalar-broadcast-legalization",))
    assert fast < slow.emulation.cycles  # one broadcast op per vector less on the PE
