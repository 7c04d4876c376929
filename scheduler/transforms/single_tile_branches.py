"""`single-tile-branches`: `scf.if (tile id == c) { stores }` becomes tile c's code, run once.

A kernel that reduces across tiles often lets one tile write the result:
    %w = arith.cmpi eq, %pid, %c0 : index
    scf.if %w { ktdp.store %r, %out_tile }
The host runs control flow once for the whole grid, so a branch on the tile id cannot stay. Its
body is what tile c alone does: the stores' backward slice with the tile id replaced by the
constant c and every view of "the executing tile's own" scratchpad by tile c's (`ct_local,
ct_id = c`). That code reads no tile id, so `tile-invariant-groups` runs it once (on core 0,
every scratchpad in reach) — the same memory as tile c running it. The slice outside the branch
is cloned (the other tiles still use the originals), the body moves before the branch, the
branch goes:
    %r_c = <the slice of %r for tile 0>
    ktdp.store %r_c, %out_tile
Any condition computed from the tile id and constants by index arithmetic matches
(`t mod 4 == 0`: one copy per taking tile, 0, 4, 8, 12), if the branch has no results and no
else body; other branches on the tile id stay for the legality check to refuse. A tile id of
one result per grid dimension (`%x, %y = ktdp.get_compute_tile_id : index, index`) reads tile
t's coordinates, the first dimension fastest (ktir.md D2): on grid [2, 16], `%y == 0` holds on
tiles 0 and 1, each copy with its coordinates as constants.
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import MemoryKind, MemorySpaceAttr, kernel_grid
from scheduler.analysis.index_exprs import index_constant
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns, clone_slice, dead_code

_FOLD = {
    arith.AddiOp: lambda a, b: a + b, arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b, arith.DivUIOp: lambda a, b: a // b,
    arith.RemUIOp: lambda a, b: a % b, arith.FloorDivSIOp: lambda a, b: a // b,
    arith.AndIOp: lambda a, b: a & b, arith.OrIOp: lambda a, b: a | b,
    arith.MinSIOp: min, arith.MaxSIOp: max,
}
_CMP = {0: lambda a, b: a == b, 1: lambda a, b: a != b, 2: lambda a, b: a < b,
        3: lambda a, b: a <= b, 4: lambda a, b: a > b, 5: lambda a, b: a >= b,
        6: lambda a, b: a < b, 7: lambda a, b: a <= b, 8: lambda a, b: a > b,
        9: lambda a, b: a >= b}


def value_on_tile(v: SSAValue, tile: int) -> int | None:
    """`v` on linear tile `tile`: index arithmetic over the tile id and constants."""
    op = v.owner
    if isinstance(op, ktdp.GetComputeTileIdOp):
        if len(op.ids) == 1:
            return tile
        coords = tile_coords(op, tile)
        return None if coords is None else coords[list(op.ids).index(v)]
    c = const_int(v)
    if c is not None:
        return c
    if isinstance(op, arith.CmpiOp):
        a, b = value_on_tile(op.lhs, tile), value_on_tile(op.rhs, tile)
        return None if a is None or b is None else int(_CMP[op.predicate.value.data](a, b))
    fold = _FOLD.get(type(op)) if isinstance(op, Operation) else None
    if fold is None or len(op.operands) != 2:
        return None
    a, b = value_on_tile(op.operands[0], tile), value_on_tile(op.operands[1], tile)
    if a is None or b is None or (b == 0 and isinstance(op, arith.DivUIOp | arith.RemUIOp
                                                        | arith.FloorDivSIOp)):
        return None
    return fold(a, b)


def tile_coords(op: ktdp.GetComputeTileIdOp, tile: int) -> list[int] | None:
    """The grid coordinates of linear tile `tile`, the first dimension fastest (ktir.md D2)."""
    grid = kernel_grid(op)
    if grid is None or len(grid) != len(op.ids):
        return None
    out = []
    for d in grid:
        out.append(tile % d)
        tile //= d
    return out


def taken_by(cond: SSAValue, tiles: int) -> list[int] | None:
    """The tiles on which `cond` holds; None when it is not computed from the tile id and
    constants alone (or not from the tile id at all)."""
    got = [value_on_tile(cond, t) for t in range(tiles)]
    if any(g is None for g in got) or len(set(got)) < 2:
        return None
    return [t for t, g in enumerate(got) if g]


def _own_scratchpad(op: Operation) -> bool:
    space = getattr(op, "memory_space", None)
    return (isinstance(op, ktdp.ConstructMemoryViewOp) and isinstance(space, MemorySpaceAttr)
            and space.kind.data == MemoryKind.CT_LOCAL and space.ct_id.data < 0)


def on_tile(tile: int, coords: list[ktdp.GetComputeTileIdOp] | None = None):
    """The substitution making an op tile `tile`'s: its id, its scratchpad. The clones of a
    per-dimension id (one result per grid dimension) are collected in `coords`, for
    `pin_coordinates` to replace by constants."""
    def sub(o: Operation, mapper: dict[SSAValue, SSAValue]) -> Operation | None:
        if isinstance(o, ktdp.GetComputeTileIdOp):
            if len(o.ids) == 1:
                return index_constant(tile)
            new = o.clone(mapper)
            if coords is not None:
                coords.append(new)
            return new
        new = o.clone(mapper)
        for inner in new.walk():
            if _own_scratchpad(inner):
                inner.properties["memory_space"] = MemorySpaceAttr(MemoryKind.CT_LOCAL, tile)
        return new
    return sub


def pin_coordinates(ids: list[ktdp.GetComputeTileIdOp], original: ktdp.GetComputeTileIdOp,
                    tile: int, rewriter: PatternRewriter) -> None:
    """Each cloned per-dimension id becomes tile `tile`'s coordinates, as constants."""
    coords = tile_coords(original, tile)
    assert coords is not None  # taken_by computed the condition from them
    for o in ids:
        consts = [index_constant(c) for c in coords]
        rewriter.insert(consts, InsertPoint.before(o))
        for r, c in zip(o.ids, consts):
            r.replace_all_uses_with(c.results[0])
        rewriter.erase(o)


class InlineSingleTileBranch(RewritePattern):
    """An `scf.if` on the tile id becomes the code of each tile that takes it (see the
    module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        grid = kernel_grid(op)
        if grid is None or op.results or (op.false_region.blocks and any(
                not isinstance(o, scf.YieldOp) for o in op.false_region.block.ops)):
            return
        tiles = taken_by(op.cond, math.prod(grid))
        if tiles is None:
            return
        body = [o for o in op.true_region.block.ops if not isinstance(o, scf.YieldOp)]
        at = InsertPoint.before(op)
        for t in tiles:
            mapper: dict[SSAValue, SSAValue] = {}
            ids: list[ktdp.GetComputeTileIdOp] = []
            sub = on_tile(t, ids)
            clone_slice(body, rewriter, at, mapper, lambda o, m=mapper, s=sub: s(o, m))
            for o in body:
                new = sub(o, mapper)
                assert new is not None
                for old, res in zip(o.results, new.results):
                    mapper[old] = res
                rewriter.insert(new, at)
            if ids:
                pin_coordinates(ids, ids[0], t, rewriter)
        rewriter.erase(op)


class SingleTileBranchesPass(ModulePass):
    """Inline every branch on `tile id == c` as tile c's code; others are left alone."""

    name = "single-tile-branches"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if apply_patterns(op, [InlineSingleTileBranch()]):
            for f in op.walk():
                if isinstance(f, func.FuncOp) and not f.is_declaration:
                    dead_code(f.body)
