"""symbols.json from a kernel and its DataflowIR: kinds, constraints, element widths, derived
symbols with their host expressions; and the runtime's binding of them (byte pointers to
element addresses, shape constraints, derived values evaluated)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from xdsl.dialects import func

from ktir.context import make_context, parse_module
from ktir_tools.runtime import LaunchError, Plan, bind
from scheduler.conversion.ktdf_to_dfir.wrap_program_dfir import WrapProgramDfirPass
from spyrecode.artifact import SymbolTable, expression_text
from spyrecode.artifact.symbols import build_symbols

RT = "!ktdp.runtime_arg<index, granularity=32, upperbound=300>"
# A host that calls a group with its runtime_arg, a pointer, a loop index and the pointer
# moved by m * 64 elements: the last two become derived symbols -3 and -4.
SOURCE = f"""
module {{
  ktdf_arch.device @sample_device import("sample_device.mlir")
  module {{
    func.func @kernel(%m: {RT}, %a: index) {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %mv = ktdp.runtime_arg_extract value from %m : {RT} -> index
      %off = arith.muli %mv, %c64 : index
      %b = arith.addi %a, %off : index
      scf.for %i = %c0 to %mv step %c1 {{
        func.call @local_schedule_0(%m, %a, %i, %b) : ({RT}, index, index, index) -> ()
      }}
      func.return
    }}
    func.func private @local_schedule_0({RT}, index, index, index)
  }}
  module @local_schedule_0 {{
    func.func @local_schedule_0(%gm: {RT}, %ga: index, %gi: index, %gb: index) {{
      %ddr = dataflow.get_unit {{name = "DDR", type = "DDR"}} : index
      %in0 = dataflow.get_unit {{core = 0 : i32, name = "C0-MNILU", type = "MNILU"}} : index
      dataflow.program_unit iter_arg : %u -> (%in0) : {{
        %s = symbol.create_symbol {{SymbolId = -2 : i64}} : index
        %v = dataflow.get_logical_memory_view %ddr, %s {{layout_map = affine_map<(d0) -> (d0)>}} : index, index, memref<64xf32>
        %t = symbol.create_symbol {{SymbolId = -4 : i64}} : index
      }}
      func.return
    }}
  }}
}}
"""


@pytest.fixture(scope="module")
def table() -> SymbolTable:
    ctx = make_context()
    module = parse_module(SOURCE, "derived.mlir", ctx)
    kernel = next(op for op in module.walk() if isinstance(op, func.FuncOp)
                  and op.sym_name.data == "kernel").clone()
    WrapProgramDfirPass().apply(ctx, module)
    return build_symbols(kernel, module)


def test_kinds_constraints_and_widths(table) -> None:
    m, a, i, b = table.symbols
    assert (m.id, m.kind, m.granularity, m.upperbound, m.reads) == (-1, "shape", 32, 300, 0)
    assert m.constraints() == ["mod 32 == 0", "<= 300"]
    assert (a.id, a.kind, a.element_type, a.element_bytes, a.reads) == (
        -2, "tensor_address", "f32", 4, 1)
    assert (i.id, i.kind, i.argument, i.expression) == (-3, "derived", None, None)
    assert (b.id, b.kind, b.reads) == (-4, "derived", 1)
    assert expression_text(b.expression) == "(sym(-2) + (sym(-1) * 64))"
    assert expression_text(i.expression) == "host loop index"
    assert SymbolTable.from_json(table.to_json()).symbols == table.symbols


def _plan(table: SymbolTable) -> Plan:
    args = tuple(s for s in table.symbols if s.argument is not None)
    derived = tuple(s for s in table.symbols if s.kind == "derived")
    artifact = SimpleNamespace(kernel="kernel")  # bind reads only the kernel's name
    return Plan(artifact, None, None, None, args, derived, 0.0)  # type: ignore[arg-type]


@pytest.mark.parametrize(("m", "ptr"), [(32, 0), (64, 4096), (288, 400)])
def test_bind_converts_pointers_and_evaluates_derived_symbols(table, m, ptr) -> None:
    plan = _plan(table)
    argv, values = bind(plan, {"m": m, "a": ptr})
    assert argv == [m, ptr // 4]
    assert values == {-1: m, -2: ptr // 4, -3: None, -4: ptr // 4 + m * 64}


@pytest.mark.parametrize(("args", "message"), [
    ({"m": 33, "a": 0}, "violates 'mod 32 == 0'"),
    ({"m": 320, "a": 0}, "violates '<= 300'"),
    ({"m": 32, "a": 6}, "byte pointer 6 is not a multiple of 4, the byte width of its f32"),
    ({"m": 32}, r"symbol -2 'a' \(tensor_address, argument 1\): missing argument"),
    ({"m": "32", "a": 0}, "expects an integer, got '32'"),
    ({"m": True, "a": 0}, "expects an integer, got True"),
])
def test_bind_refuses_naming_the_symbol(table, args, message) -> None:
    with pytest.raises(LaunchError, match=message):
        bind(_plan(table), args)
