"""`generalize-contractions`: `linalg.matmul` becomes the `linalg.generic` contraction it names.

The reduction machinery (legality, compute groups, `reduction-loop-exposure`) already lowers a
`linalg.generic` with `reduction` iterators; a matmul is one, so this pass writes it as one
instead of teaching every pass a second op:
    %c = linalg.matmul ins(%a, %b : tensor<MxKxf32>, ...) outs(%i : tensor<MxNxf32>)
becomes, maps (m, k, n) -> (m, k), (k, n), (m, n), iterators [parallel, reduction, parallel],
    %c = linalg.generic ins(%a, %b) outs(%i) { %p = mulf %x, %y; %s = addf %acc, %p; yield %s }
The reduced k sits between m and n so that n, the output's contiguous dim, is the innermost
one: the pipeline vectorises the innermost dim, as for a column sum, so each step is an outer
product acc[m, n0:n0+V] += A[m, k] (broadcast) * B[k, n0:n0+V], k ascending, instead of one
output element per instance with a strided column of B reduced across lanes (matmul_small on
spyre: 28,355 cycles to 3,089). Where n's block is narrower than the vector,
reduction-loop-exposure packs consecutive k into its lanes and folds them at the end.
A narrower result (f16, bf16) follows the interpreter's precision rule (ktir/interpreter/
ops_linalg.py: f32 accumulation, one rounding; not MLIR's letter, which rounds every step):
    %s = linalg.generic ins(%a, %b) outs(%zero_f32) { extf, extf, mulf f32, addf f32 }
    %c = linalg.generic ins(%s, %i) outs(%i) { truncf(extf(%i) + %s) }
f16 products are exact in f32, so only the summation order can differ from the interpreter's.
An f32 matmul whose init is computed and not one value on every element (flash attention's
running `acc * alpha` + P·V; a reduction starts from one value) is split the same way,
without the casts: the products summed from 0, then the init added, as the interpreter adds
them.
Only float matmuls on tensors whose operands are no wider than the result are rewritten; the
rest stay for the legality check to refuse by name.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, MatmulOp, YieldOp
from xdsl.dialects.tensor import EmptyOp, SplatOp
from xdsl.dialects.builtin import (AffineMapAttr, AnyFloat, ArrayAttr, DenseIntOrFPElementsAttr,
                                   Float32Type, ModuleOp, TensorType)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from scheduler.analysis.compute_ops import element_of
from scheduler.rewriting import apply_patterns


def _maps() -> list[AffineMap]:
    """A[m, k], B[k, n], C[m, n] over the iteration space (m, k, n): n innermost."""
    return [AffineMap.from_callable(lambda m, k, n: (m, k)),
            AffineMap.from_callable(lambda m, k, n: (k, n)),
            AffineMap.from_callable(lambda m, k, n: (m, n))]


def _contraction(a: SSAValue, b: SSAValue, init: SSAValue, acc: AnyFloat) -> list[Operation]:
    """The generic C[m, n] += A[m, k] * B[k, n] with the operands cast to `acc` first."""
    elems = [element_of(v.type) for v in (a, b)]
    block = Block(arg_types=[*elems, acc])
    x, y, part = block.args
    ops: list[Operation] = [arith.ExtFOp(v, acc) for v, e in zip((x, y), elems) if e != acc]
    casts = iter(o.results[0] for o in ops)
    x, y = (next(casts) if e != acc else v for v, e in zip((x, y), elems))
    mul = arith.MulfOp(x, y)
    add = arith.AddfOp(part, mul.result)
    block.add_ops([*ops, mul, add, YieldOp(add.result)])
    par, red = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
    return [GenericOp([a, b], [init], Region(block),
                      ArrayAttr([AffineMapAttr(m) for m in _maps()]),
                      ArrayAttr([par, red, par]), [TensorType(acc, init.type.get_shape())])]


def _computed_init(v: SSAValue) -> bool:
    """`v` is computed (an op's result) and not one value on every element (a splat, a fill,
    a splat constant, zeros): not what a reduction may start from. A block argument (a
    loop-carried accumulator) is left to the passes that carry it."""
    op = v.owner
    if not isinstance(op, Operation):
        return False
    return not _uniform(op)


def _uniform(op: Operation) -> bool:
    if isinstance(op, arith.ConstantOp):
        return not isinstance(op.value, DenseIntOrFPElementsAttr) or op.value.is_splat()
    return isinstance(op, FillOp | SplatOp | EmptyOp)


class GeneralizeMatmul(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MatmulOp, rewriter: PatternRewriter) -> None:
        types = [v.type for v in (*op.inputs, *op.outputs)]
        if len(types) != 3 or not all(isinstance(t, TensorType) for t in types):
            return
        elems = [element_of(t) for t in types]
        if not all(isinstance(e, AnyFloat) for e in elems) or len(op.res) != 1:
            return
        out = elems[2]
        if any(e.bitwidth > out.bitwidth for e in elems[:2]):  # type: ignore[attr-defined]
            return
        a, b = op.inputs
        (init,) = op.outputs
        wide = out.bitwidth >= 32  # type: ignore[attr-defined]
        if wide and not _computed_init(init):
            rewriter.replace(op, _contraction(a, b, init, out))
            return
        # narrow result or an init of many values: sum the f32 products from 0, add the
        # init, round once (a narrow one)
        shape = init.type.get_shape()  # type: ignore[attr-defined]
        acc = out if wide else Float32Type()
        zero = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(
            TensorType(acc, shape), [0.0]))
        (gen,) = _contraction(a, b, zero.result, acc)
        block = Block(arg_types=[acc, out, out])
        s_, i_, _ = block.args
        if wide:
            tot = arith.AddfOp(i_, s_)
            block.add_ops([tot, YieldOp(tot.result)])
        else:
            ext = arith.ExtFOp(i_, acc)
            tot = arith.AddfOp(ext.result, s_)
            rnd = arith.TruncFOp(tot.result, out)
            block.add_ops([ext, tot, rnd, YieldOp(rnd.result)])
        ident = AffineMapAttr(AffineMap.identity(len(shape)))
        fin = GenericOp([gen.results[0], init], [init], Region(block),
                        ArrayAttr([ident, ident, ident]),
                        ArrayAttr([IteratorTypeAttr.parallel()] * len(shape)), [init.type])
        rewriter.replace(op, [zero, gen, fin])


class GeneralizeContractionsPass(ModulePass):
    """Named contractions -> linalg.generic with a reduction iterator (module docstring)."""

    name = "generalize-contractions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [GeneralizeMatmul()])
