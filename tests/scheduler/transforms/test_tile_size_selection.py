"""tile-scf-for-loops + tile-size-selection end to end, checked against the emulator: on the
nests they tile (stream_device's FIFO pipelines) the cost model's sizes are no worse in
emulated cycles than any other divisor pair, every size matches the reference, and devices
with scratchpads keep stage-coarsening's schedule (their nests are not tiled)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import scheduler.transforms.tile_size_selection as tss
from ktir_tools.run import run_and_check

ADD = Path(__file__).resolve().parents[3] / "examples" / "kernels" / "add_96x64.mlir"


def test_chosen_sizes_no_worse_than_alternatives(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen: list[int] = []
    model = tss.choose_sizes

    def record(group, device):
        got = model(group, device)
        chosen.extend(got.values())
        return got

    monkeypatch.setattr(tss, "choose_sizes", record)
    best = run_and_check(ADD, "stream_device")
    assert best.match
    assert chosen == [3, 2]  # the nest: 3 rows x 2 vectors per tile, one tile
    for sizes in itertools.product((1, 3), (1, 2)):
        it = iter(sizes)
        monkeypatch.setattr(tss, "choose_sizes",
                            lambda group, device, it=it: {g.op.result: next(it) for g in group})
        other = run_and_check(ADD, "stream_device")
        assert other.match, sizes
        assert best.emulation.cycles <= other.emulation.cycles, sizes


@pytest.mark.parametrize("device", ["spyre", "sample_device"])
def test_scratchpad_nests_left_to_stage_coarsening(device: str) -> None:
    on = run_and_check(ADD, device)
    off = run_and_check(ADD, device, disable=("tile-scf-for-loops", "tile-size-selection"))
    assert on.match
    assert on.emulation.cycles == off.emulation.cycles
