"""Compute: the fused `linalg.generic` of a compute stage becomes `vectorchain` ops.

Each scalar op of the body becomes its vector op on the received vectors (the table in
`scheduler.analysis.compute_ops`); a float constant becomes a constant bitstream of the
vector's lanes. The generic is lowered once its inputs are vectors (its FIFO reads lowered,
transfers.py); its body is checked here, not by the program builder.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, TensorType, VectorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir.diagnostics import op_error
from scheduler.analysis.compute_ops import ELEMENTWISE
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.programs import Programs
from scheduler.rewriting import replace_keeping_names
from spyrecode.dialects import vectorchain


def _vector_op(inner: Operation, args: list[SSAValue]) -> Operation:
    vop = ELEMENTWISE.get(inner.name)
    if vop is not None and vop.kind == "binary":
        return vectorchain.BinaryOp(args[0], args[1], vop.operator)
    if vop is not None and vop.kind == "neg":
        return vectorchain.NegOp(args[0])
    raise op_error(inner, f"'{inner.name}' has no vectorchain lowering")


class LowerGeneric(RewritePattern):
    def __init__(self, programs: Programs):
        self.programs = programs

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if self.programs.of(op) is None or not all(isinstance(x.type, VectorType)
                                             for x in op.inputs):
            return
        body = op.body.block
        env: dict[SSAValue, SSAValue] = dict(zip(body.args, op.inputs))
        vtype: Attribute
        if op.inputs:
            vtype = op.inputs[-1].type
        else:  # no inputs: the vector shape of the output
            t = op.outputs[0].type
            assert isinstance(t, TensorType)
            vtype = VectorType(t.element_type, [math.prod(t.get_shape())])
        new: list[Operation] = []
        for inner in body.ops:
            if isinstance(inner, linalg.YieldOp):
                replace_keeping_names(rewriter, op, new, [env[v] for v in inner.operands])
                return
            if isinstance(inner, arith.ConstantOp) and isinstance(inner.value, FloatAttr):
                lanes = vtype.get_shape()[0]  # type: ignore[union-attr]
                c = vectorchain.ConstantBitstreamOp.from_numbers(
                    [inner.value.value.data] * lanes, vtype)
            else:
                c = _vector_op(inner, [env[a] for a in inner.operands])
            new.append(c)
            env[inner.results[0]] = c.results[0]


def patterns(programs: Programs) -> tuple[RewritePattern, ...]:
    return (LowerGeneric(programs),)


LOWERED = (linalg.GenericOp,)
WHOLE = (linalg.GenericOp,)
