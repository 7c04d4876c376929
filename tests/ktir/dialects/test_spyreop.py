"""Building spyreop intrinsics from Python."""

import pytest
from xdsl.dialects.builtin import f16, f32, i32
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

from ktir.dialects.spyreop import AddI32ToI32Op, DF16Type, ExpOp, GeluOp, RealDivOp


def test_build_intrinsics():
    x = create_ssa_value(f16)
    e = ExpOp(x)
    d = RealDivOp(e.result, x)
    for op in (e, d):
        op.verify()
    assert e.result.type == f16
    assert str(e).startswith("%0 = spyreop.exp") or "spyreop.exp" in str(e)
    AddI32ToI32Op(create_ssa_value(i32), create_ssa_value(i32)).verify()
    GeluOp(create_ssa_value(DF16Type())).verify()


def test_gelu_rejects_f32():
    with pytest.raises(VerifyException, match=r"expects f16, !spyreop\.df16 operands, got f32"):
        GeluOp(create_ssa_value(f32)).verify()
