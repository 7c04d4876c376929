"""The DataflowIR syntax: every op has an assembly format or says why it parses by hand; the
custom directives accept upstream's spellings and report malformed text where it is."""

import re

import pytest
from xdsl.irdl import IRDLOperation

from ktir.context import parse_module
from ktir.diagnostics import KtirDiagnostic
from spyrecode import get_all_dialects

DIALECTS = ("dataflow", "agen", "vectorchain", "uniform", "symbol")


def _ops() -> list[type[IRDLOperation]]:
    return [op for name in DIALECTS for op in get_all_dialects()[name]().operations]


HEAD = """func.func @f(%m: memref<4x64xf16>, %u: index, %i: index, %v: vector<64xf16>,
              %x: vector<2xf16>, %p: f16) {
  %g = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
"""
SET = "affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>"
ID = "affine_map<(d0, d1) -> (d0, d1)>"
TIME = ("time_addr_map = affine_map<() -> (0, 0)>, time_order = affine_map<() -> ()>, "
        "time_set = affine_set<() : ()>")


def _roundtrip(body: str) -> str:
    text = str(parse_module(HEAD + body + "\n  return\n}"))
    assert str(parse_module(text)) == text
    return text


@pytest.mark.parametrize(("written", "printed"), [
    (f"%r = agen.vector_load %m [ %i , 0 ] multicast_info=%u {{load_order = {ID}, "
     f"load_set = {SET}}} : memref<4x64xf16> , vector<64xf16>",
     "agen.vector_load %m[%i, 0] multicast_info = %u {load_order"),
    ("%t = uniform.def_immutable_mapping([%g -> %i]):index\n"
     "  %q = uniform.query_map ( map : %t , key : %g ) : index",
     "uniform.query_map(map:%t, key:%g) : index"),
    ("%t = uniform.def_immutable_mapping ( [ %g -> %p ] ) : index , f16",
     "uniform.def_immutable_mapping([%g -> %p]):index, f16"),
    ("%c0 = arith.constant 0 : index\n  %s0 = symbol.create_symbol {SymbolId = -1 : i64} : index"
     "\n  %t = symbol.symbol_immutable_mapping([%c0 -> %s0] ) : index",
     "symbol.symbol_immutable_mapping ([%c0 -> %s0]) : index"),
    ("%r = uniform.uniformize_regions -> (index) {\n (%a -> %g) {\n uniform.yield %i : index\n"
     " }\n }", "uniform.uniformize_regions -> index {"),
    ("dataflow.program_unit iter_arg : %me -> (%g) : {\n dataflow.return\n }",
     "dataflow.program_unit iter_arg : %me -> (%g) : {\n"),
    ("%s = vectorchain.shuffle input(%x), variable(%p, %p), pad(%p) {indices = [0 : i32, "
     "-3 : i32], repetition = 2 : i32} : vector<2xf16>, f16, f16, f16, vector<4xf16>",
     "input(%x), variable(%p, %p), pad(%p) {"),
    (f"agen.composite_store %m[0, 0] input_vector = %v time_symbols() {{{TIME}}} : "
     "memref<4x64xf16>, vector<64xf16>",
     f"  input_vector = %v time_symbols()\n     {{{TIME}}} : memref<4x64xf16>, vector<64xf16>"),
    ("agen.composite_memory_interleave {\n  }", "agen.composite_memory_interleave {} {\n"),
    ("agen.composite_memory_interleave {granularity = 8 : i32} {\n  }",
     "agen.composite_memory_interleave {granularity = 8 : i32} {\n"),
])
def test_spellings_parse_and_print_upstream_style(written, printed):
    assert printed in _roundtrip(written)


@pytest.mark.parametrize(("body", "message"), [
    (f"agen.composite_store %m[0, 0] input_vector = %v time_symbols() {{{TIME}}} : "
     "memref<4x64xf16>", "Expected ','"),
    (f"agen.composite_store %m[0, 0] input_vector = %v time_symbols() {{{TIME}}} {{\n}} : "
     "memref<4x64xf16>, vector<64xf16>", "a composite_store has either input_vector or a region"),
    ("%s = vectorchain.shuffle input(%x), mask(%v, %v) {indices = [0 : i32], repetition = 2 : "
     "i32} : vector<2xf16>, vector<64xf16>, vector<2xf16>", "mask takes one operand"),
    ("%s = vectorchain.shuffle input(%x), pad(%p), pad(%p) {indices = [0 : i32], repetition ="
     " 2 : i32} : vector<2xf16>, f16, f16, vector<2xf16>",
     "expected 'variable', 'pad' or 'mask' (each once, in this order)"),
    ("%c = arith.constant 0 : index\n  %w = dataflow.get_paged_logical_memory_view %u, %c "
     "{layout_map = affine_map<(d0) -> (d0)>} {segments = page0: (idx_set = 3, start_addr = "
     "%c)} : index, index, memref<64xf16>", "idx_set must be an affine_set"),
    ("%t = uniform.def_immutable_mapping([%g, %p]):index, f16", "'->'"),
    # no attribute dictionary before the region: it still parses, the verifier reports it
    ("agen.composite_store %m[0, 0] time_symbols() {\n agen.yield %v : vector<64xf16>\n  } : "
     "memref<4x64xf16>", "property 'time_addr_map' expected"),
    ("%c = arith.constant 0 : index\n  %w = dataflow.get_paged_logical_memory_view %u, %c "
     "{segments = page0: (idx_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, start_addr = "
     "%c)} : index, index, memref<64xf16>", "property 'layout_map' expected"),
])
def test_malformed_text_is_reported_where_it_is(body, message):
    with pytest.raises(KtirDiagnostic) as e:
        parse_module(HEAD + "  " + body + "\n  return\n}", "in.mlir")
    assert message in str(e.value)
    assert re.search(r"in\.mlir:\d+:\d+: error", str(e.value))
