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

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    TensorType,
    VectorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir.diagnostics import op_error
from scheduler.analysis.compute_ops import (
    Combiner,
    lower_scalar,
    reduction_combiners,
    scalar_reason,
)
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

    def shuffle_lanes(self, x: SSAValue, pattern: Sequence[int]) -> SSAValue:
        """Lane i of the result is lane pattern[i] of x."""
        if list(pattern) == list(range(len(pattern))) and len(pattern) == self.lanes:
            return x
        return self._add(vectorchain.ShuffleOp(x, list(pattern), 1, self.vector(
            self.element(x), len(pattern))))

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


def _reducing(op: linalg.GenericOp) -> bool:
    return any(it.data.value != "parallel" for it in op.iterator_types.data)


def _generic_space(op: linalg.GenericOp) -> list[int] | None:
    """The iteration space: the result's shape, and for a reducing generic over one vector
    the reduced dimension's extent from its input lanes (one reduced dimension of more
    than one lane, before or after the kept ones)."""
    t = op.results[0].type
    assert isinstance(t, TensorType)
    if not _reducing(op):
        return list(t.get_shape())
    iters = [it.data.value for it in op.iterator_types.data]
    kept = [d for d, it in enumerate(iters) if it == "parallel"]
    space = [0] * len(iters)
    for d, n in zip(kept, t.get_shape()):
        space[d] = n
    lanes = op.inputs[0].type.get_shape()[0]  # type: ignore[attr-defined]
    red = [d for d, it in enumerate(iters) if it != "parallel"]
    rest = lanes // max(1, math.prod(space[d] for d in kept))
    for d in red:
        space[d] = 1
    space[red[-1]] = rest
    return space


class LowerGeneric(RewritePattern):
    """A generic whose operands are vectors: its body on the lanes of its iteration space
    (an output read by the body, a loop-carried partial, is bound to its operand); a
    reducing generic (over one vector: reduction-loop-exposure cut it so) computes its
    contribution on every lane, folds the lanes of the reduced dimension with its combiner
    in a tree of shuffles, then folds in its init."""

    def __init__(self, programs: Programs):
        self.programs = programs

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        body = op.body.block
        n_in = len(op.inputs)
        if self.programs.of(op) is None:
            return
        read_outs = [carried_vector(x, rewriter) for a, x in zip(body.args[n_in:], op.outputs)
                     if a.first_use is not None or _reducing(op)]
        if not all(isinstance(x.type, VectorType)
                                             for x in (*op.inputs, *read_outs)):
            return
        space = _generic_space(op)
        assert space is not None
        v = VectorchainBuilder(math.prod(space))
        env: dict[SSAValue, SSAValue] = {}
        maps = [m.data for m in op.indexing_maps.data]
        for arg, x, m in zip(body.args, op.inputs, maps):
            env[arg] = v.widen(x, m, _read_shape(m, space), space)
        if not _reducing(op):
            for arg, x in zip(body.args[n_in:], op.outputs):
                if arg.first_use is not None:
                    env[arg] = x
        combs = reduction_combiners(op) if _reducing(op) else []
        if isinstance(combs, str):
            raise op_error(op, combs)
        skip = {o for c in combs for o in c.ops}

        def value(a: SSAValue) -> SSAValue:
            if a not in env:  # a scalar defined outside the stage
                env[a] = v.splat(a)
            return env[a]

        for inner in body.ops:
            if isinstance(inner, linalg.YieldOp):
                if combs:
                    results = [self.fold(v, c, value(c.contribution), init, op, space)
                               for c, init in zip(combs, op.outputs)]
                else:
                    results = [value(y) for y in inner.operands]
                replace_keeping_names(rewriter, op, v.ops, results)
                return
            if inner in skip:
                continue
            if isinstance(inner, arith.ConstantOp):
                env[inner.result] = v.constant(_constant_value(inner.value),
                                               inner.result.type)
                continue
            why = scalar_reason(inner)
            if why is not None:
                raise op_error(inner, why)
            results = lower_scalar(v, inner, [value(a) for a in inner.operands])
            env.update(zip(inner.results, results))

    @staticmethod
    def fold(v: VectorchainBuilder, c: Combiner, x: SSAValue, init: SSAValue,
             op: linalg.GenericOp, space: list[int]) -> SSAValue:
        """Fold the lanes of the reduced dims of `x` (row-major over `space`), then `init`."""
        def combine(acc: SSAValue, contrib: SSAValue) -> SSAValue:
            env = {c.accumulator: acc, c.contribution: contrib}
            out = acc
            for o in c.ops:
                out = lower_scalar(v, o, [env[a] for a in o.operands])[0]
                env[o.results[0]] = out
            return out

        iters = [it.data.value for it in op.iterator_types.data]
        strides = [math.prod(space[k + 1:]) for k in range(len(space))]
        coords = list(product(*(range(n) for n in space)))
        for d, it in enumerate(iters):
            n = space[d]
            if it == "parallel" or n == 1:
                continue
            if n & (n - 1) == 0:  # a tree: fold the upper half onto the lower
                h = n // 2
                while h >= 1:
                    pattern = [i + h * strides[d] if p[d] < h else i
                               for i, p in enumerate(coords)]
                    x = combine(x, v.shuffle_lanes(x, pattern))
                    h //= 2
            else:  # in order
                acc = x
                for j in range(1, n):
                    pattern = [i + j * strides[d] if p[d] == 0 else i
                               for i, p in enumerate(coords)]
                    acc = combine(acc, v.shuffle_lanes(x, pattern))
                x = acc
        keep = [i for i, p in enumerate(coords)
                if all(p[d] == 0 for d, it in enumerate(iters) if it != "parallel")]
        x = v.shuffle_lanes(x, keep)
        return combine(init, x)


def _read_shape(m: AffineMap, space: list[int]) -> list[int]:
    """The extent of each input dimension under `m` (a dim follows its space extent, a
    constant is 1)."""
    out = []
    for e in m.results:
        pos = getattr(e, "position", None)
        out.append(space[pos] if pos is not None else 1)
    return out


class LowerFill(RewritePattern):
    """`linalg.fill` of a tensor in a compute stage (a reduction's init or partials): one
    vector of its value on every element."""

    def __init__(self, programs: Programs):
        self.programs = programs

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.FillOp, rewriter: PatternRewriter) -> None:
        t = op.results[0].type if op.results else None
        if self.programs.of(op) is None or not isinstance(t, TensorType):
            return
        v = VectorchainBuilder(math.prod(t.get_shape()))
        x = op.inputs[0]
        src = x.owner
        if isinstance(src, arith.ConstantOp) and isinstance(src.value, FloatAttr | IntegerAttr):
            out = v.constant(_constant_value(src.value), x.type)
        else:
            out = v.splat(x)
        replace_keeping_names(rewriter, op, v.ops, [out])


def carried_vector(x: SSAValue, rewriter: PatternRewriter) -> SSAValue:
    """A tensor carried by an `scf.for` whose init is a vector now (a reduction's partials,
    lowered by LowerFill; the contraction pipeline's accumulator, matrix.py): the loop
    carries that vector (argument and result retyped)."""
    if isinstance(x.type, VectorType) or not isinstance(x, BlockArgument):
        return x
    loop = x.block.parent_op()
    if not isinstance(loop, scf.ForOp) or x.index == 0:
        return x
    k = x.index - 1
    init = loop.iter_args[k]
    init = carried_vector(init, rewriter)
    if not isinstance(init.type, VectorType):
        return x
    new = rewriter.replace_value_with_new_type(x, init.type)
    rewriter.replace_value_with_new_type(loop.results[k], init.type)
    return new


def patterns(programs: Programs) -> tuple[RewritePattern, ...]:
    return (LowerFill(programs), LowerGeneric(programs))


LOWERED = (linalg.GenericOp, linalg.FillOp)
WHOLE = (linalg.GenericOp, linalg.FillOp)
