"""share-invariant-loads end to end: W and B of the layer norm example are read from device
memory once in all (the compulsory traffic), every tile copying them over the ring from the
two scratchpads that hold them; the results still match the reference (race checking on)."""

from __future__ import annotations

from pathlib import Path

from ktir_tools.run import run_and_check

EXAMPLES = Path(__file__).parents[3] / "examples" / "kernels"
ARGS = {"M": "100", "N": "2048", "eps": "1e-5"}
X, WB = 100 * 2048 * 2, 2 * 2048 * 2


def _bytes(r, pred) -> int:
    return sum(n for k, n in r.emulation.bytes_per_datapath.items() if pred(k))


def test_layernorm_reads_weights_once_on_spyre() -> None:
    kernel = EXAMPLES / "layernorm.mlir"
    on = run_and_check(kernel, "spyre", args=ARGS, rtol=1e-3, atol=1e-5)
    off = run_and_check(kernel, "spyre", args=ARGS, rtol=1e-3, atol=1e-5,
                        disable=("share-invariant-loads",))
    assert on.match
    assert off.match
    assert _bytes(off, lambda k: k.startswith("DDR->")) == X + 32 * WB  # once per tile
    assert _bytes(on, lambda k: k.startswith("DDR->")) == X + WB        # once
    # the copy into the two scratchpads, then each of the 32 tiles' copy of both
    assert _bytes(on, lambda k: k == "LX->RING") == WB + 32 * WB
    assert _bytes(off, lambda k: k == "LX->RING") == 0


def test_sample_device_is_unchanged() -> None:
    """sample_device's cores share only device memory: nothing to share over."""
    kernel = EXAMPLES / "layernorm.mlir"
    on = run_and_check(kernel, "sample_device", args=ARGS, rtol=1e-3, atol=1e-5)
    off = run_and_check(kernel, "sample_device", args=ARGS, rtol=1e-3, atol=1e-5,
                        disable=("share-invariant-loads",))
    assert on.match
    assert on.emulation.cycles == off.emulation.cycles
    assert on.emulation.bytes_per_datapath == off.emulation.bytes_per_datapath
