"""`tile-scf-for-loops`: tile a perfect nest of parallel loops with sizes chosen later.

A nest of two to four perfectly nested, normalised (0 to N step 1) parallel `scf.for` loops
becomes tile loops over `ceildiv(N, ts)` around point loops over one tile, each size a
`ktdf.tiling.reserve_size` that `tile-size-selection` replaces by a constant once the
schedule around the nest is final; the body reads each old index rebuilt from the tile and
point indices (`ktdf.tiling.linearize_index`), the extent of the current tile is a
`ktdf.tiling.derive_size` (the size, or the remainder in the last tile):

    scf.for %v0 = 0 to 3 step 1 { scf.for %v1 = 0 to 2 step 1 { BODY(%v0, %v1) } }
becomes
    %ts0 = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %ts1 = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %n0 = arith.ceildivui %c3, %ts0 : index
    scf.for %t0 = 0 to %n0 step 1 {
      %n1 = arith.ceildivui %c2, %ts1 : index
      scf.for %t1 = 0 to %n1 step 1 {
        %s0 = ktdf.tiling.derive_size [%t0 : %ts0], total_size = %c3 : index
        %s1 = ktdf.tiling.derive_size [%t1 : %ts1], total_size = %c2 : index
        scf.for %p0 = 0 to %s0 step 1 { scf.for %p1 = 0 to %s1 step 1 {
          %v0 = ktdf.tiling.linearize_index [%t0 : %ts0], [%p0 : %c1] : index
          %v1 = ktdf.tiling.linearize_index [%t1 : %ts1], [%p1 : %c1] : index
          BODY(%v0, %v1) }}}}

The IR form is upstream's (lib/Transforms/TileSCFForLoops.cpp, dynamic mode: its
LoopTilingAnalysis takes the perfect nests, at most four deep, cut at the first loop that is
not `parallel_loop`; a single loop is strip-mining's, not tiling's). `tile_sizes=a,b` is
upstream's static mode: those constants instead of reserved sizes, one per loop of every
nest tiled (a located error when a nest's depth differs), for tests and measurements.

Which nests here. A loop of one iteration is not part of a nest (upstream's `canonicalize`
removes it first; this pipeline runs none). A nest around a `ktdf.pipeline` that holds a
per-core scratchpad buffer is left to `stage-coarsening`, the next pass: it blocks such a
nest itself, choosing the block with its own cost model over constant trip counts, and a
tiled nest (bounds that are not constants) is one it would not block, which would leave the
kernel one vector per DMA (add_1024x1024 on sample_device: 2,125 -> 111,228 cycles). What is
tiled is the nest around a pipeline without scratchpad buffers, streaming between global
memory and FIFOs (`stream_device`'s element-wise kernels), when the transfers' subscripts
are all that read its indices (their rebuilt form then folds into the transfer maps,
subsume-linearize-index; any other reader would compute it every iteration: gather_add on
stream_device, whose row index feeds arithmetic, would go 14,038 -> 14,166 cycles), and a
nest around no pipeline.

No cycles are gained, on any kernel: the point loops stay outside the pipeline, so every
pipeline instance moves and computes what it did before, in the same order (a tile that
covers whole inner rows, which is what `tile-size-selection`'s model picks there, keeps the
row-major order; other sizes only permute the instances). Hence not in OPTIMISATIONS. The
pass gives the loop structure upstream's later passes expect, and is what makes
`tile-size-selection` and `subsume-linearize-index` meet their upstream form end to end.

A RewritePattern on the outermost loop of each nest. Idempotent: tile loops count to a
`ceildivui` and point loops to a `derive_size`, not to constants.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.diagnostics import KtirDiagnostic, op_error
from scheduler.analysis.device import device_of, memory_of
from scheduler.analysis.index_exprs import index_constant, trip_count
from scheduler.dialects.ktdf import (
    DataTransferOp,
    LoopType,
    LoopTypeAttr,
    PipelineOp,
    TilingDeriveSizeOp,
    TilingLinearizeIndexOp,
    TilingReserveSizeOp,
)
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns
from scheduler.transforms.normalize_scf_for_loops import subscript_positions

MAX_DEPTH = 4  # upstream's kMaxLoopNestDepth


def _tileable(loop: Operation) -> bool:
    """A normalised parallel loop of at least two iterations."""
    if not isinstance(loop, scf.ForOp) or loop.iter_args:
        return False
    lt = loop.attributes.get("loop_type")
    if not (isinstance(lt, LoopTypeAttr) and lt.data == LoopType.PARALLEL_LOOP):
        return False
    n = trip_count(loop)
    return const_int(loop.lb) == 0 and const_int(loop.step) == 1 and n is not None and n >= 2


def _only_child(loop: scf.ForOp) -> Operation | None:
    ops = [o for o in loop.body.block.ops if not isinstance(o, scf.YieldOp)]
    return ops[0] if len(ops) == 1 else None


def perfect_nest(root: scf.ForOp) -> list[scf.ForOp]:
    """The tileable loops perfectly nested from `root` down, at most MAX_DEPTH."""
    nest: list[scf.ForOp] = []
    cur: Operation | None = root
    while _tileable(cur) and len(nest) < MAX_DEPTH:  # type: ignore[arg-type]
        assert isinstance(cur, scf.ForOp)
        nest.append(cur)
        cur = _only_child(cur)
    return nest


def _has_scratchpad_buffer(body: Block, device) -> bool:
    """Whether a pipeline in `body` allocates in a per-core (depth >= 1) memory."""
    for op in body.walk():
        if not isinstance(op, PipelineOp) or op.private_op is None:
            continue
        for r in op.private_op.res:
            mem = memory_of(r, device)
            if mem is not None and mem.depth >= 1:
                return True
    return False


def _indices_fold(nest: list[scf.ForOp]) -> bool:
    """Around a pipeline, whether the nest's indices are read as transfer subscripts alone:
    their rebuilt form then folds into the transfer maps (subsume-linearize-index), where
    any other reader would compute it at run time, every iteration."""
    if not any(isinstance(o, PipelineOp) for o in nest[-1].body.walk()):
        return True
    return all(isinstance(u.operation, DataTransferOp)
               and u.index in subscript_positions(u.operation)
               for lp in nest for u in lp.body.block.args[0].uses)


def _loop(lb: SSAValue, ub: SSAValue, step: SSAValue, like: scf.ForOp,
          hint: str) -> scf.ForOp:
    block = Block(arg_types=[IndexType()])
    block.args[0].name_hint = hint
    block.add_op(scf.YieldOp())
    loop = scf.ForOp(lb, ub, step, [], Region(block))
    loop.attributes |= like.attributes
    return loop


def tile_nest(nest: list[scf.ForOp], sizes: list[SSAValue], rewriter: PatternRewriter) -> None:
    """Tile `nest` (outermost first, normalised) by `sizes`, defined before it (module
    docstring); the old loops are erased."""
    root = nest[0]
    c0, c1 = index_constant(0), index_constant(1)
    rewriter.insert([c0, c1], InsertPoint.before(root))
    totals = [lp.ub for lp in nest]
    at = InsertPoint.before(root)
    tiles: list[scf.ForOp] = []
    for lp, ts, n in zip(nest, sizes, totals):
        count = arith.CeilDivUIOp(n, ts)
        loop = _loop(c0.result, count.result, c1.result, lp,
                     (lp.body.block.args[0].name_hint or "v") + "_tile")
        rewriter.insert([count, loop], at)
        tiles.append(loop)
        at = InsertPoint.before(loop.body.block.last_op)  # type: ignore[arg-type]
    derived = []
    for t, ts, n in zip(tiles, sizes, totals):
        d = TilingDeriveSizeOp([t.body.block.args[0]], [ts], n)
        rewriter.insert(d, at)
        derived.append(d)
    points: list[scf.ForOp] = []
    for lp, d in zip(nest, derived):
        loop = _loop(c0.result, d.result, c1.result, lp,
                     (lp.body.block.args[0].name_hint or "v") + "_point")
        rewriter.insert(loop, at)
        points.append(loop)
        at = InsertPoint.before(loop.body.block.last_op)  # type: ignore[arg-type]
    inner = points[-1].body.block
    for lp, t, p, ts in zip(nest, tiles, points, sizes):
        iv = lp.body.block.args[0]
        if not iv.uses:
            continue
        lin = TilingLinearizeIndexOp([t.body.block.args[0], p.body.block.args[0]],
                                     [ts, c1.result])
        lin.result.name_hint = iv.name_hint
        rewriter.insert(lin, at)
        iv.replace_all_uses_with(lin.result)
    for op in list(nest[-1].body.block.ops):
        if not isinstance(op, scf.YieldOp):
            op.detach()
            inner.insert_op_before(op, inner.last_op)  # type: ignore[arg-type]
    old = [v for lp in nest for v in (lp.lb, lp.step)]
    rewriter.erase(root, safe_erase=False)
    for v in dict.fromkeys(old):  # the old bounds, when nothing else reads them
        if isinstance(v.owner, arith.ConstantOp) and not v.uses:
            rewriter.erase(v.owner)


class TileLoopNest(RewritePattern):
    """The outermost loop of a perfect nest of two to four parallel loops (module
    docstring): tile it by reserved sizes, or by `sizes` when given."""

    def __init__(self, device, sizes: tuple[int, ...] = ()):
        self.device = device
        self.sizes = sizes

    @op_type_rewrite_pattern
    def match_and_rewrite(self, loop: scf.ForOp, rewriter: PatternRewriter) -> None:
        if _tileable(parent := loop.parent_op()) and _only_child(parent) is loop:  # type: ignore
            return  # inside a nest: its root tiles it
        nest = perfect_nest(loop)
        if len(nest) < 2 or _has_scratchpad_buffer(nest[-1].body.block, self.device) \
                or not _indices_fold(nest):
            return
        if self.sizes and len(self.sizes) != len(nest):
            raise op_error(loop, f"tile-scf-for-loops: {len(self.sizes)} tile size(s) given "
                           f"for a nest of {len(nest)} loops")
        if self.sizes:
            size_ops: list[Operation] = [index_constant(s) for s in self.sizes]
        else:
            size_ops = [TilingReserveSizeOp() for _ in nest]
        rewriter.insert(size_ops, InsertPoint.before(loop))
        tile_nest(nest, [o.results[0] for o in size_ops], rewriter)


@dataclass(frozen=True)
class TileScfForLoopsPass(ModulePass):
    """Tile perfect nests of parallel loops (see the module docstring).

    Before:  scf.for %v0 = 0 to N0 { scf.for %v1 = 0 to N1 { BODY } }
    After:   %ts0, %ts1 = reserve_size; scf.for %t0 = 0 to ceildiv(N0, %ts0) { ... derive_size
             scf.for %p0 { scf.for %p1 { %v0 = linearize_index [%t0 : %ts0], [%p0 : 1] ... }}}}
    `tile_sizes` (`tile-scf-for-loops{tile_sizes=2,1}`): constants instead (upstream's static
    mode). Idempotent: the new loops do not count to constants.
    """

    name = "tile-scf-for-loops"
    tile_sizes: tuple[int, ...] = field(default=())

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for i, s in enumerate(self.tile_sizes):
            if s < 1:
                raise KtirDiagnostic(f"error: tile-scf-for-loops: tile size {i} must be at "
                                     f"least 1, got {s}")
        apply_patterns(op, [TileLoopNest(device_of(op, self.name), self.tile_sizes)])
