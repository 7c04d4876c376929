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

from xdsl.dialects import memref
from xdsl.ir import SSAValue

from ktir.dialects import ktdp


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
