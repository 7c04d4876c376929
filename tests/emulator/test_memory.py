"""Memories, symbols and the other run-time faults (shared/spec/dataflow-ir.md §7 E2, E5, E9,
E12): out-of-bounds and overflowing accesses, unbound symbols, races, the cycle limit,
unsupported ops, and how `memory_init` / `read` name memories."""

from __future__ import annotations

import numpy as np
import pytest

from emulator import (
    CapacityError,
    CycleLimitError,
    OutOfBoundsError,
    RaceError,
    RuntimeFault,
    UnboundSymbolError,
    UnsupportedOpError,
    emulate,
)
from tests.emulator.programs import LAYOUT, ROW, STORE_ROW, device, load_rows, module, store_rows

ROWS = np.arange(4 * 64, dtype=np.float16).reshape(4, 64)


def test_global_memory_out_of_bounds() -> None:
    m = module(load_rows(4) + store_rows(4, frm="%lu").replace("%su :", "%cu :"), nargs=2)
    with pytest.raises(OutOfBoundsError) as e:
        emulate(m, device(), entry="k", args=[(1 << 19) - 64, 0])
    assert "out of bounds: access to bytes [1048576, 1048704) of GM (1048576 bytes)" in \
        e.value.text
    assert "unit C0-LU" in e.value.text
    assert "'agen.vector_load'" in e.value.text


def test_scratchpad_overflow() -> None:
    m = module(load_rows(4, to="%cu") + """  dataflow.program_unit %cu : {
    scf.for %i = %c0 to %c4 step %c1 {
      %x = dataflow.receive %lu : vector<64xf16>
      dataflow.send %su, %x : vector<64xf16>
    }
  }
""" + store_rows(4, dst="%sp"), nargs=2)
    with pytest.raises(CapacityError, match=r"scratchpad overflow: .* of C0-SP \(4096 bytes\)"):
        emulate(m, device(scratchpad=4096), entry="k", args=[0, 1920],
                memory_init={"GM": [(0, ROWS)]})
    r = emulate(m, device(scratchpad=4096), entry="k", args=[0, 1792],
                memory_init={"GM": [(0, ROWS)]})
    assert np.array_equal(r.read("SP@0", 1792, (4, 64), np.float16), ROWS)
    assert np.array_equal(r.read("C0-SP", 1792, (4, 64), np.float16), ROWS)


def test_access_outside_the_view_shape() -> None:
    body = f"""  dataflow.program_unit %lu : {{
    %v = dataflow.get_logical_memory_view %gm, %c0 {{{LAYOUT}}} : index, index, memref<4x64xf16>
    %x = agen.vector_load %v[%c4, 0] {{{ROW}}} : memref<4x64xf16>, vector<64xf16>
  }}
"""
    with pytest.raises(OutOfBoundsError, match=r"coordinates \(4, 0\) .* shape \(4, 64\)"):
        emulate(module(body), device(), entry="k", args=[0])


def test_unbound_symbol() -> None:
    with pytest.raises(UnboundSymbolError, match=r"symbol -2 is not bound \(bound ids: -1\)"):
        emulate(module(load_rows(1, sym=-2)), device(), entry="k", args=[0])


def test_handle_arithmetic_is_a_fault() -> None:
    body = """  dataflow.program_unit %lu : {
    %x = arith.addi %cu, %c1 : index
  }
"""
    with pytest.raises(RuntimeFault, match="unit handle"):
        emulate(module(body), device(), entry="k", args=[0])


def _handoff(signalled: bool) -> str:
    """SU writes a row into SP; LU reads it back (ordered by a signal or not)."""
    wait = "    dataflow.sync_recv %su : index\n" if signalled else ""
    notify = "    dataflow.sync_send %lu : index\n" if signalled else ""
    return f"""  dataflow.program_unit %su : {{
    %v = dataflow.get_logical_memory_view %sp, %c0 {{{LAYOUT}}} : index, index, memref<1x64xf16>
    %z = vectorchain.constant_bitstream {{value = [{', '.join(['0x3C00'] * 64)}]}} : vector<64xf16>
    agen.vector_store %z, %v[0, 0] {{{STORE_ROW}}} : memref<1x64xf16>, vector<64xf16>
{notify}  }}
  dataflow.program_unit %lu : {{
{wait}    %v = dataflow.get_logical_memory_view %sp, %c0 {{{LAYOUT}}} : index, index, memref<1x64xf16>
    %x = agen.vector_load %v[0, 0] {{{ROW}}} : memref<1x64xf16>, vector<64xf16>
  }}
"""


def test_unsynchronised_access_is_a_race() -> None:
    with pytest.raises(RaceError) as e:
        emulate(module(_handoff(False)), device(), entry="k", args=[0])
    assert "unsynchronised access: C0-LU reads bytes [0, 128) of C0-SP, which C0-SU wrote" in \
        e.value.text
    r = emulate(module(_handoff(False)), device(), entry="k", args=[0], check_races=False)
    assert r.cycles > 0
    emulate(module(_handoff(True)), device(), entry="k", args=[0])


def test_ordering_through_a_third_unit_is_not_a_race() -> None:
    """SU signals CU after its store and CU signals LU: LU's read is ordered transitively."""
    body = _handoff(True).replace("    dataflow.sync_send %lu : index\n",
                                  "    dataflow.sync_send %cu : index\n")
    body = body.replace("    dataflow.sync_recv %su : index\n", "    dataflow.sync_recv %cu : index\n")
    body += """  dataflow.program_unit %cu : {
    dataflow.sync_recv %su : index
    dataflow.sync_send %lu : index
  }
"""
    r = emulate(module(body), device(), entry="k", args=[0])
    assert r.units["C0-LU"].end > r.units["C0-SU"].start


def test_cycle_limit() -> None:
    m = module(load_rows(4) + store_rows(4, frm="%lu").replace("%su :", "%cu :"), nargs=2)
    with pytest.raises(CycleLimitError, match="cycle limit of 5 cycles"):
        emulate(m, device(), entry="k", args=[0, 4096], cycle_limit=5)


def test_spinning_loop_hits_the_limit() -> None:
    body = """  dataflow.program_unit %lu : {
    %r = scf.while (%a = %c0) : (index) -> index {
      %t = arith.cmpi sge, %a, %c0 : index
      scf.condition(%t) %a : index
    } do {
    ^bb0(%b: index):
      scf.yield %b : index
    }
  }
"""
    with pytest.raises(CycleLimitError, match="loop iterations"):
        emulate(module(body), device(), entry="k", args=[0], cycle_limit=1000)


def test_unsupported_op_is_named() -> None:
    body = """  dataflow.program_unit %lu : {
    %z = vectorchain.constant_bitstream {value = [0x0, 0x0]} : vector<2xf16>
    %p = vectorchain.pack %z, %z {indices = [0 : i32], repetition = 2 : index, sign_extend = false} : vector<2xf16>, vector<2xf16>, vector<2xf16>
  }
"""
    with pytest.raises(UnsupportedOpError, match=r"'vectorchain\.pack'"):
        emulate(module(body), device(), entry="k", args=[0])


def test_memory_init_of_every_core_and_missing_entry() -> None:
    from emulator import EmulationError

    m = module(load_rows(1, src="%sp") .replace("%lu : {", "%lu : {"))
    r = emulate(m, device(), entry="k", args=[0], memory_init={"SP": [(0, ROWS[:1])]},
                check_races=False)
    assert np.array_equal(r.read("SP@0", 0, (1, 64), np.float16), ROWS[:1])
    with pytest.raises(EmulationError, match="no function @nope"):
        emulate(m, device(), entry="nope", args=[0])


def test_scalar_code_and_control_flow() -> None:
    """Row indices computed with arith, affine.apply, scf.if/for/while results, uniform maps
    and uniformize_regions pick which rows LU sends: rows 3, 2, 1, 0."""
    body = f"""  %order = uniform.def_immutable_mapping([%lu -> %c4], [%su -> %c0]) : index
  dataflow.program_unit iter_arg : %me -> (%lu) : {{
    %n = uniform.query_map(map:%order, key:%me) : index
    %v = dataflow.get_logical_memory_view %gm, %c0 {{{LAYOUT}}} : index, index, memref<4x64xf16>
    %last = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {{
      %back = affine.apply affine_map<(d0)[s0] -> (s0 - d0 - 1)>(%i)[%n]
      %even = arith.remsi %back, %c2 : index
      %z = arith.cmpi eq, %even, %c0 : index
      %row = scf.if %z -> (index) {{
        scf.yield %back : index
      }} else {{
        %w = scf.while (%a = %c0) : (index) -> index {{
          %lt = arith.cmpi slt, %a, %back : index
          scf.condition(%lt) %a : index
        }} do {{
        ^bb0(%b: index):
          %b1 = arith.addi %b, %c1 : index
          scf.yield %b1 : index
        }}
        scf.yield %w : index
      }}
      %r = uniform.uniformize_regions -> index {{
        (%u -> %lu) {{
          uniform.yield %row : index
        }}
      }}
      %x = agen.vector_load %v[%r, 0] {{{ROW}}} : memref<4x64xf16>, vector<64xf16>
      dataflow.send %cu, %x : vector<64xf16>
      %acc1 = arith.addi %acc, %row : index
      scf.yield %acc1 : index
    }}
  }}
  dataflow.program_unit %cu : {{
    scf.for %i = %c0 to %c4 step %c1 {{
      %x = dataflow.receive %lu : vector<64xf16>
      dataflow.send %su, %x : vector<64xf16>
    }}
  }}
""" + store_rows(4)
    r = emulate(module(body, nargs=2), device(), entry="k", args=[0, 1024],
                memory_init={"GM": [(0, ROWS)]})
    assert np.array_equal(r.read("GM", 1024, (4, 64), np.float16), ROWS[::-1])
