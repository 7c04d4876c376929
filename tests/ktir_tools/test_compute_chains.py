"""Chains of compute groups end to end: kernels whose contractions and reductions run over
different iteration spaces (FFN-SwiGLU, attention) are cut by `split-compute-chains` into
groups that pass their intermediates through scratchpad slots; emulated on spyre and
sample_device and compared with the reference interpreter. The intermediates are rounded to
their element type where the interpreter rounds them too (each op's result), and matmuls sum
in f32 and round once as it does: bit for bit on these kernels (tolerance 0). Also a split-K
matmul whose writers are chosen by one coordinate of a 2-D tile id (single-tile-branches),
a transpose whose vector covers one dim only, and a two-core FFN whose partial is flattened
for the inter-tile sum and expanded back (fold-reshapes-into-views), its three contractions of
one square space cut where the last reads the others at its reduced dim; and paged
attention's 2x4x16 query tile (2 tokens x 4 heads) collapsed to 8 rows, reduced and expanded
back, through slots both ways (a reshape merging dims larger than 1)."""

from pathlib import Path

import pytest

from ktir_tools.run import run_and_check

HERE = Path(__file__).parent / "chains"


@pytest.mark.parametrize("device", ["spyre", "sample_device"])
@pytest.mark.parametrize("kernel", ["ffn_swiglu_small", "sdpa_2d_small", "transpose_32x2",
                                    "pv_ksplit_small", "ffn_swiglu_2core_small",
                                    "mixed_reductions", "head_groups"])
def test_chain_matches_the_interpreter(kernel: str, device: str) -> None:
    report = run_and_check(HERE / f"{kernel}.mlir", device)
    assert report.match, (kernel, device, list(report.checks))


@pytest.mark.parametrize("device", ["spyre", "sample_device"])
def test_gathered_pages_match_the_interpreter(device: str) -> None:
    # pages gathered through a block table into contractions (split-compute-chains: a slot per
    # gather, K^T through the extf) and a computed init (generalize-contractions); f32 sums in
    # another order than numpy's: 1e-5
    report = run_and_check(HERE / "gathered_pages.mlir", device, rtol=1e-5, atol=1e-5)
    assert report.match, (device, list(report.checks))
