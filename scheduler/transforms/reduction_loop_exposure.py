"""`reduction-loop-exposure`: cut the compute generics of a pipeline into vectors.

After `construct-three-stage-pipeline` a reducing group's compute stage holds one generic per
pass over a whole block (a row: `tensor<1x1024xf16>`), fed by transfers of the whole block.
This pass turns each such generic into an `scf.for` nest over vector steps
(`loop_type = reduction_loop`): per step it reads one vector from each of its FIFO slots
(retyped to the vector), folds its contribution lane by lane into a loop-carried partial
(`tensor<1x64xf32>`: sums of f16 in f32, as the reference interpreter accumulates), and
writes its element-wise results per vector. After the nest, a generic over the one partial
vector folds its lanes (a reduction iterator over a single vector, lowered to a lane tree)
and the init, and rounds once to the result type. The transfers feeding and draining those
slots (on the load and store units) get the same nest, so that the FIFOs carry vectors in the
order the compute unit reads them:

    scf.for %k = 0 to 1024 step 64 {  ktdf.data_transfer from %buf[0, %k] size [1, 64] to %s ... }
    %p = scf.for %k = 0 to 1024 step 64 iter_args(%acc = %zero) -> (tensor<1x64xf32>) {
      %x = ktdf.read_from_fifo %s ... -> tensor<1x64xf16>
      %a = linalg.generic {parallel, parallel} ins(%x) outs(%acc) { addf(%acc, extf(..)) }
      scf.yield %a }
    %r = linalg.generic {parallel, reduction} ins(%p) outs(%init) { addf }

A contraction's block covers several rows (ReductionBuilder.contraction_rows): its vector
step keeps them whole, so that one B vector read per k updates every row's partial
(`acc[0:Mt, 0, :] += A[0:Mt, k] * B[k, :]`, both broadcast by their maps), with A's column
and B's vector widened to f32 on their own elements first; per output element the sum is
still over ascending k in f32 from 0, so results do not change.

A module pass, not patterns: one pipeline is rewritten as a whole (the compute stage and, with
it, the stages of other units that feed and drain its slots); idempotent (a pipeline whose compute
generics are one vector each is left alone, as are element-wise pipelines).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktir.diagnostics import op_error
from scheduler.analysis.compute_ops import Combiner, reduction_combiners
from scheduler.analysis.device import device_of
from scheduler.analysis.index_exprs import index_constant
from scheduler.conversion.ktir_to_ktdf.construct_three_stage_pipeline import vector_shape
from scheduler.dialects.ktdf import (
    DataTransferOp,
    FifoSlotType,
    LoopType,
    LoopTypeAttr,
    PipelineOp,
    ReadFromFifoOp,
    WriteToFifoOp,
)
from scheduler.rewriting import dead_code


def _space(g: linalg.GenericOp) -> list[int]:
    ext = [1] * len(g.iterator_types.data)
    for x, m in zip(g.operands, g.indexing_maps.data):
        if isinstance(x.type, TensorType):
            for e, n in zip(m.data.results, x.type.get_shape()):
                if isinstance(e, AffineDimExpr):
                    ext[e.position] = max(ext[e.position], n)
    return ext


def _element(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, TensorType) else t


@dataclass
class _Loops:
    """A loop nest over the stepped dims of a space; `ivs[d]` is the index of dim d (or 0)."""

    ops: list[Operation]
    ivs: list[SSAValue | int]
    body: Block
    outer: scf.ForOp | None


def _nest(space: list[int], vec: tuple[int, ...], carried: list[SSAValue],
          kind: LoopType) -> _Loops:
    """Nested `scf.for` over the dims where the space is longer than the vector (outer
    dims outside), carrying `carried`; the innermost body is left open (the caller fills it
    and yields). Each level's bounds are constants of its parent block."""
    ops: list[Operation] = []
    ivs: list[SSAValue | int] = [0] * len(space)
    inner: Block | None = None
    outer: scf.ForOp | None = None
    inits = list(carried)
    for d, (n, v) in enumerate(zip(space, vec)):
        if n == v:
            continue
        bounds = [index_constant(0), index_constant(n), index_constant(v)]
        blk = Block(arg_types=[IndexType(), *[c.type for c in inits]])
        blk.args[0].name_hint = f"r{d}"
        loop = scf.ForOp(*(b.result for b in bounds), inits, Region(blk))
        loop.attributes["loop_type"] = LoopTypeAttr(kind)
        if inner is None:
            ops += [*bounds, loop]
            outer = loop
        else:
            inner.add_ops([*bounds, loop, scf.YieldOp(*loop.results)])
        ivs[d] = blk.args[0]
        inits = list(blk.args[1:])
        inner = blk
    return _Loops(ops, ivs, inner or Block(), outer)


def _carried(loops: _Loops) -> list[SSAValue]:
    """The innermost body's loop-carried arguments."""
    return list(loops.body.args[1:]) if loops.outer is not None else []


def _fill(value: SSAValue | float, t: TensorType, ops: list[Operation]) -> SSAValue:
    if not isinstance(value, SSAValue):
        e = t.get_element_type()
        attr = (FloatAttr(float(value), e) if isinstance(e, AnyFloat)  # type: ignore[arg-type]
                else IntegerAttr(int(value), e))  # type: ignore[arg-type]
        c = arith.ConstantOp(attr)
        ops.append(c)
        value = c.result
    empty = tensor.EmptyOp([], t)
    fill = linalg.FillOp([value], [empty.tensor], [t])
    ops += [empty, fill]
    return fill.results[0]


def _init_scalar(out: SSAValue, acc_t: Attribute, ops: list[Operation], g: Operation
                 ) -> SSAValue:
    """The init of a reduction output (a `linalg.fill`) as a scalar of the partials' type."""
    fill = out.owner
    if not isinstance(fill, linalg.FillOp):
        raise op_error(g, "a reduction output must start from a linalg.fill")
    v = fill.inputs[0]
    if v.type == acc_t:
        return v
    src = v.owner
    if isinstance(src, arith.ConstantOp) and isinstance(src.value, FloatAttr):
        c = arith.ConstantOp(FloatAttr(src.value.value.data, acc_t))
        ops.append(c)
        return c.result
    ext = arith.ExtFOp(v, acc_t)
    ops.append(ext)
    return ext.result


class _Exposer:
    def __init__(self, device, pipeline: PipelineOp):
        self.device = device
        self.pipeline = pipeline
        # per exposed generic: (space, vector, [(retyped input slot, the space dim each
        # dim > 1 of its read follows)]); retyped output slots with their space and vector
        self.feeders: dict[Operation, tuple[list[int], tuple[int, ...], list]] = {}
        # per generic, its vector shape and the slots it writes: drained in one loop nest, in
        # the order the generic writes them (one loop per slot would wait for the second
        # slot's first vector while the generic waits to write the first slot's second)
        self.drains: dict[Operation, tuple[list[int], tuple[int, ...], list[SSAValue]]] = {}
        self.compute = device.compute_kind

    def lanes(self, generics: list[linalg.GenericOp]) -> int:
        """Lanes of a vector step: those of the narrowest of the types the generics read and
        write (one vector of each from the FIFOs), not of a widened partial's: a partial of
        f32 for f16 sums spans two f32 vectors, and the compute unit takes an op on it in two
        intervals (its `lanes_per_cycle`, shared/spec/arch.md §8) where 32-lane steps would
        run each f16 op twice on half vectors (softmax's exp: 8 cycles per 64 elements)."""
        names: set[str] = set()
        for g in generics:
            for v in (*g.operands, *g.results):
                names.add(str(_element(v.type)))
        names -= {"i1", "i64", "index"}
        return min(self.device.vector_lanes(t) for t in sorted(names or {"i8"}))

    @staticmethod
    def _reducing(g: linalg.GenericOp) -> bool:
        return any(it.data.value != "parallel" for it in g.iterator_types.data)

    def run(self) -> None:
        stages = self.pipeline.stages
        comp = [s for s in stages if s.applicable_units == [self.compute]]
        if len(comp) != 1:
            return
        stage = comp[0]
        generics = [o for o in stage.body.block.ops if isinstance(o, linalg.GenericOp)]
        if not generics:
            return
        plans = []
        for g in generics:  # each pass streams its own slots: its own vector length
            space = _space(g)
            vec = vector_shape(tuple(space), self.lanes([g]))
            if self._reducing(g):
                vec = _contraction_rows(g, space, vec)
            elif not any(_fifo_read(x, g) for x in g.inputs):
                continue  # reads only values of the stage, whole (a contraction's rows
                # rounded): cutting it would index them per vector
            if list(vec) == space and not self._reducing(g):
                continue
            if self._reducing(g) and not self._widens(g) and (
                    list(vec) == space or all(isinstance(x.owner, scf.ForOp) for x in g.inputs)):
                continue  # one vector folded in its own type, or the fold of partials (two
                # f32 vectors for f16 sums: its lane tree folds them)
            plans.append((g, space, vec))
        if not plans:
            return
        for g, space, vec in plans:
            self.expose(g, space, vec)

    def _widens(self, g: linalg.GenericOp) -> bool:
        """Its partials need a wider type than its outputs (sums of f16)."""
        combs = reduction_combiners(g)
        if isinstance(combs, str):
            raise op_error(g, combs)
        return any(c.accumulator_type(_element(o.type)) != _element(o.type)
                   for c, o in zip(combs, g.outputs))

    # ---- one generic ---------------------------------------------------------------------

    def expose(self, g: linalg.GenericOp, space: list[int], vec: tuple[int, ...]) -> None:
        rank = len(space)
        maps = [m.data for m in g.indexing_maps.data]
        n_in = len(g.inputs)
        reducing = self._reducing(g)
        combs: list[Combiner] = []
        if reducing:
            got = reduction_combiners(g)
            if isinstance(got, str):
                raise op_error(g, got)
            combs = got
        ops: list[Operation] = []
        # partial accumulators: one vector per reducing output, from the combiner's identity
        acc_types = [c.accumulator_type(_element(o.type)) for c, o in zip(combs, g.outputs)]
        partials = [_fill(c.identity(t), TensorType(t, vec), ops) for c, t in
                    zip(combs, acc_types)]
        kind = LoopType.REDUCTION_LOOP if reducing else LoopType.PARALLEL_LOOP
        loops = _nest(space, vec, partials, kind)
        ops += loops.ops
        inner: list[Operation] = []
        ins: list[SSAValue] = []
        in_maps: list[AffineMap] = []
        for x, m in zip(g.inputs, maps[:n_in]):
            rd = x.owner
            if isinstance(rd, ReadFromFifoOp) and rd.parent_op() is g.parent_op():
                shape = x.type.get_shape()  # type: ignore[attr-defined]
                # the read's extent in each space dim it follows
                step = [1] * len(shape)
                for j, e in enumerate(m.results):
                    if isinstance(e, AffineDimExpr) and shape[j] > 1:
                        step[j] = vec[e.position]
                slot = self.retype_slot(rd, math.prod(step))
                new = ReadFromFifoOp(slot, TensorType(_element(x.type), step))
                inner.append(new)
                self.feeders.setdefault(g, (space, vec, []))[2].append(
                    (slot, _pairs(m, shape)))
                ins.append(new.results[0])
                in_maps.append(AffineMap(rank, 0, tuple(
                    e if not isinstance(e, AffineDimExpr) or step[j] > 1 or vec[e.position] == 1
                    else AffineExpr.constant(0) for j, e in enumerate(m.results))))
            else:
                ins.append(x)
                in_maps.append(m)
        outs: list[SSAValue] = []
        out_maps: list[AffineMap] = []
        carried = _carried(loops) if loops.outer is not None else partials
        if reducing:
            outs = list(carried)
            out_maps = [AffineMap.identity(rank)] * len(outs)
        else:
            for o in g.outputs:
                e = tensor.EmptyOp([], TensorType(_element(o.type), vec))
                inner.append(e)
                outs.append(e.tensor)
                out_maps.append(AffineMap.identity(rank))
        body = self.step_body(g, combs, acc_types)
        if reducing and math.prod(vec) > self.lanes([g]):  # a contraction's rows
            _cast_before_broadcast(ins, body, inner)
        step = linalg.GenericOp(ins, outs, Region(body),
                                [AffineMapAttr(mm) for mm in in_maps + out_maps],
                                [IteratorTypeAttr.parallel()] * rank,
                                [o.type for o in outs])
        inner.append(step)
        writes = [u.operation for r in g.results for u in r.uses
                  if isinstance(u.operation, WriteToFifoOp)]
        if not reducing:
            for w, r in zip(writes, step.results):
                slot = self.retype_slot(w, math.prod(vec))
                inner.append(WriteToFifoOp(r, slot))
                self.drains.setdefault(g, (space, vec, []))[2].append(slot)
        if loops.outer is not None:
            loops.body.add_ops(inner)
            loops.body.add_op(scf.YieldOp(*(step.results if reducing else [])))
            finals = list(loops.outer.results)
        else:
            ops += inner
            finals = list(step.results) if reducing else []
        results: list[SSAValue] = []
        for c, t, p, out in zip(combs, acc_types, finals, g.outputs):
            results.append(self.lane_fold(g, c, t, p, out, maps[n_in + len(results)],
                                          vec, ops))
        Rewriter.insert_op(ops, InsertPoint.before(g))
        for w in writes if not reducing else []:
            Rewriter.erase_op(w)
        if reducing:
            for old, new in zip(g.results, results):
                old.replace_all_uses_with(new)
        old_reads = [x.owner for x in g.inputs if isinstance(x.owner, ReadFromFifoOp)]
        Rewriter.erase_op(g)
        for rd in old_reads:
            if not rd.results[0].uses:
                Rewriter.erase_op(rd)

    def step_body(self, g: linalg.GenericOp, combs: list[Combiner],
                  acc_types: list[Attribute]) -> Block:
        """The per-vector body: the original one, with each reduction's combiner folding
        into the partial's type (widened contribution)."""
        old = g.body.block
        n_in = len(g.inputs)
        out_types = ([*acc_types] if combs else
                     [_element(o.type) for o in g.outputs])
        block = Block(arg_types=[a.type for a in old.args[:n_in]] + out_types)
        mapping: dict[SSAValue, SSAValue] = dict(zip(old.args, block.args))
        skip = {op for c in combs for op in c.ops}
        for op in old.ops:
            if op in skip or isinstance(op, linalg.YieldOp):
                continue
            new = op.clone(value_mapper=mapping)
            block.add_op(new)
            mapping.update(zip(op.results, new.results))
        yielded = list(old.last_op.operands)  # type: ignore[union-attr]
        if not combs:
            block.add_op(linalg.YieldOp(*[mapping.get(y, y) for y in yielded]))
            return block
        results = []
        for k, (c, t) in enumerate(zip(combs, acc_types)):
            contrib = mapping.get(c.contribution, c.contribution)
            if contrib.type != t:
                ext = (arith.ExtFOp(contrib, t))
                block.add_op(ext)
                contrib = ext.result
            acc = block.args[n_in + k]
            results.append(self.combine_num(block, c, acc, contrib)
                           or self.combine(block, c, acc, contrib, t))
        block.add_op(linalg.YieldOp(*results))
        return block

    @staticmethod
    def combine_num(block: Block, c: Combiner, acc: SSAValue,
                    contrib: SSAValue) -> SSAValue | None:
        """maxnumf/minnumf into a lane partial: the partial starts from the combiner's
        identity (-inf, +inf) and a NaN-ignoring fold of a number is a number, so only the
        contribution can be NaN: `select(x != x, acc, maximumf(x, acc))`, the same values
        as the general form (which also tests the partial) with a chain of two ops through
        the partial instead of three (spyre: 7 cycles per vector to 4). None for any other
        combiner."""
        if len(c.ops) != 1 or not isinstance(op := c.ops[0], arith.MaxnumfOp | arith.MinnumfOp):
            return None
        mapping = {c.accumulator: acc, c.contribution: contrib}
        a, b = (mapping.get(o, o) for o in op.operands)
        nan = arith.CmpfOp(contrib, contrib, "une")
        ext = (arith.MaximumfOp if isinstance(op, arith.MaxnumfOp) else arith.MinimumfOp)(a, b)
        sel = arith.SelectOp(nan.result, acc, ext.result)
        block.add_ops([nan, ext, sel])
        return sel.result

    @staticmethod
    def combine(block: Block, c: Combiner, acc: SSAValue, contrib: SSAValue,
                t: Attribute) -> SSAValue:
        mapping = {c.accumulator: acc, c.contribution: contrib}
        last = None
        for op in c.ops:
            types = [t if r.type == _element(c.accumulator.type) else r.type
                     for r in op.results]
            last = type(op).create(operands=[mapping.get(o, o) for o in op.operands],
                                   result_types=types, properties=dict(op.properties),
                                   attributes=dict(op.attributes))
            block.add_op(last)
            mapping.update(zip(op.results, last.results))
        assert last is not None
        return last.results[0]

    def lane_fold(self, g: linalg.GenericOp, c: Combiner, t: Attribute, partial: SSAValue,
                  out: SSAValue, out_map: AffineMap, vec: tuple[int, ...],
                  ops: list[Operation]) -> SSAValue:
        """Fold the partial vector's lanes along the reduced dims, then the init; round to
        the result type."""
        rank = len(vec)
        res_t = out.type
        assert isinstance(res_t, TensorType)
        init = _fill(_init_scalar(out, t, ops, g), TensorType(t, res_t.get_shape()), ops)
        block = Block(arg_types=[t, t])
        r = self.combine(block, c, block.args[1], block.args[0], t)
        block.add_op(linalg.YieldOp(r))
        fold = linalg.GenericOp([partial], [init], Region(block),
                                [AffineMapAttr(AffineMap.identity(rank)),
                                 AffineMapAttr(out_map)],
                                list(g.iterator_types.data), [init.type])
        ops.append(fold)
        if t == res_t.get_element_type():
            return fold.results[0]
        blk = Block(arg_types=[t, res_t.get_element_type()])
        tr = arith.TruncFOp(blk.args[0], res_t.get_element_type())
        blk.add_ops([tr, linalg.YieldOp(tr.result)])
        empty = tensor.EmptyOp([], res_t)
        ident = AffineMapAttr(AffineMap.identity(len(res_t.get_shape())))
        cast = linalg.GenericOp([fold.results[0]], [empty.tensor], Region(blk), [ident, ident],
                                [IteratorTypeAttr.parallel()] * len(res_t.get_shape()),
                                [res_t])
        ops += [empty, cast]
        return cast.results[0]

    # ---- FIFO slots and the transfers around them ---------------------------------------------

    def retype_slot(self, op: ReadFromFifoOp | WriteToFifoOp, n: int) -> SSAValue:
        slot = op.fifo_slot
        t = slot.type
        assert isinstance(t, FifoSlotType)
        if t.num_elements == n:
            return slot
        new_t = FifoSlotType(t.src_kind, t.dst_kind, n, t.element_type)
        private = self.pipeline.private_op
        assert private is not None
        idx = list(private.res).index(slot)
        inner = private.yield_op.values[idx]
        Rewriter.replace_value_with_new_type(inner, new_t)
        return Rewriter.replace_value_with_new_type(slot, new_t)


def expose_pipeline(device, op: PipelineOp) -> None:
    ex = _Exposer(device, op)
    ex.run()
    if ex.feeders or ex.drains:
        _restream(op, ex)


def _fifo_read(x: SSAValue, g: Operation) -> bool:
    return isinstance(x.owner, ReadFromFifoOp) and x.owner.parent_op() is g.parent_op()


def _contraction_rows(g: linalg.GenericOp, space: list[int], vec: tuple[int, ...]
                      ) -> tuple[int, ...]:
    """A contraction's step keeps whole the rows its pipeline instance covers (the dims of
    one lane in the vector that one FIFO input follows and another is broadcast along: a
    matmul's m, which `ReductionBuilder.contraction_rows` gave several rows): each step then
    reads one vector of B and a column of A and updates every row's partial, instead of one
    step per row reading the same B vector again."""
    iters = [it.data.value for it in g.iterator_types.data]
    reads = [m.data for x, m in zip(g.inputs, g.indexing_maps.data) if _fifo_read(x, g)]
    follows = [{e.position for e in m.results if isinstance(e, AffineDimExpr)} for m in reads]
    out = list(vec)
    for d, it in enumerate(iters):
        if (it == "parallel" and vec[d] == 1 and space[d] > 1
                and any(d in f for f in follows) and any(d not in f for f in follows)):
            out[d] = space[d]
    return tuple(out)


def _cast_before_broadcast(ins: list[SSAValue], body: Block, inner: list[Operation]) -> None:
    """A contraction step's inputs that its body only widens (`extf` of the f16 A column
    and B vector) are widened by a generic of their own, on their own elements, before the
    step broadcasts them over its rows: one cast of 32 lanes instead of one over every row
    (exact, so the results do not change)."""
    for i, x in enumerate(ins):
        arg = body.args[i]
        uses = list(arg.uses)
        if not (isinstance(x.owner, ReadFromFifoOp) and len(uses) == 1
                and isinstance(uses[0].operation, arith.ExtFOp)):
            continue
        ext = uses[0].operation
        t = x.type
        assert isinstance(t, TensorType)
        wide = ext.result.type
        blk = Block(arg_types=[t.get_element_type(), wide])
        cast = arith.ExtFOp(blk.args[0], wide)
        blk.add_ops([cast, linalg.YieldOp(cast.result)])
        shape = TensorType(wide, t.get_shape())
        empty = tensor.EmptyOp([], shape)
        ident = AffineMapAttr(AffineMap.identity(len(t.get_shape())))
        gen = linalg.GenericOp([x], [empty.tensor], Region(blk), [ident, ident],
                               [IteratorTypeAttr.parallel()] * len(t.get_shape()), [shape])
        inner += [empty, gen]
        new = body.insert_arg(wide, i)
        ext.result.replace_all_uses_with(new)
        Rewriter.erase_op(ext)
        body.erase_arg(arg)
        ins[i] = gen.results[0]


def _pairs(m: AffineMap, shape) -> list[int | None]:
    """For each dim (> 1) of a read, in order, the space dim it follows."""
    out: list[int | None] = []
    for e, n in zip(m.results, shape):
        if n > 1:
            out.append(e.position if isinstance(e, AffineDimExpr) else None)
    return out


def _restream(pipeline: PipelineOp, ex: _Exposer) -> None:
    """Put the transfers into and out of the retyped slots into the same vector steps."""
    for stage in pipeline.stages:
        ops = list(stage.body.block.ops)
        feeding = [o for o in ops if isinstance(o, DataTransferOp) and o.dest_is_fifo]
        draining = [o for o in ops if isinstance(o, DataTransferOp) and o.source_is_fifo]
        for space, vec, reads in ex.feeders.values():
            mine = [next((t for t in feeding if t.destination is s), None) for s, _ in reads]
            if all(mine):
                _loop_transfers(mine, space, vec, [p for _, p in reads],  # type: ignore
                                True)
        for space, vec, slots in ex.drains.values():
            mine = [t for s in slots for t in draining if t.source is s]
            if mine:
                follow = [d if space[d] > 1 else None for d in range(len(space))
                          if space[d] > 1]
                _loop_transfers(mine, space, vec, [follow] * len(mine), False)


def _loop_transfers(transfers: list[DataTransferOp], space: list[int], vec: tuple[int, ...],
                    follows: list[list[int | None]], load: bool) -> None:
    """One loop nest over the generic's vector steps moving one vector per transfer: the
    memory dims larger than 1 follow, in order, the space dims of the read (`follows`)."""
    loops = _nest(space, vec, [], LoopType.PARALLEL_LOOP)
    ivs = [iv for iv in loops.ivs if isinstance(iv, SSAValue)]
    body_ops: list[Operation] = []
    for t, fol in zip(transfers, follows):
        sizes = [int(x) for x in (t.mixed_source_sizes if load  # type: ignore[union-attr]
                                  else t.mixed_dest_sizes)]
        idx = list(t.source_indices if load else t.dest_indices)
        mem_map = t.source_map if load else t.dest_map
        m = mem_map.data if mem_map is not None else AffineMap.identity(len(idx))
        n = len(idx)
        results = list(m.results)
        step = list(sizes)
        big = [d for d, x in enumerate(sizes) if x > 1]
        for dm, dspace in zip(big, fol):
            if dspace is None:
                continue
            step[dm] = vec[dspace]
            iv = loops.ivs[dspace]
            if isinstance(iv, SSAValue):
                results[dm] = results[dm] + AffineExpr.dimension(n + ivs.index(iv))
        amap = AffineMap(n + len(ivs), 0, tuple(results))
        n_vec = math.prod(step)
        if load:
            new = DataTransferOp(t.source, [*idx, *ivs], amap, step, t.destination, [],
                                 None, [n_vec])
        else:
            new = DataTransferOp(t.source, [], None, [n_vec], t.destination, [*idx, *ivs],
                                 amap, step)
        body_ops.append(new)
    first = transfers[0]
    if loops.outer is not None:
        loops.body.add_ops(body_ops)
        loops.body.add_op(scf.YieldOp())
        Rewriter.insert_op(loops.ops, InsertPoint.before(first))
    else:
        Rewriter.insert_op(body_ops, InsertPoint.before(first))
    for t in transfers:
        Rewriter.erase_op(t)


class ReductionLoopExposurePass(ModulePass):
    """Cut every compute generic longer than one vector into a loop over vectors, with
    loop-carried partials for reductions (see the module docstring). Needs the device
    (SIMD lanes, the compute unit)."""

    name = "reduction-loop-exposure"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, self.name)
        for p in [p for p in op.walk() if isinstance(p, PipelineOp)]:
            expose_pipeline(device, p)
        for fn in op.walk():
            if fn.name == "func.func":
                dead_code(fn.regions[0])
