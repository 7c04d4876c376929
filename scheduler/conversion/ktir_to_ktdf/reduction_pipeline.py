"""The Load -> Compute -> Store pipeline of a compute group that reduces (softmax, norms).

`construct-three-stage-pipeline` hands a fused group with reductions (`Reduce` nodes of
elementwise_fusion.py) to `ReductionBuilder`. All reductions of the group reduce the same
dimensions D of its iteration space (the stored tile); one pipeline instance covers a block
that is the whole of D and one vector along the other dimensions, so a row is complete in
its instance. The compute stage holds one `linalg.generic` per *pass*: pass k computes the
reductions whose contributions read only results of earlier passes (softmax: the maximum,
then the sum of exponentials), the last pass the stored values, reading every reduction
result through a broadcasting map:

    ktdf.stage { %x0 = ktdf.read_from_fifo %s0 ... -> tensor<1x1024xf16>
                 %m = linalg.generic {iterator_types = ["parallel", "reduction"]}
                        ins(%x0) outs(%fill : tensor<1xf16>) { maximumf }
                 %x1 = ktdf.read_from_fifo %s1 ...
                 %s = linalg.generic {... "reduction"} ins(%x1, %m) outs(...) { exp, addf }
                 %x2 = ktdf.read_from_fifo %s2 ...
                 %y = linalg.generic {... "parallel"} ins(%x2, %m, %s) ... { exp, divf }
                 ktdf.write_to_fifo %y, %out ... }

A contraction (a matmul from `generalize-contractions`) is the exception to "one vector along
the other dimensions": its instance covers Mt rows m (`contraction_rows`, Mt from the compute
unit's registers), so the block of B its load brings serves Mt rows instead of one, and
`reduction-loop-exposure` updates all Mt rows per B vector.

The load stage moves each leaf once per pass that reads it, from the same region of its
view; `path-expansion` brings that region into the scratchpad once and streams it to the
compute unit from there for every pass. `reduction-loop-exposure` then cuts the block into
vectors.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from ktir.diagnostics import op_error
from scheduler.conversion.ktir_to_ktdf.construct_three_stage_pipeline import (
    Builder,
    transfer_mask,
    vector_shape,
)
from scheduler.conversion.ktir_to_ktdf.elementwise_fusion import (
    Apply,
    Captured,
    Const,
    Follow,
    Leaf,
    Node,
    Reduce,
    leaf_dims,
)
from scheduler.dialects.ktdf import (
    CreateTokenOp,
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    PipelineOp,
    PrivateOp,
    PrivateYieldOp,
    ReadFromFifoOp,
    StageOp,
    TokenType,
    WriteToFifoOp,
)
from scheduler.rewriting import dead_code

_NOT_YET = "not supported by the scheduler yet"


def _inputs_of(roots: list[Node]) -> tuple[list[Leaf], list[Reduce]]:
    """Leaves and reduction results (of earlier passes) that `roots` read, in first-use
    order; reductions are not entered."""
    leaves: dict[Leaf, None] = {}
    reds: dict[Reduce, None] = {}

    def walk(n: Node) -> None:
        if isinstance(n, Leaf):
            leaves[n] = None
        elif isinstance(n, Reduce):
            reds[n] = None
        elif isinstance(n, Apply):
            for a in n.args:
                walk(a)

    for r in roots:
        walk(r)
    return list(leaves), list(reds)


def _level(r: Reduce, memo: dict[Reduce, int]) -> int:
    """0 for a reduction of loaded values, else one more than the reductions it reads."""
    key = next((k for k in memo if k.same(r)), None)
    if key is not None:
        return memo[key]
    _, inner = _inputs_of([r.args[0]])
    level = 1 + max((_level(x, memo) for x in inner), default=-1)
    memo[r] = level
    return level


class ReductionBuilder(Builder):
    def lanes(self) -> int:
        """As for element-wise groups, counting the reductions' partial sums (f32 for
        sums of f16) among the group's element types."""
        lanes = super().lanes()
        for r in self.group.reductions():
            acc = r.combiner.accumulator_type(r.element_type)
            lanes = min(lanes, self.device.vector_lanes(str(acc)))
        return lanes

    def build(self) -> None:
        group = self.group
        stores = [acc.op for acc, _ in group.outputs]
        self.check_ordered_links(group.loads[0].op if group.loads else stores[0])
        reds = group.reductions()
        dims = reds[0].dims
        for r in reds:
            if r.dims != dims:
                raise op_error(r.template, f"reductions of one compute group over different "
                                           f"dimensions ({list(r.dims)} and {list(dims)}): "
                                           f"{_NOT_YET}")
            if r.extents != group.space:
                raise op_error(r.template, "a reduction over a space other than the stored "
                                           f"tile ({'x'.join(map(str, r.extents))} vs "
                                           f"{'x'.join(map(str, group.space))}): {_NOT_YET}")
        space = group.space
        vec = vector_shape(space, self.lanes())
        block = [space[d] if d in dims else vec[d] for d in range(len(space))]
        rows = self.contraction_rows(reds, block)
        if rows is not None:
            block[rows[0]] = rows[1]
        self.block = tuple(block)
        self.dims = dims
        memo: dict[Reduce, int] = {}
        passes: list[list[Reduce]] = []
        for r in reds:
            lv = _level(r, memo)
            while len(passes) <= lv:
                passes.append([])
            passes[lv].append(r)
        self.passes = passes

        roots = [[r.args[0] for r in p] for p in passes] + [
            [n for acc, n in group.outputs if acc.shape == space]]
        reads = [_inputs_of(rs) for rs in roots]
        follows = {lf: leaf_dims(lf) for leaves, _ in reads for lf in leaves}
        for lf, f in follows.items():
            self.check_leaf(lf, f, self.block)

        ivs, at = self.parallel_loops(self.block, stores)
        compute = self.device.compute_kind
        in_slots = [[FifoSlotType(self.memory_kind(group.loads[lf.load]), compute,
                                  math.prod(self.read_shape(follows[lf], self.block)),
                                  group.loads[lf.load].element_type) for lf in leaves]
                    for leaves, _ in reads]
        # whole-space outputs first, then reduction results (the order the compute stage
        # writes them in, whole-space ones vector by vector once exposed)
        self.order = sorted(range(len(group.outputs)),
                            key=lambda i: group.outputs[i][0].shape != space)
        out_slots = [FifoSlotType(compute, self.memory_kind(group.outputs[i][0]),
                                  math.prod(self.out_block(group.outputs[i][0])),
                                  group.outputs[i][0].element_type) for i in self.order]
        flat_in = [t for ts in in_slots for t in ts]
        n_tokens = 3 if flat_in else 2
        allocs = [FifoAllocateOp([t]) for t in flat_in + out_slots]
        tokens = [CreateTokenOp() for _ in range(n_tokens)]
        priv_block = Block()
        priv_block.add_ops([*allocs, *tokens])
        priv_block.add_op(PrivateYieldOp(*[a.slots[0] for a in allocs],
                                         *[t.result for t in tokens]))
        private = PrivateOp([*flat_in, *out_slots, *[TokenType()] * n_tokens],
                            Region(priv_block))
        res = list(private.res)
        slots: list[list[SSAValue]] = []
        k = 0
        for ts in in_slots:
            slots.append(res[k:k + len(ts)])
            k += len(ts)
        slots_out = res[k:k + len(out_slots)]
        toks = res[k + len(out_slots):]

        stages: list[Operation] = []
        if flat_in:
            load_ops = []
            for (leaves, _), ss in zip(reads, slots):
                for lf, slot in zip(leaves, ss):
                    acc = group.loads[lf.load]
                    idx, amap, sizes = self.side(acc, follows[lf], ivs, self.block)
                    load_ops.append(DataTransferOp(
                        self.cast(acc), idx, amap, sizes, slot, [], None, [math.prod(sizes)],
                        **transfer_mask(acc, "source", self.exprs)))
            stages.append(StageOp([], [toks[0]], load_ops))
        body = self.compute_passes(reads, follows, slots, slots_out)
        stages.append(StageOp(toks[:1] if flat_in else [], [toks[-2]], body,
                              applicable_units=[compute]))
        store_ops = []
        for i, slot in zip(self.order, slots_out):
            acc = group.outputs[i][0]
            whole = acc.shape == space
            dims = range(len(space)) if whole else self.kept()
            ident = [Follow(d, 1, 0) for d in range(len(dims))]
            blk = self.out_block(acc)
            idx, amap, sizes = self.side(acc, ident, [ivs[d] for d in dims], blk)
            store_ops.append(DataTransferOp(slot, [], None, [math.prod(blk)], self.cast(acc),
                                            idx, amap, sizes,
                                            **transfer_mask(acc, "dest", self.exprs)))
        stages.append(StageOp([toks[-2]], [toks[-1]], store_ops))
        pipeline = PipelineOp([private, *stages])
        pipeline.location = stores[-1].location
        self.rewriter.insert(pipeline, at)
        for st in stores:
            self.rewriter.erase(st)
        dead_code(self.fn.body, self.rewriter)

    # ---- contractions: several rows per instance ----------------------------------------------

    def contraction_rows(self, reds: list[Reduce], block: list[int]) -> tuple[int, int] | None:
        """A contraction (a matmul: C[m, n] = sum_k A[m, k] * B[k, n]) covers several rows m
        per instance, so that each B vector its load brings for step k serves them all
        (B traffic over the rows of a tile once instead of once per row): (m, Mt), or None.

        m is a parallel dim of one lane in the vector that some leaf follows (A) and some
        does not (B); the group stores only reduction results. Mt is the largest divisor of
        m's extent whose partials (Mt vectors per reduction, in the accumulator type) fit the
        compute unit's registers (its group's memory; 16 vectors when the device states none),
        at most the depth of the compute unit's queues (the A column of a step and the result
        block are Mt elements / vectors of one FIFO slot), and whose blocks (A's Mt rows, B,
        the result), twice, fit half the scratchpad (stage-coarsening's budget)."""
        group = self.group
        space = group.space
        if len(reds) == 0 or any(acc.shape == space for acc, _ in group.outputs):
            return None
        leaves = group.leaves()
        follows = [{f.dim for f in leaf_dims(lf)} for lf in leaves]
        cands = [d for d in range(len(space)) if d not in reds[0].dims and block[d] == 1
                 and space[d] > 1 and any(d in f for f in follows)
                 and any(d not in f for f in follows)]
        if not cands:
            return None
        m = cands[-1]
        vec_elems = math.prod(block[d] for d in range(len(space)) if d not in reds[0].dims)
        acc_bytes = sum(vec_elems * r.combiner.accumulator_type(
            r.element_type).bitwidth // 8 for r in reds)  # type: ignore[attr-defined]
        compute = self.device.compute_kind
        local = self.device.local_memory(compute)
        size = self.device.memories[local].size if local is not None else None
        budget = size if size is not None else 16 * acc_bytes // len(reds)
        depths = [dp.queue_depth for dp in self.device.datapaths
                  if compute in (dp.src, dp.dst) and dp.is_queue]
        cap = min(depths) if depths else 16
        pad = self.device.scratchpad_bytes

        def staged(mt: int) -> int:  # the instance's leaf and result blocks, in bytes
            blk = [mt if d == m else n for d, n in enumerate(block)]
            total = 0
            for lf in leaves:
                n = math.prod(blk[f.dim] for f in leaf_dims(lf) if f.dim is not None)
                total += n * group.loads[lf.load].element_type.bitwidth // 8  # type: ignore
            for acc, _ in group.outputs:
                n = math.prod(blk[d] for d in range(len(blk)) if d not in reds[0].dims)
                total += n * acc.element_type.bitwidth // 8  # type: ignore[attr-defined]
            return total

        best = 1
        for mt in range(1, min(space[m], cap) + 1):
            # two copies (double buffering) within half the scratchpad, stage-coarsening's
            # budget; the partials within the registers
            fits = pad is None or 4 * staged(mt) <= pad
            if space[m] % mt == 0 and mt * acc_bytes <= budget and fits:
                best = mt
        return (m, best) if best > 1 else None

    # ---- the compute stage: one generic per pass ---------------------------------------------

    def kept(self) -> list[int]:
        return [d for d in range(len(self.block)) if d not in self.dims]

    def result_type(self, r: Reduce) -> TensorType:
        return TensorType(r.element_type, [self.block[d] for d in self.kept()])

    def out_block(self, acc) -> tuple[int, ...]:
        """The block of an output: the instance's block, or its kept dims for a stored
        reduction result."""
        if acc.shape == self.group.space:
            return self.block
        return tuple(self.block[d] for d in self.kept())

    def use_map(self, r: Reduce, block: tuple[int, ...] | None = None) -> AffineMap:
        """How a pass over `block` reads a reduction result: the kept dimensions of the
        use's map, each a dimension of the same extent or a constant 0 of a dimension of
        extent 1."""
        block = self.block if block is None else block
        results = []
        for d in self.kept():
            e = r.map.results[d]
            ok = ((isinstance(e, AffineDimExpr) and block[e.position] == self.block[d])
                  or (isinstance(e, AffineConstantExpr) and e.value == 0
                      and self.block[d] == 1))
            if not ok:
                raise op_error(r.template, "a reduction result read at other rows than its "
                                           f"own (through {r.map}): {_NOT_YET}")
            results.append(e)
        return AffineMap(len(block), 0, tuple(results))

    def compute_passes(self, reads, follows, slots, slots_out) -> list[Operation]:
        group = self.group
        rank = len(self.block)
        ops: list[Operation] = []
        results: list[tuple[Reduce, SSAValue]] = []
        n_passes = len(self.passes)
        for p, ((leaves, red_ins), ss) in enumerate(zip(reads, slots)):
            final = p == n_passes
            inputs: list[SSAValue] = []
            maps: list[AffineMap] = []
            for lf, s in zip(leaves, ss):
                shape = self.read_shape(follows[lf], self.block)
                rd = ReadFromFifoOp(s, TensorType(group.loads[lf.load].element_type, shape))
                ops.append(rd)
                inputs.append(rd.results[0])
                maps.append(AffineMap(rank, 0, tuple(
                    AffineExpr.dimension(d) if n > 1 or self.block[d] == 1
                    else AffineExpr.constant(0) for d, n in enumerate(shape))))
            for r in red_ins:
                inputs.append(next(v for q, v in results if q.same(r)))
                maps.append(self.use_map(r))
            outs: list[SSAValue] = []
            out_maps: list[AffineMap] = []
            if final:
                whole = [o for o in group.outputs if o[0].shape == group.space]
                for acc, _ in whole:
                    e = tensor.EmptyOp([], TensorType(acc.element_type, self.block))
                    ops.append(e)
                    outs.append(e.tensor)
                    out_maps.append(AffineMap.identity(rank))
                iters = [IteratorTypeAttr.parallel()] * rank
            else:
                for r in self.passes[p]:
                    init = self.scalar(r.init, r.element_type, ops)
                    e = tensor.EmptyOp([], self.result_type(r))
                    fill = linalg.FillOp([init], [e.tensor], [e.tensor.type])
                    ops += [e, fill]
                    outs.append(fill.results[0])
                    out_maps.append(AffineMap(rank, 0, tuple(
                        AffineExpr.dimension(d) for d in self.kept())))
                iters = [IteratorTypeAttr.reduction() if d in self.dims
                         else IteratorTypeAttr.parallel() for d in range(rank)]
            if final and not whole:
                break
            body = self.body(leaves, red_ins, [_element(o) for o in outs],
                             whole if final else self.passes[p], final)
            generic = linalg.GenericOp(inputs, outs, Region(body),
                                       [AffineMapAttr(m) for m in maps + out_maps], iters,
                                       [o.type for o in outs])
            ops.append(generic)
            if final:
                ops += [WriteToFifoOp(v, s) for v, s in zip(generic.results, slots_out)]
            else:
                results += list(zip(self.passes[p], generic.results))
        stored = [o for o in group.outputs if o[0].shape != group.space]
        if stored:
            ops += self.stored_results(stored, results, slots_out[len(slots_out) - len(stored):])
        return ops

    def stored_results(self, stored, results, slots) -> list[Operation]:
        """Reduction results stored as they are (or after element-wise ops): one generic
        over the kept dims of the block."""
        block = tuple(self.block[d] for d in self.kept())
        roots = [n for _, n in stored]
        leaves, red_ins = _inputs_of(roots)
        if leaves:
            raise op_error(stored[0][0].op, "a stored reduction result combined with loaded "
                                            f"values of its own shape: {_NOT_YET}")
        ops: list[Operation] = []
        outs = []
        for acc, _ in stored:
            e = tensor.EmptyOp([], TensorType(acc.element_type, block))
            ops.append(e)
            outs.append(e.tensor)
        inputs = [next(v for q, v in results if q.same(r)) for r in red_ins]
        maps = [self.use_map(r, block) for r in red_ins]
        body = self.body([], red_ins, [_element(o) for o in outs], stored, True)
        ident = AffineMap.identity(len(block))
        generic = linalg.GenericOp(inputs, outs, Region(body),
                                   [AffineMapAttr(m) for m in maps + [ident] * len(outs)],
                                   [IteratorTypeAttr.parallel()] * len(block),
                                   [o.type for o in outs])
        ops.append(generic)
        ops += [WriteToFifoOp(v, s) for v, s in zip(generic.results, slots)]
        return ops

    def scalar(self, n: Node, element: Attribute, ops: list[Operation]) -> SSAValue:
        if isinstance(n, Captured):
            return n.value
        assert isinstance(n, Const)
        c = arith.ConstantOp(n.value)
        ops.append(c)
        return c.result

    def body(self, leaves: list[Leaf], red_ins: list[Reduce], out_types: list[Attribute],
             what, final: bool) -> Block:
        """The scalar body of one pass: leaves and reduction results are block arguments;
        a reduction folds its contribution into its output argument with its combiner."""
        group = self.group
        in_types = ([group.loads[lf.load].element_type for lf in leaves]
                    + [r.element_type for r in red_ins])
        block = Block(arg_types=[*in_types, *out_types])
        values: dict[Node, SSAValue] = {}
        for n, a in zip([*leaves, *red_ins], block.args):
            values[n] = a
        emitted: dict[tuple[Operation, tuple[Node, ...]], Operation] = {}

        def emit(n: Node) -> SSAValue:
            if n in values:
                return values[n]
            if isinstance(n, Const):
                c = arith.ConstantOp(n.value)
                block.add_op(c)
                v = c.result
            elif isinstance(n, Captured):
                v = n.value
            elif isinstance(n, Apply):
                key = (n.template, n.args)
                new = emitted.get(key)
                if new is None:
                    new = n.rebuild([emit(a) for a in n.args])
                    block.add_op(new)
                    emitted[key] = new
                v = new.results[n.result]
            else:
                raise AssertionError(f"unexpected node {n}")
            values[n] = v
            return v

        results: list[SSAValue] = []
        if final:
            results = [emit(node) for _, node in what]
        else:
            for r, out in zip(what, block.args[len(in_types):]):
                contrib = emit(r.args[0])
                mapping = {r.combiner.accumulator: out, r.combiner.contribution: contrib}
                last = None
                for op in r.combiner.ops:
                    last = op.clone(value_mapper=mapping)
                    block.add_op(last)
                    mapping.update(zip(op.results, last.results))
                assert last is not None
                results.append(last.results[0])
        block.add_op(linalg.YieldOp(*results))
        return block


def _element(v) -> Attribute:
    t = v.type if isinstance(v, SSAValue) else v
    return t.get_element_type() if isinstance(t, TensorType) else t


__all__ = ["ReductionBuilder"]
