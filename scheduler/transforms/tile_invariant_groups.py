"""`tile-invariant-groups`: a compute group every tile would run identically runs on tile 0.

A KTIR kernel runs its body on every tile of its grid. A compute group that reads no tile id
(`ktdp.get_compute_tile_id` / coordinates), and no view of "the executing tile's own"
scratchpad (`ct_local` without `ct_id`, whose contents differ per tile), computes the same
values into the same places on every tile: the RFC-style copies that address fixed device
memory (`distributed-view-copy`, grid [2, 1, 1], both tiles write all of B). Run on every core,
such a group writes each byte once per core, unordered between the cores — the emulator's race
checker rightly calls that an unsynchronised access, and the cores would share the device
memory bandwidth for nothing. Its final memory is that of one run, so the group function gets
`ktdf.active_tiles = 1`: `ktdf-to-ktdflowering` materialises its units on core 0 alone (the
memories of every tile of the grid stay reachable: core 1's scratchpad for a `ct_id = 1`
view). The grid (which `ct_id`s are checked against) and every other group are unchanged.
Groups with inter-tile ops are left alone (they mean different things per tile).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.passes import ModulePass

from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import kernel_grid
from scheduler.analysis.slices import per_tile

ACTIVE_TILES = "ktdf.active_tiles"

def tile_invariant(fn: func.FuncOp) -> bool:
    """The group computes the same on every tile (see the module docstring)."""
    ops = list(fn.walk())
    return not any(per_tile(op) for op in ops) and any(isinstance(op, ktdp.StoreOp) for op in ops)


class TileInvariantGroupsPass(ModulePass):
    """Mark each tile-invariant compute group (`module @local_schedule_N`) to run on one
    tile (`ktdf.active_tiles = 1`). Idempotent; a module without groups (or a grid of one
    tile) is unchanged."""

    name = "tile-invariant-groups"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if not isinstance(inner, ModuleOp) or inner.sym_name is None \
                    or not inner.sym_name.data.startswith("local_schedule"):
                continue
            for fn in inner.ops:
                if not isinstance(fn, func.FuncOp) or fn.is_declaration:
                    continue
                grid = kernel_grid(fn)
                if grid is None or all(g == 1 for g in grid) or not tile_invariant(fn):
                    continue
                fn.attributes[ACTIVE_TILES] = IntegerAttr(1, 64)
