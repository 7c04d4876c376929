"""Compute: the fused `linalg.generic` of a compute stage becomes `vectorchain` ops.

Each scalar op of the body becomes the vector ops of its recipe in
`scheduler.analysis.compute_ops` (the table the legality check accepts from), built here on
the received vectors by `VectorchainBuilder`. An input the generic reads through a broadcasting
map (a row or a scalar reused across the vector) arrives with fewer lanes and is widened by a
`vectorchain.shuffle`; a constant becomes a `constant_bitstream` of the vector's lanes; a scalar
from outside the stage (a kernel argument, index arithmetic) a `shuffle` of its value. The
generic is lowered once its inputs are vectors (its FIFO reads lowered, transfers.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import product

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    TensorType,
    VectorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir.diagnostics import op_error
from scheduler.analysis.compute_ops import lower_scalar, scalar_reason
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.programs import Programs
from scheduler.rewriting import replace_keeping_names
from spyrecode.dialects import vectorchain
from spyrecode.dialects.dataflow_types import element_type

_UNARY: dict[str, type[vectorchain.FastExpOp]] = {
    "neg": vectorchain.NegOp, "floor": vectorchain.FloorOp, "fast_exp": vectorchain.FastExpOp,
    "ln_estimate": vectorchain.LnEstimateOp, "rsqrt_estimate": vectorchain.RsqrtEstimateOp,
    "tanh_estimate": vectorchain.TanhEstimateOp, "rec_estimate": vectorchain.RecEstimateOp,
    "sigmoid_estimate": vectorchain.SigmoidEstimateOp,
}


def _lane_element(e: Attribute) -> Attribute:
    """Vectors carry `index` as its 64-bit integer (ktir.md D3)."""
    return i64 if isinstance(e, IndexType) else e


class VectorchainBuilder:
    """`compute_ops.Vectors` on vectorchain ops: every vector has `lanes` lanes; the ops
    built are collected in `ops`, constants once per value and type."""

    def __init__(self, lanes: int):
        self.lanes = lanes
        self.ops: list[Operation] = []
        self._constants: dict[tuple[float, Attribute], SSAValue] = {}

    def _add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def vector(self, e: Attribute, lanes: int | None = None) -> VectorType:
        return VectorType(_lane_element(e), [lanes or self.lanes])

    def binary(self, operator: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._add(vectorchain.BinaryOp(a, b, operator))

    def unary(self, kind: str, x: SSAValue) -> SSAValue:
        return self._add(_UNARY[kind](x))

    def function(self, name: str, args: Sequence[SSAValue],
                 params: Sequence[float] = ()) -> SSAValue:
        return self._add(vectorchain.LaneFunctionOp(name, args, params))

    def compare(self, operator: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._add(vectorchain.ElementWiseCompareOp(a, b, operator))

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._add(vectorchain.ElementWiseSelectionOp(cond, a, b))

    def cast(self, x: SSAValue, element: Attribute) -> SSAValue:
        t = self.vector(element)
        if t == x.type:
            return x
        return self._add(vectorchain.CastOp(x, t))

    def constant(self, value: float, element: Attribute) -> SSAValue:
        t = self.vector(element)
        key = (value, t)
        if key not in self._constants:
            self._constants[key] = self._add(
                vectorchain.ConstantBitstreamOp.from_numbers([value] * self.lanes, t))
        return self._constants[key]

    def element(self, x: SSAValue) -> Attribute:
        return element_type(x.type)  # type: ignore[arg-type]

    def splat(self, scalar: SSAValue) -> SSAValue:
        """A scalar from outside the stage on every lane (shuffle's variable operand)."""
        seed = self._add(vectorchain.ConstantBitstreamOp([0], self.vector(scalar.type, 1)))
        return self._add(vectorchain.ShuffleOp(seed, [-1], self.lanes,
                                               self.vector(scalar.type), variable=[scalar]))

    def widen(self, x: SSAValue, m: AffineMap, shape: Sequence[int],
              space: Sequence[int]) -> SSAValue:
        """An input read through the broadcasting map `m` (space -> its `shape`) on the
        lanes of the iteration vector `space` (row-major), by a shuffle of its lanes."""
        if list(shape) == list(space):
            return x
        strides = [math.prod(shape[k + 1:]) for k in range(len(shape))]
        pattern = []
        for idx in product(*(range(n) for n in space)):
            src = m.eval(list(idx), [])
            pattern.append(sum(s * i for s, i in zip(strides, src)))
        period = next(p for p in range(1, len(pattern) + 1) if len(pattern) % p == 0
                      and pattern == pattern[:p] * (len(pattern) // p))
        return self._add(vectorchain.ShuffleOp(x, pattern[:period], len(pattern) // period,
                                               self.vector(self.element(x))))


def _constant_value(attr: Attribute) -> float:
    if isinstance(attr, FloatAttr):
        return attr.value.data
    assert isinstance(attr, IntegerAttr)
    return attr.value.data


class LowerGeneric(RewritePattern):
    def __init__(self, programs: Programs):
        self.programs = programs

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if self.programs.of(op) is None or not all(isinstance(x.type, VectorType)
                                             for x in op.inputs):
            return
        t = op.outputs[0].type
        assert isinstance(t, TensorType)
        space = list(t.get_shape())
        v = VectorchainBuilder(math.prod(space))
        body = op.body.block
        env: dict[SSAValue, SSAValue] = {}
        maps = [m.data for m in op.indexing_maps.data]
        for arg, x, m in zip(body.args, op.inputs, maps):
            env[arg] = v.widen(x, m, _read_shape(m, space), space)

        def value(a: SSAValue) -> SSAValue:
            if a not in env:  # a scalar defined outside the stage
                env[a] = v.splat(a)
            return env[a]

        for inner in body.ops:
            if isinstance(inner, linalg.YieldOp):
                replace_keeping_names(rewriter, op, v.ops, [value(y) for y in inner.operands])
                return
            if isinstance(inner, arith.ConstantOp):
                env[inner.result] = v.constant(_constant_value(inner.value),
                                               inner.result.type)
                continue
            why = scalar_reason(inner)
            if why is not None:
                raise op_error(inner, why)
            results = lower_scalar(v, inner, [value(a) for a in inner.operands])
            env.update(zip(inner.results, results))


def _read_shape(m: AffineMap, space: list[int]) -> list[int]:
    """The extent of each input dimension under `m` (a dim follows its space extent, a
    constant is 1)."""
    out = []
    for e in m.results:
        pos = getattr(e, "position", None)
        out.append(space[pos] if pos is not None else 1)
    return out


def patterns(programs: Programs) -> tuple[RewritePattern, ...]:
    return (LowerGeneric(programs),)


LOWERED = (linalg.GenericOp,)
WHOLE = (linalg.GenericOp,)
