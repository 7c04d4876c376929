"""What a run reports (issue 6 item 4): cycles and seconds, per-unit busy/stall, bytes per
datapath, the roofline bound, and a Chrome trace with one track per unit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.emulator.test_kernels import EXAMPLES, run_kernel


@pytest.fixture(scope="module")
def add_run():
    path = EXAMPLES / "add_96x64.mlir"
    return run_kernel(path.read_text(), str(path), "sample_device", trace=True)[0]


def test_bytes_roofline_and_time(add_run) -> None:
    r = add_run
    ab = 2 * 96 * 64 * 2  # A and B in, fp16
    assert r.bytes_per_datapath["DDR->MNILU"] == ab
    assert r.bytes_per_datapath["MNISU->DDR"] == ab // 2
    # 32 cores; DDR->MNILU carries 256 B/cycle per core, MNISU->DDR 128
    assert r.roofline.memory_cycles == pytest.approx(max(ab / (32 * 256), ab / 2 / (32 * 128)))
    assert r.roofline.compute_cycles == pytest.approx(96 * 64 / (32 * 2 * 64))
    assert r.roofline_cycles == 3
    assert r.roofline.bound == "memory"
    assert r.seconds == pytest.approx(r.cycles * 1e-9)
    assert 0 < r.efficiency <= 1


def test_unit_stats(add_run) -> None:
    r = add_run
    assert len(r.units) == 32 * 5
    sfu = r.units["C0-SFU-CL0"]
    assert sfu.kind == "SFU"
    assert sfu.events == 3 * 4
    assert sfu.busy == 3 * 2  # per row: one add (interval 1), one 128 B send at 128 B/cycle
    assert sfu.end <= r.cycles
    dma = r.units["C0-MNILU"]
    assert dma.stalled["dma"] > 0  # it waits for its transfers before signalling


def test_chrome_trace_has_one_track_per_unit(add_run, tmp_path: Path) -> None:
    out = tmp_path / "trace.json"
    add_run.write_trace(out)
    events = json.loads(out.read_text())["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    assert len(names) == 32 * 5
    assert len(set(names.values())) == 32 * 5
    slices = [e for e in events if e["ph"] == "X"]
    assert {e["tid"] for e in slices} == set(names)
    assert {"dma", "vector_load", "send", "binary", "vector_store"} <= {e["name"] for e in slices}
    assert all(e["dur"] >= 0 and e["ts"] >= 0 for e in slices)


def test_no_trace_unless_asked() -> None:
    path = EXAMPLES / "add_96x64.mlir"
    r = run_kernel(path.read_text(), str(path), "stream_device")[0]
    assert r.trace_events is None
    with pytest.raises(ValueError, match="trace=True"):
        r.write_trace("x.json")
