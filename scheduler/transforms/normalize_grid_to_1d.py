"""`normalize-grid-to-1d`: flatten a multi-dimensional `grid` and delinearise tile ids.

The backend materialises one set of units per linear tile id, so a kernel must see a 1-D grid.
Coordinates follow ktir.md D2 (the first grid dimension varies fastest):
    t0 = id mod d0,  t1 = (id floordiv d0) mod d1,  ...
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir.dialects.ktdp import GetComputeTileIdOp, kernel_grid
from ktir.interpreter.arguments import kernel_grid_of
from scheduler.analysis.index_exprs import index_constant
from scheduler.rewriting import apply_patterns


def _delinearise(op: GetComputeTileIdOp, grid: tuple[int, ...]
                 ) -> tuple[list[Operation], list[SSAValue]]:
    """The linear tile id and the chain of remainders and quotients that rebuild `op`'s
    coordinates from it."""
    linear = GetComputeTileIdOp(1)
    linear.location = op.location
    new_ops: list[Operation] = [linear]
    coords: list[SSAValue] = []
    rest: SSAValue = linear.ids[0]
    linear.ids[0].name_hint = "tile"
    for d in grid[:-1]:
        size = index_constant(d)
        coord = arith.RemUIOp(rest, size)
        rest_op = arith.DivUIOp(rest, size)
        new_ops += [size, coord, rest_op]
        coords.append(coord.result)
        rest = rest_op.result
    coords.append(rest)
    return new_ops, coords[:len(op.ids)]


class FlattenGrid(RewritePattern):
    """A function with a grid of several dimensions gets the grid of their product; every
    multi-result `ktdp.get_compute_tile_id` inside it becomes the linear id and the
    arithmetic that rebuilds the coordinates. One pattern, on the function: the grid and the
    tile ids it numbers change together."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, fn: func.FuncOp, rewriter: PatternRewriter) -> None:
        grid = kernel_grid(fn) if "grid" in fn.attributes else None
        if grid is None or len(grid) == 1:
            return  # a 1-D grid's size is checked against the device where tiles get cores
        kernel_grid_of(fn)  # located: a product past the element limit (or past i64)
        for tid in [o for o in fn.walk() if isinstance(o, GetComputeTileIdOp)]:
            if len(tid.ids) > 1:
                # the coordinates keep the names of the ids they replace
                rewriter.replace(tid, *_delinearise(tid, grid))
        fn.attributes["grid"] = ArrayAttr([IntegerAttr(math.prod(grid), i64)])
        rewriter.notify_op_modified(fn)


class NormalizeGridTo1DPass(ModulePass):
    """Make every kernel grid one-dimensional.

    Before:  func.func @k() attributes {grid = [4, 8]} { %x, %y = ktdp.get_compute_tile_id : index, index }
    After:   func.func @k() attributes {grid = [32]} {
               %id = ktdp.get_compute_tile_id : index
               %x = arith.remui %id, %c4 ; %q = arith.divui %id, %c4 ; %y = %q (last dim) }
    Idempotent: 1-D grids and single-result tile ids are left unchanged.
    """

    name = "normalize-grid-to-1d"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [FlattenGrid()])
