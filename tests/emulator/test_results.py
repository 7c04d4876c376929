"""What a run reports (issue 6 item 4): cycles and seconds, per-unit busy/stall, bytes per
datapath, the bound of the kernel's compulsory work, and a Chrome trace with one track per
unit."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from emulator import emulate
from tests.emulator.programs import device, load_rows, module, store_rows
from tests.emulator.test_kernels import EXAMPLES, run_kernel


@pytest.fixture(scope="module")
def add_run():
    path = EXAMPLES / "add_96x64.mlir"
    return run_kernel(path.read_text(), str(path), "sample_device", ("C",), trace=True)[0]


def test_bytes_bound_and_time(add_run) -> None:
    r = add_run
    ab = 2 * 96 * 64 * 2  # A and B in, fp16
    assert r.bytes_per_datapath["DDR->MNILU"] == ab
    assert r.bytes_per_datapath["MNISU->DDR"] == ab // 2
    assert r.memory_ports == {}  # the sample's DDR has no bandwidth of its own
    # 32 cores; DDR->MNILU carries 256 B/cycle per core, MNISU->DDR 128; 2 SFUs per core
    terms = {t.resource.name: t.cycles for t in r.roofline.terms}
    assert all(t.latency == 220 for t in r.roofline.terms)  # one direction each
    assert terms["DDR -> MNILU"] == pytest.approx(ab / (32 * 256))
    assert terms["MNISU -> DDR"] == pytest.approx(ab / 2 / (32 * 128))
    assert terms["SFU"] == pytest.approx(96 * 64 / (32 * 2 * 64))
    assert r.roofline.latency == 220  # DDR -> ... -> SFU -> ... -> DDR
    assert r.roofline_cycles == 3 + 220
    assert (r.roofline.bound, r.binding_resource) == ("memory", "DDR -> MNILU")
    assert r.seconds == pytest.approx(r.cycles * 1e-9)
    assert 0 < r.efficiency <= 1
    assert r.summary()["binding_resource"] == "DDR -> MNILU"


def test_the_bound_counts_compulsory_bytes_not_moved_ones() -> None:
    # bias_add adds a 1 x 256 bias row to each of 128 rows on 16 tiles: the coarsened
    # schedule (one block of 8 rows per tile) loads it once per tile, 16 times; the bound
    # counts it once
    path = EXAMPLES / "bias_add.mlir"
    r = run_kernel(path.read_text(), str(path), "spyre", ("Y",))[0]
    x, b, y = 128 * 256 * 2, 256 * 2, 128 * 256 * 2
    assert r.bytes_per_datapath["DDR->DMA_IN"] == x + 16 * b
    assert r.memory_ports["DDR"][0] == x + 16 * b + y
    ddr = next(t for t in r.roofline.terms if t.resource.name == "DDR")
    assert ddr.amount == x + b + y
    assert ddr.latency == 0  # 512 cycles of writes (and more of reads) overlap the trip
    assert r.roofline_cycles == -(-(x + b + y) // 128) == 1028
    assert r.cycles >= r.roofline_cycles


def test_no_bound_without_the_work() -> None:
    path = EXAMPLES / "add_96x64.mlir"
    r = run_kernel(path.read_text(), str(path), "spyre")[0]
    assert (r.roofline, r.roofline_cycles, r.efficiency, r.binding_resource) == \
        (None, None, None, None)
    assert r.summary()["bound"] is None


def test_unit_stats(add_run) -> None:
    r = add_run
    assert len(r.units) == 32 * 8  # 2 DMA units, and the 3 units of each sub-core
    # the tile's 3 rows over the two sub-cores (parallelize-loops-across-instances): 2 and 1
    for name, rows in (("C0-SFU-CL0", 2), ("C0-SFU-CL1", 1)):
        sfu = r.units[name]
        assert sfu.kind == "SFU"
        assert sfu.events == rows * 4
        assert sfu.busy == rows * 2  # per row: one add (interval 1), one 128 B send
        assert sfu.end <= r.cycles
    dma = r.units["C0-MNILU"]
    assert dma.stalled["dma"] > 0  # it waits for its transfers before signalling


def test_chrome_trace_has_one_track_per_unit(add_run, tmp_path: Path) -> None:
    out = tmp_path / "trace.json"
    add_run.write_trace(out)
    events = json.loads(out.read_text())["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    assert len(names) == 32 * 8
    assert len(set(names.values())) == 32 * 8
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


def _forward(rows: int) -> str:
    """CU: pass `rows` vectors from LU on to SU."""
    return f"""  dataflow.program_unit %cu : {{
    %n = arith.constant {rows} : index
    scf.for %i = %c0 to %n step %c1 {{
      %x = dataflow.receive %lu : vector<64xf16>
      dataflow.send %su, %x : vector<64xf16>
    }}
  }}
"""


def _symbolic_pipeline(rows: int) -> str:
    """`load_rows`/`store_rows` written with symbolic vector accesses over flat views."""
    flat = "layout_map = affine_map<(d0) -> (d0)>"
    row = "affine_map<(d0) -> (d0)>, {kind}_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>"
    mem = f"memref<{rows * 64}xf16>"
    return f"""  dataflow.program_unit %lu : {{
    %a = symbol.create_symbol {{SymbolId = -1 : i64}} : index
    %v = dataflow.get_logical_memory_view %gm, %a {{{flat}}} : index, index, {mem}
    %n = arith.constant {rows} : index
    scf.for %i = %c0 to %n step %c1 {{
      %x = agen.symbolic_vector_load %v[indices:(%i), strides:(%c64)] {{load_order = {row.format(kind="load")}}} : {mem}, vector<64xf16>
      dataflow.send %cu, %x : vector<64xf16>
    }}
  }}
""" + _forward(rows) + f"""  dataflow.program_unit %su : {{
    %a = symbol.create_symbol {{SymbolId = -2 : i64}} : index
    %v = dataflow.get_logical_memory_view %gm, %a {{{flat}}} : index, index, {mem}
    %n = arith.constant {rows} : index
    scf.for %i = %c0 to %n step %c1 {{
      %x = dataflow.receive %cu : vector<64xf16>
      agen.symbolic_vector_store %x, %v[indices:(%i), strides:(%c64)] {{store_order = {row.format(kind="store")}}} : {mem}, vector<64xf16>
    }}
  }}
"""


def test_symbolic_vector_accesses_are_timed_like_vector_accesses() -> None:
    """A symbolic load/store costs what the same vector load/store does: its events, busy
    time and link use reach the unit's clock (they were once lost to the inlined state)."""
    rows = 8
    data = (np.arange(rows * 64) % 251).astype(np.float16)
    runs = []
    for body in (load_rows(rows) + _forward(rows) + store_rows(rows), _symbolic_pipeline(rows)):
        r = emulate(module(body, nargs=2), device(store_bandwidth=32), entry="k",
                    args=[0, 4096], memory_init={"GM": [(0, data)]})
        assert np.array_equal(r.read("GM", 4096, (rows * 64,), np.float16), data)
        runs.append(r)
    plain, symbolic = runs
    assert symbolic.cycles == plain.cycles
    for unit in ("C0-LU", "C0-SU"):
        assert symbolic.units[unit].events == plain.units[unit].events == 2 * rows
        assert symbolic.units[unit].busy == plain.units[unit].busy
    assert symbolic.bytes_per_datapath == plain.bytes_per_datapath
