"""`fold-constant-bitcasts`: an `arith.bitcast` of a constant becomes a constant of the
result type, bit for bit.

Kernels spell values a literal cannot hold through their bits (Triton's -inf, the row max's
start: `%b = arith.constant 0xFF800000 : i32; %x = arith.bitcast %b : i32 to f32`). A bitcast
has no vector form (vectorchain converts values, it does not reinterpret them), and a
constant needs none; folding keeps the scheduler's compute table free of it:

    %b = arith.constant -8388608 : i32
    %x = arith.bitcast %b : i32 to f32
becomes
    %x = arith.constant 0xFF800000 : f32

Scalars and dense (splat or full) tensor constants fold, integer <-> float of one width
(16, 32, 64 bits; numpy views the bits). A float whose bits a `FloatAttr` does not keep (a
NaN payload other than the one a Python float round trip gives back) is left as it is,
as are bitcasts to or from `index` (no fixed width) and of values that are not constants;
the legality check then says why.
"""

from __future__ import annotations

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from scheduler.rewriting import apply_patterns

_FLOATS = {Float16Type: np.float16, Float32Type: np.float32, Float64Type: np.float64}
_INTS = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


def _dtype(t: Attribute) -> type | None:
    """numpy's type of the scalar type `t` (integers signed, as IntegerAttr holds them)."""
    if isinstance(t, IntegerType):
        return _INTS.get(t.width.data)
    return _FLOATS.get(type(t))


def _scalar(value: IntegerAttr | FloatAttr, t: Attribute) -> IntegerAttr | FloatAttr | None:
    """The scalar of type `t` with `value`'s bits; None when an attribute cannot hold them."""
    src, dst = _dtype(value.type), _dtype(t)
    if src is None or dst is None or np.dtype(src).itemsize != np.dtype(dst).itemsize:
        return None
    v = np.array([value.value.data], src).view(dst)
    if isinstance(t, IntegerType):
        return IntegerAttr(int(v[0]), t)
    if np.array([float(v[0])], dst).tobytes() != v.tobytes():  # a NaN payload lost
        return None
    return FloatAttr(float(v[0]), t)  # type: ignore[arg-type]


def _dense(value: DenseIntOrFPElementsAttr, t: Attribute) -> DenseIntOrFPElementsAttr | None:
    """The dense attribute of type `t` with `value`'s bytes (it holds them raw)."""
    if not isinstance(t, TensorType) or not t.has_static_shape() \
            or list(t.get_shape()) != list(value.type.get_shape()):
        return None
    src, dst = _dtype(value.get_element_type()), _dtype(t.get_element_type())
    if src is None or dst is None or np.dtype(src).itemsize != np.dtype(dst).itemsize:
        return None
    return DenseIntOrFPElementsAttr(t, value.data)


class FoldConstantBitcast(RewritePattern):
    """`arith.bitcast` of an `arith.constant`: the constant with the same bits."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.BitcastOp, rewriter: PatternRewriter) -> None:
        src = op.input.owner
        if not isinstance(src, arith.ConstantOp):
            return
        value = src.value
        t = op.result.type
        new: Attribute | None = None
        if isinstance(value, IntegerAttr | FloatAttr):
            new = _scalar(value, t)
        elif isinstance(value, DenseIntOrFPElementsAttr):
            new = _dense(value, t)
        if new is None:
            return
        c = arith.ConstantOp(new, t)
        rewriter.replace_op(op, c)
        if not src.result.uses:
            rewriter.erase_op(src)


class FoldConstantBitcastsPass(ModulePass):
    """Fold bitcasts of constants into constants (module docstring); a constant only a
    folded bitcast read goes. Idempotent.

    Before:  %b = arith.constant -8388608 : i32
             %x = arith.bitcast %b : i32 to f32
    After:   %x = arith.constant 0xFF800000 : f32
    """

    name = "fold-constant-bitcasts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [FoldConstantBitcast()])
