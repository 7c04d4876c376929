"""Backward slices: every op a set of roots transitively depends on.

Shared by `compute-group-extraction` (a group is the slice of its stores) and
`construct-three-stage-pipeline` (the slice of a group's stores is what its pipeline
replaces).
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir import Operation


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
