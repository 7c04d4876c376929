"""`inter-tile-exchange`: inter-tile communication as stores and loads through scratchpad slots.

`ktdp.inter_tile_produce` / `inter_tile_reduce` / `inter_tile_consume` (ktir.md §6) become
ordinary KTIR memory traffic that the rest of the pipeline already schedules. Compute groups
run one after another on the whole grid (each launch ends when every unit has ended), so a
group boundary is the barrier the exchange needs, and the k-th produce meets the k-th reduce
because both sit in the same launch sequence (inside a host loop, once per iteration):

1. produce: every tile stores each partial into a slot of its own scratchpad
   (`ct_local` at a constant element address, one slot per partial), computed afresh (its
   slice cloned), so that these stores share no load with the tile's later stores and form
   a compute group of their own, launched before the folds;
2. per set of sources (the producers of a group; for consume, the one a dependency names):
   the fold, `acc = identity; acc = combiner(acc, part_p)` for each source p in ascending
   tile id (the interpreter's order, so the bits are the same), the partials loaded from the
   producers' scratchpads (`ct_id = p`, over the ring), stored into the result slot of every
   consumer c with those sources (`ct_id = c`). This reads no tile id: `tile-invariant-groups`
   runs it once, on core 0, with every scratchpad in reach. A tile in no consumer set gets
   the identity (reduce) or zeros (consume);
3. reduce / consume: the tile loads the result slot of its own scratchpad.

    %f = ktdp.inter_tile_produce producer_tiles_per_group = #g -> ... { yield_partial %x }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #g, identity(%z) {addf}
becomes
    ktdp.store %x, <own scratchpad @P>
    %p0 = ktdp.load <ct_id = 0 @P> ... %a0 = arith.addf %z, %p0 ... %a3 = arith.addf %a2, %p3
    ktdp.store %a3, <ct_id = 0 @R> ... ktdp.store %a3, <ct_id = 3 @R>   (each consumer)
    %s = ktdp.load <own scratchpad @R>
Slots start after every constant-address scratchpad range the kernel names (so they are
reserved by address-assignment like data an earlier operator left on chip), aligned to a
stick. On a device whose cores share only device memory (no unit links the scratchpads:
sample_device, stream_device) the slots are in a device-memory workspace instead, one copy
per tile (tile t's at workspace + slot + t x stride): the kernel gets a last argument
`%workspace: index {ktdf.workspace = {bytes = N, element_bytes = E}}`, the element address
the runtime gives it (`ktir run` places it after the kernel's buffers and leaves it out of
the comparison). Refused, with the reason: a produce region that reads its group id, an
identity or combiner capture that depends on the tile id, a kernel without a static grid,
partials of different element widths with a workspace. Runs after the loops are unrolled, so
a future never crosses a loop iteration.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir import affine
from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from ktir.dialects.ktdp_intertile import (
    YieldPartialOp,
    YieldReducedOp,
    dependency_sources,
    group_ids,
    members_by_group,
)
from ktir.dialects.ktdp_types import MemoryKind, MemorySpaceAttr, box_set, kernel_grid
from scheduler.analysis.index_exprs import IndexExprs, index_constant
from scheduler.analysis.placement import inter_core_unit
from scheduler.analysis.slices import backward_slice
from scheduler.analysis.slots import Slots, elem_bytes, reserved_end, row_major
from scheduler.rewriting import apply_patterns, clone_slice, dead_code

_NOT_YET = "not supported by the scheduler yet"


def _per_tile(v: SSAValue) -> bool:
    """Whether `v` reads the tile id or the executing tile's own scratchpad (also inside the
    regions of what computes it)."""
    if IndexExprs().depends_on_tile_id(v):
        return True
    owner = v.owner
    if not isinstance(owner, Operation):
        return False
    return any(isinstance(o, ktdp.GetComputeTileIdOp) or (
        isinstance(o, ktdp.ConstructMemoryViewOp) and isinstance(o.memory_space, MemorySpaceAttr)
        and o.memory_space.kind.data == MemoryKind.CT_LOCAL and o.memory_space.ct_id.data < 0)
        for o in backward_slice([owner]))


def _zeros(t: TensorType) -> DenseIntOrFPElementsAttr:
    n = 1
    for d in t.get_shape():
        n *= d
    zero = 0.0 if isinstance(t.element_type, AnyFloat) else 0
    return DenseIntOrFPElementsAttr.from_list(t, [zero] * n)


class _Builder:
    def __init__(self, rewriter: PatternRewriter, at: InsertPoint, loc,
                 workspace: SSAValue | None):
        self.rewriter, self.at, self.loc = rewriter, at, loc
        self.workspace = workspace

    def add(self, op: Operation) -> Operation:
        op.location = self.loc
        self.rewriter.insert(op, self.at)
        return op

    def offset(self, slot: tuple[int, int], ct_id: int) -> tuple[SSAValue, MemorySpaceAttr]:
        """Where tile `ct_id`'s copy of a slot is (-1: the executing tile's): its own
        scratchpad's (or tile `ct_id`'s) at the slot address, or in the device-memory
        workspace at workspace + address + tile x stride."""
        addr, stride = slot
        if self.workspace is None:
            return (self.add(index_constant(addr)).results[0],
                    MemorySpaceAttr(MemoryKind.CT_LOCAL, ct_id))
        space = MemorySpaceAttr(MemoryKind.GLOBAL)
        if ct_id >= 0:
            k = self.add(index_constant(addr + ct_id * stride)).results[0]
            return self.add(arith.AddiOp(self.workspace, k)).results[0], space
        tid = self.add(ktdp.GetComputeTileIdOp()).results[0]
        st = self.add(index_constant(stride)).results[0]
        at = self.add(index_constant(addr)).results[0]
        row = self.add(arith.MuliOp(tid, st)).results[0]
        base = self.add(arith.AddiOp(self.workspace, at)).results[0]
        return self.add(arith.AddiOp(base, row)).results[0], space

    def tile(self, slot: tuple[int, int], t: TensorType, ct_id: int, name: str) -> SSAValue:
        """An access tile covering tile `ct_id`'s copy of a slot of `t`."""
        shape = list(t.get_shape())
        off, space = self.offset(slot, ct_id)
        view = self.add(ktdp.ConstructMemoryViewOp(
            off, shape, row_major(shape), MemRefType(t.element_type, shape), space))
        view.results[0].name_hint = name
        zero = AffineMap(0, 0, tuple(AffineExpr.constant(0) for _ in shape))
        tile = self.add(ktdp.ConstructAccessTileOp(
            view.results[0], [], zero, box_set(shape), AffineMap.identity(len(shape)),
            ktdp.AccessTileType(shape)))
        return tile.results[0]

    def load(self, slot: tuple[int, int], t: TensorType, ct_id: int, name: str) -> SSAValue:
        return self.add(ktdp.LoadOp(self.tile(slot, t, ct_id, name), t)).results[0]

    def store(self, v: SSAValue, slot: tuple[int, int], ct_id: int, name: str) -> None:
        t = v.type
        assert isinstance(t, TensorType)
        self.add(ktdp.StoreOp(v, self.tile(slot, t, ct_id, name)))


def _membership(aset, groups: list[int], n: int) -> dict[int, int]:
    """tile -> group (the first group whose set holds the tile, as the interpreter)."""
    out: dict[int, int] = {}
    for g, members in sorted(members_by_group(aset, groups, n).items()):
        for t in members:
            out.setdefault(t, g)
    return out


class ExchangeThroughSlots(RewritePattern):
    """A produce and every reduce / consume of its future become slot stores, per-consumer
    folds and slot loads (see the module docstring)."""

    def __init__(self, kernels: dict[func.FuncOp, tuple[Slots, SSAValue | None]]):
        self.kernels = kernels

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ktdp.InterTileProduceOp, rewriter: PatternRewriter) -> None:
        grid = kernel_grid(op)
        if grid is None:
            raise op_error(op, f"inter-tile communication in a kernel without a grid: {_NOT_YET}")
        n = 1
        for d in grid:
            n *= d
        try:
            groups = group_ids(op.future.type)  # type: ignore[arg-type]
        except affine.UnboundedSetError as e:  # too many groups, or bounds past 64 bits
            raise op_error(op, f"the tile_future's groups cannot be enumerated: {e}") from None
        producers = _membership(op.producer_tiles_per_group.data, groups, n)
        block = op.body.block
        if block.args and block.args[0].uses:
            raise op_error(op, "a produce region that reads its group id (the tiles of the "
                               f"grid would compute different partials per group): {_NOT_YET}")
        users = [u.operation for u in op.future.uses]
        for u in users:
            if not isinstance(u, ktdp.InterTileReduceOp | ktdp.InterTileConsumeOp):
                raise op_error(u, f"takes a tile future other than as reduce / consume: {_NOT_YET}")
        yield_op = block.last_op
        assert isinstance(yield_op, YieldPartialOp)
        parts = list(yield_op.values)
        fn = _kernel_of(op)
        self.slots, workspace = self.kernels[fn]
        b = _Builder(rewriter, InsertPoint.before(op), op.location, workspace)
        self.workspace = workspace
        # a fresh computation of the partials: their stores share no load with the tile's
        # later stores, so the partials form a compute group of their own, run first
        mapper: dict[SSAValue, SSAValue] = {}
        clone_slice([yield_op], rewriter, InsertPoint.before(op), mapper)
        parts = [mapper.get(v, v) for v in parts]
        ptypes = [p.type for p in parts]
        paddrs = [self.slots.take(t) for t in ptypes]  # type: ignore[arg-type]
        for i, (p, a) in enumerate(zip(parts, paddrs)):
            b.store(p, a, -1, f"partial{i}_slot")
        for u in users:
            self.consumer(u, producers, groups, n, paddrs, ptypes, rewriter)
        rewriter.erase(op)

    def consumer(self, op: ktdp.InterTileReduceOp | ktdp.InterTileConsumeOp,
                 producers: dict[int, int], groups: list[int], n: int, paddrs: list[tuple[int, int]],
                 ptypes: list, rewriter: PatternRewriter) -> None:
        consumers = _membership(op.consumer_tiles_per_group.data, groups, n)
        if isinstance(op, ktdp.InterTileReduceOp):
            for v in op.identities:
                if _per_tile(v):
                    raise op_error(op, "an identity that depends on the compute tile id: "
                                       f"{_NOT_YET}")
            inner = {o for o in op.combiner.walk()}
            for o in inner:
                for v in o.operands:
                    if v.owner not in inner and not isinstance(v.owner, Block) and _per_tile(v):
                        raise op_error(op, "a combiner that reads a value computed from the "
                                           f"compute tile id: {_NOT_YET}")
        raddrs = [self.slots.take(t) for t in ptypes]
        b = _Builder(rewriter, InsertPoint.before(op), op.location, self.workspace)
        # consumers with the same sources share one fold (or copy), stored into each slot
        by_sources: dict[tuple[int, ...] | None, list[int]] = {}
        for c in range(n):
            g = consumers.get(c)
            if g is None:
                by_sources.setdefault(None, []).append(c)
                continue
            sources = sorted(p for p, pg in producers.items() if pg == g)
            if isinstance(op, ktdp.InterTileConsumeOp):
                dep = op.producer_dependency_per_consumer
                if dep is not None:
                    allowed = set(dependency_sources(dep.data, c, g, n))
                    sources = [p for p in sources if p in allowed]
                if len(sources) != 1:
                    raise op_error(op, f"has {len(sources)} sources for consumer tile {c} "
                                       f"in group {g}; a consumer needs exactly one")
            by_sources.setdefault(tuple(sources), []).append(c)
        for sources, cs in by_sources.items():
            if sources is None and isinstance(op, ktdp.InterTileConsumeOp):
                acc = [b.add(arith.ConstantOp(_zeros(t))).results[0] for t in ptypes]
            elif isinstance(op, ktdp.InterTileReduceOp):
                acc = [self.fresh(v, rewriter, b) for v in op.identities]
                for p in sources or ():
                    got = [b.load(a, t, p, f"partial{i}_of_tile{p}")
                           for i, (a, t) in enumerate(zip(paddrs, ptypes))]
                    acc = self.combine(op, acc, got, b)
            else:
                assert sources is not None
                acc = [b.load(a, t, sources[0], f"partial{i}_of_tile{sources[0]}")
                       for i, (a, t) in enumerate(zip(paddrs, ptypes))]
            for c in cs:
                for i, (v, a) in enumerate(zip(acc, raddrs)):
                    b.store(v, a, c, f"result{i}_slot")
        outs = [b.load(a, r.type, -1, f"result{i}_slot")  # type: ignore[arg-type]
                for i, (a, r) in enumerate(zip(raddrs, op.results_))]
        for old, new in zip(op.results_, outs, strict=True):
            old.replace_all_uses_with(new)
        rewriter.erase(op)

    @staticmethod
    def fresh(v: SSAValue, rewriter: PatternRewriter, b: _Builder) -> SSAValue:
        """`v` computed anew before the reduce: a fold shares no load with the tile's own
        stores, so it stays a compute group of its own (run once, on core 0)."""
        owner = v.owner
        if not isinstance(owner, Operation):
            return v
        mapper: dict[SSAValue, SSAValue] = {}
        clone_slice([owner], rewriter, b.at, mapper)
        new = owner.clone(mapper)
        rewriter.insert(new, b.at)
        return new.results[list(owner.results).index(v)]

    @staticmethod
    def combine(op: ktdp.InterTileReduceOp, acc: list[SSAValue], parts: list[SSAValue],
                b: _Builder) -> list[SSAValue]:
        """The combiner region's ops on (acc, parts), cloned before the reduce."""
        block = op.combiner.block
        k = len(acc)
        mapper: dict[SSAValue, SSAValue] = dict(zip(block.args[:k], acc))
        mapper.update(zip(block.args[k:], parts))
        out: list[SSAValue] = []
        for inner in block.ops:
            if isinstance(inner, YieldReducedOp):
                out = [mapper.get(v, v) for v in inner.values]
                break
            new = inner.clone(mapper)
            b.add(new)
        return out


WORKSPACE_ATTR = "ktdf.workspace"


def _kernel_of(op: Operation) -> func.FuncOp:
    p = op.parent_op()
    while not isinstance(p, func.FuncOp):
        assert p is not None
        p = p.parent_op()
    return p


def needs_workspace(module: ModuleOp) -> bool:
    """Whether the slots go to device memory: the module's device has no inter-core path
    between scratchpads (its cores share only device memory). No device declared: the
    scratchpads."""
    from arch_descriptions.model import device_from_module

    device = device_from_module(module)
    return device is not None and inter_core_unit(device, device.scratchpad_kind()) is None


def add_workspace(fn: func.FuncOp) -> SSAValue:
    """A last kernel argument `%workspace: index`, the element address of the device-memory
    workspace the runtime provides (its size: the argument attribute `ktdf.workspace`)."""
    ws = fn.body.block.insert_arg(IndexType(), len(fn.body.block.args))
    ws.name_hint = "workspace"
    ftype = fn.function_type
    fn.function_type = FunctionType.from_lists([*ftype.inputs.data, IndexType()],
                                               list(ftype.outputs.data))
    if fn.arg_attrs is not None:
        fn.arg_attrs = ArrayAttr([*fn.arg_attrs.data, DictionaryAttr({})])
    return ws


def _set_workspace_size(fn: func.FuncOp, slots: Slots, at: Operation) -> None:
    n = len(fn.body.block.args)
    attrs = list(fn.arg_attrs.data) if fn.arg_attrs is not None else [
        DictionaryAttr({}) for _ in range(n)]
    eb = slots.element_bytes or 1
    attrs[-1] = DictionaryAttr({WORKSPACE_ATTR: DictionaryAttr({
        "bytes": IntegerAttr(slots.next, 64), "element_bytes": IntegerAttr(eb, 64)})})
    fn.arg_attrs = ArrayAttr(attrs)


class InterTileExchangePass(ModulePass):
    """Lower every inter-tile produce with its reduces and consumes (see the module
    docstring); a module without them is left unchanged."""

    name = "inter-tile-exchange"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fns = [f for f in op.walk() if isinstance(f, func.FuncOp) and not f.is_declaration
               and any(isinstance(o, ktdp.InterTileProduceOp) for o in f.walk())]
        if not fns:
            return
        in_memory = needs_workspace(op)
        kernels: dict[func.FuncOp, tuple[Slots, SSAValue | None]] = {}
        for f in fns:
            grid = kernel_grid(next(o for o in f.walk() if isinstance(o, ktdp.InterTileProduceOp)))
            tiles = 1
            for d in grid or ():
                tiles *= d
            if in_memory:
                widths = {elem_bytes(t) for o in f.walk()
                          if isinstance(o, ktdp.InterTileProduceOp)
                          for t in o.future.type.partial_types.data}  # type: ignore[attr-defined]
                if len(widths) > 1:
                    first = next(o for o in f.walk() if isinstance(o, ktdp.InterTileProduceOp))
                    raise op_error(first, "partials of different element widths in one kernel "
                                          "on a device whose cores share only device memory "
                                          f"(one workspace, addressed in elements): {_NOT_YET}")
                kernels[f] = (Slots(0, tiles), add_workspace(f))
            else:
                kernels[f] = (Slots(reserved_end(op)), None)
        apply_patterns(op, [ExchangeThroughSlots(kernels)])
        for f, (slots, ws) in kernels.items():
            if ws is not None:
                _set_workspace_size(f, slots, f)
        for f in op.walk():
            if isinstance(f, func.FuncOp) and not f.is_declaration:
                dead_code(f.body)
