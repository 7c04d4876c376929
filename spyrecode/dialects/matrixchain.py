"""The `matrixchain` dialect of DataflowIR: block products on a compute unit's matrix engine
(`ktdf_arch.feature.matrix`, this project's extension; upstream DataflowIR has no matrix op).

A dialect of its own, not a `vectorchain` op: every vectorchain op is lane-wise (lane i of the
result reads lane i of its operands, up to a shuffle), and the emulator costs it by the SIMD
lanes; a block product mixes all lanes of its operands and is costed by the engine's shape and
rate, so it keeps vectorchain's lane rule intact.

    %acc1 = matrixchain.matmul %a, %b, %acc0 {m = 32, k = 128, n = 512}
              : vector<4096xf16>, vector<65536xf16>, vector<16384xf32>

The operands are row-major blocks, flat as the FIFOs deliver them: A (m x k), B (k x n) and
the accumulator (m x n); the result is acc[i, j] + sum_p A[i, p] B[p, j], each product exact
in the accumulator type (f16/bf16 into f32), summed in f32. The order of the sum is the
engine's, not fixed here (the emulator's is numpy's f32 matmul), so a result may differ from
another order of the same sum in its last bits of f32.
"""

from __future__ import annotations

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, IntegerAttr, i64
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from spyrecode.dialects.dataflow_types import VectorLike, element_type, lanes
from spyrecode.dialects.syntax import props


@irdl_op_definition
class MatmulOp(IRDLOperation):
    """`%r = matrixchain.matmul %a, %b, %acc {m, k, n} : Ta, Tb, Tacc`: the accumulator block
    plus the block product A . B (module docstring). A and B carry one element type, f16 or
    bf16, the accumulator and result f32; lanes m*k, k*n and m*n. Builder:
    `MatmulOp(a, b, acc, m, k, n)`."""

    name = "matrixchain.matmul"
    lhs = operand_def(VectorLike)
    rhs = operand_def(VectorLike)
    acc = operand_def(VectorLike)
    m = prop_def(IntegerAttr)
    k = prop_def(IntegerAttr)
    n = prop_def(IntegerAttr)
    result = result_def(VectorLike)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("$lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,` "
                       "type($acc) `->` type($result)")

    def __init__(self, a: SSAValue, b: SSAValue, acc: SSAValue, m: int, k: int, n: int):
        super().__init__(operands=[a, b, acc], result_types=[acc.type],
                         properties=props({"m": IntegerAttr(m, i64), "k": IntegerAttr(k, i64),
                                           "n": IntegerAttr(n, i64)}))

    @property
    def shape(self) -> tuple[int, int, int]:
        return (self.m.value.data, self.k.value.data, self.n.value.data)

    def verify_(self) -> None:
        m, k, n = self.shape
        if min(m, k, n) < 1:
            raise VerifyException(f"block sizes must be > 0, got m = {m}, k = {k}, n = {n}")
        for what, v, want in (("lhs", self.lhs, m * k), ("rhs", self.rhs, k * n),
                              ("accumulator", self.acc, m * n),
                              ("result", self.result, m * n)):
            if lanes(v.type) != want:
                raise VerifyException(f"{what} has {lanes(v.type)} lanes; a {m} x {k} x {n} "
                                      f"block product needs {want}")
        ea, eb = element_type(self.lhs.type), element_type(self.rhs.type)
        if ea != eb or not isinstance(ea, Float16Type | BFloat16Type):
            raise VerifyException(f"operands must both be f16 or both bf16, got {ea} and {eb}")
        for what, v in (("accumulator", self.acc), ("result", self.result)):
            e: Attribute = element_type(v.type)
            if not isinstance(e, Float32Type):
                raise VerifyException(f"the {what} must be f32, got {e}")


MatrixChain = Dialect("matrixchain", [MatmulOp], [])
