"""Memory-effect traits the ScheduleIR ops share beyond xDSL's own.

`AllocatesResults`: the op allocates its results and does nothing else (`ktdf.fifo.allocate`
hands out FIFO slots). Dead-code elimination drops it once nothing uses them
(`would_be_trivially_dead` discards an allocation of the op's own values), and no pass may
merge two of them, as it could ops without effects.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from xdsl.ir import Operation
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind


class AllocatesResults(MemoryEffect):
    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        return {EffectInstance(MemoryEffectKind.ALLOC, r) for r in op.results}
