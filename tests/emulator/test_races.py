"""The unsynchronised-access checker (shared/spec/dataflow-ir.md §7 E9, E14): DMAs in flight,
ring buffers with and without the back signal, byte-exact overlap across the checker's pages,
reads that never race, ordering through a write that covers an older one, and a race found
late in a long, otherwise synchronised loop."""

from __future__ import annotations

import numpy as np
import pytest

from emulator import RaceError, emulate
from tests.emulator.programs import LAYOUT, ROW, STORE_ROW, device, module, store_rows

DU = '  %du = dataflow.get_unit {core = 0 : i32, name = "C0-DU", type = "DU"} : index\n'
ONES = "[" + ", ".join(["0x3C00"] * 64) + "]"
ROWS = np.arange(4 * 64, dtype=np.float16).reshape(4, 64)


def dma_row(src: str, dst: str, tag: str) -> str:
    """An asynchronous DMA of row 0 of view `src` to row 0 of view `dst` (1x64 f16)."""
    rowset = "affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>"
    ident = "affine_map<(d0, d1) -> (d0, d1)>"
    zero = "affine_map<(d0) -> (0, 0)>"
    return f"""    agen.composite_load_and_store src:{src}[0, 0] dst:{dst}[0, 0]
     time_symbols(), load_iv(%iv{tag}:vector<64xf16>)
     {{load_order = {ident}, load_set = {rowset}, load_time_addr_map = {zero},
       store_order = {ident}, store_set = {rowset}, store_time_addr_map = {zero},
       time_order = affine_map<(d0) -> (d0)>, time_set = affine_set<(d0) : (d0 == 0)>}}
    {{
      agen.yield
    }} : memref<1x64xf16>, memref<1x64xf16>
"""


def sp_view(name: str, element: int) -> str:
    return (f"    %{name}_at = arith.constant {element} : index\n"
            f"    %{name} = dataflow.get_logical_memory_view %sp, %{name}_at {{{LAYOUT}}} : "
            "index, index, memref<1x64xf16>\n")


def _dma_then_read(wait: bool) -> str:
    """DU copies a GM row into SP and signals LU (waiting for the copy or not), then waits
    for LU's signal; LU reads the row, signals DU, and the row travels LU -> CU -> SU -> GM."""
    attr = "" if wait else " {wait_immediately_for_async_transfers = false}"
    return DU + f"""  dataflow.program_unit %du : {{
    %a = symbol.create_symbol {{SymbolId = -1 : i64}} : index
    %g = dataflow.get_logical_memory_view %gm, %a {{{LAYOUT}}} : index, index, memref<1x64xf16>
{sp_view("s", 0)}{dma_row("%g", "%s", "0")}    dataflow.sync_send %lu{attr} : index
    dataflow.sync_recv %lu : index
  }}
  dataflow.program_unit %lu : {{
    dataflow.sync_recv %du : index
{sp_view("s", 0)}    %x = agen.vector_load %s[0, 0] {{{ROW}}} : memref<1x64xf16>, vector<64xf16>
    dataflow.sync_send %du : index
    dataflow.send %cu, %x : vector<64xf16>
  }}
  dataflow.program_unit %cu : {{
    %x = dataflow.receive %lu : vector<64xf16>
    dataflow.send %su, %x : vector<64xf16>
  }}
""" + store_rows(1)


def test_a_dma_is_in_flight_until_its_unit_waits_for_it() -> None:
    init = {"GM": [(0, ROWS[:1])]}
    with pytest.raises(RaceError) as e:
        emulate(module(_dma_then_read(False), nargs=2), device(dma=True), entry="k",
                args=[0, 1024], memory_init=init)
    assert ("unsynchronised access: C0-LU reads bytes [0, 128) of C0-SP, which a DMA of C0-DU "
            "wrote (bytes [0, 128)), still in flight") in e.value.text
    r = emulate(module(_dma_then_read(True), nargs=2), device(dma=True), entry="k",
                args=[0, 1024], memory_init=init)
    assert np.array_equal(r.read("GM", 1024, (1, 64), np.float16), ROWS[:1])


def _ring(rounds: int, back: bool, bad_round: int = -1) -> str:
    """SU fills a two-slot ring in SP and signals LU per slot; LU reads each slot and, with
    `back`, signals SU that the slot is free, which SU waits for before reusing a slot (except
    in `bad_round`)."""
    wait_free = """      %reuse = arith.cmpi sge, %i, %c2 : index
      %ok = arith.cmpi ne, %i, %bad : index
      %wait = arith.andi %reuse, %ok : i1
      scf.if %wait {
        dataflow.sync_recv %lu : index
      }
""" if back else ""
    free = "      dataflow.sync_send %su : index\n" if back else ""
    return f"""  %n = arith.constant {rounds} : index
  %bad = arith.constant {bad_round} : index
  dataflow.program_unit %su : {{
    %v = dataflow.get_logical_memory_view %sp, %c0 {{{LAYOUT}}} : index, index, memref<2x64xf16>
    %z = vectorchain.constant_bitstream {{value = {ONES}}} : vector<64xf16>
    scf.for %i = %c0 to %n step %c1 {{
{wait_free}      %slot = arith.remsi %i, %c2 : index
      agen.vector_store %z, %v[%slot, 0] {{{STORE_ROW}}} : memref<2x64xf16>, vector<64xf16>
      dataflow.sync_send %lu : index
    }}
  }}
  dataflow.program_unit %lu : {{
    %v = dataflow.get_logical_memory_view %sp, %c0 {{{LAYOUT}}} : index, index, memref<2x64xf16>
    scf.for %i = %c0 to %n step %c1 {{
      dataflow.sync_recv %su : index
      %slot = arith.remsi %i, %c2 : index
      %x = agen.vector_load %v[%slot, 0] {{{ROW}}} : memref<2x64xf16>, vector<64xf16>
{free}    }}
  }}
"""


def test_a_ring_buffer_needs_its_back_signal() -> None:
    r = emulate(module(_ring(6, back=True)), device(), entry="k", args=[0])
    assert r.units["C0-LU"].events == 6 + 6 + 6
    with pytest.raises(RaceError, match=r"unsynchronised access: C0-(SU|LU) (writes|reads) "
                                        r"bytes \[0, 128\) of C0-SP, which C0-(LU|SU) "):
        emulate(module(_ring(6, back=False)), device(), entry="k", args=[0])


def test_a_race_late_in_a_long_loop_is_found() -> None:
    """200 rounds of a correct ring, except that in round 151 SU reuses slot 1 without waiting
    for LU to free it."""
    with pytest.raises(RaceError, match=r"bytes \[128, 256\) of C0-SP"):
        emulate(module(_ring(200, back=True, bad_round=151)), device(), entry="k", args=[0])
    r = emulate(module(_ring(200, back=True)), device(), entry="k", args=[0])
    assert r.units["C0-SU"].events == 1 + 200 + 200 + 198  # constant, stores, signals, waits


def _store_and_read(store_at: int, read_at: int) -> str:
    """SU writes one row at element `store_at` of SP; LU reads one at `read_at`, unordered."""
    return f"""  dataflow.program_unit %su : {{
{sp_view("v", store_at)}    %z = vectorchain.constant_bitstream {{value = {ONES}}} : vector<64xf16>
    agen.vector_store %z, %v[0, 0] {{{STORE_ROW}}} : memref<1x64xf16>, vector<64xf16>
  }}
  dataflow.program_unit %lu : {{
{sp_view("v", read_at)}    %x = agen.vector_load %v[0, 0] {{{ROW}}} : memref<1x64xf16>, vector<64xf16>
  }}
"""


@pytest.mark.parametrize(("store_at", "read_at", "races"), [
    (32, 96, False),   # bytes [64, 192) and [192, 320): adjacent, across a 128-byte page
    (32, 95, True),    # one element of overlap, on the second page of the write
    (32, 0, True),     # overlap on the first page
    (32, 160, False),  # far apart
])
def test_overlap_is_byte_exact(store_at: int, read_at: int, races: bool) -> None:
    m = module(_store_and_read(store_at, read_at))
    if races:
        lo, hi = read_at * 2, read_at * 2 + 128
        with pytest.raises(RaceError, match=rf"bytes \[{lo}, {hi}\) of C0-SP, which C0-SU "
                                            r"wrote \(bytes \[64, 192\)\)"):
            emulate(m, device(), entry="k", args=[0])
    else:
        emulate(m, device(), entry="k", args=[0])


def test_reads_never_race() -> None:
    """LU and a DMA of DU read the same GM row with no signal between them."""
    body = DU + f"""  dataflow.program_unit %du : {{
    %g = dataflow.get_logical_memory_view %gm, %c0 {{{LAYOUT}}} : index, index, memref<1x64xf16>
{sp_view("s", 0)}{dma_row("%g", "%s", "0")}  }}
  dataflow.program_unit %lu : {{
    %g = dataflow.get_logical_memory_view %gm, %c0 {{{LAYOUT}}} : index, index, memref<1x64xf16>
    %x = agen.vector_load %g[0, 0] {{{ROW}}} : memref<1x64xf16>, vector<64xf16>
  }}
"""
    emulate(module(body), device(dma=True), entry="k", args=[0])


def _overwrite_chain(relay: bool) -> str:
    """SU writes an SP row and signals DU; DU overwrites it by DMA, waits, and signals LU
    (`relay`) or not; LU waits for SU's signal only and reads the row."""
    notify = "    dataflow.sync_send %lu {wait_immediately_for_async_transfers = true} : index\n"
    wait = "    dataflow.sync_recv %du : index\n"
    return DU + f"""  dataflow.program_unit %su : {{
{sp_view("v", 0)}    %z = vectorchain.constant_bitstream {{value = {ONES}}} : vector<64xf16>
    agen.vector_store %z, %v[0, 0] {{{STORE_ROW}}} : memref<1x64xf16>, vector<64xf16>
    dataflow.sync_send %du : index
    dataflow.sync_send %lu : index
  }}
  dataflow.program_unit %du : {{
    dataflow.sync_recv %su : index
    %g = dataflow.get_logical_memory_view %gm, %c0 {{{LAYOUT}}} : index, index, memref<1x64xf16>
{sp_view("s", 0)}{dma_row("%g", "%s", "0")}{notify}  }}
  dataflow.program_unit %lu : {{
    dataflow.sync_recv %su : index
{wait if relay else ""}{sp_view("v", 0)}    %x = agen.vector_load %v[0, 0] {{{ROW}}} : memref<1x64xf16>, vector<64xf16>
  }}
"""


def test_ordering_through_an_overwrite() -> None:
    """LU's read is ordered after DU's DMA (relayed signal), which overwrote SU's row after
    SU's signal: no race. Without DU's signal the unordered writer named is DU's DMA, the
    latest write of those bytes."""
    r = emulate(module(_overwrite_chain(True)), device(dma=True), entry="k", args=[0])
    assert not [w for w in r.warnings if "at the end" in w]
    m = module(_overwrite_chain(False))
    with pytest.raises(RaceError, match=r"C0-LU reads bytes \[0, 128\) of C0-SP, which a DMA "
                                        r"of C0-DU wrote"):
        emulate(m, device(dma=True), entry="k", args=[0])


def _relay(order_cu: str, order_du: str) -> str:
    """SU writes an SP row and signals CU; CU and DU each forward one signal (in the order
    given: 'recv,send' forwards what was received, 'send,recv' does not); LU waits for DU and
    reads the row."""
    ops = {"recv": "    dataflow.sync_recv %{frm} : index\n",
           "send": "    dataflow.sync_send %{to} : index\n"}

    def unit(order: str, frm: str, to: str) -> str:
        return "".join(ops[k].format(frm=frm, to=to) for k in order.split(","))
    return DU + f"""  dataflow.program_unit %su : {{
{sp_view("v", 0)}    %z = vectorchain.constant_bitstream {{value = {ONES}}} : vector<64xf16>
    agen.vector_store %z, %v[0, 0] {{{STORE_ROW}}} : memref<1x64xf16>, vector<64xf16>
    dataflow.sync_send %cu : index
  }}
  dataflow.program_unit %cu : {{
{unit(order_cu, "su", "du")}  }}
  dataflow.program_unit %du : {{
{unit(order_du, "cu", "lu")}  }}
  dataflow.program_unit %lu : {{
    dataflow.sync_recv %du : index
{sp_view("v", 0)}    %x = agen.vector_load %v[0, 0] {{{ROW}}} : memref<1x64xf16>, vector<64xf16>
  }}
"""


@pytest.mark.parametrize(("cu", "du", "races"), [
    ("recv,send", "recv,send", False),
    ("send,recv", "recv,send", True),   # CU signals before it has heard from SU
    ("recv,send", "send,recv", True),   # DU signals before it has heard from CU
])
def test_ordering_is_transitive_only_through_earlier_signals(cu: str, du: str,
                                                             races: bool) -> None:
    m = module(_relay(cu, du))
    if races:
        with pytest.raises(RaceError, match=r"C0-LU reads bytes \[0, 128\) of C0-SP, which "
                                            r"C0-SU wrote \(bytes \[0, 128\)\), not ordered"):
            emulate(m, device(dma=True), entry="k", args=[0])
    else:
        emulate(m, device(dma=True), entry="k", args=[0])
