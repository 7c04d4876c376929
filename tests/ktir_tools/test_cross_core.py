"""End to end on spyre: scratchpad-resident data (views of a given tile's scratchpad, `ct_id`;
distributed views over device memory and two scratchpads) compiles, runs on the emulator and
matches the reference interpreter bit for bit, with the scratchpads seeded on both sides (or
given by view name); the bytes per datapath show what crossed the ring and that the
scratchpad pieces moved no device-memory byte."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ktir.diagnostics import KtirDiagnostic
from ktir.interpreter import run_kernel
from ktir_tools.run import run_and_check

KERNELS = Path(__file__).resolve().parent / "kernels"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "kernels"


def test_remote_scratchpad_rows_go_over_the_ring() -> None:
    report = run_and_check(KERNELS / "remote_rows.mlir", "spyre")
    assert report.match, report.to_json()
    moved = report.emulation.bytes_per_datapath
    row_bytes = 4 * 64 * 2
    assert moved["RING->RING"] == row_bytes  # tile 0's copy; tile 1 reads its own
    assert moved["LX->RING"] == 2 * row_bytes
    assert report.to_json()["bytes_per_memory"] == {"DDR": 2 * row_bytes}  # B's writes only
    # the seeded view reached B: both halves hold tile 1's scratchpad data
    b = report.outputs["B"]
    assert np.array_equal(b[:4], b[4:])
    assert np.any(b != 0)


def test_distributed_view_reads_each_piece_from_its_owner() -> None:
    report = run_and_check(KERNELS / "distributed_pieces.mlir", "spyre")
    assert report.match, report.to_json()
    moved = report.emulation.bytes_per_datapath
    piece = 2 * 64 * 2
    assert moved["RING->RING"] == piece  # tile 1's piece; tile 0's is local to core 0
    assert moved["LX->RING"] == 2 * piece
    # device memory: the device-memory piece and B read, C written; no scratchpad piece
    assert report.to_json()["bytes_per_memory"]["DDR"] == 4 * 64 * 2 + 2 * 8 * 64 * 2


def test_copy_of_pieces_of_different_shapes() -> None:
    """A copy of a distributed view: one group a piece shape (pieces of one group would
    need one iteration space: "stores of one group must have the same shape" was the
    regression). Tile 1's piece (64x64) crosses the ring to core 0, which runs the copy."""
    report = run_and_check(KERNELS / "distributed_copy.mlir", "spyre")
    assert report.match, report.to_json()
    moved = report.emulation.bytes_per_datapath
    assert moved["RING->RING"] == 64 * 64 * 2
    assert moved["LX->RING"] == (32 + 64) * 64 * 2
    # device memory: the 96-row piece read and B written; no scratchpad piece
    assert report.to_json()["bytes_per_memory"]["DDR"] == (96 + 192) * 64 * 2


def test_scratchpad_pieces_are_inputs_by_view_name() -> None:
    given = {"v0": np.full((2, 64), 3, np.float16), "v1": np.full((2, 64), 5, np.float16)}
    ref = run_kernel(KERNELS / "distributed_pieces.mlir", inputs=given)
    fixed = {s.name: s for s in ref.fixed}
    assert fixed["v0"].memory == fixed["v1"].memory == "scratchpad"
    report = run_and_check(KERNELS / "distributed_pieces.mlir", "spyre", inputs=given)
    assert report.match, report.to_json()
    c, b = report.outputs["C"].astype(np.float32), ref.inputs["B"].astype(np.float32)
    assert np.array_equal(c[4:6], (b[4:6] + 3).astype(np.float16).astype(np.float32))
    assert np.array_equal(c[6:8], (b[6:8] + 5).astype(np.float16).astype(np.float32))


def test_remote_view_without_an_inter_core_path_is_refused(tmp_path) -> None:
    with pytest.raises(KtirDiagnostic, match=r"remote_rows\.mlir:\d+:\d+: error: .*device "
                       r"@sample_device has no inter-core path for memory 'L1'"):
        run_and_check(KERNELS / "remote_rows.mlir", "sample_device")


def test_store_into_another_cores_scratchpad_is_checked() -> None:
    report = run_and_check(KERNELS / "negate_across_cores.mlir", "spyre")
    assert report.match, report.to_json()
    names = [c.name for c in report.checks]
    assert "Y" in names  # the scratchpad buffer the kernel wrote is compared
    x = run_kernel(KERNELS / "negate_across_cores.mlir").inputs["X"]
    assert np.array_equal(report.outputs["Y"], -x)
    # the group reads no tile id: core 0 alone runs it, X crosses the ring, Y is its own
    assert report.emulation.bytes_per_datapath["RING->RING"] == 4 * 64 * 2


def test_rotate_reads_the_neighbours_piece_over_the_ring() -> None:
    """distributed_rotate: tile t reads piece (t + 1) mod 4 at tile-dependent coordinates
    (one copy of the store per tile, each reading its piece from its owner); X is a pointer
    argument seeded in the four scratchpads, bound at its address so no buffer overwrites it."""
    report = run_and_check(EXAMPLES / "distributed_rotate.mlir", "spyre")
    assert report.match, report.to_json()
    moved = report.emulation.bytes_per_datapath
    assert moved["RING->RING"] > 0
    assert moved["LX->RING"] >= 3 * 16 * 64 * 2  # three of the four pieces are remote
    # device memory: B read and C written, no byte of X
    assert report.to_json()["bytes_per_memory"] == {"DDR": 2 * 64 * 64 * 2}


def test_distributed_tile_at_the_loop_index() -> None:
    """Column blocks of a distributed view at the loop index, the pieces' sets symbolic in
    a bound size: the loop unrolls, each block is read from its piece in device memory."""
    report = run_and_check(KERNELS / "distributed_column_blocks.mlir", "spyre",
                           args={"n": "64"})
    assert report.match, report.to_json()
    assert report.to_json()["bytes_per_memory"] == {"DDR": 2 * 8 * 128 * 2}
