"""`reduction-dim-chunking`: a row too long for the scratchpad is processed in chunks.

A row program loads its row whole (`ktdp.load` of a 1xN tile), reduces it, and stores an
element-wise function of it. The scheduler keeps every loaded tile of a compute group in the
scratchpad while the group runs; when the block reduces and its long rows in and out do not
fit in the device's per-core scratchpad together, the program becomes host loops over C chunks
of the last dimension, each iteration a compute group of its own holding one chunk:

    %x = ktdp.load %tile                      (1xN)
    %m = linalg.reduce {maxnumf} ins(%x) outs(%init) dimensions = [1]
    ktdp.store %f(%x, %m), %out_tile
becomes
    scf.for %k = 0 to C step 1 {              {ktdf.host_loop}: unroll-carried-loops keeps it
      %p = linalg.reduce ins(ktdp.load %tile at column k x N/C) outs(splat(identity))
      ktdp.store %p, <workspace: partial k> }
    %m = linalg.reduce {maxnumf} ins(ktdp.load <workspace: the C partials>) outs(%init)
    ktdp.store %m, <workspace: result> ; %m' = ktdp.load <workspace: result>
    scf.for %k = 0 to C step 1 { ktdp.store %f(load at column k x N/C, %m'), %out_tile at k }

The partials go through device memory (a workspace: a last kernel argument with
`ktdf.workspace = {bytes, element_bytes}`, one copy per tile, as inter-tile-exchange's), and
so does each reduction's result, which later passes read back: a group then holds one
reduction space, as the scheduler wants. Long values (the load, element-wise arith/math ops
over it) are recomputed in each loop from a load of that chunk; broadcasts (`tensor.splat`)
of earlier reductions' scalars are splatted at chunk shape. So the row is read from device
memory once a pass (softmax: max, sum, normalise) plus the partials. Sums round each chunk's
partial to the element type before summing them (one more rounding than in one pass); max and
min are exact.

C is the smallest divisor of N, at most MAX_TRIPS, whose chunk fits four times (input and
output, double-buffered) in the scratchpad. What the rewrite cannot handle (another use of a
long value, a reduction over another dimension or of rank > 2, a combiner without a known
identity, no such C, a kernel that already has a workspace) stops with a diagnostic naming
the op. Rows that fit are left alone. Not a pattern walk: the rewrite is of a block's whole
row program (every reduction and store of its long values, and one workspace a kernel).
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects import arith, func, linalg, scf, tensor
from xdsl.dialects.linalg.ops import ReduceOp
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ArrayAttr,
    DictionaryAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    UnitAttr,
    TensorType,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktir import affine as kaffine
from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import AccessTileType, MemoryKind, MemorySpaceAttr, box_set, kernel_grid
from scheduler.analysis.index_exprs import index_constant
from scheduler.analysis.slots import STICK_BYTES, elem_bytes
from scheduler.transforms.inter_tile_exchange import WORKSPACE_ATTR, add_workspace
from scheduler.transforms.unroll_carried_loops import HOST_LOOP_ATTR, MAX_TRIPS

FIT_BUFFERS = 2    # a load is a candidate when two of it do not fit
CHUNK_BUFFERS = 4  # a chunk: input and output, each double-buffered

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
            elif isinstance(op, ReduceOp):
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

    def _check_reduce(self, op: ReduceOp) -> None:
        rank = len(self.shape)
        if not self.is_long(op.input) or op.init is op.input or \
                list(op.dimensions.get_values()) != [rank - 1]:
            raise self._refuse(op, "is not a one-input reduction over the last dimension")
        if rank != 2:
            raise self._refuse(op, f"reduces a rank-{rank} row (chunked: rank 2, rows x "
                                   "columns)")
        self.combiner(op)

    def combiner(self, op: ReduceOp) -> Operation:
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
            *bmap.results[:-1], bmap.results[-1] + AffineExpr.dimension(bmap.num_dims) * self.chunk))
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

    def loop(self, before: Operation) -> scf.ForOp:
        """`scf.for %k = 0 to C step 1`, marked so that unroll-carried-loops leaves it a
        host loop: each iteration a group call with one chunk's buffers."""
        where = InsertPoint.before(before)
        bounds = []
        for value in (0, self.chunks, 1):
            c = index_constant(value)
            Rewriter.insert_op(c, where)
            bounds.append(c.result)
        body = Block(arg_types=[IndexType()])
        body.args[0].name_hint = "chunk"
        loop = scf.ForOp(*bounds, [], Region(body))
        loop.attributes[HOST_LOOP_ATTR] = UnitAttr()
        loop.location = before.location
        Rewriter.insert_op(loop, where)
        return loop

    def ws_tile(self, addr: SSAValue, t: TensorType, shape: list[int], strides: list[int],
                indices: list[SSAValue], base: AffineMap, where: InsertPoint,
                name: str) -> SSAValue:
        full = [*shape]
        view = ktdp.ConstructMemoryViewOp(addr, full, strides,
                                          MemRefType(t.element_type, full),
                                          MemorySpaceAttr(MemoryKind.GLOBAL))
        view.results[0].name_hint = name
        tshape = list(t.get_shape())
        tile = ktdp.ConstructAccessTileOp(view.results[0], indices, base, box_set(tshape),
                                          AffineMap.identity(len(tshape)),
                                          AccessTileType(tshape))
        Rewriter.insert_op([view, tile], where)
        return tile.results[0]

    def rewrite_reduce(self, op: ReduceOp, addrs: tuple[SSAValue, SSAValue]) -> None:
        """Per chunk: reduce it into the identity and store the partial in the workspace
        (partial k of lead row p at k x P + p); then the original reduction of the P x C
        partials into the original init, stored in the workspace too and read back by its
        users (in the group of each: one reduction space a group, as the scheduler wants)."""
        addr, reduced_at = addrs
        comb = self.combiner(op)
        pt = op.init.type
        assert isinstance(pt, TensorType)
        lead = pt.get_shape()[0]
        elt = pt.element_type
        loop = self.loop(op)
        body = loop.body.block
        end = InsertPoint.at_end(body)
        k = body.args[0]
        chunk = self.recompute(op.input, k, end, {})
        ident = _IDENTITY[comb.name]
        scalar = arith.ConstantOp(IntegerAttr(int(ident), elt) if isinstance(elt, IntegerType)
                                  else FloatAttr(ident, elt))
        init = tensor.SplatOp(scalar.result, [], pt)
        init.result.name_hint = "identity"
        Rewriter.insert_op([scalar, init], end)
        partial = op.clone()
        partial.operands[0] = chunk
        partial.operands[1] = init.result
        partial.results[0].name_hint = "partial"
        Rewriter.insert_op(partial, end)
        at = self.ws_tile(addr, pt, [self.chunks * lead], [1], [k],
                          AffineMap(1, 0, (AffineExpr.dimension(0) * lead,)), end, "partials")
        Rewriter.insert_op([ktdp.StoreOp(partial.results[0], at), scf.YieldOp()], end)
        rt = TensorType(elt, [lead, self.chunks])
        strides = [self.chunks, 1] if lead == 1 else [1, lead]
        at = self.ws_tile(addr, rt, [lead, self.chunks], strides, [],
                          AffineMap(0, 0, (AffineExpr.constant(0),) * 2),
                          InsertPoint.before(op), "partials")
        load = ktdp.LoadOp(at, rt)
        load.result.name_hint = "partials"
        load.location = op.location
        Rewriter.insert_op(load, InsertPoint.before(op))
        op.operands[0] = load.result
        after = InsertPoint.after(op)
        uses = [u for u in op.results[0].uses]
        at = self.ws_tile(reduced_at, pt, [lead], [1], [], AffineMap(0, 0, (
            AffineExpr.constant(0),)), after, "reduced")
        store = ktdp.StoreOp(op.results[0], at)
        back = ktdp.LoadOp(at, pt)
        back.result.name_hint = op.results[0].name_hint
        for o in (store, back):
            o.location = op.location
        Rewriter.insert_op([store, back], InsertPoint.after(at.owner))
        for u in uses:
            u.operation.operands[u.index] = back.result

    def rewrite_store(self, op: ktdp.StoreOp) -> None:
        loop = self.loop(op)
        body = loop.body.block
        end = InsertPoint.at_end(body)
        k = body.args[0]
        data = self.recompute(op.data, k, end, {})
        tile = self.chunk_tile(op.tile, k, end)
        store = ktdp.StoreOp(data, tile)
        store.location = op.location
        Rewriter.insert_op([store, scf.YieldOp()], end)
        Rewriter.erase_op(op)


def _needs_chunks(block: Block, loads: list[ktdp.LoadOp], size: int) -> bool:
    """Whether the block reduces and its long rows in and out exceed the scratchpad
    (element-wise programs stream through it: the scheduler tiles them)."""
    if not any(isinstance(op, ReduceOp) for op in block.ops):
        return False
    shape = loads[0].result.type.get_shape()  # type: ignore[union-attr]
    out = [op for op in block.ops if isinstance(op, ktdp.StoreOp)
           and op.data.type.get_shape() == shape]  # type: ignore[union-attr]
    return sum(_bytes(o.data.type if isinstance(o, ktdp.StoreOp) else o.result.type)
               for o in (*loads, *out)) > size  # type: ignore[arg-type]


def _prepare(block: Block, loads: list[ktdp.LoadOp], budget: int) -> tuple[_Row, list]:
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
    return row, row.collect(loads)


def _rewrite(row: _Row, loads: list[ktdp.LoadOp], sinks: list[Operation],
             addrs: dict[Operation, tuple[SSAValue, SSAValue]]) -> None:
    tiles = [o.tile.owner for o in (*loads, *sinks) if isinstance(o, ktdp.LoadOp | ktdp.StoreOp)]
    for sink in sinks:
        if isinstance(sink, ReduceOp):
            row.rewrite_reduce(sink, addrs[sink])
        else:
            assert isinstance(sink, ktdp.StoreOp)
            row.rewrite_store(sink)
    for op in reversed(row.long):
        if any(r.uses for r in op.results):
            raise row._refuse(next(u.operation for r in op.results for u in r.uses),
                              "still reads the whole row")
        Rewriter.erase_op(op)
    for op in list(row.block.ops):  # the broadcasts of reduced values at full row shape
        if isinstance(op, tensor.SplatOp) and not op.result.uses and \
                op.result.type.get_shape() == row.shape:
            Rewriter.erase_op(op)
    for at in dict.fromkeys(tiles):
        if isinstance(at, Operation) and not at.results[0].uses:
            Rewriter.erase_op(at)


def _workspace(fn: func.FuncOp, reduces: list[ReduceOp],
               rows: dict[Operation, _Row]) -> dict[Operation, tuple[SSAValue, SSAValue]]:
    """The partials' slots: one a reduction, each tile its own copy, in a device-memory
    workspace (a last kernel argument, as inter-tile-exchange's); their element addresses,
    computed at the kernel's entry."""
    if fn.arg_attrs is not None and fn.arg_attrs.data and \
            WORKSPACE_ATTR in fn.arg_attrs.data[-1].data:
        raise op_error(reduces[0], "needs a device-memory workspace for its chunk partials "
                                   "and the kernel already has one")
    widths = {elem_bytes(r.init.type) for r in reduces}  # type: ignore[arg-type]
    if len(widths) != 1:
        raise op_error(reduces[0], "chunk partials of different element widths in one "
                                   "kernel: reduction-dim-chunking has one workspace "
                                   "element size")
    eb = widths.pop()
    align = max(1, STICK_BYTES // eb)
    offsets, stride = [], 0
    for r in reduces:
        lead = r.init.type.get_shape()[0]  # type: ignore[union-attr]
        offsets.append(stride)
        stride += -(-rows[r].chunks * lead // align) * align
        offsets.append(stride)
        stride += -(-lead // align) * align
    tiles = math.prod(kernel_grid(fn) or (1,))
    ws = add_workspace(fn)
    attrs = list(fn.arg_attrs.data) if fn.arg_attrs is not None else [
        DictionaryAttr({}) for _ in fn.body.block.args]
    attrs[-1] = DictionaryAttr({WORKSPACE_ATTR: DictionaryAttr({
        "bytes": IntegerAttr(tiles * stride * eb, 64), "element_bytes": IntegerAttr(eb, 64)})})
    fn.arg_attrs = ArrayAttr(attrs)
    tid = ktdp.GetComputeTileIdOp()
    st = index_constant(stride)
    mine = arith.MuliOp(tid.results[0], st.result)
    base = arith.AddiOp(ws, mine.result)
    ops: list[Operation] = [tid, st, mine, base]
    out = {}
    for i, r in enumerate(reduces):
        got = []
        for off, name in zip(offsets[2 * i:2 * i + 2], ("partials_at", "reduced_at"),
                             strict=True):
            c = index_constant(off)
            a = arith.AddiOp(base.result, c.result)
            a.result.name_hint = name
            ops += [c, a]
            got.append(a.result)
        out[r] = tuple(got)
    for o in ops:
        o.location = reduces[0].location
    Rewriter.insert_op(ops, InsertPoint.at_start(fn.body.block))
    return out


class ReductionDimChunkingPass(ModulePass):
    """Rewrite row programs whose rows do not fit in the scratchpad into loops over chunks
    (see the module docstring).

    Before:  %x = ktdp.load (1xN); linalg.reduce ins(%x); ktdp.store f(%x)
    After:   host loops over C chunks: each chunk's partial stored in the workspace, the
             partials reduced (and stored, read back), f of each reloaded chunk stored
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
        plans = [(block, loads, *_prepare(block, loads, size))
                 for block, loads in by_block.items() if _needs_chunks(block, loads, size)]
        by_fn: dict[func.FuncOp, list[ReduceOp]] = {}
        rows: dict[Operation, _Row] = {}
        for _, _, row, sinks in plans:
            for s in sinks:
                if isinstance(s, ReduceOp):
                    fn = s.parent_op()
                    while not isinstance(fn, func.FuncOp):
                        assert fn is not None
                        fn = fn.parent_op()
                    by_fn.setdefault(fn, []).append(s)
                    rows[s] = row
        addrs: dict[Operation, tuple[SSAValue, SSAValue]] = {}
        for fn, reduces in by_fn.items():
            addrs |= _workspace(fn, reduces, rows)
        for _, loads, row, sinks in plans:
            _rewrite(row, loads, sinks, addrs)
