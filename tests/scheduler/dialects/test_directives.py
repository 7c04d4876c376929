"""The ktdf / ktdf_lowering syntax: declarative formats with the custom directives of
scheduler/dialects/directives.py, the spellings the hand-written parsers accepted, canonical
printing, and located parse errors."""

import pytest
from xdsl.dialects.builtin import IndexType, MemRefType, ModuleOp, StringAttr, f16
from xdsl.utils.test_value import create_ssa_value

from ktir.context import parse_module
from ktir.diagnostics import KtirDiagnostic
from scheduler.dialects.ktdf import DataTransferOp, TilingReserveSizeOp


def _module(body: str, args: str = "") -> str:
    return f"func.func @f({args}) {{\n{body}\n  return\n}}\n"


def _print(text: str) -> str:
    return str(parse_module(text))


def test_earlier_spellings_still_parse():
    args = "%a: index, %b: index, %s: !ktdf.fifo.slot<\"A\" -> \"B\", 4xf16>"
    text = _module("""  %t = ktdf.tiling.reserve_size {min_value = 8, divisibility = 4} : index
  %l = ktdf.tiling.linearize_index [%a : %b] [%b : %a] : index
  %d = ktdf.tiling.derive_size [%a : %b] total_size = %b : index
  %p = ktdf.buffer_phase(%a, %b) {num_phases = 2 : index} : index
  %r = ktdf.read_from_fifo %s : !ktdf.fifo.slot<"A" -> "B", 4xf16> -> tensor<4xf16>
  ktdf.pipeline modulo(size: 2) {
  }""", args)
    out = _print(text)
    assert "reserve_size {divisibility = 4 : index, min_value = 8 : index} : index" in out
    assert "linearize_index [%a : %b], [%b : %a] : index" in out
    assert "derive_size [%a : %b], total_size = %b : index" in out
    assert "buffer_phase(%a, %b) {num_phases = 2 : i64} : index" in out
    assert 'read_from_fifo %s : <"A" -> "B", 4xf16> -> tensor<4xf16>' in out
    assert "ktdf.pipeline modulo(size : 2) {\n    }" in out
    assert _print(out) == out


def test_reserve_size_prints_one_way():
    """The attribute dictionary is sorted (as MLIR prints it), whatever the input order."""
    a = _print(_module("  %t = ktdf.tiling.reserve_size {min_value = 2 : index, "
                       "divisibility = 4 : index} : index"))
    b = _print(_module("  %t = ktdf.tiling.reserve_size {divisibility = 4 : index, "
                       "min_value = 2 : index} : index"))
    assert a == b
    assert list(TilingReserveSizeOp(2, 4).properties)[:2] == ["divisibility", "min_value"]


def test_transfer_properties_in_definition_order():
    """Built and parsed transfers print one generic form: properties in definition order."""
    t = MemRefType(f16, [64], memory_space=StringAttr("L1"))
    a, b, i = create_ssa_value(t), create_ssa_value(t), create_ssa_value(IndexType())
    built = DataTransferOp(a, [i], None, [64], b, [0], None, [64])
    text = _module("  ktdf.data_transfer from %a[%i] size [64] to %b[0] size [64] : "
                   f"{t}, {t}", f"%a: {t}, %b: {t}, %i: index")
    parsed = next(op for op in parse_module(text).walk() if isinstance(op, DataTransferOp))
    assert list(parsed.properties) == list(built.properties)
    assert list(built.properties)[:4] == ["static_source_sizes", "static_dest_sizes",
                                          "source_map", "dest_map"]


def test_opaque_results_named_after_the_template():
    t = "tensor<4xf16>"
    out = _print(f"func.func @f(%a: {t}) -> {t} {{\n"
                 f"  %0 = ktdf.opaque \"EXP\" -> {t} ins(%a : {t}) outs(%a : {t})\n"
                 f"  return %0 : {t}\n}}\n")
    assert f'%EXP = ktdf.opaque "EXP" -> {t} ins(%a : {t}) outs(%a : {t})' in out


def test_empty_bodies_and_elided_yield():
    out = _print(_module("""  ktdf.pipeline {
    ktdf.private {
    }
    ktdf.stage depends_in(none) depends_out(none) {
    }
  }
  ktdf_lowering.execute_on {
  }"""))
    assert "^bb" not in out
    assert "private_yield" not in out
    module = parse_module(out)
    assert isinstance(module, ModuleOp)
    assert str(module) == out


@pytest.mark.parametrize(("body", "where", "message"), [
    ("  %t = ktdf.create_token : index", "2:28", "ktdf.create_token produces !ktdf.token, "
     "not index"),
    ("  %x = ktdf.tiling.linearize_index [%i : %i] : i32", "2:48",
     "ktdf.tiling.linearize_index produces index, not i32"),
    ("  %d = ktdf.read_from_fifo %s : <\"A\" -> \"B\", 4xf16> -> f16", "2:56",
     "expected a ranked tensor or memref type, got f16"),
    ("  ktdf.data_transfer from %m[0] size [4] to %m[0] size [4] : memref<4xf16>, index",
     "2:77", "expected a memref or FIFO slot type, got index"),
    ("  ktdf.opaque \"X\" ins(%i, %i : index) outs()", "2:23", "2 operands but 1 types"),
])
def test_located_parse_errors(body: str, where: str, message: str):
    args = "%i: index, %m: memref<4xf16>, %s: !ktdf.fifo.slot<\"A\" -> \"B\", 4xf16>"
    with pytest.raises(KtirDiagnostic, match=f"<string>:{where}: error: {message}"):
        parse_module(_module(body, args))
