"""ktdf_lowering from Python: builders, accessors, verifier, round trip, never dead."""

import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FloatAttr, IndexType, ModuleOp, StringAttr, f32
from xdsl.ir import Block, Region
from xdsl.traits import get_effects
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.dead_code_elimination import would_be_trivially_dead
from xdsl.utils.exceptions import VerifyException

from ktir.context import make_context, parse_module
from scheduler.dialects.ktdf_lowering import ExecuteOnOp, SignalOp

IDX = IndexType()


def build() -> tuple[ModuleOp, ExecuteOnOp, SignalOp]:
    block = Block(arg_types=[IDX, IDX])
    u0, u1 = block.args
    signal = SignalOp([u0, u1])
    inner = ExecuteOnOp([u1], [arith.ConstantOp(FloatAttr(1.0, f32))],
                        applicable_units=["SFU"])
    outer = ExecuteOnOp([u0, u1], [inner, signal])
    block.add_ops([outer, ExecuteOnOp(applicable_units=["MNILU"]), func.ReturnOp()])
    return ModuleOp([func.FuncOp("k", ((IDX, IDX), ()), Region(block))]), inner, signal


def test_build_print_parse():
    module, inner, signal = build()
    module.verify()
    text = str(module)
    assert "ktdf_lowering.execute_on %0, %1 {" in text
    assert '} {applicable_units = ["SFU"]}' in text
    assert "ktdf_lowering.signal %0, %1\n" in text
    assert "ktdf_lowering.execute_on {\n    } {applicable_units = [\"MNILU\"]}" in text
    assert str(parse_module(text)) == text
    assert inner.applicable_units == ["SFU"]
    assert signal.applicable_units == []
    assert list(inner.units) == [module.body.block.first_op.body.block.args[1]]


def test_units_setter_and_verifier():
    _, inner, signal = build()
    signal.applicable_units = ["MNILU", "L1LU"]
    assert signal.applicable_units == ["MNILU", "L1LU"]
    signal.verify()
    signal.attributes["applicable_units"] = StringAttr("MNILU")
    with pytest.raises(VerifyException, match="array of unit-kind strings"):
        signal.verify()
    inner.applicable_units = None
    assert "applicable_units" not in inner.attributes


def test_never_dead():
    module, inner, signal = build()
    assert get_effects(signal) is None
    assert get_effects(inner) is None
    assert not would_be_trivially_dead(signal)
    assert not would_be_trivially_dead(inner)
    CanonicalizePass().apply(make_context(), module)
    names = [op.name for op in module.walk()]
    assert names.count("ktdf_lowering.execute_on") == 3
    assert names.count("ktdf_lowering.signal") == 1
