"""`reduction-dim-chunking`: a row too long for the scratchpad is processed in chunks.

A row program loads its row whole (`ktdp.load` of a 1xN tile), reduces it, and stores an
element-wise function of it. When the row (with its output row) does not fit in the device's
per-core scratchpad, the program is rewritten into loops over chunks of the last dimension,
each chunk small enough for an input and an output chunk, double-buffered:

    %x = ktdp.load %tile                      (1xN)
    %m = linalg.reduce {maxnumf} ins(%x) outs(%init) dimensions = [1]
    ktdp.store %f(%x, %m), %out_tile
becomes
    %p = scf.for %k = 0 to N step N/C iter_args(%acc = splat(identity)) {   (1x(N/C))
      %xk = ktdp.load %tile at column %k ; scf.yield maxnumf(%acc, %xk) }
    %m = linalg.reduce {maxnumf} ins(%p) outs(%init) dimensions = [1]
    scf.for %k = 0 to N step N/C { ktdp.store %f(load at %k, %m), %out_tile at %k }

A long value (the load, and the element-wise arith/math ops over it) is recomputed inside each
loop that needs it from a load of that chunk; broadcasts (`tensor.splat`) of earlier
reductions' scalars are splatted at chunk shape. So the row is read from device memory once
a pass (softmax: max, sum, normalise). The loops carry values with a constant trip count,
so `unroll-carried-loops`, next in the pipeline, puts the chunks in line (layer norm's
column-block loops take the same road). Sums are accumulated in a different order (chunk
partials, then the partial's lanes); max and min are exact.

C is the smallest divisor of N that makes a chunk fit under a quarter of the scratchpad, at
most MAX_TRIPS. What the rewrite cannot handle (another use of a long value, a reduction over
another dimension, a combiner without a known identity, no such C) stops with a diagnostic
naming the op. Rows that fit are left alone. Not a pattern walk: the rewrite is of a block's
whole row program (every reduction and store of the long values at once), not of one op.
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects import arith, linalg, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktir import affine as kaffine
from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import AccessTileType
from scheduler.transforms.split_distributed_views import box_set
from scheduler.transforms.unroll_carried_loops import MAX_TRIPS

FIT_BUFFERS = 2    # a row fits when it and its output row do
CHUNK_BUFFERS = 8  # a chunk: the buffers of a pass (input, output, the stages between), double-buffered

_IDENTITY = {
    "arith.addf": 0.0, "arith.mulf": 1.0,
    "arith.maxnumf": -math.inf, "arith.maximumf": -math.inf,
    "arith.minnumf": math.inf, "arith.minimumf": math.inf,
    "arith.addi": 0, "arith.muli": 1, "arith.ori": 0, "arith.xori": 0,
}


def _bytes(t: TensorType) -> int:
    width = getattr(t.element_type, "bitwidth", None) or 32
    return math.prod(t.get_shape()) * max(1, width // 8)


def _scratchpad_bytes(module: ModuleOp) -> int | None:
    from arch_descriptions.model import device_from_module

    device = device_from_module(module)
    if device is None:
        return None
    return device.memories[device.scratchpad_kind()].size


def _elementwise(op: Operation) -> bool:
    return op.name.split(".")[0] in ("arith", "math") and len(op.results) == 1 \
        and not op.regions


def _chunk_count(load: ktdp.LoadOp, t: TensorType, budget: int) -> int:
    n = t.get_shape()[-1]
    for c in range(2, MAX_TRIPS + 1):
        if n % c == 0 and _bytes(t) // c * CHUNK_BUFFERS <= budget:
            return c
    raise op_error(load, f"loads a row of {_bytes(t)} B that does not fit in the scratchpad "
                         f"({budget} B) and no chunk count of at most {MAX_TRIPS} dividing "
                         f"its {n} columns makes a chunk fit in a quarter of it")


def _retyped(op: Operation, operands: list[SSAValue], t: TensorType) -> Operation:
    """`op` on other operands, with result type `t`."""
    return type(op).create(operands=operands, result_types=[t],
                           properties=dict(op.properties), attributes=dict(op.attributes))


class _Row:
    """The long values of one block and how to recompute them a chunk at a time."""

    def __init__(self, block: Block, shape: tuple[int, ...], chunks: int):
        self.block, self.shape, self.chunks = block, shape, chunks
        self.chunk = shape[-1] // chunks
        self.long: list[Operation] = []

    def chunk_type(self, t: TensorType) -> TensorType:
        return TensorType(t.element_type, [*self.shape[:-1], self.chunk])

    def is_long(self, v: SSAValue) -> bool:
        return isinstance(v.owner, Operation) and v.owner in self.long_set

    def collect(self, loads: list[ktdp.LoadOp]) -> list[Operation]:
        """The long ops in block order, and their uses that become loops (reduce, store)."""
        self.long_set: set[Operation] = set(loads)
        sinks: list[Operation] = []
        for op in self.block.ops:
            if op in self.long_set:
                self.long.append(op)
                continue
            if not any(self.is_long(v) for v in op.operands):
                for inner in op.walk():
                    if inner is not op and any(self.is_long(v) for v in inner.operands):
                        raise self._refuse(inner, "is inside a region")
                continue
            if _elementwise(op) and isinstance(t := op.results[0].type, TensorType) \
                    and t.get_shape() == self.shape:
                for v in op.operands:
                    self._check_operand(op, v)
                self.long_set.add(op)
                self.long.append(op)
            elif isinstance(op, linalg.ReduceOp):
                self._check_reduce(op)
                sinks.append(op)
            elif isinstance(op, ktdp.StoreOp) and self.is_long(op.data):
                self._check_tile(op, op.tile)
                sinks.append(op)
            else:
                raise self._refuse(op, "is not element-wise, a reduction or a store")
        for op in self.long:
            for r in op.results:
                for use in r.uses:
                    if use.operation.parent_block() is not self.block:
                        raise self._refuse(use.operation, "is in another block")
        return sinks

    def _refuse(self, op: Operation, why: str):
        return op_error(op, f"reads a row of {self.shape[-1]} columns too long for the "
                            f"scratchpad, and {why}: reduction-dim-chunking can only chunk "
                            "element-wise ops, reductions over the last dimension and stores "
                            "of such rows")

    def _check_operand(self, op: Operation, v: SSAValue) -> None:
        if self.is_long(v):
            return
        owner = v.owner
        if isinstance(owner, tensor.SplatOp) and not owner.dynamicSizes:
            return
        raise self._refuse(op, "reads a full-row operand that is neither computed from the "
                               "row nor a tensor.splat")

    def _check_reduce(self, op: linalg.ReduceOp) -> None:
        rank = len(self.shape)
        if not self.is_long(op.input) or op.init is op.input or \
                list(op.dimensions.get_values()) != [rank - 1]:
            raise self._refuse(op, "is not a one-input reduction over the last dimension")
        self.combiner(op)

    def combiner(self, op: linalg.ReduceOp) -> Operation:
        body = list(op.region.block.ops)
        args = op.region.block.args
        if len(body) != 2 or body[0].name not in _IDENTITY or \
                set(body[0].operands) != set(args) or \
                list(body[1].operands) != [body[0].results[0]]:
            raise self._refuse(op, "its combiner is not one of "
                                   f"{', '.join(sorted(_IDENTITY))} of its two arguments")
        return body[0]

    def _check_tile(self, user: Operation, tile: SSAValue) -> None:
        at = tile.owner
        if not isinstance(at, ktdp.ConstructAccessTileOp) or at.symbol_operands:
            raise self._refuse(user, "its access tile is not a ktdp.construct_access_tile "
                                     "without symbols")
        aset = at.access_tile_set.data
        bounds = kaffine.dim_bounds(aset)
        if at.access_tile_order.data != AffineMap.identity(len(self.shape)) or \
                not kaffine.is_box(aset) or \
                bounds != [(0, e - 1) for e in self.shape]:
            raise self._refuse(user, "its access tile is not the box of its shape in order")

    # -- rewriting ---------------------------------------------------------------------

    def chunk_tile(self, tile: SSAValue, k: SSAValue, where: InsertPoint) -> SSAValue:
        at = tile.owner
        assert isinstance(at, ktdp.ConstructAccessTileOp)
        bmap = at.base_map.data
        shifted = AffineMap(bmap.num_dims + 1, bmap.num_symbols, (
            *bmap.results[:-1], bmap.results[-1] + AffineExpr.dimension(bmap.num_dims)))
        shape = [*self.shape[:-1], self.chunk]
        new = ktdp.ConstructAccessTileOp(at.base, [*at.indices, k], shifted, box_set(shape),
                                         at.access_tile_order.data, AccessTileType(shape))
        new.location = at.location
        Rewriter.insert_op(new, where)
        return new.result

    def recompute(self, v: SSAValue, k: SSAValue, where: InsertPoint,
                  memo: dict[SSAValue, SSAValue]) -> SSAValue:
        """`v` at the chunk starting at column `k`, built at `where`."""
        if v in memo:
            return memo[v]
        op = v.owner
        assert isinstance(op, Operation)
        t = v.type
        assert isinstance(t, TensorType)
        if isinstance(op, ktdp.LoadOp):
            new = ktdp.LoadOp(self.chunk_tile(op.tile, k, where), self.chunk_type(t))
        elif isinstance(op, tensor.SplatOp):
            new = tensor.SplatOp(op.input, [], self.chunk_type(t))
        else:
            operands = [self.recompute(o, k, where, memo) for o in op.operands]
            new = _retyped(op, operands, self.chunk_type(t))
        new.location = op.location
        new.results[0].name_hint = v.name_hint
        Rewriter.insert_op(new, where)
        memo[v] = new.results[0]
        return new.results[0]

    def loop(self, before: Operation, init: SSAValue | None) -> scf.ForOp:
        where = InsertPoint.before(before)
        bounds = []
        for value, hint in ((0, "c0"), (self.shape[-1], None), (self.chunk, "chunk")):
            c = arith.ConstantOp(IntegerAttr(value, IndexType()))
            c.result.name_hint = hint
            Rewriter.insert_op(c, where)
            bounds.append(c.result)
        args = [IndexType()] + ([init.type] if init is not None else [])
        body = Block(arg_types=args)
        body.args[0].name_hint = "col"
        loop = scf.ForOp(*bounds, [init] if init is not None else [], Region(body))
        loop.location = before.location
        Rewriter.insert_op(loop, where)
        return loop

    def rewrite_reduce(self, op: linalg.ReduceOp) -> None:
        comb = self.combiner(op)
        t = self.chunk_type(op.input.type)  # type: ignore[arg-type]
        elt = t.element_type
        ident = _IDENTITY[comb.name]
        where = InsertPoint.before(op)
        scalar = arith.ConstantOp(FloatAttr(ident, elt) if not isinstance(elt, IntegerType)
                                  else IntegerAttr(int(ident), elt))
        splat = tensor.SplatOp(scalar.result, [], t)
        splat.result.name_hint = "partial_init"
        Rewriter.insert_op([scalar, splat], where)
        loop = self.loop(op, splat.result)
        body = loop.body.block
        end = InsertPoint.at_end(body)
        k, acc = body.args
        acc.name_hint = "partial"
        chunk = self.recompute(op.input, k, end, {})
        first = op.region.block.args[0]
        combined = _retyped(comb, [chunk if o is first else acc for o in comb.operands], t)
        Rewriter.insert_op([combined, scf.YieldOp(combined.results[0])], end)
        loop.res[0].name_hint = "partials"
        op.operands[0] = loop.res[0]

    def rewrite_store(self, op: ktdp.StoreOp) -> None:
        loop = self.loop(op, None)
        body = loop.body.block
        end = InsertPoint.at_end(body)
        k = body.args[0]
        data = self.recompute(op.data, k, end, {})
        tile = self.chunk_tile(op.tile, k, end)
        store = ktdp.StoreOp(data, tile)
        store.location = op.location
        Rewriter.insert_op([store, scf.YieldOp()], end)
        Rewriter.erase_op(op)


def chunk_block(block: Block, loads: list[ktdp.LoadOp], budget: int) -> None:
    t = loads[0].result.type
    assert isinstance(t, TensorType)
    for other in loads[1:]:
        if other.result.type.get_shape() != t.get_shape():  # type: ignore[union-attr]
            raise op_error(other, "loads a row too long for the scratchpad of another shape "
                                  "than the first in its block: reduction-dim-chunking chunks "
                                  "one row shape a block")
    row = _Row(block, t.get_shape(), _chunk_count(loads[0], t, budget))
    for load in loads:
        row._check_tile(load, load.tile)
    sinks = row.collect(loads)
    tiles = [o.tile.owner for o in (*loads, *sinks) if isinstance(o, ktdp.LoadOp | ktdp.StoreOp)]
    for sink in sinks:
        if isinstance(sink, linalg.ReduceOp):
            row.rewrite_reduce(sink)
        else:
            assert isinstance(sink, ktdp.StoreOp)
            row.rewrite_store(sink)
    for op in reversed(row.long):
        if any(r.uses for r in op.results):
            raise row._refuse(next(u.operation for r in op.results for u in r.uses),
                              "still reads the whole row")
        Rewriter.erase_op(op)
    for op in list(block.ops):  # the broadcasts of reduced values at full row shape
        if isinstance(op, tensor.SplatOp) and not op.result.uses and \
                op.result.type.get_shape() == row.shape:
            Rewriter.erase_op(op)
    for at in dict.fromkeys(tiles):
        if isinstance(at, Operation) and not at.results[0].uses:
            Rewriter.erase_op(at)


class ReductionDimChunkingPass(ModulePass):
    """Rewrite row programs whose rows do not fit in the scratchpad into loops over chunks
    (see the module docstring).

    Before:  %x = ktdp.load (1xN); linalg.reduce ins(%x); ktdp.store f(%x)
    After:   scf.for over C chunks carrying a 1x(N/C) partial; linalg.reduce of the partial;
             scf.for over C chunks storing f(load of the chunk)
    Idempotent: the chunks fit.
    """

    name = "reduction-dim-chunking"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        size = _scratchpad_bytes(op)
        if size is None:
            return
        by_block: dict[Block, list[ktdp.LoadOp]] = {}
        for load in op.walk():
            if isinstance(load, ktdp.LoadOp) and isinstance(t := load.result.type, TensorType) \
                    and t.get_shape() and _bytes(t) * FIT_BUFFERS > size:
                block = load.parent_block()
                assert block is not None
                by_block.setdefault(block, []).append(load)
        for block, loads in by_block.items():
            chunk_block(block, loads, size)
