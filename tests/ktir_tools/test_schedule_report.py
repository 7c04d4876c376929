"""`--schedule-report`: what the scheduler chose per compute group, and its predicted cycles
checked against the emulator's (the first-order model of scheduler/analysis/schedule_model.py
stays within a stated factor on the element-wise examples and the tiled 1 MiB add)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bench.schedule import tiled_add
from ktir_tools.ktir_cli import app
from ktir_tools.run import run_and_check

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "kernels"
# predicted / emulated on these kernels today: 0.89 - 1.21 (spyre's fill overlaps its shared
# DDR traffic more than the model's stage-after-stage fill assumes)
LOW, HIGH = 0.75, 1.35


@pytest.mark.parametrize("device", ["spyre", "sample_device"])
@pytest.mark.parametrize("kernel", ["add_96x64", "bias_add", "eltwise_chain", "tiled_add"])
def test_prediction_is_within_a_factor_of_emulation(kernel, device, tmp_path) -> None:
    path = EXAMPLES / f"{kernel}.mlir"
    if kernel == "tiled_add":
        path = tmp_path / "tiled_add.mlir"
        path.write_text(tiled_add(256, 16))
    r = run_and_check(path, device, schedule_report=True)
    assert r.match
    assert r.schedule is not None
    assert len(r.schedule) == 1
    group = r.schedule[0]
    emulated = r.group_cycles()[group.name]
    assert 0 < emulated <= r.emulation.cycles
    assert LOW <= group.predicted / emulated <= HIGH, (group.predicted, emulated)


def test_report_names_tiles_buffers_and_copies() -> None:
    r = run_and_check(EXAMPLES / "bias_add.mlir", "sample_device", schedule_report=True)
    (p,) = r.schedule[0].pipelines
    assert [s.unit for s in p.stages] == ["MNILU", "L1LU", "SFU", "L1SU", "L1LU-CL1", "SFU-CL1",
                                          "L1SU-CL1", "MNISU"]
    assert p.stages[0].moves == ["DDR 8x256 -> L1 8x256 (4,096 B)",
                                 "DDR 1x256 -> L1 1x256 (512 B)"]
    assert sorted((b.memory, b.shape, b.bytes) for b in p.buffers) == [
        ("L1", (1, 256), 512), ("L1", (8, 256), 4096), ("L1", (8, 256), 4096)]
    assert (p.instances, p.copies) == (1, 1)
    naive = run_and_check(EXAMPLES / "bias_add.mlir", "sample_device", schedule_report=True,
                          disable=("stage-coarsening",))
    assert naive.schedule[0].pipelines[0].instances == 32  # one per vector


def test_run_prints_and_json_carries_the_report() -> None:
    runner = CliRunner()
    kernel = str(EXAMPLES / "add_96x64.mlir")
    text = runner.invoke(app, ["run", kernel, "-d", "spyre", "-q", "--schedule-report"])
    assert text.exit_code == 0, text.output
    assert "schedule report: 1 compute group(s)" in text.output
    assert "emulated" in text.output
    assert "predicted / emulated" in text.output
    out = runner.invoke(app, ["run", kernel, "-d", "spyre", "--json", "--schedule-report"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout.strip().splitlines()[-1])
    (g,) = doc["schedule"]
    assert g["group"] == "local_schedule_0"
    assert g["emulated_cycles"] == doc["cycles"]
    assert g["pipelines"][0]["stages"][0]["unit"] == "DMA_IN"
    plain = runner.invoke(app, ["run", kernel, "-d", "spyre", "--json"])
    assert "schedule" not in json.loads(plain.stdout.strip().splitlines()[-1])
