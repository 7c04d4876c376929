"""Backward slices: every op a set of roots transitively depends on.

Shared by `compute-group-extraction` (a group is the slice of its stores) and
`construct-three-stage-pipeline` (the slice of a group's stores is what its pipeline
replaces); `per_tile` is the one test of "differs between tiles" that compute-group-extraction
and `tile-invariant-groups` both apply.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir import Operation

from ktir.dialects import ktdp

_PER_TILE = (ktdp.GetComputeTileIdOp, ktdp.InterTileProduceOp, ktdp.InterTileReduceOp,
             ktdp.InterTileConsumeOp)


def backward_slice(roots: Iterable[Operation]) -> set[Operation]:
    """The roots and every op (in the same function) they transitively depend on, through
    operands and through the values their regions capture (generic bodies)."""
    seen: set[Operation] = set()
    stack = list(roots)
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        for v in [v for inner in op.walk() for v in inner.operands]:
            owner = v.owner
            if isinstance(owner, Operation) and not op.is_ancestor(owner):
                stack.append(owner)
    return seen


def per_tile(op: Operation) -> bool:
    """The op means something different on each tile: it reads the tile id or coordinates,
    exchanges between tiles, or views "the executing tile's own" scratchpad (`ct_local`
    without `ct_id`, whose contents differ per tile)."""
    if isinstance(op, _PER_TILE) or op.name == "ktdp.get_compute_tile_coords":
        return True
    if isinstance(op, ktdp.ConstructMemoryViewOp):
        space = op.memory_space
        return not isinstance(space, ktdp.MemorySpaceAttr) or (
            space.kind.data == ktdp.MemoryKind.CT_LOCAL and space.ct_id.data < 0)
    return False
