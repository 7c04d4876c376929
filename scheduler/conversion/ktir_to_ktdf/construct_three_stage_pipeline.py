"""`construct-three-stage-pipeline`: turn each compute group into a Load -> Compute -> Store
`ktdf.pipeline` over FIFO slots, tiled to the compute unit's SIMD vector.

The group's element-wise compute is fused into one `linalg.generic` (elementwise_fusion.py).
The iteration space (the stored tile shape) is tiled right to left by gcd with the SIMD lanes
of the compute unit for the element type (`tile 3x64, 64 lanes -> vector 1x64`); each vector
iteration is one pipeline instance:

    scf.for %i = 0 to 3 step 1 { scf.for %j = 0 to 64 step 64 {     // loop_type = parallel_loop
      ktdf.pipeline {
        %p:5 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, ..., !ktdf.token, ...)
        ktdf.stage depends_in(none) depends_out(%p#3) {                       // Load
          ktdf.data_transfer from %A[%row0 + %i, %j] size [1, 64] to %p#0 size [64] : ...
        }
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {                      // Compute
          %a = ktdf.read_from_fifo %p#0 ... linalg.generic ... ktdf.write_to_fifo %r, %p#2 ...
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#4) depends_out(none) { ... to %C[%row0 + %i, %j] ... }  // Store
      } } }

Views are cast to the device memory kind of their KTIR space (`mem_space_mapping`):
`memref.memory_space_cast %v : memref<96x64xf16> to memref<96x64xf16, "DDR">`. Every FIFO slot
carries its own element type (mixed-type groups: f16 loads, f32 compute, ...); the vector
length is the SIMD lanes of the group's narrowest-lane element type. A broadcast input (a row
reused by every row) reads the same row in every instance; one broadcast along a vectorised
dimension (a column, a scalar) is read with the lanes it has and widened in the compute stage,
where the generic reads it through a broadcasting map (`(d0, d1) -> (d0, 0)`; the lowering
shuffles its lanes). A leaf that transposes (K read as K^T) makes an element-wise group
vectorise its innermost dimension alone, each vector one column of the leaf's tile; a strided
access, or a transpose across two vectorised dimensions (a reducing group), is refused. A transfer through a masked view (dynamic sizes, a coordinate set smaller than the
shape), or of a tile not provably inside its view (over the grid, the loop bounds and the
ranges of what the host passes: scheduler.analysis.masks), carries the view's coordinate set as its `source_mask` (loads:
0 outside) or `dest_mask` (stores: dropped outside), the set's symbols bound to the view's
dynamic sizes. A leaf read through an indirect access tile is gathered, and a value stored
through one scattered, by one `ktdf.ind_data_transfer` per vector (indirect_transfers.py); a
group that scatters into a view it also reads is refused (its vectors would read what earlier
ones scattered, where the tile reads everything before it stores).
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects import func, memref, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import kernel_grid
from scheduler.analysis import masks
from scheduler.analysis.device import device_of
from scheduler.analysis.index_exprs import IndexExprs, fold_constants, index_constant
from scheduler.conversion.ktir_to_ktdf.elementwise_fusion import (
    Access,
    Follow,
    FusedGroup,
    Leaf,
    build_body,
    fuse_group,
    leaf_dims,
)
from scheduler.conversion.ktir_to_ktdf.indirect_transfers import (
    indexed_dims,
    indirect_store,
    indirect_transfer,
)
from scheduler.dialects.ktdf import (
    CreateTokenOp,
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    LoopType,
    LoopTypeAttr,
    PipelineOp,
    PrivateOp,
    PrivateYieldOp,
    ReadFromFifoOp,
    StageOp,
    TokenType,
    WriteToFifoOp,
)
from scheduler.rewriting import apply_patterns, dead_code


def vector_shape(space: tuple[int, ...], lanes: int,
                 pinned: frozenset[int] = frozenset()) -> tuple[int, ...]:
    """Tile parallel dims right to left by gcd with the lanes still free; `pinned` dims
    (those a gather's index depends on: one index per vector) stay 1."""
    out = [1] * len(space)
    free = lanes
    for d in reversed(range(len(space))):
        if d in pinned:
            continue
        g = math.gcd(space[d], free)
        out[d] = g
        free //= g
        if free == 1:
            break
    return tuple(out)


class Builder:
    def __init__(self, fn: func.FuncOp, device, group: FusedGroup, rewriter: PatternRewriter):
        self.fn = fn
        self.rewriter = rewriter
        self.device = device
        self.group = group
        self.casts: dict[Operation, SSAValue] = {}
        self.exprs = IndexExprs(arg_ranges=masks.group_arg_ranges(fn))

    # ---- views in device memory kinds ------------------------------------------------------

    def memory_kind(self, acc: Access) -> str:
        return self.view_memory_kind(acc.view)

    def view_memory_kind(self, view: ktdp.ConstructMemoryViewOp) -> str:
        space = view.memory_space
        assert isinstance(space, ktdp.MemorySpaceAttr)
        return self.device.memory_for_space(space.kind.data)

    def cast(self, acc: Access) -> SSAValue:
        return self.cast_view(acc.view)

    def cast_view(self, view: ktdp.ConstructMemoryViewOp) -> SSAValue:
        if view not in self.casts:
            t = view.result.type
            target = MemRefType(t.element_type, t.get_shape(), t.layout,
                                StringAttr(self.view_memory_kind(view)))
            c = memref.MemorySpaceCastOp(view.result, target)
            c.dest.name_hint = (view.result.name_hint or "view") + "_cast"
            c.location = view.location
            self.rewriter.insert(c, InsertPoint.after(view))
            self.casts[view] = c.dest
        return self.casts[view]

    # ---- one side of a transfer ------------------------------------------------------------

    def side(self, acc: Access, follows: list[Follow], ivs: list[SSAValue],
             vec: tuple[int, ...]) -> tuple[list[SSAValue], AffineMap, list[int]]:
        """Subscripts `base + lower + offset + stride * iv` into the view, and the chunk
        sizes (the vector extent of each followed dimension, 1 for a broadcast one)."""
        tile = acc.tile
        operands, replace = fold_constants(tile.indices)  # constant subscripts fold into the map
        n_idx = len(operands)
        results: list[AffineExpr] = []
        sizes: list[int] = []
        for t, base in enumerate(tile.base_map.data.results):
            f = follows[t]
            e = base.replace_dims_and_symbols(replace, []) + acc.lower[t] + f.offset
            if f.dim is not None:
                e = e + AffineExpr.dimension(n_idx + f.dim) * f.stride
            results.append(e)
            sizes.append(vec[f.dim] if f.dim is not None else 1)
        amap = AffineMap(n_idx + len(ivs), 0, tuple(results))
        return [*operands, *ivs], amap, sizes

    # ---- the pipeline --------------------------------------------------------------------

    def check_ordered_links(self, op: Operation) -> None:
        """FIFO slots assume in-order delivery: every queue into or out of the compute unit
        must be `ordered` (pipeline.md §2)."""
        compute = self.device.compute_kind
        for dp in self.device.datapaths:
            if compute in (dp.src, dp.dst) and dp.is_queue and not dp.ordered:
                raise op_error(op, f'the queue "{dp.src}" -> "{dp.dst}" of device '
                                   f"@{self.device.name} is not ordered: the pipeline's FIFO "
                                   "slots need in-order delivery on the compute unit's links "
                                   "(feature.queue = {..., ordered})")

    def lanes(self) -> int:
        """The vector length of the group: the SIMD lanes of its narrowest-lane element type
        (every vector of one group has the same number of lanes; masks and the 64-bit
        intermediates of conversions do not count)."""
        names = {str(self.group.element_type(n)) for n in self.group.nodes()}
        names |= {str(acc.element_type) for acc, _ in self.group.outputs}
        names -= {"i1", "i64", "index"}
        return min(self.device.vector_lanes(t) for t in sorted(names or {"i8"}))  # i1: bytes

    def build(self) -> None:
        group = self.group
        stores = [acc.op for acc, _ in group.outputs]
        self.check_ordered_links(group.loads[0].op if group.loads else stores[0])
        leaves = group.leaves()
        follows = {leaf: leaf_dims(leaf) for leaf in leaves}
        ident = [Follow(d, 1, 0) for d in range(len(group.space))]
        pinned = frozenset(d for leaf in leaves for d in indexed_dims(
            group.loads[leaf.load], follows[leaf])) | frozenset(
            d for acc, _ in group.outputs for d in indexed_dims(acc, ident))
        self.check_scatters()
        vec = vector_shape(group.space, self.lanes(), pinned)
        if any(self.transposes(follows[leaf], vec) for leaf in leaves):
            # a transposing leaf (K -> K^T): vectorise the innermost dim alone, so that each
            # vector reads one column of the leaf's tile
            inner = max(d for d, n in enumerate(vec) if n > 1)
            vec = vector_shape(group.space, self.lanes(), pinned | frozenset(
                d for d in range(len(vec)) if d != inner))
        for leaf in leaves:
            self.check_leaf(leaf, follows[leaf], vec)
        n_vec = math.prod(vec)
        compute = self.device.compute_kind

        ivs, at = self.parallel_loops(vec, stores)

        in_slots = [FifoSlotType(self.memory_kind(group.loads[lf.load]), compute,
                                 math.prod(self.read_shape(follows[lf], vec)),
                                 group.loads[lf.load].element_type) for lf in leaves]
        out_slots = [FifoSlotType(compute, self.memory_kind(acc), n_vec, acc.element_type)
                     for acc, _ in group.outputs]
        n_tokens = 3 if leaves else 2
        priv_block = Block()
        allocs = [FifoAllocateOp([t]) for t in in_slots + out_slots]
        tokens = [CreateTokenOp() for _ in range(n_tokens)]
        priv_block.add_ops([*allocs, *tokens])
        priv_block.add_op(PrivateYieldOp(*[a.slots[0] for a in allocs],
                                         *[t.result for t in tokens]))
        private = PrivateOp([*in_slots, *out_slots, *[TokenType()] * n_tokens],
                            Region(priv_block))
        res = list(private.res)
        slots_in, slots_out = res[:len(leaves)], res[len(leaves):len(leaves) + len(out_slots)]
        toks = res[len(leaves) + len(out_slots):]

        stages: list[Operation] = []
        if leaves:
            load_ops = []
            for leaf, slot in zip(leaves, slots_in):
                acc = group.loads[leaf.load]
                if isinstance(acc.tile, ktdp.ConstructIndirectAccessTileOp):
                    load_ops.append(indirect_transfer(
                        acc, follows[leaf], ivs, vec, self.read_shape(follows[leaf], vec),
                        self.cast_view, slot))
                    continue
                idx, amap, sizes = self.side(acc, follows[leaf], ivs, vec)
                load_ops.append(DataTransferOp(self.cast(acc), idx, amap, sizes, slot, [],
                                               None, [math.prod(sizes)], **transfer_mask(acc, "source", self.exprs)))
            stages.append(StageOp([], [toks[0]], load_ops))
        stages.append(StageOp(toks[:1] if leaves else [], [toks[-2]],
                              self.compute_body(leaves, follows, slots_in, slots_out, vec),
                              applicable_units=[compute]))
        store_ops: list[Operation] = []
        for (acc, _), slot in zip(group.outputs, slots_out):
            if isinstance(acc.tile, ktdp.ConstructIndirectAccessTileOp):
                store_ops.append(indirect_store(acc, ivs, vec, self.cast_view, slot))
                continue
            idx, amap, sizes = self.side(acc, ident, ivs, vec)
            store_ops.append(DataTransferOp(slot, [], None, [n_vec], self.cast(acc), idx, amap,
                                            sizes, **transfer_mask(acc, "dest", self.exprs)))
        stages.append(StageOp([toks[-2]], [toks[-1]], store_ops))
        pipeline = PipelineOp([private, *stages])
        pipeline.location = stores[-1].location
        self.rewriter.insert(pipeline, at)
        for st in stores:  # the pipeline's store stage replaces them
            self.rewriter.erase(st)
        # the loads, tiles and tensor compute the pipeline replaced, and the index arithmetic
        # only they read, are dead now
        dead_code(self.fn.body, self.rewriter)

    def check_scatters(self) -> None:
        """A scatter's vectors are stored one after the other while later vectors are still
        read: a group that scatters into a view it also loads from (the same view, or one
        on the same address) would read what it scattered, where the tile reads everything
        before it stores."""
        for acc, _ in self.group.outputs:
            if not isinstance(acc.tile, ktdp.ConstructIndirectAccessTileOp):
                continue
            for load in self.group.loads:
                if load.view is acc.view or load.view.offset is acc.view.offset:
                    raise op_error(acc.op, "a scatter into a view the same group reads (a "
                                           "read-modify-write through indices): not "
                                           "supported by the scheduler yet")

    def parallel_loops(self, steps: tuple[int, ...], stores: list[Operation]
                       ) -> tuple[list[SSAValue], InsertPoint]:
        """The parallel loops over the group's space in `steps`, and the point inside them
        where the pipeline goes. They go before the group's last store: every value a
        transfer reads (subscripts computed between the stores, as an unrolled loop leaves
        them) is defined by then."""
        block = stores[0].parent_block()
        last = max(stores, key=lambda op: block.get_operation_index(op)
                   if block is not None and op.parent_block() is block else -1)
        bounds = [(index_constant(0), index_constant(extent), index_constant(step))
                  for extent, step in zip(self.group.space, steps)]
        self.rewriter.insert([c for triple in bounds for c in triple], InsertPoint.before(last))
        at = InsertPoint.before(last)
        ivs: list[SSAValue] = []
        for d, (lb, ub, st) in enumerate(bounds):
            body = Block(arg_types=[IndexType()])
            body.args[0].name_hint = f"v{d}"
            loop = scf.ForOp(lb.result, ub.result, st.result, [], Region(body))
            loop.attributes["loop_type"] = LoopTypeAttr(LoopType.PARALLEL_LOOP)
            self.rewriter.insert(loop, at)
            ivs.append(body.args[0])
            body.add_op(scf.YieldOp())
            at = InsertPoint.before(body.last_op)
        return ivs, at

    @staticmethod
    def transposes(follows: list[Follow], vec: tuple[int, ...]) -> bool:
        """The leaf's tile follows the vectorised dims out of order."""
        dims = [f.dim for f in follows if f.dim is not None and vec[f.dim] > 1]
        return dims != sorted(dims)

    def check_leaf(self, leaf: Leaf, follows: list[Follow], vec: tuple[int, ...]) -> None:
        """A leaf's tile dimensions must follow the vectorised dimensions in order and
        densely, so that a transfer delivers its lanes in the vector's order."""
        op = self.group.loads[leaf.load].op
        shape = "x".join(map(str, vec))
        along = [f for f in follows if f.dim is not None and vec[f.dim] > 1]
        if any(f.stride != 1 for f in along):
            raise op_error(op, f"a strided access along a vectorised dimension (vector "
                               f"{shape}): not supported by the scheduler yet")
        dims = [f.dim for f in along]
        if dims != sorted(dims):
            raise op_error(op, f"a transpose across vectorised dimensions (vector {shape}): "
                               "not supported by the scheduler yet")

    @staticmethod
    def read_shape(follows: list[Follow], vec: tuple[int, ...]) -> list[int]:
        """The vector of a leaf as the compute stage reads it: the iteration vector with 1
        in the dimensions the leaf does not follow (broadcast there by a shuffle)."""
        mine = {f.dim for f in follows if f.dim is not None}
        return [v if d in mine else 1 for d, v in enumerate(vec)]

    def compute_body(self, leaves: list[Leaf], follows: dict[Leaf, list[Follow]],
                     slots_in: list[SSAValue], slots_out: list[SSAValue],
                     vec: tuple[int, ...]) -> list[Operation]:
        group = self.group
        rank = len(vec)
        ops: list[Operation] = []
        reads, maps = [], []
        for leaf, s in zip(leaves, slots_in):
            shape = self.read_shape(follows[leaf], vec)
            reads.append(ReadFromFifoOp(s, TensorType(group.loads[leaf.load].element_type,
                                                      shape)))
            maps.append(AffineMap(rank, 0, tuple(
                AffineExpr.dimension(d) if n > 1 or vec[d] == 1 else AffineExpr.constant(0)
                for d, n in enumerate(shape))))
        ops += reads
        out_types = [TensorType(acc.element_type, vec) for acc, _ in group.outputs]
        empties = [tensor.EmptyOp([], t) for t in out_types]
        ops += empties
        body = build_body(group, leaves, [group.loads[lf.load].element_type for lf in leaves],
                          [acc.element_type for acc, _ in group.outputs])
        ident = AffineMap.identity(rank)
        generic = linalg.GenericOp(
            [r.results[0] for r in reads], [e.tensor for e in empties], Region(body),
            [AffineMapAttr(m) for m in maps] + [AffineMapAttr(ident)] * len(empties),
            [IteratorTypeAttr.parallel()] * rank, out_types)
        ops.append(generic)
        ops += [WriteToFifoOp(r, s) for r, s in zip(generic.results, slots_out)]
        return ops


def transfer_mask(acc: Access, side: str, exprs: IndexExprs) -> dict:
    """The mask arguments of a transfer through a masked view, or of a tile not provably
    inside its view (scheduler.analysis.masks)."""
    if masks.tile_inside(exprs, acc.tile, acc.view):
        return {}
    aset, symbols = masks.mask_of(acc.view, acc.tile)
    return {f"{side}_mask": aset, "mask_symbols": symbols}


class BuildThreeStagePipeline(RewritePattern):
    """A function with `ktdp.store`s in its body (one compute group) becomes its Load ->
    Compute -> Store pipeline nest; a function without stores does not match, one whose
    stores sit inside control flow is an error (compute-group-extraction moves those)."""

    def __init__(self, device):
        self.device = device

    @op_type_rewrite_pattern
    def match_and_rewrite(self, fn: func.FuncOp, rewriter: PatternRewriter) -> None:
        if fn.is_declaration:
            return
        stores = [s for s in fn.body.block.ops if isinstance(s, ktdp.StoreOp)]
        if not stores:
            if any(isinstance(s, ktdp.StoreOp) for s in fn.walk()):
                raise op_error(fn, "stores inside control flow must be extracted into "
                                   "compute groups first (run compute-group-extraction)")
            return
        group = fuse_group(stores)
        if group.reductions():
            for acc in [*group.loads, *(a for a, _ in group.outputs)]:
                if isinstance(acc.tile, ktdp.ConstructIndirectAccessTileOp):
                    what = "read by" if isinstance(acc.op, ktdp.LoadOp) else "storing"
                    raise op_error(acc.op, f"an indirect access tile {what} a reduction: not "
                                           "supported by the scheduler yet")
            # the contraction and reduction builders extend this module's Builder: imported
            # where needed; contractions go to the matrix engine when the device has one
            from scheduler.conversion.ktir_to_ktdf.contraction_pipeline import (
                ContractionBuilder,
                matrix_plan,
            )
            from scheduler.conversion.ktir_to_ktdf.reduction_pipeline import ReductionBuilder

            if (plan := matrix_plan(group, self.device, _tiles(fn))) is not None:
                ContractionBuilder(fn, self.device, group, rewriter, plan).build()
                return

            ReductionBuilder(fn, self.device, group, rewriter).build()
            return
        Builder(fn, self.device, group, rewriter).build()


def _tiles(fn: func.FuncOp) -> int:
    """The tiles that run the group (one when tile-invariant-groups left it to one)."""
    from scheduler.transforms.tile_invariant_groups import ACTIVE_TILES  # a frontend pass

    tiles = math.prod(kernel_grid(fn) or (1,))
    active = fn.attributes.get(ACTIVE_TILES)
    return min(tiles, active.value.data) if isinstance(active, IntegerAttr) else tiles


class ConstructThreeStagePipelinePass(ModulePass):
    """Build one Load -> Compute -> Store `ktdf.pipeline` per compute group (see the module
    docstring for the shape). Needs the device (SIMD lanes, memory kinds). Idempotent: a
    function without `ktdp.store` is left alone."""

    name = "construct-three-stage-pipeline"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [BuildThreeStagePipeline(device_of(op, self.name))])
