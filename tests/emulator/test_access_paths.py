"""Every kind of memory access, written into the program (the view's layout known when
compiling) and through a function taking the view (its layout known only at run time, so the
template is compiled per plan by codegen_access.Generic): both give the same data, cycles,
statistics and trace. Covers DMAs of several steps (constant and symbolic), gathering DMAs,
composite accesses with a compute region, and scalar memref.load/store."""

from __future__ import annotations

import numpy as np
import pytest

from emulator import EmulationResult, emulate
from tests.emulator.programs import LAYOUT, device, module

ROWS = (np.arange(8 * 64, dtype=np.float32).reshape(8, 64) / 5).astype(np.float16)
MAT = "memref<8x64xf16>"
ID = "affine_map<(d0, d1) -> (d0, d1)>"
ROW = "affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>"
COLUMN = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 == 0)>"
ROW8 = "affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 7 >= 0)>"
EIGHT = "time_order = affine_map<(d0) -> (d0)>, time_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>"
N_STEPS = ("time_order = affine_map<(d0) -> (d0)>, "
           "time_set = affine_set<(d0)[s0] : (d0 >= 0, s0 - d0 - 1 >= 0)>")
PER_ROW = "affine_map<(d0) -> (d0, 0)>"
ONE = ("time_order = affine_map<(d0) -> (d0)>, time_set = affine_set<(d0) : (d0 == 0)>")
ZERO = "affine_map<(d0) -> (0, 0)>"
ADD = ("vectorchain.binary %iv, %iv {binary_op = #vectorchain<binary_operator add>, "
       "op_specific_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, "
       "vector<64xf16>")


def _dma(src: str, dst: str, attrs: str, syms: str = "", ty: str = "vector<64xf16>",
         region: str = "agen.yield") -> str:
    return f"""agen.composite_load_and_store src:{src}[0, 0] dst:{dst}[0, 0]
       time_symbols({syms}), load_iv(%iv:{ty}) {{{attrs}}} {{
      {region}
    }} : {MAT}, {MAT}"""


def _rows(time: str, lmap: str = PER_ROW, smap: str = PER_ROW, lset: str = ROW,
          sset: str = ROW) -> str:
    return (f"load_order = {ID}, load_set = {lset}, load_time_addr_map = {lmap}, "
            f"store_order = {ID}, store_set = {sset}, store_time_addr_map = {smap}, {time}")


# name -> the access (over views %x of GM at argument 0 and %y of SP at 0), and its type
ACCESSES = {
    "dma of 8 steps": _dma("%x", "%y", _rows(EIGHT)),
    "dma of n steps": _dma("%x", "%y", _rows(N_STEPS), syms="%c8"),
    "gathering dma": _dma("%x", "%y", _rows(ONE, ZERO, ZERO, COLUMN, ROW8),
                          ty="vector<8xf16>"),
    "load, compute, store": _dma("%x", "%y", _rows(EIGHT), region=f"""%d = {ADD}
      agen.yield %d : vector<64xf16>"""),
    "scalar load and store": f"""%e = memref.load %x[%c1, %c2] : {MAT}
    memref.store %e, %y[%c0, %c4] : {MAT}""",
}


def _program(name: str, through_function: bool) -> tuple[str, str]:
    """DU runs the access GM -> SP, then copies SP back to GM at argument 1 by DMA."""
    call = f"func.call @access(%x, %y) : ({MAT}, {MAT}) -> ()" if through_function \
        else ACCESSES[name]
    back = _dma("%y", "%z", _rows(EIGHT))
    body = f"""  %du = dataflow.get_unit {{core = 0 : i32, name = "C0-DU", type = "DU"}} : index
  dataflow.program_unit %du : {{
    %a = symbol.create_symbol {{SymbolId = -1 : i64}} : index
    %b = symbol.create_symbol {{SymbolId = -2 : i64}} : index
    %x = dataflow.get_logical_memory_view %gm, %a {{{LAYOUT}}} : index, index, {MAT}
    %y = dataflow.get_logical_memory_view %sp, %c0 {{{LAYOUT}}} : index, index, {MAT}
    %z = dataflow.get_logical_memory_view %gm, %b {{{LAYOUT}}} : index, index, {MAT}
    {call}
    {back}
  }}
"""
    funcs = f"""func.func @access(%x: {MAT}, %y: {MAT}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  {ACCESSES[name]}
  func.return
}}
"""
    return body, funcs


def _run(name: str, through_function: bool, races: bool) -> EmulationResult:
    body, funcs = _program(name, through_function)
    return emulate(module(body, nargs=2, funcs=funcs), device(dma=True), entry="k",
                   args=[0, 2048], memory_init={"GM": [(0, ROWS)]}, check_races=races,
                   trace=True)


def _observed(r: EmulationResult) -> tuple:
    units = {k: (u.busy, u.stalled, u.events, u.start, u.end) for k, u in r.units.items()}
    return (r.cycles, units, r.bytes_per_link, r.events, r.warnings, r.trace_events,
            r.read("GM", 2048, (8, 64), np.float16).tobytes())


def _expected(name: str) -> np.ndarray:
    out = np.zeros((8, 64), np.float16)
    if name == "gathering dma":
        out[0, :8] = ROWS[:, 0]
    elif name == "load, compute, store":
        out[:] = ROWS + ROWS
    elif name == "scalar load and store":
        out[0, 4] = ROWS[1, 2]
    else:
        out[:] = ROWS
    return out


@pytest.mark.parametrize("races", [True, False])
@pytest.mark.parametrize("name", list(ACCESSES))
def test_inlined_and_run_time_compiled_accesses_agree(name: str, races: bool) -> None:
    inlined = _run(name, False, races)
    compiled = _run(name, True, races)
    assert np.array_equal(inlined.read("GM", 2048, (8, 64), np.float16), _expected(name))
    assert _observed(inlined) == _observed(compiled)
