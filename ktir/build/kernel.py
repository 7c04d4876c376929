"""Kernels from Python: tensors, a grid, the work division, and compute over tile handles.

    k = Kernel("softmax", grid=32)
    X = k.tensor("X", (64, 1024), "f16")
    Y = k.tensor("Y", (64, 1024), "f16")
    with k.tiles(rows=1) as t:             # tile t takes rows [id, id + 1), then id + 32, ...
        x = t.load(X).astype("f32")
        e = (x - x.max(axis=1, keepdims=True)).exp()
        t.store(Y, (e / e.sum(axis=1, keepdims=True)).astype("f16"))
    module = k.build()

`build` writes the form of examples/kernels/*.mlir: a `func.func` with `grid`, one `index`
argument (element address) per tensor, a `construct_memory_view` per tensor, and per tile
(or per iteration of the tile loop `scf.for %i = id * rows to M step grid * rows`) an access
tile and a `ktdp.load` per tensor read, one `linalg.generic` per stored value or reduction
(element-wise chains fuse into it; broadcast operands get indexing maps such as
`(d0, d1) -> (0, d1)` or `-> (d0)`), and a `ktdp.store`. The module is verified. A tensor
whose first dimension is the divided row count is read and written by row tiles; any other
tensor is read whole by every tile (a bias, a weight row).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

from xdsl.builder import Builder
from xdsl.dialects import arith, func, math, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint

from ktir.build.expr import (
    ELEMENT_TYPES,
    FLOAT_TYPES,
    BuildError,
    Const,
    Load,
    Op,
    Reduce,
    Scalar,
    Value,
    broadcast,
)
from ktir.dialects.ktdp import (
    ConstructAccessTileOp,
    ConstructMemoryViewOp,
    GetComputeTileIdOp,
    LoadOp,
    StoreOp,
)
from ktir.dialects.ktdp_types import AccessTileType, MemorySpaceAttr, box_set

MEMORY_SPACES = ("global",)


def element_type(name: str) -> Attribute:
    if name not in ELEMENT_TYPES:
        raise BuildError(f"element type '{name}' (the builder knows {', '.join(ELEMENT_TYPES)})")
    return {"f16": Float16Type(), "bf16": BFloat16Type(), "f32": Float32Type()}.get(
        name) or IntegerType(int(name[1:]))


@dataclass(eq=False)
class Tensor:
    """A kernel argument: a row-major tensor in device memory."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    memory: str = "global"


@dataclass(eq=False)
class _Tile:
    """What one `with kernel.tiles(...)` block reads and writes, in program order."""

    kernel: Kernel
    rows: int
    total: int
    loads: list[Load] = field(default_factory=list)
    stores: list[tuple[Tensor, Value]] = field(default_factory=list)

    def load(self, t: Tensor, whole: bool = False) -> Value:
        """This tile's rows of `t` (all of `t` when `whole` or when its first dimension is
        not the divided one)."""
        self.kernel._own(t)
        whole = whole or not self._divided(t)
        for ld in self.loads:
            if ld.tensor is t and ld.whole == whole:
                return ld
        ld = Load(self._tile_shape(t, whole), t.dtype, t, whole)
        self.loads.append(ld)
        return ld

    def store(self, t: Tensor, v: Any) -> None:
        """Write `v` (broadcast to the tile's shape) to this tile's rows of `t`."""
        self.kernel._own(t)
        if not self._divided(t):
            raise BuildError(f"store to '{t.name}' of shape {t.shape}: a stored tensor's first "
                             f"dimension must be the divided one ({self.total} rows); every "
                             "tile would write all of it")
        if not isinstance(v, Value):
            raise BuildError(f"store to '{t.name}' of a {type(v).__name__}: store a tensor "
                             "handle")
        if v.dtype != t.dtype:
            raise BuildError(f"store of {v.dtype} values to '{t.name}' of {t.dtype}: convert "
                             "with astype()")
        shape = self._tile_shape(t, False)
        if broadcast(v.shape, shape) != shape:
            raise BuildError(f"store to '{t.name}': a value of shape {v.shape} does not fit "
                             f"its tile {shape}")
        self.stores.append((t, v))

    def _divided(self, t: Tensor) -> bool:
        return bool(t.shape) and t.shape[0] == self.total

    def _tile_shape(self, t: Tensor, whole: bool) -> tuple[int, ...]:
        return t.shape if whole else (self.rows, *t.shape[1:])


class Kernel:
    """A KTIR kernel under construction (see the module docstring)."""

    def __init__(self, name: str, grid: int | Sequence[int] = 1):
        g = (grid,) if isinstance(grid, int) else tuple(grid)
        if len(g) != 1 or g[0] < 1:
            raise BuildError(f"grid {list(g)}: the builder divides rows over a 1-D grid of "
                             "one or more tiles")
        self.name = name
        self.grid = g[0]
        self.args: list[Tensor | Scalar] = []
        self.tile: _Tile | None = None

    def tensor(self, name: str, shape: Sequence[int], dtype: str = "f16",
               memory: str = "global") -> Tensor:
        if memory not in MEMORY_SPACES:
            raise BuildError(f"tensor '{name}' in memory '{memory}': the builder places tensors "
                             f"in {', '.join(MEMORY_SPACES)} memory")
        element_type(dtype)
        shape = tuple(int(d) for d in shape)
        if not shape or any(d < 1 for d in shape):
            raise BuildError(f"tensor '{name}' of shape {shape}: give one or more positive "
                             "dimensions")
        self._fresh(name)
        t = Tensor(name, shape, dtype, memory)
        self.args.append(t)
        return t

    def scalar(self, name: str, dtype: str = "f32") -> Value:
        """A scalar kernel argument (bound at launch, e.g. `eps`)."""
        element_type(dtype)
        self._fresh(name)
        s = Scalar((), dtype, name)
        self.args.append(s)
        return s

    @contextmanager
    def tiles(self, rows: int, total: int | None = None) -> Iterator[_Tile]:
        """Divide `total` rows (default: the first dimension of the first tensor) into
        blocks of `rows`; tile `id` takes block `id`, and `id + grid`, ... when there are
        more blocks than tiles (a tile loop)."""
        if self.tile is not None:
            raise BuildError("a second tiles() block: a kernel has one work division")
        tensors = [a for a in self.args if isinstance(a, Tensor)]
        if total is None:
            if not tensors:
                raise BuildError("tiles() before any tensor: declare the tensors first")
            total = tensors[0].shape[0]
        if rows < 1 or total % rows:
            raise BuildError(f"{total} rows in blocks of {rows}: the rows per tile must divide "
                             "the rows")
        self.tile = _Tile(self, rows, total)
        yield self.tile

    def build(self) -> ModuleOp:
        """The verified KTIR module."""
        if self.tile is None or not self.tile.stores:
            raise BuildError(f"kernel '{self.name}' stores nothing: a kernel needs a tiles() "
                             "block with a store")
        module = _Emitter(self, self.tile).emit()
        module.verify()
        return module

    def _fresh(self, name: str) -> None:
        if not name.isidentifier() or any(getattr(a, "name", None) == name for a in self.args):
            raise BuildError(f"argument name '{name}': names must be distinct identifiers")
        if re.fullmatch(r".*_\d+", name):  # xDSL drops such a suffix from SSA names
            raise BuildError(f"argument name '{name}': a name must not end in _<digits>")

    def _own(self, t: Tensor) -> None:
        if not any(a is t for a in self.args):
            raise BuildError(f"tensor '{t.name}' belongs to another kernel")


def _index(b: Builder, v: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(v, IndexType()))).result


class _Emitter:
    def __init__(self, k: Kernel, tile: _Tile):
        self.k, self.tile = k, tile
        self.views: dict[Tensor, SSAValue] = {}
        self.argv: dict[str, SSAValue] = {}

    def emit(self) -> ModuleOp:
        k, tile = self.k, self.tile
        types = [element_type(a.dtype) if isinstance(a, Scalar) else IndexType()
                 for a in k.args]
        block = Block(arg_types=types)
        for a, arg in zip(k.args, block.args):
            arg.name_hint = a.name
            self.argv[a.name] = arg
        b = Builder(InsertPoint.at_end(block))
        c0 = _index(b, 0)
        crows = _index(b, tile.rows)
        tid = b.insert(GetComputeTileIdOp()).ids[0]
        row0 = b.insert(arith.MuliOp(tid, crows)).result
        for a in k.args:
            if isinstance(a, Tensor):
                self.views[a] = self._view(b, a)
        blocks = tile.total // tile.rows
        if blocks == k.grid:
            self._body(b, row0, c0)
        elif blocks % k.grid == 0:  # every tile takes blocks id, id + grid, ...
            trips, c1 = _index(b, blocks // k.grid), _index(b, 1)
            cstride = _index(b, tile.rows * k.grid)
            body = Block(arg_types=[IndexType()])
            body.args[0].name_hint = "k"
            bb = Builder(InsertPoint.at_end(body))
            skip = bb.insert(arith.MuliOp(body.args[0], cstride)).result
            row = bb.insert(arith.AddiOp(row0, skip)).result
            self._body(bb, row, c0)
            body.add_op(scf.YieldOp())
            b.insert(scf.ForOp(c0, trips, c1, [], body))
        else:  # tiles take different numbers of blocks: the loop starts at the tile's rows
            total = _index(b, tile.total)
            step = _index(b, tile.rows * k.grid)
            body = Block(arg_types=[IndexType()])
            body.args[0].name_hint = "i"
            self._body(Builder(InsertPoint.at_end(body)), body.args[0], c0)
            body.add_op(scf.YieldOp())
            b.insert(scf.ForOp(row0, total, step, [], body))
        b.insert(func.ReturnOp())
        fn = func.FuncOp(k.name, (types, []), Region(block))
        fn.attributes["grid"] = ArrayAttr([IntegerAttr(k.grid, i64)])
        return ModuleOp([fn])

    def _view(self, b: Builder, t: Tensor) -> SSAValue:
        strides = [1] * len(t.shape)
        for d in range(len(t.shape) - 2, -1, -1):
            strides[d] = strides[d + 1] * t.shape[d + 1]
        mt = MemRefType(element_type(t.dtype), t.shape)
        return b.insert(ConstructMemoryViewOp(self.argv[t.name], t.shape, strides, mt,
                                              MemorySpaceAttr(t.memory))).result

    def _access(self, b: Builder, t: Tensor, shape: tuple[int, ...], row: SSAValue,
                c0: SSAValue, whole: bool) -> SSAValue:
        n = len(shape)
        idx = [c0 if whole or d else row for d in range(n)]
        ident = AffineMap.identity(n)
        return b.insert(ConstructAccessTileOp(self.views[t], idx, ident, box_set(shape), ident,
                                              AccessTileType(shape))).result

    def _body(self, b: Builder, row: SSAValue, c0: SSAValue) -> None:
        self.b, self.c0 = b, c0
        self.done: dict[Value, SSAValue] = {}
        for ld in self.tile.loads:
            at = self._access(b, ld.tensor, ld.shape, row, c0, ld.whole)
            self.done[ld] = b.insert(LoadOp(at, _ttype(ld.shape, ld.dtype))).result
        for t, v in self.tile.stores:
            shape = self.tile._tile_shape(t, False)
            if v in self.done and v.shape == shape and not isinstance(v, Reduce):
                data = self.done[v]
            else:
                data = self._generic(v, shape)
            at = self._access(b, t, shape, row, c0, False)
            b.insert(StoreOp(data, at))

    # compute --------------------------------------------------------------------------
    def _leaves(self, v: Value, out: list[Value]) -> None:
        """The tensors `v`'s fused body reads (loads, reductions), materialising reductions."""
        if isinstance(v, Load | Reduce):
            if isinstance(v, Reduce) and v not in self.done:
                self.done[v] = self._reduction(v)
            if v not in out:
                out.append(v)
        elif isinstance(v, Op):
            for o in v.operands:
                self._leaves(o, out)

    def _generic(self, v: Value, shape: tuple[int, ...]) -> SSAValue:
        """A parallel linalg.generic computing `v` over `shape`."""
        leaves: list[Value] = []
        self._leaves(v, leaves)
        out = self.b.insert(tensor.EmptyOp([], _ttype(shape, v.dtype))).tensor
        n = len(shape)
        maps = [_operand_map(leaf, shape) for leaf in leaves] + [AffineMap.identity(n)]
        return self._emit_generic(leaves, out, maps, ["parallel"] * n,
                                  lambda bb, env: self._scalar(bb, v, env))

    def _reduction(self, r: Reduce) -> SSAValue:
        x = cast(Value, r.operand)
        leaves: list[Value] = []
        self._leaves(x, leaves)
        space = x.shape
        kept = tuple(d for k, d in enumerate(space) if k != r.axis)
        # a splat of a scalar constant: xDSL reads `dense<0xfc00>` back as 64512.0
        init = self.b.insert(_constant(_identity(r.kind, r.dtype), r.dtype)).result
        acc = self.b.insert(tensor.SplatOp(init, [], _ttype(kept, r.dtype))).result
        n = len(space)
        out_map = AffineMap(n, 0, tuple(AffineExpr.dimension(k) for k in range(n)
                                        if k != r.axis))
        maps = [_operand_map(leaf, space) for leaf in leaves] + [out_map]
        iters = ["reduction" if k == r.axis else "parallel" for k in range(n)]

        def body(bb: Builder, env: dict[Value, SSAValue]) -> SSAValue:
            val = self._scalar(bb, x, env)
            return bb.insert(_combine(r.kind, r.dtype, val, env[_ACC])).result
        return self._emit_generic(leaves, acc, maps, iters, body, reduction=True)

    def _emit_generic(self, leaves: list[Value], out: SSAValue, maps: list[AffineMap],
                      iters: list[str], make, reduction: bool = False) -> SSAValue:
        ins = [self.done[leaf] for leaf in leaves]
        out_t = cast(TensorType, out.type)
        block = Block(arg_types=[element_type(leaf.dtype) for leaf in leaves] +
                      [out_t.element_type])
        env: dict[Value, SSAValue] = dict(zip(leaves, block.args))
        if reduction:
            env[_ACC] = block.args[-1]
        bb = Builder(InsertPoint.at_end(block))
        result = make(bb, env)
        bb.insert(YieldOp(result))
        op = GenericOp(ins, [out], Region(block), [AffineMapAttr(m) for m in maps],
                              [IteratorTypeAttr.parallel() if i == "parallel"
                               else IteratorTypeAttr.reduction() for i in iters], [out_t])
        return self.b.insert(op).results[0]

    def _scalar(self, bb: Builder, v: Value, env: dict[Value, SSAValue]) -> SSAValue:
        """The element of `v` inside a generic body (memoised per body)."""
        if v in env:
            return env[v]
        if isinstance(v, Const):
            val = bb.insert(_constant(v.value, v.dtype)).result
        elif isinstance(v, Scalar):
            val = self.argv[v.name]
        elif isinstance(v, Op):
            args = [self._scalar(bb, o, env) for o in v.operands]
            val = bb.insert(_elementwise(v, args)).results[0]
        else:
            raise BuildError(f"internal: {type(v).__name__} outside a body's leaves")
        env[v] = val
        return val


_ACC = Const((), "", 0)  # the accumulator's key in a reduction body's environment


def _ttype(shape: Sequence[int], dtype: str) -> TensorType:
    return TensorType(element_type(dtype), shape)


def _operand_map(leaf: Value, space: tuple[int, ...]) -> AffineMap:
    """How a leaf of (logical) shape `leaf.shape` is read in the iteration `space`: right-
    aligned, a stretched size-1 dimension reads index 0, the axis a keepdims reduction
    removed is not a dimension of its tensor at all."""
    n, m = len(space), len(leaf.shape)
    off = n - m
    exprs = []
    for k, d in enumerate(leaf.shape):
        if isinstance(leaf, Reduce) and k == leaf.axis:
            continue
        exprs.append(AffineExpr.constant(0) if d == 1 and space[k + off] != 1
                     else AffineExpr.dimension(k + off))
    return AffineMap(n, 0, tuple(exprs))


def _identity(kind: str, dtype: str) -> float | int:
    if kind == "sum":
        return 0.0 if dtype in FLOAT_TYPES else 0
    if dtype in FLOAT_TYPES:
        return float("-inf") if kind == "max" else float("inf")
    bits = int(dtype[1:])
    return -(1 << (bits - 1)) if kind == "max" else (1 << (bits - 1)) - 1


def _constant(value: float | int | bool, dtype: str) -> arith.ConstantOp:
    t = element_type(dtype)
    if dtype in FLOAT_TYPES:
        return arith.ConstantOp(FloatAttr(float(value), cast(Any, t)))
    return arith.ConstantOp(IntegerAttr(int(value), cast(IntegerType, t)))


def _combine(kind: str, dtype: str, a: SSAValue, acc: SSAValue):
    fl = dtype in FLOAT_TYPES
    if kind == "sum":
        return arith.AddfOp(a, acc) if fl else arith.AddiOp(a, acc)
    if kind == "max":
        return arith.MaximumfOp(a, acc) if fl else arith.MaxSIOp(a, acc)
    return arith.MinimumfOp(a, acc) if fl else arith.MinSIOp(a, acc)


_FLOAT_BINARY = {"add": arith.AddfOp, "sub": arith.SubfOp, "mul": arith.MulfOp,
                 "div": arith.DivfOp, "max": arith.MaximumfOp, "min": arith.MinimumfOp,
                 "pow": math.PowFOp}
_INT_BINARY = {"add": arith.AddiOp, "sub": arith.SubiOp, "mul": arith.MuliOp,
               "max": arith.MaxSIOp, "min": arith.MinSIOp}
_FLOAT_UNARY = {"exp": math.ExpOp, "exp2": math.Exp2Op, "log": math.LogOp,
                "log2": math.Log2Op, "sqrt": math.SqrtOp, "rsqrt": math.RsqrtOp,
                "tanh": math.TanhOp, "erf": math.ErfOp, "abs": math.AbsFOp, "sin": math.SinOp,
                "cos": math.CosOp, "floor": math.FloorOp, "ceil": math.CeilOp,
                "neg": arith.NegfOp}
_FLOAT_PRED = {"lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge", "eq": "oeq", "ne": "une"}
_INT_PRED = {"lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge", "eq": "eq", "ne": "ne"}


def _elementwise(v: Op, args: list[SSAValue]):
    src = v.operands[0].dtype
    fl = src in FLOAT_TYPES
    if v.kind == "select":
        return arith.SelectOp(*args)
    if v.kind == "cast":
        return _cast(args[0], src, v.dtype)
    if v.kind in _FLOAT_PRED:
        return (arith.CmpfOp(args[0], args[1], _FLOAT_PRED[v.kind]) if fl
                else arith.CmpiOp(args[0], args[1], _INT_PRED[v.kind]))
    if len(args) == 2:
        return (_FLOAT_BINARY if fl else _INT_BINARY)[v.kind](args[0], args[1])
    if fl:
        return _FLOAT_UNARY[v.kind](args[0])
    return math.AbsIOp(args[0])


def _cast(x: SSAValue, src: str, dst: str):
    t: Any = element_type(dst)
    if src in FLOAT_TYPES and dst in FLOAT_TYPES:
        if {src, dst} == {"f16", "bf16"}:
            raise BuildError(f"a cast from {src} to {dst}: go through f32")
        return arith.ExtFOp(x, t) if dst == "f32" else arith.TruncFOp(x, t)
    if src in FLOAT_TYPES:
        return arith.FPToSIOp(x, t)
    if dst in FLOAT_TYPES:
        return arith.SIToFPOp(x, t)
    if int(dst[1:]) > int(src[1:]):
        return arith.ExtUIOp(x, t) if src == "i1" else arith.ExtSIOp(x, t)
    return arith.TruncIOp(x, t)
