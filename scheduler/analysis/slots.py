"""Scratchpad slots: stick-aligned byte ranges a frontend pass gives data it places on chip.

Passes that put values in scratchpads at constant addresses (inter-tile partials, tensors
shared between tiles) place them after every constant-address scratchpad range the kernel
already names, so they never overlap data an earlier operator left on chip, each other, or
the buffers `address-assignment` places after them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType

from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import MemoryKind, MemorySpaceAttr, int_list
from scheduler.dialects.ktdf_types import const_int

STICK_BYTES = 128


def elem_bytes(t: TensorType | MemRefType) -> int:
    w = getattr(t.element_type, "bitwidth", 8)
    return 1 if w == 1 else max(1, w // 8)


def tensor_bytes(t: TensorType | MemRefType) -> int:
    n = 1
    for d in t.get_shape():
        n *= d
    return n * elem_bytes(t)


def row_major(shape: list[int]) -> list[int]:
    out, s = [], 1
    for d in reversed(shape):
        out.append(s)
        s *= d
    return list(reversed(out))


def reserved_end(module: ModuleOp) -> int:
    """The end (bytes) of the scratchpad ranges the kernel's constant-address views name."""
    end = 0
    for v in module.walk():
        if not isinstance(v, ktdp.ConstructMemoryViewOp):
            continue
        space = v.memory_space
        off = const_int(v.offset)
        if not isinstance(space, MemorySpaceAttr) or space.kind.data != MemoryKind.CT_LOCAL \
                or off is None or v.sizes or v.strides:
            continue
        sizes, strides = int_list(v.static_sizes), int_list(v.static_strides)
        last = off + sum((n - 1) * s for n, s in zip(sizes, strides) if n > 0)
        end = max(end, (last + 1) * elem_bytes(v.result.type))
    return end


class Slots:
    """Bump allocation of slot byte ranges, stick-aligned. In a scratchpad, one slot per
    value (each tile has its own scratchpad); in a device-memory workspace, one slot per
    value and tile, `stride` elements apart."""

    def __init__(self, start: int, tiles: int = 0):
        self.next = -(-start // STICK_BYTES) * STICK_BYTES
        self.tiles = tiles
        self.element_bytes: int | None = None

    def take(self, t: TensorType | MemRefType) -> tuple[int, int]:
        """(element address, per-tile stride in elements) of a new slot holding a `t`."""
        eb = elem_bytes(t)
        if self.element_bytes is None:
            self.element_bytes = eb
        at = self.next
        size = -(-tensor_bytes(t) // STICK_BYTES) * STICK_BYTES
        self.next += size * max(1, self.tiles)
        return at // eb, size // eb
