"""Reductions end to end: compiled, emulated and compared with the reference interpreter on
both shipped devices, and the device-memory traffic of the normalisations (each row read from
DDR once although every pass reads it)."""

import itertools
from pathlib import Path

import numpy as np
import pytest

from ktir_tools.run import run_and_check

HERE = Path(__file__).parent / "reductions"
DEVICES = ("spyre", "sample_device")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("kernel", ["reduce_explicit_region", "reduce_compare_select",
                                    "softmax_rows", "layernorm_rows",
                                    "row_sum_and_max", "layernorm_uneven_rows",
                                    "right_half_max"])
def test_matches_reference(kernel: str, device: str) -> None:
    report = run_and_check(HERE / f"{kernel}.mlir", device)
    assert report.match, [c for c in report.checks]


@pytest.mark.parametrize("device", DEVICES)
def test_maxnum_minnum_with_nans(device: str) -> None:
    """maxnumf / minnumf ignore NaN: scattered NaNs, and a row of NaNs (its result is the
    init), bit for bit."""
    x = np.random.default_rng(0).standard_normal((4, 256)).astype(np.float16)
    x[0, ::7] = np.nan
    x[1, 200:] = np.nan
    x[2, :] = np.nan
    report = run_and_check(HERE / "row_maxnum_minnum.mlir", device, inputs={"X": x})
    assert report.match, [c for c in report.checks]


@pytest.mark.parametrize("device", DEVICES)
def test_rmsnorm_example_within_one_ulp(device: str) -> None:
    root = Path(__file__).parents[2]
    report = run_and_check(root / "examples/kernels/rmsnorm.mlir", device,
                           args={"eps": "1e-5"}, rtol=1e-3)
    assert report.match


@pytest.mark.parametrize(("kernel", "ddr_reads"), [
    ("softmax_rows", 4 * 1024 * 2),                 # X once
    ("layernorm_rows", 4 * 1024 * 2 + 4 * 2 * 1024 * 2),  # X once, W and B once per tile
])
def test_each_row_leaves_ddr_once(kernel: str, ddr_reads: int) -> None:
    report = run_and_check(HERE / f"{kernel}.mlir", "spyre")
    traffic = report.emulation.bytes_per_datapath
    assert traffic["DDR->DMA_IN"] == ddr_reads
    passes = 3  # max (or mean), sum (or variance), normalisation
    assert traffic["LX->LX_LOAD"] >= passes * 4 * 1024 * 2


def test_uneven_rows_read_and_write_only_their_rows() -> None:
    """10 rows on 4 tiles: the extra iteration of tiles 2 and 3 (rows 10, 11) moves nothing.
    X leaves DDR once: the normalising loop is unrolled into the statistics' group
    (unroll-carried-loops), and its masked loads of one region share one scratchpad copy."""
    report = run_and_check(HERE / "layernorm_uneven_rows.mlir", "spyre")
    assert report.match
    traffic = report.emulation.bytes_per_datapath
    x_bytes = 10 * 512 * 2
    assert traffic["DDR->DMA_IN"] == x_bytes
    assert traffic["DMA_OUT->DDR"] == x_bytes + 10 * 2  # Y and Mean, rows 0..9 only


def _header_command(path: Path) -> tuple[dict[str, str], float, float]:
    """The --arg, --rtol and --atol of the `// Run: ktir run ...` lines of an example."""
    words: list[str] = []
    for line in path.read_text().splitlines():
        if not line.startswith("//"):
            break
        text = line[2:].strip()
        if text.startswith("Run: ktir run") or (words and text.startswith("--")):
            words += text.split("(")[0].split()
    args = {w.split("=")[0]: w.split("=")[1] for p, w in itertools.pairwise(words) if p == "--arg"}
    opts = {p: float(w) for p, w in itertools.pairwise(words) if p in ("--rtol", "--atol")}
    return args, opts.get("--rtol", 0.0), opts.get("--atol", 0.0)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("example", ["softmax", "layernorm", "rmsnorm"])
def test_examples_run_as_their_headers_say(example: str, device: str) -> None:
    path = Path(__file__).parents[2] / "examples/kernels" / f"{example}.mlir"
    args, rtol, atol = _header_command(path)
    assert args, "the header gives the command"
    report = run_and_check(path, device, args=args, rtol=rtol, atol=atol)
    assert report.match, [c for c in report.checks]
