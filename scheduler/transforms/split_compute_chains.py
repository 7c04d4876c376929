"""`split-compute-chains`: a chain of reductions over different spaces becomes a chain of groups.

A compute group is fused into one iteration space (elementwise_fusion.fuse_group): the space
of its reductions, which must all be the same (extents and reduced dims). A contraction that
feeds another contraction (FFN: x·W_gate, then ·W_down) or a row reduction (attention: Q·K^T,
then a row max) puts two spaces in one group. This pass cuts such a chain where the second
space begins: the operand of the later reduction, computed afresh from its own loads, is
stored into a slot of the executing tile's own scratchpad (`ct_local`, a constant element
address after every range the kernel names, as inter-tile-exchange's slots) and loaded back
for every later use:

    %g = linalg.generic {(m, k, n) reduce k} ins(%x, %w1) ...       // space (1, 64, 128)
    %f = arith.mulf %g, ...                                            // 1x128
    %o = linalg.generic {(m, k, n) reduce k} ins(%f, %w2) ...         // space (1, 128, 64)
becomes
    %g' = ... (a fresh clone of %f's slice, its own loads) ...; %f' = arith.mulf %g', ...
    ktdp.store %f', <own scratchpad @slot : 1x128xf16>
    %f2 = ktdp.load <own scratchpad @slot>
    %o = linalg.generic ins(%f2, %w2) ...

The fresh clone shares no load with the later work, so compute-group-extraction makes the
store a group of its own, launched before the groups that load the slot (launch order is
program order; a launch ends when every unit has ended, so the slot is written before it is
read). The cuts, each applied until none is left:
* a reduction operand computed from a reduction of another space (above);
* one computed from a reduction of the same space but read at other dims than that space's
  kept ones (x·W_gate, then ·W_down on square shards: gate[m, n] read at the reduced k);
* a linalg.transpose operand that follows the contraction's dims out of order (Q·K^T:
  K[n, k] over (m, k, n)): K^T is written by an element-wise group, read in order;
* a store of reductions of several spaces: all but the last space's results;
* a store of reduction results (the kept dims) combined with loaded tiles (FFN's residual
  x + h·W_down): the reduction results, so the combination is an element-wise group;
* a reshape that merges or splits dimensions larger than 1 (one fold-reshapes-into-views
  could not make a view of global memory: paged attention's 2x4x128 Q tile, 4 heads of 2
  tokens, collapsed to 8x128 rows): its source is stored into a slot, and the slot, whose
  row-major order is both shapes' order, is loaded back viewed with the reshape's shape.
  The fusion reads tiles through maps of one dimension per tile dimension, which cannot
  spell the merged row r as (r floordiv 4, r mod 4);
* a gather read by a reduction (paged attention's K and V pages, through the block table):
  the gathered tile goes through a slot, so an element-wise group gathers and the reduction
  reads the slot (the reduction and contraction pipelines move boxes, not gathered rows).
The slot lives on chip between launches, as data an earlier operator left there; a view of
the tile's own scratchpad makes the groups per-tile (tile-invariant-groups leaves them on
every tile). Refused, located: an intermediate whose slot would end past the device's
scratchpad (a device-memory temporary is not built yet), a dynamically shaped one.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.diagnostics import KtirDiagnostic, op_error
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import MemoryKind, MemorySpaceAttr, box_set
from scheduler.analysis.compute_ops import SCALAR_OPS, reassociation, unit_groups_reason
from scheduler.analysis.index_exprs import index_constant
from scheduler.analysis.slots import Slots, reserved_end, row_major, tensor_bytes
from scheduler.conversion.ktir_to_ktdf.elementwise_fusion import direct_reads
from scheduler.rewriting import apply_patterns, clone_slice, dead_code

Space = tuple[tuple[int, ...], tuple[int, ...]]  # (extents, reduced dims)


def is_reduction(op: Operation) -> bool:
    return isinstance(op, linalg.ReduceOp) or (isinstance(op, linalg.GenericOp) and any(
        it.data.value != "parallel" for it in op.iterator_types.data))


def reduction_space(op: Operation) -> Space | None:
    """The iteration space a reduction is fused on (as elementwise_fusion computes it)."""
    if isinstance(op, linalg.ReduceOp):
        t = op.input.type
        if not isinstance(t, TensorType):
            return None
        return (tuple(t.get_shape()),
                tuple(sorted(int(d) for d in op.dimensions.get_values())))
    assert isinstance(op, linalg.GenericOp)
    iters = [it.data.value for it in op.iterator_types.data]
    shape: list[int | None] = [None] * len(iters)
    for x, m in zip((*op.inputs, *op.outputs), op.indexing_maps.data):
        if not isinstance(x.type, TensorType):
            return None
        for e, n in zip(m.data.results, x.type.get_shape()):
            if isinstance(e, AffineDimExpr):
                shape[e.position] = n
    if any(n is None for n in shape):
        return None
    return (tuple(shape),  # type: ignore[arg-type]
            tuple(d for d, it in enumerate(iters) if it != "parallel"))


def _sources(v: SSAValue, found_at: Callable[[Operation], bool]) -> list[Operation]:
    """The ops `v` is computed from for which `found_at` holds, walking back through
    operands and stopping at those ops and at loads (a load ends the chain)."""
    found: list[Operation] = []
    seen: set[Operation] = set()
    stack = [v]
    while stack:
        owner = stack.pop().owner
        if not isinstance(owner, Operation) or owner in seen:
            continue
        seen.add(owner)
        if found_at(owner):
            found.append(owner)
            continue
        if not isinstance(owner, ktdp.LoadOp):
            stack.extend(owner.operands)
    return found


def direct_reductions(v: SSAValue) -> list[Operation]:
    """The reductions `v` is computed from without another reduction or a load between
    (program order)."""
    found = _sources(v, lambda o: not isinstance(o, ktdp.LoadOp) and is_reduction(o))
    block = v.owner.parent_block() if isinstance(v.owner, Operation) else None
    if block is not None:
        order = {o: i for i, o in enumerate(block.walk())}
        found.sort(key=lambda o: order.get(o, 0))
    return found


class _Materialise:
    """Stores a value into a new slot of the tile's own scratchpad and loads it back."""

    def __init__(self, slots: Slots, capacity: int | None):
        self.slots, self.capacity = slots, capacity

    def __call__(self, v: SSAValue, rewriter: PatternRewriter,
                 reshape: Operation | None = None) -> None:
        """Store `v` and load it back for its uses; with `reshape` (a reshape of `v`), load
        it back with the reshape's type for the reshape's uses instead."""
        owner = v.owner
        assert isinstance(owner, Operation)
        t = v.type
        if not isinstance(t, TensorType) or not t.has_static_shape():
            raise op_error(owner, "an intermediate between compute groups that is not a "
                                  "static tensor: not supported by the scheduler yet")
        addr, _ = self.slots.take(t)
        end = self.slots.next
        if self.capacity is not None and end > self.capacity:
            raise op_error(owner, f"an intermediate between compute groups "
                                  f"({tensor_bytes(t)} B, scratchpad slots up to {end} B) does "
                                  f"not fit the scratchpad ({self.capacity} B): a device-memory "
                                  f"temporary is not supported by the scheduler yet")
        at = InsertPoint.after(owner)
        mapper: dict[SSAValue, SSAValue] = {}
        clone_slice([owner], rewriter, at, mapper)  # a fresh computation: its own loads
        fresh = owner.clone(mapper)
        rewriter.insert(fresh, at)
        value = fresh.results[list(owner.results).index(v)]
        shape = list(t.get_shape())
        loc = owner.location

        def tile() -> SSAValue:
            off = index_constant(addr)
            view = ktdp.ConstructMemoryViewOp(
                off.results[0], shape, row_major(shape), MemRefType(t.element_type, shape),
                MemorySpaceAttr(MemoryKind.CT_LOCAL))
            view.results[0].name_hint = f"{v.name_hint or 'chain'}_slot"
            zero = AffineMap(0, 0, tuple(AffineExpr.constant(0) for _ in shape))
            acc = ktdp.ConstructAccessTileOp(
                view.results[0], [], zero, box_set(shape), AffineMap.identity(len(shape)),
                ktdp.AccessTileType(shape))
            for o in (off, view, acc):
                o.location = loc
                rewriter.insert(o, at)
            return acc.results[0]

        store = ktdp.StoreOp(value, tile())
        store.location = loc
        rewriter.insert(store, at)
        if reshape is not None:
            t = reshape.results[0].type
            assert isinstance(t, TensorType)
            shape = list(t.get_shape())
        load = ktdp.LoadOp(tile(), t)
        load.location = loc
        rewriter.insert(load, at)
        load.results[0].name_hint = v.name_hint if reshape is None \
            else reshape.results[0].name_hint
        keep = {store, load, fresh}
        for use in tuple(v.uses if reshape is None else reshape.results[0].uses):
            if use.operation not in keep:
                use.operation.operands[use.index] = load.results[0]
                rewriter.notify_op_modified(use.operation)


class CutBeforeReduction(RewritePattern):
    """A reduction whose operand is computed from a reduction of another space: that
    operand goes through a slot."""

    def __init__(self, materialise: _Materialise):
        self.materialise = materialise

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_reduction(op):
            return
        space = reduction_space(op)
        if space is None:
            return
        maps = ([m.data for m in op.indexing_maps.data]
                if isinstance(op, linalg.GenericOp) else [])
        if isinstance(op, linalg.ReduceOp):
            maps = [AffineMap.identity(len(space[0]))]
        for i, x in enumerate(op.operands):
            if not isinstance(x.type, TensorType) or not isinstance(x.owner, Operation):
                continue
            if any(reduction_space(r) != space for r in direct_reductions(x)) or (
                    i < len(maps) and (_reordering_transpose(x, maps[i])
                                       or _misaligned(x, maps[i], space))):
                self.materialise(x, rewriter)
                return


def _misaligned(x: SSAValue, m: AffineMap, space: Space) -> bool:
    """`x` reads a reduction of the same space, but not as one pass of the reduction pipeline
    reads an earlier one: at the same kept dims of the common space (softmax's sum reads the
    row max at the row's own index; FFN's x·W_up·W_down on a square shard reads gate[m, n] at
    the down contraction's reduced k). Unfusable values are left to the fusion's diagnostic."""
    try:
        reads = direct_reads(x)
    except KtirDiagnostic:
        return False
    extents, dims = space
    want = AffineMap(len(extents), 0, tuple(
        AffineExpr.constant(0) if d in dims else AffineExpr.dimension(d)
        for d in range(len(extents))))
    # a dim of extent 1 is read the same at 0 as at its index (a row's scalar mean, taken
    # by tensor.extract at [0] and splat again, reads its own row)
    unit = AffineMap(len(extents), 0, tuple(
        AffineExpr.constant(0) if n == 1 else AffineExpr.dimension(d)
        for d, n in enumerate(extents)))
    return any(r.map.compose(m).compose(unit) != want.compose(unit) for r in reads)


def _reordering_transpose(x: SSAValue, m: AffineMap) -> bool:
    """`x` is a linalg.transpose whose source, read through the generic's map `m`, follows
    the iteration dims out of order (Q·K^T: K[n, k] in the space (m, k, n)): the pipeline
    delivers a vector in its tile's order only, so the transposed operand is materialised
    (an element-wise group writes K^T; the contraction reads it in order). Element-wise ops
    between (a widening extf) are looked through."""
    op = x.owner
    if isinstance(op, Operation) and op.name in SCALAR_OPS and all(
            r.type == x.type for r in op.results) and op.operands:
        # an element-wise op of same-shaped tensors (K^T widened to f32 by arith.extf) reads
        # its operands at the same points
        return any(_reordering_transpose(a, m) for a in op.operands
                   if isinstance(a.type, TensorType)
                   and a.type.get_shape() == x.type.get_shape())  # type: ignore[attr-defined]
    if not isinstance(op, linalg.TransposeOp):
        return False
    perm = [int(p) for p in op.permutation.get_values()]
    src = [m.results[perm.index(d)] for d in range(len(perm))]  # source dim d reads x dim p
    dims = [e.position for e, n in zip(src, op.inputs[0].type.get_shape())  # type: ignore
            if isinstance(e, AffineDimExpr) and n != 1]
    return dims != sorted(dims)


class CutMixedStore(RewritePattern):
    """A store whose value reads reductions of several spaces: the reductions of all but the
    last space go through slots."""

    def __init__(self, materialise: _Materialise):
        self.materialise = materialise

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ktdp.StoreOp) or not isinstance(op.data.type, TensorType):
            return
        reds = direct_reductions(op.data)
        if len({reduction_space(r) for r in reds}) < 2:
            return
        last = reduction_space(reds[-1])
        for r in reds:
            if reduction_space(r) != last:
                for res in r.results:
                    if res.uses:
                        self.materialise(res, rewriter)
                return


def _reads(v: SSAValue, memo: dict[SSAValue, tuple[bool, bool]]) -> tuple[bool, bool]:
    """(reads a reduction, reads a load) through ops that are neither."""
    if v in memo:
        return memo[v]
    owner = v.owner
    if not isinstance(owner, Operation):
        out = (False, False)
    elif isinstance(owner, ktdp.LoadOp):
        out = (False, True)
    elif is_reduction(owner):
        out = (True, False)
    else:
        flags = [_reads(x, memo) for x in owner.operands]
        out = (any(f[0] for f in flags), any(f[1] for f in flags))
    memo[v] = out
    return out


class CutStoredCombination(RewritePattern):
    """A store of reduction results (the space less its reduced dims) combined with loaded
    tiles (FFN's residual `x + h·W_down`): the reduction pipeline stores such results only
    as they are (or through element-wise ops of them alone), so the reduction results go
    through slots and the combination becomes an element-wise group of its own."""

    def __init__(self, materialise: _Materialise):
        self.materialise = materialise

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ktdp.StoreOp) or not isinstance(op.data.type, TensorType):
            return
        reds = direct_reductions(op.data)
        if not reds:
            return
        space = reduction_space(reds[-1])
        if space is None or tuple(op.data.type.get_shape()) == space[0]:
            return
        memo: dict[SSAValue, tuple[bool, bool]] = {}
        if _reads(op.data, memo) != (True, True):
            return
        stack, seen = [op.data], set()
        while stack:
            v = stack.pop()
            owner = v.owner
            if not isinstance(owner, Operation) or owner in seen or isinstance(
                    owner, ktdp.LoadOp) or is_reduction(owner):
                continue
            seen.add(owner)
            for x in owner.operands:
                if _reads(x, memo) == (True, False) and isinstance(x.type, TensorType):
                    self.materialise(x, rewriter)
                    return
                stack.append(x)


def _gathers(x: SSAValue) -> list[ktdp.LoadOp]:
    """The loads through indirect access tiles `x` is computed from without a load between."""
    return _sources(x, lambda o: isinstance(o, ktdp.LoadOp) and isinstance(  # type: ignore[return-value]
        o.tile.owner, ktdp.ConstructIndirectAccessTileOp))


class CutGatherIntoReduction(RewritePattern):
    """A reduction reading a gathered tile: the gathered tile goes through a slot."""

    def __init__(self, materialise: _Materialise):
        self.materialise = materialise

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_reduction(op):
            return
        for x in op.operands:
            if isinstance(x.type, TensorType) and (loads := _gathers(x)):
                self.materialise(loads[0].results[0], rewriter)
                return


def merging_reshape(op: Operation) -> bool:
    """A static reshape that merges or splits dimensions larger than 1."""
    if not isinstance(op, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
        return False
    src, res = op.src.type, op.result.type
    if not (isinstance(src, TensorType) and isinstance(res, TensorType)
            and src.has_static_shape() and res.has_static_shape()):
        return False
    wide = res if isinstance(op, tensor.ExpandShapeOp) else src
    return unit_groups_reason(op, reassociation(op), wide.get_shape()) is not None


class CutMergingReshape(RewritePattern):
    """A reshape merging or splitting dimensions larger than 1: its source goes through a
    slot, loaded back with the reshape's shape."""

    def __init__(self, materialise: _Materialise):
        self.materialise = materialise

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.CollapseShapeOp | tensor.ExpandShapeOp,
                          rewriter: PatternRewriter) -> None:
        if merging_reshape(op) and isinstance(op.src.owner, Operation):
            self.materialise(op.src, rewriter, reshape=op)


class SplitComputeChainsPass(ModulePass):
    """Cut chains of reductions over different spaces into chains of compute groups through
    scratchpad slots (module docstring). A module without such chains is unchanged;
    idempotent (after the cuts every group has one space)."""

    name = "split-compute-chains"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from arch_descriptions.model import device_from_module

        fns = [f for f in op.walk() if isinstance(f, func.FuncOp) and not f.is_declaration]
        if not any(is_reduction(o) or merging_reshape(o) for f in fns for o in f.walk()):
            return
        device = device_from_module(op)
        capacity = device.scratchpad_bytes if device is not None else None
        materialise = _Materialise(Slots(reserved_end(op)), capacity)
        patterns = [CutMergingReshape(materialise), CutGatherIntoReduction(materialise),
                    CutBeforeReduction(materialise),
                    CutMixedStore(materialise), CutStoredCombination(materialise)]
        for f in fns:
            # each cut leaves the original slice dead and may expose the next one
            while apply_patterns(f, patterns):
                dead_code(f.body)
