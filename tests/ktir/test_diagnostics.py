"""`verify_located` checks what xDSL's verifier does not: definitions before uses (also for IR
that passes build, not only parsed text) and 64-bit index literals."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr

from ktir.context import make_context, parse_module
from ktir.diagnostics import verify_located
from ktir.errors import KtirDiagnostic

TEXT = """func.func @f(%b: i1) {
  scf.if %b {
    %c = arith.constant 1 : index
    scf.yield
  }
  %d = arith.constant 2 : index
  return
}
"""


def test_a_value_moved_out_of_its_region_is_reported_at_the_use() -> None:
    module = parse_module(TEXT, "f.mlir")
    if_op = next(o for o in module.walk() if isinstance(o, scf.IfOp))
    inner = next(o for o in if_op.walk() if isinstance(o, arith.ConstantOp))
    d = next(o for o in module.walk() if isinstance(o, arith.ConstantOp) and o is not inner)
    use = arith.AddiOp(inner.result, inner.result)
    d.parent.insert_op_after(use, d)  # type: ignore[union-attr]
    with pytest.raises(KtirDiagnostic, match="operand 0 is a result of 'arith.constant' "
                       r"\(line 3\), defined in a region that does not enclose this use"):
        verify_located(module, make_context())


def test_index_literals_of_64_bits_pass_and_wider_ones_fail() -> None:
    module = parse_module(TEXT, "f.mlir")
    d = next(o for o in module.walk() if isinstance(o, arith.ConstantOp) and
             o.parent_op() is not None and not isinstance(o.parent_op(), scf.IfOp))
    for ok in ((1 << 64) - 1, -(1 << 63)):
        d.properties["value"] = IntegerAttr(ok, IndexType())
        verify_located(module, make_context())
    d.properties["value"] = IntegerAttr(1 << 64, IndexType())
    with pytest.raises(KtirDiagnostic, match=r"index literal 18446744073709551616 does not fit "
                       "in 64 bits"):
        verify_located(module, make_context())
