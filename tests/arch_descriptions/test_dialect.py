"""The ktdf_arch dialect from Python: building ops, the map attribute, endpoints, intrinsics."""


import pytest
from xdsl.dialects.builtin import (
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    UnitAttr,
    f16,
    f64,
    i32,
    i64,
)
from xdsl.ir import Block, Region
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from arch_descriptions.dialects import ktdf_arch_intrinsics as intrinsics
from arch_descriptions.dialects.ktdf_arch import (
    DatapathOp,
    DeviceOp,
    ExecUnitOp,
    GroupOp,
    MapAttr,
    MemoryOp,
    YieldOp,
    describe,
    resolve_endpoint,
    verify_intrinsics,
)
from arch_descriptions.dialects.ktdf_arch_types import print_value
from ktir.context import parse_module
from ktir.diagnostics import KtirDiagnostic


def text_of(attr) -> str:
    from io import StringIO

    out = StringIO()
    print_value(Printer(stream=out), attr)
    return out.getvalue()


def test_map_attr_api_and_printing():
    m = MapAttr([(f16, IntegerAttr(64, i64)), (StringAttr("L1"), IntegerAttr(2, i32))])
    assert m.get(f16) == IntegerAttr(64, i64)
    assert m.get(StringAttr("x")) is None
    assert str(m) == '#ktdf_arch.map<f16 = 64, "L1" = 2 : i32>'
    assert str(MapAttr()) == "#ktdf_arch.map<>"
    with pytest.raises(VerifyException, match="multiple entries"):
        MapAttr([(f16, IntegerAttr(1, i64)), (f16, IntegerAttr(2, i64))])


def test_values_print_like_upstream_mlir():
    assert text_of(IntegerAttr(7, i64)) == "7"
    assert text_of(IntegerAttr(7, i32)) == "7 : i32"
    assert text_of(FloatAttr(1.5, f64)) == "1.5"
    assert text_of(FloatAttr(1e20, f64)) == "1.0e+20"
    assert text_of(DictionaryAttr({"a": UnitAttr(), "b c": IntegerAttr(1, i64)})) == \
        '{a, "b c" = 1}'


def build_device() -> DeviceOp:
    """DDR -> [core group: L1, unit] built from Python."""
    ddr = MemoryOp(StringAttr("DDR"), 1024)
    body = Block(arg_types=[ddr.result_types[0]])
    l1 = MemoryOp(StringAttr("L1"), 64)
    unit = ExecUnitOp({"kind": StringAttr("SFU"), "ktdf_arch.features": DictionaryAttr(
        {"ktdf_arch.feature.compute": UnitAttr()})})
    body.add_ops([l1, unit, DatapathOp(body.args[0], unit.results[0]),
                  DatapathOp(unit.results[0], body.args[0]), YieldOp([unit.results[0]])])
    group = GroupOp.create(operands=[ddr.results[0]], result_types=[unit.result_types[0]],
                           attributes={"kind": StringAttr("core")}, regions=[Region(body)])
    link = DatapathOp(ddr.results[0], group.results[0])
    dev = DeviceOp.create(properties={"sym_name": StringAttr("built")},
                          regions=[Region(Block([ddr, group, link]))])
    ModuleOp([dev]).verify()
    return dev


def test_build_verify_print_parse():
    dev = build_device()
    text = str(dev.parent_op())
    assert 'group {kind = "core"} share(%0) {' in text or "share(" in text
    again = parse_module(text)
    assert str(again) == text
    group = next(op for op in dev.walk() if isinstance(op, GroupOp))
    link = dev.body.block.last_op
    assert isinstance(link, DatapathOp)
    # group result -> yield -> the exec unit; block argument -> the shared DDR
    assert describe(resolve_endpoint(link.target)) == 'exec_unit "SFU"'
    inner = next(op for op in group.body.block.ops if isinstance(op, DatapathOp))
    assert describe(resolve_endpoint(inner.source)) == 'memory "DDR"'
    assert describe(link) == "datapath \"DDR\" -> \"SFU\""


def test_programmatic_errors():
    ddr = MemoryOp(StringAttr("DDR"), 0)
    dev = DeviceOp.create(properties={"sym_name": StringAttr("bad")},
                          regions=[Region(Block([ddr]))])
    with pytest.raises(VerifyException, match="attribute 'size' must be >= 1"):
        ModuleOp([dev]).verify()
    empty = DeviceOp.create(properties={"sym_name": StringAttr("e")}, regions=[Region()])
    with pytest.raises(VerifyException, match="empty device requires 'import_path'"):
        ModuleOp([empty]).verify()


def test_intrinsic_roles():
    intrinsics.check_intrinsics({"ktdf_arch.maps_to": StringAttr("CPU")}, intrinsics.FOREIGN)
    intrinsics.check_intrinsics({"other.thing": IntegerAttr(1, i64)}, intrinsics.MEMORY)
    intrinsics.check_intrinsics({"ktdf_arch.features": DictionaryAttr(
        {"mydialect.feature.x": UnitAttr()})}, intrinsics.EXEC_UNIT)
    with pytest.raises(VerifyException, match="only valid on links"):
        intrinsics.check_intrinsics({"ktdf_arch.bytes_per_cycle": IntegerAttr(1, i64)},
                                    intrinsics.EXEC_UNIT)
    with pytest.raises(VerifyException, match="requires 64-bit integer"):
        intrinsics.check_intrinsics({"ktdf_arch.latency": IntegerAttr(1, i32)},
                                    intrinsics.MEMORY)


def test_verify_intrinsics_on_foreign_ops():
    ok = parse_module('func.func private @f() attributes {ktdf_arch.maps_to = "SFU", '
                      "ktdf_arch.features = {ktdf_arch.feature.simd = {splat}}}\n")
    verify_intrinsics(ok)
    text = "func.func private @f() attributes {ktdf_arch.latency = 3}\n"
    message = r"bad.mlir:1:1: error: 'func.func' op 'ktdf_arch.latency' intrinsic only valid on"
    bad = parse_module(text, "bad.mlir", verify=False)
    with pytest.raises(KtirDiagnostic, match=message):
        verify_intrinsics(bad)
    with pytest.raises(KtirDiagnostic, match=message):  # verification checks them too
        parse_module(text, "bad.mlir")


def test_generic_space_kind_and_unregistered_free_parse():
    module = parse_module("ktdf_arch.device @d {\n  %ram = memory {kind = #ptr.generic_space}\n}\n")
    assert "#ptr.generic_space" in str(module)


def test_yield_and_patterns_formats():
    text = ("ktdf_arch.device @d {\n  %m = memory {kind = \"M\"}\n"
            "  %e = group share(%m) {\n    %u = exec_unit\n    yield %u {note}\n"
            "  } -> exec_unit\n  patterns {\n  }\n"
            "  patterns [\"pre_scheduling\"] attributes {x = 1 : i64} {\n  }\n}\n")
    module = parse_module(text)
    assert str(module) == "builtin.module {\n" + "".join(
        "  " + line + "\n" for line in text.splitlines()) + "}"
    patterns = [op for op in module.walk() if op.name == "ktdf_arch.patterns"]
    assert [p.group_names for p in patterns] == [(), ("pre_scheduling",)]
    bad = text.replace("yield %u {note}", "yield %m")
    with pytest.raises(KtirDiagnostic, match=r"<string>:5:11: error: yield operand '%m' is a "
                                             "memory, expected exec_unit"):
        parse_module(bad)
    with pytest.raises(KtirDiagnostic, match=r"'ktdf_arch\.yield' expects parent op "
                                             r"'ktdf_arch\.group'"):
        parse_module("ktdf_arch.device @d {\n  %u = exec_unit\n  yield %u\n}\n")
