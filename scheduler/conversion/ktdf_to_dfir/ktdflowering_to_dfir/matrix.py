"""Matrix: the block products of a contraction pipeline (contraction_pipeline.py) become
`matrixchain.matmul`, and the arith ops on whole blocks around them `vectorchain` ops.

    %x = arith.extf %a : tensor<32x128xf16> to tensor<32x128xf32>     (a received block)
    %p = linalg.matmul ins(%x, %y) outs(%zero : tensor<32x128xf32>)
becomes
    %p = matrixchain.matmul %a, %b, %zero {m = 32, k = 128, n = 128}
          : vector<4096xf16>, vector<16384xf16>, vector<4096xf32> -> vector<4096xf32>

The widening casts of the operands fold into the engine (it multiplies f16/bf16 exactly into
f32); a matmul of blocks the engine does not take (f32 operands) is an error naming the op.
An element-wise op on whole blocks (arith or math: the kernel's rounding and accumulation, an
FFN's silu of the product) is its element-wise recipe (`scheduler.analysis.compute_ops`) on
vectors of the block's lanes; a splat tensor constant one lane's `constant_bitstream`
broadcast by a `shuffle`. The accumulator the compute stage's k loop carries (the streamed
k steps) becomes a vector with its init, and the loop carries that vector. Each pattern
waits until its operands are vectors (the FIFO reads lowered by transfers.py, the fill by
compute.py).
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    TensorType,
    VectorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir.diagnostics import op_error
from scheduler.analysis.compute_ops import SCALAR_OPS, lower_scalar
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.compute import (
    VectorchainBuilder,
    carried_vector,
)
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.programs import Programs
from scheduler.rewriting import replace_keeping_names
from spyrecode.dialects import matrixchain, vectorchain
from spyrecode.dialects.dataflow_types import element_type, lanes


def _narrow(x: SSAValue) -> SSAValue:
    """The f16/bf16 vector a widening cast read, else `x`."""
    cast = x.owner
    if isinstance(cast, vectorchain.CastOp) and isinstance(
            element_type(cast.operands[0].type), Float16Type | BFloat16Type):
        return cast.operands[0]
    return x


class LowerMatmul(RewritePattern):
    def __init__(self, programs: Programs):
        self.programs = programs

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.MatmulOp, rewriter: PatternRewriter) -> None:
        if self.programs.of(op) is None:
            return
        vals = [*op.inputs, *op.outputs]
        if not all(isinstance(v.type, VectorType) for v in vals):
            return
        out = op.results[0].type
        assert isinstance(out, TensorType)
        m, n = out.get_shape()
        a, b = (_narrow(v) for v in op.inputs)
        if not all(isinstance(element_type(v.type), Float16Type | BFloat16Type)
                   for v in (a, b)):
            raise op_error(op, "a block product of operands other than f16/bf16: the matrix "
                               "engine does not take them")
        k = (lanes(a.type) or 0) // m
        mm = matrixchain.MatmulOp(a, b, op.outputs[0], m, k, n)
        replace_keeping_names(rewriter, op, [mm], [mm.result])


class LowerBlockArith(RewritePattern):
    """An element-wise op on whole blocks in a compute program, once its operands are vectors."""

    def __init__(self, programs: Programs):
        self.programs = programs

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not op.results or not isinstance(t := op.results[0].type, TensorType) \
                or not (op.name in SCALAR_OPS or isinstance(op, arith.ConstantOp)) \
                or self.programs.of(op) is None:
            return
        v = VectorchainBuilder(math.prod(t.get_shape()))
        if isinstance(op, arith.ConstantOp):
            value = op.value
            if not (isinstance(value, DenseIntOrFPElementsAttr) and value.is_splat()):
                return
            # one lane broadcast by a shuffle: a block's constant (the zero accumulator,
            # 16,384 lanes and more) spelled lane by lane costs seconds of compile time
            e = t.get_element_type()
            seed = vectorchain.ConstantBitstreamOp.from_numbers([value.get_values()[0]],
                                                               v.vector(e, 1))
            out = vectorchain.ShuffleOp(seed.result, [0], v.lanes, v.vector(e))
            replace_keeping_names(rewriter, op, [seed, out], [out.output])
            return
        if op.name not in SCALAR_OPS:
            return
        # a block carried by the contraction pipeline's k loop: a vector once its init is
        operands = [carried_vector(x, rewriter) for x in op.operands]
        if not all(isinstance(x.type, VectorType) for x in operands):
            return
        results = lower_scalar(v, op, operands)
        replace_keeping_names(rewriter, op, v.ops, results)


def patterns(programs: Programs) -> tuple[RewritePattern, ...]:
    return (LowerMatmul(programs), LowerBlockArith(programs))


LOWERED = (linalg.MatmulOp,)
WHOLE = (linalg.MatmulOp,)
