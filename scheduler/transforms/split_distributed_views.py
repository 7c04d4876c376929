"""`split-distributed-views`: a load through a distributed view reads each piece from its owner.

`ktdp.construct_distributed_memory_view` joins views (device memory, scratchpads of given
tiles) into one logical tensor; a coordinate belongs to the first piece whose coordinate set
holds it (the interpreter's rule). A store whose value is element-wise in loads, one of them
through a distributed view at constant coordinates, is split along the pieces that tile
meets: per piece, the same computation on the sub-box the piece holds, its load from the piece
itself (a view of the piece re-based to coordinate 0, so the rest of the pipeline sees an
ordinary view), the other loads and the store on the matching sub-box of their own tiles:

    %d = ktdp.construct_distributed_memory_view(%hbm, %lx0, %lx1 : ...) : memref<192x64xf16>
    %a = ktdp.load %d_tile    // 192x64 at [0, 0]
    ktdp.store %a, %b_tile
becomes three stores: rows 0..95 read from %hbm, rows 96..127 from %lx0 (core 0's
scratchpad), rows 128..191 from %lx1, each into the matching rows of %b_tile's view. Each piece
is then one transfer routed from its own memory (path-expansion: device memory over the DMA,
another core's scratchpad over the ring). Pieces that are one view in disguise (the same memory and strides, one address for each
coordinate, boxes that tile the coordinates: a row-major tensor cut in column halves at %X
and %X + 2048) first become that one memory view (MergeOneLayoutPieces), so loads through
them, even two in one computation at tile-dependent coordinates, are ordinary loads.
At coordinates computed from the tile id and
constants (tile t reads the piece of tile t + 1), the store is first one copy per tile, each
with the tile id a constant. Refused, with the reason: a distributed tile at
coordinates that are neither (a loop index), two distributed loads in one computation, pieces whose
sets are not boxes, a tile the pieces do not cover, and values that are not element-wise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import (
    AffineSetAttr,
    IndexType,
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineExpr,
    AffineMap,
    AffineSet,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir import affine
from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import DYNAMIC_INDEX, int_list, kernel_grid
from scheduler.analysis.index_exprs import index_constant as const_int_op
from scheduler.analysis.slices import backward_slice
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns, clone_slice, dead_code, replace_keeping_names
from scheduler.transforms.single_tile_branches import on_tile, value_on_tile

Box = list[tuple[int, int]]

_NOT_YET = "not supported by the scheduler yet"


def box_set(extents: list[int]) -> AffineSet:
    """`(d0, ...) : (d0 >= 0, -d0 + e0 - 1 >= 0, ...)`."""
    cons = []
    for d, e in enumerate(extents):
        x = AffineExpr.dimension(d)
        cons.append(AffineConstraintExpr(AffineConstraintKind.ge, x, AffineExpr.constant(0)))
        cons.append(AffineConstraintExpr(AffineConstraintKind.ge, x * -1 + (e - 1),
                                         AffineExpr.constant(0)))
    return AffineSet(len(extents), 0, tuple(cons))


def _tile_box(tile: ktdp.ConstructAccessTileOp) -> Box | None:
    """The global coordinates a tile at constant indices covers; None if not constant."""
    idx = [const_int(v) for v in tile.indices]
    if any(i is None for i in idx) or tile.symbol_operands:
        return None
    origin = tile.base_map.data.eval([i for i in idx if i is not None], [])
    return [(o + lo, o + hi) for o, (lo, hi) in zip(origin, affine.box(tile.access_tile_set.data))]


def _dynamic(static: object, values: Sequence[SSAValue]) -> list[SSAValue | None]:
    """Per static entry, its dynamic operand (None for a static one)."""
    it = iter(values)
    return [next(it) if n == DYNAMIC_INDEX else None for n in int_list(static)]


def _elementwise(op: Operation, shape: tuple[int, ...]) -> bool:
    """arith / math on tensors, a named element-wise linalg op (`linalg.add`) or the
    `tensor.empty` it writes into, all of the stored shape."""
    ts = [v.type for v in (*op.operands, *op.results)]
    kind = (op.dialect_name() in ("arith", "math") and not op.regions
            or isinstance(op, ElementwiseOperation | tensor.EmptyOp))
    return (kind and len(op.results) == 1
            and all(isinstance(t, TensorType) and tuple(t.get_shape()) == shape for t in ts))


def _on_sub_box(op: Operation, operands: list[SSAValue], rtype: TensorType) -> Operation:
    """`op` again over operands and result of the sub-box's shape."""
    if isinstance(op, tensor.EmptyOp):
        return tensor.EmptyOp([], rtype)
    if isinstance(op, ElementwiseOperation):
        ins = [operands[i] for i in range(len(op.inputs))]
        outs = operands[len(op.inputs):]
        return type(op)(ins, outs, [rtype], attributes=dict(op.attributes))
    return type(op).create(operands=operands, result_types=[rtype],
                           properties=dict(op.properties), attributes=dict(op.attributes))


class _Split:
    def __init__(self, store: ktdp.StoreOp, rewriter: PatternRewriter):
        self.store = store
        self.rewriter = rewriter
        self.shape = tuple(store.data.type.get_shape())  # type: ignore[union-attr]
        self.chain: list[Operation] = []  # in program order
        self.loads: list[ktdp.LoadOp] = []
        self.distributed: ktdp.LoadOp | None = None

    def collect(self, v: SSAValue) -> None:
        op = v.owner
        if not isinstance(op, Operation) or op in self.chain:
            return
        if isinstance(op, ktdp.LoadOp):
            tile = op.tile.owner
            if isinstance(tile, ktdp.ConstructAccessTileOp) and isinstance(
                    tile.base.owner, ktdp.ConstructDistributedMemoryViewOp):
                if self.distributed is not None:
                    raise op_error(op, "two loads through distributed views in one "
                                       f"computation: {_NOT_YET}")
                self.distributed = op
            self.loads.append(op)
        elif _elementwise(op, self.shape):
            for o in op.operands:
                self.collect(o)
        else:
            return  # decided in `check`: only matters when a distributed load is involved
        self.chain.append(op)

    def check(self) -> None:
        for op in self.chain:
            for o in op.operands:
                owner = o.owner
                if isinstance(o.type, TensorType) and owner not in self.chain:
                    raise op_error(owner if isinstance(owner, Operation) else op,
                                   "a value computed through a distributed view must be "
                                   "element-wise in loads (arith / math on tensors of the "
                                   f"stored shape): {_NOT_YET}")

    def pieces(self) -> list[tuple[ktdp.ConstructMemoryViewOp, Box, Box]]:
        """(piece view, its box, the part of the distributed tile it holds) in piece order."""
        d = self.distributed
        assert d is not None
        tile = d.tile.owner
        assert isinstance(tile, ktdp.ConstructAccessTileOp)
        dist = tile.base.owner
        assert isinstance(dist, ktdp.ConstructDistributedMemoryViewOp)
        tbox = _tile_box(tile)
        if tbox is None:
            raise op_error(tile, "a tile over a distributed view at coordinates that are not "
                                 f"constants (they may differ between tiles): {_NOT_YET}")
        out: list[tuple[ktdp.ConstructMemoryViewOp, Box, Box]] = []
        taken: list[Box] = []
        covered = 0
        for part in dist.parts:
            view = part.owner
            if not isinstance(view, ktdp.ConstructMemoryViewOp):
                raise op_error(dist, f"a piece that is not a ktdp.construct_memory_view: {_NOT_YET}")
            cset = view.coordinate_set.data
            # the set's symbols are the view's dynamic sizes (bound by --arg: constants)
            syms = [const_int(v) for v in view.sizes[:cset.num_symbols]]
            if not affine.is_box(cset) or any(v is None for v in syms):
                raise op_error(view, "a piece of a distributed view whose coordinate_set is not "
                                     f"a box of constants: {_NOT_YET}")
            try:
                pbox = affine.box(cset, [v for v in syms if v is not None])
            except affine.UnboundedSetError as e:
                raise op_error(view, f"a piece of a distributed view whose coordinate_set is "
                                     f"unbounded ({e}): the pieces must be boxes") from None
            meet = [(max(a, c), min(b, e)) for (a, b), (c, e) in zip(tbox, pbox)]
            if any(lo > hi for lo, hi in meet):
                continue
            for t in taken:  # an earlier piece owns coordinates of this one
                if all(max(a, c) <= min(b, e) for (a, b), (c, e) in zip(t, meet)):
                    raise op_error(view, "pieces of a distributed view that overlap inside the "
                                         f"tile: {_NOT_YET}")
            taken.append(meet)
            n = 1
            for lo, hi in meet:
                n *= hi - lo + 1
            covered += n
            out.append((view, pbox, meet))
        total = 1
        for lo, hi in tbox:
            total *= hi - lo + 1
        if covered != total:
            raise op_error(tile, "a tile over a distributed view that its pieces do not cover "
                                 f"({covered} of {total} elements): {_NOT_YET}")
        return out

    def shifted_tile(self, tile: ktdp.ConstructAccessTileOp, lo: list[int], ext: list[int],
                     at: InsertPoint) -> SSAValue:
        """The sub-tile of extents `ext` from point `lo` of the tile's set (subscripts moved
        by that much, the set a box from 0)."""
        if tile.symbol_operands:
            raise op_error(tile, "a tile with a symbolic set beside a distributed load: "
                                 f"{_NOT_YET}")
        bmap = tile.base_map.data
        set_lo = [b[0] for b in affine.box(tile.access_tile_set.data)]
        results = tuple(r + (a + b) for r, a, b in zip(bmap.results, set_lo, lo))
        new = ktdp.ConstructAccessTileOp(tile.base, list(tile.indices),
                                         AffineMap(bmap.num_dims, 0, results), box_set(ext),
                                         tile.access_tile_order.data, ktdp.AccessTileType(ext))
        new.location = tile.location
        self.rewriter.insert(new, at)
        return new.result

    def piece_view(self, view: ktdp.ConstructMemoryViewOp, pbox: Box, at: InsertPoint
                   ) -> SSAValue:
        """The piece with its coordinates re-based to 0 (same memory, offset and layout);
        dynamic sizes that are constants (bound by --arg) become static."""
        sizes: list[int | SSAValue] = []
        dyn = iter(view.sizes)
        for n in int_list(view.static_sizes):
            v = next(dyn) if n == DYNAMIC_INDEX else None
            c = n if v is None else const_int(v)
            sizes.append(v if c is None else c)
        if view.sizes and all(isinstance(n, int) for n in sizes):
            old = view.result.type
            assert isinstance(old, MemRefType)
            strides = [st if st != DYNAMIC_INDEX else v
                       for st, v in zip(int_list(view.static_strides),
                                        _dynamic(view.static_strides, view.strides))]
            new = ktdp.ConstructMemoryViewOp(
                view.offset, sizes, strides,
                MemRefType(old.element_type, [n for n in sizes if isinstance(n, int)]),
                view.memory_space, box_set([hi - lo + 1 for lo, hi in pbox]))
            new.location = view.location
        else:
            new = view.clone()
            new.properties["coordinate_set"] = AffineSetAttr(box_set([hi - lo + 1
                                                                      for lo, hi in pbox]))
        if view.result.name_hint:
            new.result.name_hint = view.result.name_hint
        self.rewriter.insert(new, at)
        return new.result

    def rewrite(self) -> None:
        at = InsertPoint.before(self.store)
        d = self.distributed
        assert d is not None
        dtile = d.tile.owner
        assert isinstance(dtile, ktdp.ConstructAccessTileOp)
        pieces = self.pieces()  # refuses what cannot be split, with the reason
        tbox = _tile_box(dtile)
        assert tbox is not None
        for view, pbox, meet in pieces:
            lo = [m[0] - t[0] for m, t in zip(meet, tbox)]  # in the tiles' points
            ext = [hi - lo_ + 1 for lo_, hi in meet]
            vals: dict[SSAValue, SSAValue] = {}
            pv = self.piece_view(view, pbox, at)
            for op in self.chain:
                rtype = TensorType(op.results[0].type.element_type, ext)  # type: ignore[union-attr]
                if op is d:
                    t = ktdp.ConstructAccessTileOp(
                        pv, [], AffineMap(0, 0, tuple(AffineExpr.constant(m[0] - p[0])
                                                      for m, p in zip(meet, pbox))),
                        box_set(ext), dtile.access_tile_order.data, ktdp.AccessTileType(ext))
                    t.location = dtile.location
                    self.rewriter.insert(t, at)
                    new: Operation = ktdp.LoadOp(t.result, rtype)
                elif isinstance(op, ktdp.LoadOp):
                    tile = op.tile.owner
                    assert isinstance(tile, ktdp.ConstructAccessTileOp)
                    new = ktdp.LoadOp(self.shifted_tile(tile, lo, ext, at), rtype)
                else:
                    new = _on_sub_box(op, [vals.get(o, o) for o in op.operands], rtype)
                new.location = op.location
                self.rewriter.insert(new, at)
                vals[op.results[0]] = new.results[0]
            stile = self.store.tile.owner
            assert isinstance(stile, ktdp.ConstructAccessTileOp)
            st = ktdp.StoreOp(vals[self.store.data], self.shifted_tile(stile, lo, ext, at))
            st.location = self.store.location
            self.rewriter.insert(st, at)
        self.rewriter.erase(self.store)


def _offset_terms(v: SSAValue) -> tuple[SSAValue | None, int]:
    """`v` as (root, constant): constants fold, `addi`/`subi` of a constant peel off."""
    c = const_int(v)
    if c is not None:
        return None, c
    op = v.owner
    if isinstance(op, arith.AddiOp | arith.SubiOp):
        k = const_int(op.rhs)
        if k is not None:
            root, c = _offset_terms(op.lhs)
            return root, c + (k if isinstance(op, arith.AddiOp) else -k)
        k = const_int(op.lhs)
        if k is not None and isinstance(op, arith.AddiOp):
            root, c = _offset_terms(op.rhs)
            return root, c + k
    return v, 0


def one_layout(dist: ktdp.ConstructDistributedMemoryViewOp) -> tuple[
        ktdp.ConstructMemoryViewOp, int] | None:
    """(the first piece, the constant to add to its offset) when the pieces are one view:
    the same memory and strides, the same address for each coordinate (offset minus the
    piece's first coordinate times the strides), and boxes of constants that tile the
    distributed view's coordinates exactly. None otherwise."""
    views = [p.owner for p in dist.parts]
    if not all(isinstance(v, ktdp.ConstructMemoryViewOp) for v in views):
        return None
    shape = list(dist.result.type.get_shape())  # type: ignore[union-attr]
    first = views[0]
    assert isinstance(first, ktdp.ConstructMemoryViewOp)
    strides = int_list(first.static_strides)
    bases: set[tuple[SSAValue | None, int]] = set()
    volume = 0
    boxes: list[Box] = []
    for v in views:
        assert isinstance(v, ktdp.ConstructMemoryViewOp)
        cset = v.coordinate_set.data
        if (v.memory_space != first.memory_space or v.sizes or v.strides
                or int_list(v.static_strides) != strides or cset.num_symbols
                or not affine.is_box(cset)):
            return None
        try:
            b = affine.box(cset)
        except affine.UnboundedSetError:
            return None  # (`pieces` names the unbounded piece)
        if any(lo < 0 or hi >= e for (lo, hi), e in zip(b, shape)):
            return None
        for o in boxes:
            if all(max(a, c) <= min(bb, e) for (a, bb), (c, e) in zip(o, b)):
                return None
        boxes.append(b)
        n = 1
        for lo, hi in b:
            n *= hi - lo + 1
        volume += n
        root, c = _offset_terms(v.offset)
        bases.add((root, c - sum(lo * st for (lo, _), st in zip(b, strides))))
    total = 1
    for e in shape:
        total *= e
    if len(bases) != 1 or volume != total:
        return None
    ((_, base),) = bases
    _, c0 = _offset_terms(first.offset)
    return first, base - c0


class MergeOneLayoutPieces(RewritePattern):
    """A distributed view whose pieces share one address function and tile its coordinates
    (`X` split in column halves at `X` and `X + 2048`, strides [4096, 1]) is that one memory
    view: the first piece's memory and strides over the whole coordinate box, its offset moved
    back to coordinate 0. Loads through it are ordinary loads (several in one computation)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ktdp.ConstructDistributedMemoryViewOp,
                          rewriter: PatternRewriter) -> None:
        got = one_layout(op)
        if got is None:
            return
        first, shift = got
        shape = list(op.result.type.get_shape())  # type: ignore[union-attr]
        offset = first.offset
        new_ops: list[Operation] = []
        if shift:
            k = const_int_op(shift)
            add = arith.AddiOp(offset, k.results[0])
            new_ops += [k, add]
            offset = add.result
        view = ktdp.ConstructMemoryViewOp(offset, shape, int_list(first.static_strides),
                                          op.result.type,  # type: ignore[arg-type]
                                          first.memory_space, box_set(shape))
        view.location = op.location
        if op.result.name_hint:
            view.result.name_hint = op.result.name_hint
        new_ops.append(view)
        replace_keeping_names(rewriter, op, new_ops)


_EXCHANGES = (ktdp.InterTileProduceOp, ktdp.InterTileReduceOp, ktdp.InterTileConsumeOp)


def _tiles_to_specialise(store: ktdp.StoreOp, dtile: ktdp.ConstructAccessTileOp) -> int:
    """The number of tiles when the distributed tile's coordinates are index arithmetic over
    the tile id and constants (each tile's are known) and the store's slice reads the tile
    only through its id and its own scratchpad (what `on_tile` replaces); else 0."""
    grid = kernel_grid(store)
    if grid is None or dtile.symbol_operands:
        return 0
    n = math.prod(grid)
    if any(value_on_tile(v, t) is None for v in dtile.indices for t in range(n)):
        return 0
    if any(isinstance(o, _EXCHANGES) or o.name == "ktdp.get_compute_tile_coords"
           for o in backward_slice([store])):
        return 0
    return n


def _on_tile_folded(tile: int):
    """`on_tile`, with every index computed from the tile id and constants folded to its
    value on that tile (the distributed tile's coordinates become constants)."""
    sub = on_tile(tile)

    def fold(o: Operation, mapper: dict[SSAValue, SSAValue]) -> Operation | None:
        if (len(o.results) == 1 and isinstance(o.results[0].type, IndexType)
                and not isinstance(o, arith.ConstantOp)):
            v = value_on_tile(o.results[0], tile)
            if v is not None:
                return const_int_op(v)
        return sub(o, mapper)
    return fold


class SplitDistributedStore(RewritePattern):
    """A store computed from a load through a distributed view becomes one store per piece
    the tile meets (see the module docstring); other stores do not match. At coordinates
    that follow the tile id (tile t reads rows 16 ((t + 1) mod 4)), the store first becomes
    one copy per tile, each that tile's code with the tile id a constant (single-tile-branches'
    substitution): the same on every tile, so tile-invariant-groups runs each once, and each
    reads its piece from the piece's owner."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ktdp.StoreOp, rewriter: PatternRewriter) -> None:
        s = _Split(op, rewriter)
        s.collect(op.data)
        if s.distributed is None:
            return
        s.check()
        dtile = s.distributed.tile.owner
        assert isinstance(dtile, ktdp.ConstructAccessTileOp)
        n = _tiles_to_specialise(op, dtile) if _tile_box(dtile) is None else 0
        if not n:
            s.rewrite()  # refuses tile-dependent coordinates it cannot follow, located
            return
        at = InsertPoint.before(op)
        for t in range(n):
            mapper: dict[SSAValue, SSAValue] = {}
            sub = _on_tile_folded(t)
            clone_slice([op], rewriter, at, mapper, lambda o, m=mapper, f=sub: f(o, m))
            mine = op.clone(mapper)
            rewriter.insert(mine, at)
            split = _Split(mine, rewriter)
            split.collect(mine.data)
            split.rewrite()
        rewriter.erase(op)


class SplitDistributedViewsPass(ModulePass):
    """Split every store that reads through a distributed view into one store per piece;
    then the distributed view, its tile and load are dead and go. Idempotent: the split
    stores read ordinary views."""

    name = "split-distributed-views"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not apply_patterns(op, [MergeOneLayoutPieces(), SplitDistributedStore()]):
            return
        for f in op.walk():
            if isinstance(f, func.FuncOp) and not f.is_declaration:
                dead_code(f.body)
