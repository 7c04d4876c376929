"""An access written into the program (its view's layout known when compiling: the template
of codegen_inline.py with the plan folded in) and the same access in called functions (the
layout known only at run time: the template compiled per plan, codegen_access.Generic): the
same pipeline, once each way, must give the same cycles, per-unit statistics, bytes per link,
trace and memory, with and without race checking; a race must be caught, and a fault
reported alike, both ways."""

from __future__ import annotations

import numpy as np
import pytest

from emulator import EmulationError, EmulationResult, RaceError, emulate
from tests.emulator.programs import LAYOUT, ROW, STORE_ROW, device, module

ROWS = (np.arange(8 * 64, dtype=np.float32).reshape(8, 64) / 7).astype(np.float16)
RING = "memref<2x64xf16>"
MAT = "memref<8x64xf16>"


def _dma(src: str, si: str, dst: str, di: str, tag: str) -> str:
    rowset = "affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>"
    ident = "affine_map<(d0, d1) -> (d0, d1)>"
    zero = "affine_map<(d0) -> (0, 0)>"
    return f"""agen.composite_load_and_store src:{src}[{si}, 0] dst:{dst}[{di}, 0]
     time_symbols(), load_iv(%iv{tag}:vector<64xf16>)
     {{load_order = {ident}, load_set = {rowset}, load_time_addr_map = {zero},
       store_order = {ident}, store_set = {rowset}, store_time_addr_map = {zero},
       time_order = affine_map<(d0) -> (d0)>, time_set = affine_set<(d0) : (d0 == 0)>}}
    {{
      agen.yield
    }} : {MAT}, {RING}
"""


def _load(view: str, i: str) -> str:
    return f"agen.vector_load {view}[{i}, 0] {{{ROW}}} : {RING}, vector<64xf16>"


def _store(val: str, view: str, i: str) -> str:
    return f"agen.vector_store {val}, {view}[{i}, 0] {{{STORE_ROW}}} : {MAT}, vector<64xf16>"


FUNCS = f"""func.func @copy(%g: {MAT}, %s: {RING}, %i: index, %j: index) {{
  {_dma("%g", "%i", "%s", "%j", "f")}  func.return
}}
func.func @load(%s: {RING}, %j: index) -> vector<64xf16> {{
  %x = {_load("%s", "%j")}
  func.return %x : vector<64xf16>
}}
func.func @store(%x: vector<64xf16>, %v: {MAT}, %i: index) {{
  {_store("%x", "%v", "%i")}
  func.return
}}
"""


def _pipeline(through_functions: bool, back_signal: bool = True) -> str:
    """DU copies 8 GM rows by DMA into a 2-slot ring in SP, signalling LU per row and
    waiting for LU to free a slot before reusing it; LU loads each row and sends it to CU,
    which doubles it for SU, which stores it into the output rows."""
    free = "      dataflow.sync_send %du : index\n" if back_signal else ""
    if through_functions:
        copy = "func.call @copy(%g, %s, %i, %slot) : " + f"({MAT}, {RING}, index, index) -> ()"
        load_send = (f"%x = func.call @load(%s, %slot) : ({RING}, index) -> vector<64xf16>\n"
                     "      dataflow.send %cu, %x : vector<64xf16>")
        store = f"func.call @store(%x, %v, %i) : (vector<64xf16>, {MAT}, index) -> ()"
    else:
        copy = _dma("%g", "%i", "%s", "%slot", "0")
        load_send = f"%x = {_load('%s', '%slot')}\n      dataflow.send %cu, %x : vector<64xf16>"
        store = _store("%x", "%v", "%i")
    wait = "dataflow.sync_recv %lu : index" if back_signal else ""
    return f"""  %du = dataflow.get_unit {{core = 0 : i32, name = "C0-DU", type = "DU"}} : index
  dataflow.program_unit %du : {{
    %a = symbol.create_symbol {{SymbolId = -1 : i64}} : index
    %g = dataflow.get_logical_memory_view %gm, %a {{{LAYOUT}}} : index, index, {MAT}
    %s = dataflow.get_logical_memory_view %sp, %c0 {{{LAYOUT}}} : index, index, {RING}
    scf.for %i = %c0 to %c8 step %c1 {{
      %reuse = arith.cmpi sge, %i, %c2 : index
      scf.if %reuse {{
        {wait}
      }}
      %slot = arith.remsi %i, %c2 : index
      {copy}
      dataflow.sync_send %lu : index
    }}
  }}
  dataflow.program_unit %lu : {{
    %s = dataflow.get_logical_memory_view %sp, %c0 {{{LAYOUT}}} : index, index, {RING}
    scf.for %i = %c0 to %c8 step %c1 {{
      dataflow.sync_recv %du : index
      %slot = arith.remsi %i, %c2 : index
      {load_send}
{free}    }}
  }}
  dataflow.program_unit %cu : {{
    scf.for %i = %c0 to %c8 step %c1 {{
      %x = dataflow.receive %lu : vector<64xf16>
      %y = vectorchain.binary %x, %x {{binary_op = #vectorchain<binary_operator add>, op_specific_map = affine_map<(d0) -> (d0)>}} : vector<64xf16>, vector<64xf16>, vector<64xf16>
      dataflow.send %su, %y : vector<64xf16>
    }}
  }}
  dataflow.program_unit %su : {{
    %a = symbol.create_symbol {{SymbolId = -2 : i64}} : index
    %v = dataflow.get_logical_memory_view %gm, %a {{{LAYOUT}}} : index, index, {MAT}
    scf.for %i = %c0 to %c8 step %c1 {{
      %x = dataflow.receive %cu : vector<64xf16>
      {store}
    }}
  }}
"""


def _run(through_functions: bool, **kw) -> EmulationResult:
    m = module(_pipeline(through_functions), nargs=2, funcs=FUNCS)
    return emulate(m, device(dma=True), entry="k", args=[0, 2048],
                   memory_init={"GM": [(0, ROWS)]}, **kw)


def _observed(r: EmulationResult) -> tuple:
    units = {k: (u.busy, u.stalled, u.events, u.start, u.end) for k, u in r.units.items()}
    return (r.cycles, units, r.bytes_per_link, r.bytes_per_datapath, r.events, r.warnings,
            r.trace_events)


@pytest.mark.parametrize("races", [True, False])
def test_inlined_and_generic_paths_agree(races: bool) -> None:
    inlined = _run(False, check_races=races, trace=True)
    generic = _run(True, check_races=races, trace=True)
    assert np.array_equal(inlined.read("GM", 2048, (8, 64), np.float16), ROWS + ROWS)
    assert np.array_equal(generic.read("GM", 2048, (8, 64), np.float16), ROWS + ROWS)
    assert _observed(inlined) == _observed(generic)
    assert inlined.units["C0-DU"].stalled["dma"] > 0  # the DMAs' timing was exercised


@pytest.mark.parametrize("through_functions", [False, True])
def test_both_paths_catch_a_ring_race(through_functions: bool) -> None:
    m = module(_pipeline(through_functions, back_signal=False), nargs=2, funcs=FUNCS)
    with pytest.raises(RaceError, match=r"bytes \[0, 128\) of C0-SP"):
        emulate(m, device(dma=True), entry="k", args=[0, 2048],
                memory_init={"GM": [(0, ROWS)]})


def _failure(through_functions: bool, case: str) -> str:
    text = _pipeline(through_functions)
    args = [0, 2048]
    if case == "source past the memory":
        args = [(1 << 19) - 64 * 4, 2048]
    elif case == "store past the memory":
        args = [0, (1 << 19) - 64 * 4]
    else:  # a ninth row through the 8-row view
        text = text.replace("    scf.for %i = %c0 to %c8 step %c1 {\n      %reuse",
                            "    %n9 = arith.constant 9 : index\n"
                            "    scf.for %i = %c0 to %n9 step %c1 {\n      %reuse")
    with pytest.raises(EmulationError) as e:
        emulate(module(text, nargs=2, funcs=FUNCS), device(dma=True), entry="k", args=args)
    return e.value.text.splitlines()[0].split(" op ", 1)[1]  # without the op's location


@pytest.mark.parametrize("case", ["source past the memory", "store past the memory",
                                  "row past the view"])
def test_inlined_and_generic_paths_fail_alike(case: str) -> None:
    """Same message, unit and cycle, whichever path ran the access."""
    inlined = _failure(False, case)
    assert inlined == _failure(True, case)
    assert "[unit C0-" in inlined
    assert "cycle " in inlined
