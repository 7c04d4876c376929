"""Shared resources (shared/spec/arch.md §8): a memory's own bandwidth is shared by every
transfer to or from it, a unit keeps at most `max_outstanding` transfers in flight, and a
link instance (a ring link) is shared by every transfer routed over it."""

from __future__ import annotations

import numpy as np

from arch_descriptions.model import devices_in_text, load_device
from emulator import emulate
from emulator.machine import Port
from ktir.context import parse_module

LAYOUT = "layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>"
ROWSET = "affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>"
IDENT = "affine_map<(d0, d1) -> (d0, d1)>"
ZERO = "affine_map<(d0) -> (0, 0)>"


def dma(src: str, si: str, dst: str, di: str, rows: int, tag: str) -> str:
    """An asynchronous DMA of one 128-byte row."""
    return f"""agen.composite_load_and_store src:{src}[{si}, 0] dst:{dst}[{di}, 0]
       time_symbols(), load_iv(%iv{tag}:vector<64xf16>)
       {{load_order = {IDENT}, load_set = {ROWSET}, load_time_addr_map = {ZERO},
         store_order = {IDENT}, store_set = {ROWSET}, store_time_addr_map = {ZERO},
         time_order = affine_map<(d0) -> (d0)>, time_set = affine_set<(d0) : (d0 == 0)>}}
      {{
        agen.yield
      }} : memref<{rows}x64xf16>, memref<{rows}x64xf16>"""


def dma_device(memory_bpc: int | None = None, outstanding: int | None = None):
    """Cores of GM -> DU (10 cycles, 128 B/cycle) -> SP (no latency): GM with its own
    bandwidth `memory_bpc`, DU with `outstanding` transfers in flight."""
    bpc = f", ktdf_arch.bytes_per_cycle = {memory_bpc}" if memory_bpc else ""
    mo = f"ktdf_arch.max_outstanding = {outstanding}, " if outstanding else ""
    return devices_in_text(f"""ktdf_arch.device @shared {{
  %gm = memory {{kind = "GM", size = 1048576{bpc}}}
  group {{kind = "core"}} share(%gm) {{
    %sp = memory {{kind = "SP", size = 262144}}
    %du = exec_unit {{kind = "DU", {mo}ktdf_arch.features = {{ktdf_arch.feature.load}}}}
    %cu = exec_unit {{kind = "CU", ktdf_arch.features = {{ktdf_arch.feature.compute,
      ktdf_arch.feature.simd = {{lanes = #ktdf_arch.map<f16 = 64>}}}}}}
    datapath {{ktdf_arch.bytes_per_cycle = 128, ktdf_arch.latency = 10}} %gm to %du : memory, exec_unit
    datapath {{ktdf_arch.bytes_per_cycle = 128, ktdf_arch.latency = 0}} %du to %sp : exec_unit, memory
    datapath {{ktdf_arch.bytes_per_cycle = 128}} %sp to %cu : memory, exec_unit
    datapath {{ktdf_arch.bytes_per_cycle = 128}} %cu to %gm : exec_unit, memory
  }}
}}
""", "shared.mlir")[0]


def streams(cores: int, rows: int):
    """Each core's DU copies `rows` rows (its own) from GM to its SP, back to back."""
    progs = []
    for c in range(cores):
        progs.append(f"""  %du{c} = dataflow.get_unit {{core = {c} : i32, name = "C{c}-DU", type = "DU"}} : index
  %sp{c} = dataflow.get_unit {{core = {c} : i32, name = "C{c}-SP", type = "SP"}} : index
  dataflow.program_unit %du{c} : {{
    %a = symbol.create_symbol {{SymbolId = -1 : i64}} : index
    %src = dataflow.get_logical_memory_view %gm, %a {{{LAYOUT}}} : index, index, memref<{cores * rows}x64xf16>
    %dst = dataflow.get_logical_memory_view %sp{c}, %c0 {{{LAYOUT}}} : index, index, memref<{rows}x64xf16>
    %n = arith.constant {rows} : index
    %off = arith.constant {c * rows} : index
    scf.for %i = %c0 to %n step %c1 {{
      %r = arith.addi %i, %off : index
      {dma("%src", "%r", "%dst", "%i", rows, str(c)).replace(f"memref<{rows}x64xf16>, m",
                                                           f"memref<{cores * rows}x64xf16>, m")}
    }}
  }}
""")
    text = f"""func.func @k(%a0: index) attributes {{grid = [{cores}]}} {{
  symbol.create_id %a0 {{symbol_id = -1 : si64}} : index
  func.call @k_body() : () -> ()
  func.return
}}
func.func @k_body() attributes {{grid = [{cores}]}} {{
  %gm = dataflow.get_unit {{name = "GM", type = "GM"}} : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
{"".join(progs)}  func.return
}}
"""
    return parse_module(text, "streams.mlir")


def run_streams(cores: int, rows: int, **device):
    data = np.arange(cores * rows * 64, dtype=np.float16).reshape(cores * rows, 64)
    r = emulate(streams(cores, rows), dma_device(**device), entry="k", args=[0],
                memory_init={"GM": [(0, data)]})
    for c in range(cores):
        assert np.array_equal(r.read(f"SP@{c}", 0, (rows, 64), np.float16),
                              data[c * rows:(c + 1) * rows])
    return r


def test_transfers_in_flight_hide_latency_only_as_far_as_allowed() -> None:
    # 8 one-cycle transfers behind a 10-cycle link: pipelined they end at 8 + 10; one at a
    # time each waits for the one before, 11 cycles apiece; two at a time, in pairs
    assert run_streams(1, 8, outstanding=8).cycles == 8 + 10
    assert run_streams(1, 8, outstanding=2).cycles == 3 * 11 + 12
    one = run_streams(1, 8, outstanding=1)
    assert one.cycles == 8 * 11
    assert one.units["C0-DU"].stalled["dma"] >= 7 * 10
    assert run_streams(1, 8).cycles == 8 * 11  # default: no queue on its link, so one


def test_device_memory_bandwidth_is_shared_by_the_cores() -> None:
    # per-core links alone: four cores stream at once
    assert run_streams(4, 8, outstanding=8).cycles == 8 + 10
    # a 128 B/cycle memory serves 32 rows of 128 B one cycle each, whoever asks
    shared = run_streams(4, 8, outstanding=8, memory_bpc=128)
    assert shared.cycles == 32 + 10
    assert shared.memory_ports == {"GM": (32 * 128, 32.0)}
    # at 32 B/cycle one core alone is bound by it
    assert run_streams(1, 8, outstanding=8, memory_bpc=32).cycles == 8 * 4 + 10


def test_the_calendar_forgets_the_past() -> None:
    # one transfer at a time: each leaves a gap of 10 cycles on the memory, 600 intervals
    r = run_streams(1, 600, outstanding=1, memory_bpc=128)
    assert r.cycles == 600 * 11
    port = r.machine.ports[0]
    assert port.nbytes == 600 * 128
    assert 0 < len(port.ends) <= 257


def test_port_fills_the_gaps_left_by_transfers_issued_out_of_order() -> None:
    p = Port("M", 10)
    assert p.take(0.0, 10) == 1.0          # [0, 1)
    assert p.take(5.0, 20) == 7.0          # [5, 7): after everything so far
    assert p.take(1.0, 20) == 3.0          # fits the gap [1, 5): issued late, earlier in time
    assert p.take(0.0, 40) == 9.0          # [3, 5) and then [7, 9): split over the gaps
    assert (p.starts, p.ends) == ([0.0], [9.0])  # one busy interval again
    assert p.take(9.0, 10) == 10.0
    p.prune(9.5)
    assert (p.starts, p.ends) == ([0.0], [10.0])  # still busy at 9.5: kept
    p.prune(10.0)
    assert (p.starts, p.ends) == ([], [])
    assert (p.nbytes, p.busy) == (100, 10.0)


def test_ring_links_are_shared_by_the_transfers_routed_over_them() -> None:
    # core 0's and core 1's RING units both copy a row into core 2's scratchpad: the first
    # goes over the ring links 0 -> 1 -> 2, the second over 1 -> 2, which they share
    lx = "memref<1x64xf16>"

    def prog(cores: list[int]) -> str:
        body = []
        for c in cores:
            body.append(f"""  %ring{c} = dataflow.get_unit {{core = {c} : i32, name = "C{c}-RING", type = "RING"}} : index
  %lx{c} = dataflow.get_unit {{core = {c} : i32, name = "C{c}-LX", type = "LX"}} : index
  dataflow.program_unit %ring{c} : {{
    %src = dataflow.get_logical_memory_view %lx{c}, %c0 {{{LAYOUT}}} : index, index, {lx}
    %at = arith.constant {64 * c} : index
    %dst = dataflow.get_logical_memory_view %lx2, %at {{{LAYOUT}}} : index, index, {lx}
    {dma("%src", "0", "%dst", "0", 1, str(c))}
  }}
""")
        return parse_module(f"""func.func @k() attributes {{grid = [32]}} {{
  func.call @k_body() : () -> ()
  func.return
}}
func.func @k_body() attributes {{grid = [32]}} {{
  %c0 = arith.constant 0 : index
  %lx2 = dataflow.get_unit {{core = 2 : i32, name = "C2-LX", type = "LX"}} : index
{"".join(body)}  func.return
}}
""", "ring.mlir")

    spyre = load_device("spyre")
    row = np.arange(64, dtype=np.float16)
    init = {"LX@0": [(0, row)], "LX@1": [(0, row + 1)]}
    alone = [emulate(prog([c]), spyre, entry="k", args=[], memory_init=init) for c in (0, 1)]
    both = emulate(prog([0, 1]), spyre, entry="k", args=[], memory_init=init)
    assert alone[0].bytes_per_link["C0-RING->C1-RING"] == 128
    assert both.bytes_per_link["C1-RING->C2-RING"] == 2 * 128
    assert both.bytes_per_link["C2-RING->C2-LX"] == 2 * 128
    assert "C1-RING->C0-RING" not in both.bytes_per_link
    assert np.array_equal(both.read("LX@2", 0, 64, np.float16), row)
    assert np.array_equal(both.read("LX@2", 64, 64, np.float16), row + 1)
    # a 128-byte row holds a 64 B/cycle ring link for 2 cycles: one of them waits for it
    ends = [r.units[f"C{c}-RING"].end for c, r in enumerate(alone)]
    assert ends == [2 + 4 * 8, 2 + 3 * 8]  # serialisation + 8 cycles a hop
    assert both.units["C0-RING"].end + both.units["C1-RING"].end == sum(ends) + 2
