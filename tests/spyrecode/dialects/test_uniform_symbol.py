"""The `uniform` and `symbol` dialects: per-instance tables and run-time symbols, built from
Python, looked up, and checked (missing keys, mixed values, symbol ids)."""

import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import FloatAttr, IndexType, f16
from xdsl.ir import Block, Region
from xdsl.transforms.dead_code_elimination import DeadCodeElimination
from xdsl.utils.exceptions import VerifyException

from ktir.context import parse_module
from ktir.diagnostics import KtirDiagnostic
from spyrecode.dialects.dataflow import GetUnitOp, ProgramUnitOp, SyncSendOp
from spyrecode.dialects.symbol import (
    CreateIdOp,
    CreateSymbolOp,
    SymbolImmutableMappingOp,
    SymbolQueryMapOp,
)
from spyrecode.dialects.uniform import (
    DefImmutableMappingOp,
    EqualizePatternOp,
    QueryMapOp,
    UniformizeRegionsOp,
    YieldOp,
)

IDX = IndexType()


def const(v: int, t=IDX):
    return arith.ConstantOp.from_int_and_width(v, t).result


def test_peer_and_address_tables_from_python(kernel, roundtrip):
    """The lowering's pattern: per-unit tables queried by the program's iter_arg."""

    def build(_):
        lus = [GetUnitOp(f"C{c}-L1LU", "L1LU", core=c).unit for c in range(2)]
        sfus = [GetUnitOp(f"C{c}-SFU", "SFU", core=c).unit for c in range(2)]
        peer = DefImmutableMappingOp(list(zip(lus, sfus, strict=True)))
        addr = DefImmutableMappingOp([(lus[0], const(0)), (lus[1], const(4096))])
        halves = [arith.ConstantOp(FloatAttr(x, f16)).result for x in (1.0, 2.0)]
        scale = DefImmutableMappingOp(list(zip(lus, halves, strict=True)))
        body = Block(arg_types=[IDX])
        with ImplicitBuilder(body) as (me,):
            to = QueryMapOp(peer.result, me)
            QueryMapOp(addr.result, me)
            assert QueryMapOp(scale.result, me).result.type == f16
            SyncSendOp(to.result)
        ProgramUnitOp(lus, body)
        assert peer.lookup(lus[1]) is sfus[1]
        assert peer.lookup(sfus[0]) is None
        assert [k for k, _ in addr.pairs] == lus
        assert scale.value_type == f16

    text = roundtrip(kernel(build))
    assert "uniform.def_immutable_mapping([%" in text
    assert "]):index\n" in text
    assert "]):index, f16\n" in text
    assert "= uniform.query_map(map:%" in text


def test_query_by_iter_arg_needs_a_key_per_unit():
    with pytest.raises(KtirDiagnostic, match="the mapping has no key for unit 'C1-L1LU'"):
        parse_module("""
        %a = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
        %b = dataflow.get_unit {core = 1 : i32, name = "C1-L1LU", type = "L1LU"} : index
        %c0 = arith.constant 0 : index
        %m = uniform.def_immutable_mapping([%a -> %c0]):index
        dataflow.program_unit iter_arg : %u -> (%a, %b) : {
          %x = uniform.query_map(map:%m, key:%u) : index
        }""", "q.mlir")


@pytest.mark.parametrize(("pairs", "message"), [
    ("[%a -> %c0], [%c1 -> %c0]", "the first key is a unit, so every key must be"),
    ("[%a -> %c0], [%b -> %s0]", "all values must be made by the same kind of op"),
    ("[%a -> %s0], [%b -> %c0]", "the first value is a symbol, so every value must be one"),
    ("[%a -> %c0], [%a -> %c1]", "a key appears twice"),
    ("[%c0 -> %a], [%c0_dup -> %b]", "a key appears twice"),
])
def test_mapping_rules(pairs, message):
    with pytest.raises(KtirDiagnostic, match=message):
        parse_module(f"""
        %a = dataflow.get_unit {{name = "C0-L1LU", type = "L1LU"}} : index
        %b = dataflow.get_unit {{name = "C1-L1LU", type = "L1LU"}} : index
        %c0 = arith.constant 0 : index
        %c0_dup = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %s0 = symbol.create_symbol {{SymbolId = -1 : i64}} : index
        %m = uniform.def_immutable_mapping({pairs}):index""")


def test_uniformize_and_equalize_from_python(kernel, roundtrip):
    def build(_):
        us = [GetUnitOp(f"C{c}-SFU", "SFU", core=c).unit for c in range(3)]
        cases = []
        for units, value in (([us[0], us[1]], 0), ([us[2]], 7)):
            block = Block(arg_types=[IDX])
            with ImplicitBuilder(block):
                YieldOp(const(value))
            cases.append((units, block))
        op = UniformizeRegionsOp(cases, [IDX])
        assert op.unit_lists() == [[us[0], us[1]], [us[2]]]
        assert op.region_for(us[2]) is op.cases[1]
        same = []
        for u in us[:2]:
            block = Block(arg_types=[IDX])
            with ImplicitBuilder(block):
                arith.AddiOp(const(1), const(2))
            same.append(([u], block))
        EqualizePatternOp(same)

    text = roundtrip(kernel(build))
    assert "uniform.uniformize_regions -> index {\n" in text
    assert "uniform.equalize_pattern {\n" in text


def test_equalize_requires_same_op_sequence(kernel):
    def build(_):
        us = [GetUnitOp(f"C{c}-SFU", "SFU", core=c).unit for c in range(2)]
        blocks = [Block(arg_types=[IDX]) for _ in us]
        with ImplicitBuilder(blocks[0]):
            const(1)
        EqualizePatternOp([([u], b) for u, b in zip(us, blocks, strict=True)])

    with pytest.raises(VerifyException, match="the same sequence of operations"):
        kernel(build).verify()


def test_symbols_from_python(kernel, roundtrip):
    def build(args):
        (base,) = args
        CreateIdOp(base, -1)
        CreateIdOp(arith.AddiOp(base, const(64)).result, -2)
        syms = [CreateSymbolOp(-1).result, CreateSymbolOp(-2).result]
        table = SymbolImmutableMappingOp([(const(0), syms[0]), (const(1), syms[1])])
        loop = affine.ForOp.from_region([], [], [], [], 0, 2, Region(Block(arg_types=[IDX])))
        with ImplicitBuilder(loop.body.block) as (i,):
            SymbolQueryMapOp(table.result, i)
            affine.YieldOp.get()

    text = roundtrip(kernel(build, [IDX]))
    assert "symbol.create_id %0 {symbol_id = -1 : si64} : index" in text
    assert "symbol.create_symbol {SymbolId = -2 : i64} : index" in text
    assert "symbol.symbol_immutable_mapping ([%" in text
    assert "symbol.query_map(map:%" in text
    m = parse_module(text)
    ids = [o.id for o in m.walk() if isinstance(o, CreateIdOp | CreateSymbolOp)]
    assert ids == [-1, -2, -1, -2]


@pytest.mark.parametrize(("body", "message"), [
    ("symbol.create_id %a {symbol_id = -1 : si64} : index\n"
     "symbol.create_id %b {symbol_id = -1 : si64} : index",
     "symbol -1 is already bound to another value"),
    ("symbol.create_id %a {symbol_id = -1 : i64} : index", "symbol_id must be an si64 integer"),
    ("%s = symbol.create_symbol {SymbolId = -1 : i64} : index\n"
     "%c = arith.constant 0 : index\n"
     "%t = symbol.symbol_immutable_mapping ([%c -> %s]) : index\n"
     "%q = symbol.query_map(map:%t, key:%a) : index",
     "a block-argument key must be a loop induction variable"),
    ("%s = symbol.create_symbol {SymbolId = -1 : i64} : index\n"
     "%t = symbol.symbol_immutable_mapping ([%a -> %s]) : index",
     "every key must be a constant"),
])
def test_symbol_rules(body, message):
    with pytest.raises(KtirDiagnostic, match=message):
        parse_module(f"func.func @k(%a: index, %b: index) {{\n{body}\nreturn\n}}")


def test_create_id_is_never_dead():
    m = parse_module("""
    func.func @k(%a: index) {
      symbol.create_id %a {symbol_id = -1 : si64} : index
      %s = symbol.create_symbol {SymbolId = -1 : i64} : index
      return
    }""")
    DeadCodeElimination().apply(Context(), m)
    names = [o.name for o in m.walk()]
    assert "symbol.create_id" in names
    assert "symbol.create_symbol" not in names
