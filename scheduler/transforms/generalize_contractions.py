"""`generalize-contractions`: `linalg.matmul` becomes the `linalg.generic` contraction it names.

The reduction machinery (legality, compute groups, `reduction-loop-exposure`) already lowers a
`linalg.generic` with `reduction` iterators; a matmul is one, so this pass writes it as one
instead of teaching every pass a second op:
    %c = linalg.matmul ins(%a, %b : tensor<MxKxT>, tensor<KxNxT>) outs(%i : tensor<MxNxT>)
becomes
    %c = linalg.generic {indexing_maps = [(m, n, k) -> (m, k), (m, n, k) -> (k, n),
                                          (m, n, k) -> (m, n)],
                         iterator_types = [parallel, parallel, reduction]}
         ins(%a, %b) outs(%i) { ^(%x, %y, %acc): %p = arith.mulf %x, %y
                                                  %s = arith.addf %acc, %p
                                                  linalg.yield %s }
the body of MLIR's definition (C[m, n] += A[m, k] * B[k, n], operands cast to the result's
element type first: `arith.extf` when they are narrower). Only same-typed float matmuls
whose operands and result are tensors are rewritten; the rest stay for the legality check
to refuse by name.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, MatmulOp, YieldOp
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ArrayAttr, ModuleOp, TensorType
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from scheduler.rewriting import apply_patterns


def _maps() -> list[AffineMap]:
    """A[m, k], B[k, n], C[m, n] over the iteration space (m, n, k)."""
    return [AffineMap.from_callable(lambda m, n, k: (m, k)),
            AffineMap.from_callable(lambda m, n, k: (k, n)),
            AffineMap.from_callable(lambda m, n, k: (m, n))]


class GeneralizeMatmul(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MatmulOp, rewriter: PatternRewriter) -> None:
        types = [v.type for v in (*op.inputs, *op.outputs)]
        if len(types) != 3 or not all(isinstance(t, TensorType) for t in types):
            return
        elems = [t.element_type for t in types]  # type: ignore[attr-defined]
        if not all(isinstance(e, AnyFloat) for e in elems) or len(op.res) != 1:
            return
        out = elems[2]
        block = Block(arg_types=elems)
        x, y, acc = block.args
        ops = []
        for i, v in enumerate((x, y)):
            if elems[i] != out:
                if elems[i].bitwidth > out.bitwidth:  # type: ignore[attr-defined]
                    return
                cast = arith.ExtFOp(v, out)
                ops.append(cast)
                v = cast.result
            if i == 0:
                x = v
            else:
                y = v
        mul = arith.MulfOp(x, y)
        add = arith.AddfOp(acc, mul.result)
        block.add_ops([*ops, mul, add, YieldOp(add.result)])
        par, red = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
        generic = GenericOp(
            list(op.inputs), list(op.outputs), Region(block),
            ArrayAttr([AffineMapAttr(m) for m in _maps()]),
            ArrayAttr([par, par, red]), [op.res[0].type])
        rewriter.replace(op, generic)


class GeneralizeContractionsPass(ModulePass):
    """Named contractions -> linalg.generic with a reduction iterator (module docstring)."""

    name = "generalize-contractions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [GeneralizeMatmul()])
