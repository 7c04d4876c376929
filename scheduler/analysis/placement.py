"""Which core's scratchpad a view lives in, and how another core's scratchpad is reached.

A view over `#ktdp.memory_space<ct_local, ct_id = k>` (the legacy `<LX, core = k>` is
upgraded to it when parsed) lives in the scratchpad of core k, whichever tile reads it; a
`ct_local` view without `ct_id` in the executing tile's own. After
`construct-three-stage-pipeline` such a view is a `memref.memory_space_cast` to the device's
scratchpad kind ("LX"); the kind alone does not say which core's, so the passes that route and
lower transfers ask `owner_core` about the cast's source.

The device says how data crosses cores: an *inter-core unit* is a unit kind with datapaths
from and to the scratchpad kind and links between its own instances (spyre's RING: `LX ->
RING`, `RING -> LX`, `RING -> RING` between neighbouring cores). A read of core k's scratchpad
is one transfer on the executing tile's inter-core unit, from core k's scratchpad into a buffer
of its own; the emulator routes it over the chain of link instances between the two cores (so
a tile reading its own core's view crosses no ring link, and no byte of device memory moves).
"""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, StringAttr
from xdsl.ir import SSAValue

from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import int_list


def view_of(value: SSAValue) -> ktdp.ConstructMemoryViewOp | None:
    """The KTIR view behind a value (through a `memref.memory_space_cast`)."""
    owner = value.owner
    if isinstance(owner, memref.MemorySpaceCastOp):
        owner = owner.source.owner
    return owner if isinstance(owner, ktdp.ConstructMemoryViewOp) else None


def owner_core(value: SSAValue) -> int | None:
    """The core whose scratchpad a view names (`ct_id = k`); None for device memory and for
    the executing tile's own scratchpad (`ct_local` without `ct_id`)."""
    view = view_of(value)
    if view is None:
        return None
    space = view.memory_space
    if isinstance(space, ktdp.MemorySpaceAttr) and space.ct_id.data >= 0:
        return space.ct_id.data
    return None


def inter_core_unit(device, memory_kind: str) -> str | None:
    """The unit kind that moves data between instances of a per-core memory kind: datapaths
    memory -> unit and unit -> memory, and a link between two of its instances (the
    description's `RING -> RING`). None when the device has none."""
    found = []
    for kind in sorted(device.units):
        if (device.datapath(memory_kind, kind) is not None
                and device.datapath(kind, memory_kind) is not None
                and device.datapath(kind, kind) is not None):
            found.append(kind)
    return found[0] if found else None


def view_bytes(value: SSAValue, single_tile: bool = False
               ) -> tuple[tuple[str, object], int, int] | None:
    """The scratchpad bytes a constant-address KTIR view names: ((memory kind, core), lo,
    hi), the core its `ct_id` or "own" (the executing tile's; core 0 when the group runs on
    `single_tile`); None for anything else (a buffer the compiler placed, device memory
    seen through a kernel argument, a view at a run-time address or with dynamic strides)."""
    cast = value.owner
    view = view_of(value)
    if not isinstance(cast, memref.MemorySpaceCastOp) or view is None or view.sizes \
            or view.strides:
        return None
    t = cast.dest.type
    offset = view.offset.owner
    if not isinstance(t, MemRefType) or not isinstance(t.memory_space, StringAttr) \
            or not isinstance(offset, arith.ConstantOp) \
            or not isinstance(offset.value, IntegerAttr):
        return None
    width = getattr(t.element_type, "bitwidth", None)
    if not width:
        return None
    size = max(1, width // 8)
    start = offset.value.value.data
    last = start + sum((n - 1) * st for n, st in zip(int_list(view.static_sizes),
                                                      int_list(view.static_strides)) if n > 0)
    core = owner_core(value)
    where = core if core is not None else (0 if single_tile else "own")
    return (t.memory_space.data, where), start * size, (last + 1) * size


def bytes_overlap(a: tuple[tuple[str, object], int, int] | None,
                  b: tuple[tuple[str, object], int, int] | None) -> bool:
    """Whether two `view_bytes` ranges share a byte of one memory instance."""
    return a is not None and b is not None and a[0] == b[0] and a[1] < b[2] and b[1] < a[2]
