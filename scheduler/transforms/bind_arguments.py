"""`bind-arguments`: give scalar kernel arguments their values at compile time.

A driver step like `ensure-device-declaration` (run before the pipeline when the user binds
values: `ktir compile --arg BLOCK_SIZE=128`, and `ktir run` for every scalar it is given). In
each kernel with an argument of that name, every use of the argument becomes an
`arith.constant` of its type, so that subscripts such as `%tile_id * %BLOCK_SIZE` become
affine and the legality check can prove the tiles inside their views:

    func.func @k(%x: index, %BLOCK_SIZE: index) { %o = arith.muli %id, %BLOCK_SIZE ... }
becomes
    func.func @k(%x: index, %BLOCK_SIZE: index) {
      %BLOCK_SIZE_1 = arith.constant 128 : index
      %o = arith.muli %id, %BLOCK_SIZE_1 ... }
The signature is kept (the launch still passes the value). A memory view whose dynamic strides
are now constants takes them as static strides (`strides: [%N, 1]` becomes `strides: [2048,
1]`; its type, which holds no strides, is unchanged); dynamic sizes stay operands (the
scheduler masks such views with their sizes as symbols). Integer casts of the constants fold
too (`arith.index_cast`, `arith.sitofp` / `uitofp` to f16, f32, f64: `%Nf = sitofp (index_cast
%N)` becomes the constant 2048.0, rounded as the cast rounds), and so does index `addi` /
`subi` / `muli` of constants (a stride `2 * %N`), so a bound size used as a
divisor is a constant of the compute, not index arithmetic. Runtime arguments
(`!ktdp.runtime_arg`) are not bound: they stay symbolic down to DataflowIR, bound at launch.
An unknown name or a value the argument's type cannot hold is an error naming the option.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.ir import Attribute, BlockArgument, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.diagnostics import KtirDiagnostic
from ktir.dialects import ktdp
from ktir.dialects.ktdp import RuntimeArgType
from ktir.dialects.ktdp_types import int_list
from ktir.semantics import int_bounds
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns


def parse_bindings(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise KtirDiagnostic(f"error: bind-arguments expects NAME=VALUE, got '{item}'")
        out[name.strip()] = value.strip()
    return out


def _name(a: BlockArgument) -> str:
    return a.name_hint or f"arg{a.index}"


def constant_of(t: Attribute, name: str, text: str) -> arith.ConstantOp:
    """`arith.constant <text> : t`; an error when `t` cannot hold the value."""
    try:
        if isinstance(t, AnyFloat):
            return arith.ConstantOp(FloatAttr(float(text), t))
        if isinstance(t, IndexType | IntegerType):
            v = int(text, 0)
            width = 64 if isinstance(t, IndexType) else t.width.data
            lo, hi = int_bounds(width)
            if not lo <= v <= (hi if width == 1 else (1 << width) - 1):
                raise ValueError
            if v > hi:  # an unsigned spelling of a negative value
                v -= 1 << width
            return arith.ConstantOp(IntegerAttr(v, t))
    except ValueError:
        pass
    raise KtirDiagnostic(f"error: --arg {name}={text}: argument '{name}' of type {t} cannot "
                         f"take the value '{text}'")


class BindArguments(RewritePattern):
    """A function with arguments named in `values`: their uses read constants."""

    def __init__(self, values: dict[str, str], bound: set[str]):
        self.values = values
        self.bound = bound

    @op_type_rewrite_pattern
    def match_and_rewrite(self, fn: func.FuncOp, rewriter: PatternRewriter) -> None:
        if fn.is_declaration:
            return
        new = []
        for a in fn.args:
            name = _name(a)
            if name not in self.values:
                continue
            if isinstance(a.type, RuntimeArgType):
                raise KtirDiagnostic(f"error: --arg {name}: '{name}' is a runtime argument "
                                     f"({a.type}); runtime arguments stay symbolic down to "
                                     "DataflowIR and are bound at launch (give the value to "
                                     "`ktir run`, not to the compiler)")
            self.bound.add(name)
            if not a.uses:
                continue
            c = constant_of(a.type, name, self.values[name])
            c.result.name_hint = name
            c.location = fn.location
            rewriter.replace_all_uses_with(a, c.result)
            new.append(c)
        if new:
            rewriter.insert(new, InsertPoint.at_start(fn.body.block))


class StaticViewStrides(RewritePattern):
    """`ktdp.construct_memory_view` with constant stride operands: static strides."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, view: ktdp.ConstructMemoryViewOp,
                          rewriter: PatternRewriter) -> None:
        if not view.strides:
            return
        consts = [const_int(v) for v in view.strides]
        if any(c is None for c in consts):
            return
        it = iter(consts)
        strides: list[int | SSAValue] = [
            next(it) if s == DYNAMIC_INDEX else s  # type: ignore[misc]
            for s in int_list(view.static_strides)]
        sizes: list[int | SSAValue] = []
        dyn = iter(view.sizes)
        for s in int_list(view.static_sizes):
            sizes.append(next(dyn) if s == DYNAMIC_INDEX else s)
        new = ktdp.ConstructMemoryViewOp(view.offset, sizes, strides, view.result.type,
                                         view.memory_space, view.coordinate_set.data)
        new.attributes.update(view.attributes)
        rewriter.replace(view, new)


_FLOATS = {16: np.float16, 32: np.float32, 64: np.float64}


class FoldConstantCasts(RewritePattern):
    """An integer cast of an integer constant: the constant of the result type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.IndexCastOp | arith.SIToFPOp | arith.UIToFPOp,
                          rewriter: PatternRewriter) -> None:
        v = const_int(op.input)
        t = op.result.type
        if v is None:
            return
        if isinstance(op, arith.IndexCastOp):
            if not isinstance(t, IndexType | IntegerType):
                return
            width = 64 if isinstance(t, IndexType) else t.width.data
            lo, hi = int_bounds(width)
            if not lo <= v <= hi:
                return
            c = arith.ConstantOp(IntegerAttr(v, t))
        else:
            if not isinstance(t, Float16Type | Float32Type | Float64Type):
                return
            if isinstance(op, arith.UIToFPOp) and v < 0:
                in_t = op.input.type
                v += 1 << (64 if isinstance(in_t, IndexType) else
                           cast(IntegerType, in_t).width.data)
            c = arith.ConstantOp(FloatAttr(float(_FLOATS[t.bitwidth](v)), t))
        rewriter.replace(op, c)


_INDEX_FOLDS = {arith.AddiOp: lambda a, b: a + b, arith.SubiOp: lambda a, b: a - b,
                arith.MuliOp: lambda a, b: a * b}


class FoldIndexArithmetic(RewritePattern):
    """`addi` / `subi` / `muli` of index constants: the constant (a stride `2 * %n`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp | arith.SubiOp | arith.MuliOp,
                          rewriter: PatternRewriter) -> None:
        a, b = const_int(op.lhs), const_int(op.rhs)
        if a is None or b is None or not isinstance(op.result.type, IndexType):
            return
        rewriter.replace(op, arith.ConstantOp(IntegerAttr(_INDEX_FOLDS[type(op)](a, b),
                                                             IndexType())))


@dataclass(frozen=True)
class BindArgumentsPass(ModulePass):
    """Bind scalar kernel arguments to constants: `bind-arguments{values="BLOCK_SIZE=128"}`
    (one NAME=VALUE string per argument; see the module docstring).

    Before:  func.func @k(%n: index) { %o = arith.muli %id, %n : index }
    After:   func.func @k(%n: index) { %n_1 = arith.constant 128 : index
                                       %o = arith.muli %id, %n_1 : index }
    Idempotent: a bound argument has no uses left.
    """

    name = "bind-arguments"
    values: tuple[str, ...] = field(default=())

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        values = parse_bindings(self.values)
        if not values:
            return
        bound: set[str] = set()
        apply_patterns(op, [BindArguments(values, bound)])
        apply_patterns(op, [StaticViewStrides(), FoldConstantCasts(), FoldIndexArithmetic()])
        missing = [n for n in values if n not in bound]
        if missing:
            names = sorted({_name(a) for f in op.walk() if isinstance(f, func.FuncOp)
                            and not f.is_declaration for a in f.args})
            raise KtirDiagnostic(f"error: --arg {missing[0]}: no kernel has an argument named "
                                 f"'{missing[0]}' (arguments: {', '.join(names) or 'none'})")
