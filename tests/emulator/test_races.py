"""The unsynchronised-access checker (shared/spec/dataflow-ir.md §7 E9, E14): DMAs in flight,
ring buffers with and without the back signal, byte-exact overlap across the checker's pages,
reads that never race, ordering through a write that covers an older one, a race found
late in a long, otherwise synchronised loop, and strided accesses whose byte ranges interleave
(a column split) racing only on the bytes they share, and ordering carried by FIFO messages
(a received message happens after its send): in-place kernels, which store into the bytes
they loaded, run race-free; a FIFO message sent before the access it should order does not
order it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator import RaceError, emulate
from emulator.access import byte_runs
from emulator.races import PAGE_BITS, covers, pages_of, shared_byte
from ktir.context import parse_module
from ktir.interpreter import interpret
from tests.emulator.programs import (
    LAYOUT,
    ROW,
    STORE_ROW,
    device,
    load_rows,
    module,
    store_rows,
)
from tests.emulator.test_kernels import DEVICES, output, run_kernel

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


def sp_view(name: str, element: int, shape: str = "1x64") -> str:
    return (f"    %{name}_at = arith.constant {element} : index\n"
            f"    %{name} = dataflow.get_logical_memory_view %sp, %{name}_at {{{LAYOUT}}} : "
            f"index, index, memref<{shape}xf16>\n")


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


def _strided(store_col: int, read_col: int) -> str:
    """SU stores one vector into columns [store_col, store_col + 32) of rows 0 and 1 of SP;
    LU reads columns [read_col, read_col + 32) of the same rows, unordered."""
    def half(kind: str) -> str:  # 2 rows x 32 columns from the base coordinate
        return (f"{kind}_order = affine_map<(d0, d1) -> (d0, d1)>, {kind}_set = affine_set<"
                "(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>")
    return f"""  dataflow.program_unit %su : {{
{sp_view("v", 0, "2x64")}    %z = vectorchain.constant_bitstream {{value = {ONES}}} : vector<64xf16>
    agen.vector_store %z, %v[0, {store_col}] {{{half("store")}}} : memref<2x64xf16>, vector<64xf16>
  }}
  dataflow.program_unit %lu : {{
{sp_view("v", 0, "2x64")}    %x = agen.vector_load %v[0, {read_col}] {{{half("load")}}} : memref<2x64xf16>, vector<64xf16>
  }}
"""


@pytest.mark.parametrize(("store_col", "read_col", "shared"), [
    (0, 32, None),  # bytes [0, 64) + [128, 192) against [64, 128) + [192, 256): interleaved
    (32, 0, None),
    (0, 16, 32),    # columns 16..31 of both rows are shared
    (16, 0, 32),
    (0, 0, 0),
])
def test_strided_accesses_race_only_on_shared_bytes(store_col: int, read_col: int,
                                                    shared: int | None) -> None:
    """The bounding ranges of the two accesses overlap in every case; only shared bytes race,
    and the message names one."""
    m = module(_strided(store_col, read_col))
    if shared is None:
        emulate(m, device(), entry="k", args=[0])
    else:
        with pytest.raises(RaceError, match=rf"C0-(LU|SU) (reads|writes) bytes .* of C0-SP, "
                                            rf".*; both touch byte {shared}"):
            emulate(m, device(), entry="k", args=[0])


runs_st = st.lists(st.booleans(), min_size=1, max_size=40)


def _as_access(mask: list[bool], at: int) -> tuple[int, int, tuple | None, set[int]] | None:
    """A byte mask placed at byte `at` as (lo, hi, runs, bytes), trimmed to its touched span."""
    touched = [i for i, b in enumerate(mask) if b]
    if not touched:
        return None
    first, last = touched[0], touched[-1]
    runs = byte_runs(np.array(touched) - first, last - first + 1, 1)
    return at + first, at + last + 1, runs, {at + i for i in touched}


@given(a=runs_st, b=runs_st, at=st.integers(0, 300), bt=st.integers(0, 300))
@settings(max_examples=300, deadline=None)
def test_exact_overlap_and_cover_agree_with_byte_sets(a: list[bool], b: list[bool], at: int,
                                                      bt: int) -> None:
    x, y = _as_access(a, at), _as_access(b, bt)
    if x is None or y is None:
        return
    (lo, hi, runs, xs), (rlo, rhi, rruns, ys) = x, y
    both = xs & ys
    assert shared_byte(lo, hi, runs, rlo, rhi, rruns) == (min(both) if both else None)
    for page in range(0, 4):  # one page at a time, as the checker asks
        here = {i for i in both if i >> PAGE_BITS == page}
        assert shared_byte(lo, hi, runs, rlo, rhi, rruns, page) == (min(here) if here else None)
    assert covers(lo, hi, runs, rlo, rhi, rruns) == (ys <= xs)
    assert sorted(pages_of(lo, hi, runs)) == sorted({i >> PAGE_BITS for i in xs})


@given(a=runs_st, at=st.integers(0, 300), bt=st.integers(0, 300))
@settings(max_examples=200, deadline=None)
def test_cover_by_one_shared_pattern_agrees_with_byte_sets(a: list[bool], at: int,
                                                           bt: int) -> None:
    """Two accesses of one site share their (interned) runs object: `covers` answers from the
    offsets alone, and must agree with the byte sets."""
    x, y = _as_access(a, at), _as_access(a, bt)
    if x is None or y is None:
        return
    (lo, hi, runs, xs), (rlo, rhi, _, ys) = x, y
    assert covers(lo, hi, runs, rlo, rhi, runs) == (ys <= xs)


def _in_place(cu: str) -> str:
    """LU reads rows 0..3 of GM at symbol -1 and sends them to CU; CU forwards each row to SU
    (`cu` 'recv,send'), or sends SU a row of ones before receiving each (`send,recv`); SU
    stores what it receives over the rows LU read. No signal anywhere."""
    body = {"recv,send": "      %x = dataflow.receive %lu : vector<64xf16>\n"
                         "      dataflow.send %su, %x : vector<64xf16>\n",
            "send,recv": "      dataflow.send %su, %z : vector<64xf16>\n"
                         "      %x = dataflow.receive %lu : vector<64xf16>\n"}[cu]
    return load_rows(4) + f"""  dataflow.program_unit %cu : {{
    %z = vectorchain.constant_bitstream {{value = {ONES}}} : vector<64xf16>
    scf.for %i = %c0 to %c4 step %c1 {{
{body}    }}
  }}
""" + store_rows(4, sym=-1)


def test_fifo_messages_order_an_in_place_store_after_its_load() -> None:
    """LU's read of each row happens before its send, CU's receive before its forward, SU's
    receive before its store: the store over the bytes LU read is ordered after the read
    through the two FIFOs alone."""
    init = {"GM": [(0, ROWS)]}
    r = emulate(module(_in_place("recv,send")), device(), entry="k", args=[0],
                memory_init=init)
    assert np.array_equal(r.read("GM", 0, (4, 64), np.float16), ROWS)


def test_a_fifo_message_sent_before_the_load_does_not_order_it() -> None:
    """CU's message to SU leaves before CU has heard from LU: SU's store races with LU's
    read of the same row, and the message names both units."""
    with pytest.raises(RaceError, match=r"unsynchronised access: C0-SU writes bytes \[0, 128\) "
                                        r"of GM, which C0-LU read \(bytes \[0, 128\)\), "
                                        r"not ordered before it by any signal or message"):
        emulate(module(_in_place("send,recv")), device(), entry="k", args=[0],
                memory_init={"GM": [(0, ROWS)]})


IN_PLACE = """#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale(%A: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c2 : index
  %Av = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %At = ktdp.construct_access_tile %Av[%row0, %c0] {access_tile_order = #id, access_tile_set = #tile} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %e = tensor.empty() : tensor<2x64xf16>
  %c = linalg.add ins(%a, %a : tensor<2x64xf16>, tensor<2x64xf16>) outs(%e : tensor<2x64xf16>) -> tensor<2x64xf16>
  ktdp.store %c, %At : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
"""


@pytest.mark.parametrize("dev", DEVICES)
def test_a_compiled_in_place_kernel_is_race_free_and_matches(dev: str) -> None:
    """A = A + A, each tile storing over the rows it loaded: the compiler orders the store's
    DMA after the load's only through the pipeline's FIFOs (DMA in -signal-> load unit -FIFO->
    compute -FIFO-> store unit -signal-> DMA out)."""
    result, inputs, d, specs = run_kernel(IN_PLACE, "scale.mlir", dev, ("A",),
                                          check_races=True)
    expected = interpret(parse_module(IN_PLACE, "scale.mlir"), **inputs)
    assert np.array_equal(output(result, d, specs, "A"), expected["A"])


class _Unit:
    """What the checker reads of a process (emulator/runtime.py), plus a vector clock."""

    def __init__(self, name: str) -> None:
        self.name = name


class _Mem:
    name = "M"


step_st = st.one_of(
    st.tuples(st.just("acc"), st.integers(0, 2), st.booleans(), st.booleans(), runs_st,
              st.integers(0, 300)),
    st.tuples(st.just("sig"), st.integers(0, 2), st.integers(0, 2)))


@given(steps=st.lists(step_st, min_size=1, max_size=40))
@settings(max_examples=300, deadline=None)
def test_checker_agrees_with_a_brute_force_byte_set_reference(steps: list[tuple]) -> None:
    """Random strided accesses (reads, writes, DMAs in flight) of three units and signals
    between them, replayed through RaceChecker and through a reference that keeps every
    access as a byte set and orders by vector clocks: the checker reports a race at exactly
    the step the reference first finds one, and never otherwise."""
    from emulator.errors import RaceError as Race
    from emulator.races import RaceChecker, close

    rc, mem, units = RaceChecker(), _Mem(), [_Unit(f"U{i}") for i in range(3)]
    for u in units:
        rc.register(u)
    rc.start()
    vc = [[0, 0, 0] for _ in units]
    seen: list[list] = []  # [unit, bytes, write, end (None: in flight)]
    for step in steps:
        if step[0] == "sig":  # a signals b, which receives it at once (a waits for its DMAs)
            _, a, b = step
            if a == b:
                continue
            pa, pb = units[a], units[b]
            for s in seen:
                if s[0] == a and s[3] is None:
                    s[3] = pa.epoch
            close(pa, pa.epoch)
            pa.epoch += 1
            tok = (a, pa.epoch, len(pa.rlog))
            vc[a][a] = pa.epoch
            vc[b] = [max(x, y) for x, y in zip(vc[b], vc[a], strict=True)]
            if pb.known[a] < pa.epoch:
                pb.known[a] = pa.epoch
            pb.rlog.append(tok)
            continue
        _, u, write, dma, mask, at = step
        x = _as_access(mask, at)
        if x is None:
            continue
        lo, hi, runs, xs = x
        races = any(s[0] != u and (write or s[2]) and s[1] & xs
                    and (s[3] is None or vc[u][s[0]] <= s[3]) for s in seen)
        end = None if dma else units[u].epoch
        if races:
            with pytest.raises(Race):
                rc.access(units[u], mem, lo, hi, write, end, runs)
            return
        rc.access(units[u], mem, lo, hi, write, end, runs)
        seen.append([u, xs, write, end])
