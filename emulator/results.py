"""What a run reports (shared/spec/dataflow-ir.md §7 E13; issue 6 item 4): cycles and
seconds, per-unit busy and stalled time by cause, bytes per datapath and per shared memory,
the bound (when the caller gave the kernel's work: arch_descriptions.model.roofline), the
trace, warnings, and access to the memories for reading outputs back.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import numpy as np

from arch_descriptions.model import Roofline
from emulator.errors import CapacityError, OutOfBoundsError
from emulator.machine import Machine
from ktir.limits import over


@dataclass
class UnitStats:
    """One unit's run: cycles busy, cycles stalled by cause (recv: empty FIFO, send: full
    FIFO, signal: waiting for a signal, dma: waiting for its transfers, data: operand not
    ready yet, link: datapath busy), events, and its start/end cycles."""

    name: str
    kind: str
    busy: float = 0.0
    stalled: dict[str, float] = field(default_factory=dict)
    events: int = 0
    start: float = 0.0
    end: float = 0.0

    @property
    def stalled_total(self) -> float:
        return sum(self.stalled.values())


@dataclass
class EmulationResult:
    machine: Machine = field(repr=False)
    cycles: int = 0
    clock_ghz: float = 1.0
    units: dict[str, UnitStats] = field(default_factory=dict)
    bytes_per_datapath: dict[str, int] = field(default_factory=dict)
    bytes_per_link: dict[str, int] = field(default_factory=dict)
    # per memory instance with its own bandwidth: (bytes through its port, cycles busy)
    memory_ports: dict[str, tuple[int, float]] = field(default_factory=dict)
    roofline: Roofline | None = None  # the bound of the kernel's work (None: not given)
    events: int = 0
    warnings: list[str] = field(default_factory=list)
    trace_events: list[dict] | None = None
    launches: int = 0
    wall_seconds: float = 0.0
    # per launch of a compute group's body: (function, first cycle, last cycle)
    launch_spans: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return self.cycles / (self.clock_ghz * 1e9)

    @property
    def roofline_cycles(self) -> int | None:
        return self.roofline.cycles if self.roofline is not None else None

    @property
    def efficiency(self) -> float | None:
        """Bound / emulated cycles (1.0 = at the bound; above 1 would mean the bound is not
        one, a bug)."""
        if self.roofline is None:
            return None
        return self.roofline.cycles / self.cycles if self.cycles else 1.0

    @property
    def binding_resource(self) -> str | None:
        return self.roofline.binding_resource if self.roofline is not None else None

    def read(self, kind_or_instance: str, element_address: int, shape: tuple[int, ...] | int,
             dtype: np.dtype | type | str) -> np.ndarray:
        """The array at an element address of a memory (`"DDR"`, `"L1@3"`, `"C3-L1"`):
        bytes from `element_address * itemsize`; never-written bytes read as zeros."""
        dt = np.dtype(dtype)
        shp = (shape,) if isinstance(shape, int) else tuple(shape)
        n = math.prod(shp)
        mem = self.machine.memory(kind_or_instance)
        lo, nbytes = element_address * dt.itemsize, n * dt.itemsize
        if lo < 0 or any(d < 0 for d in shp) or (mem.size is not None and lo + nbytes > mem.size):
            raise OutOfBoundsError(f"cannot read {'x'.join(map(str, shp))} {dt} at element "
                                   f"{element_address} of {mem.name}: bytes [{lo:,}, "
                                   f"{lo + nbytes:,}) are not inside its "
                                   f"{mem.size if mem.size is not None else 'unbounded'} bytes")
        if (msg := over("buffer_bytes", nbytes, f"reading {mem.name}")) is not None:
            raise CapacityError(msg)
        raw = mem.read_bytes(lo, nbytes)
        return raw.view(dt).reshape(shp)

    def write_trace(self, path: str | Path | TextIO) -> None:
        """Chrome-trace JSON (Perfetto, chrome://tracing): one track per unit, to a file
        (a path or an open text file)."""
        if self.trace_events is None:
            raise ValueError("no trace was recorded: run emulate(..., trace=True)")
        text = json.dumps({"traceEvents": self.trace_events, "displayTimeUnit": "ns"})
        if isinstance(path, str | Path):
            Path(path).write_text(text)
        else:
            path.write(text)

    def summary(self) -> dict[str, object]:
        return {"cycles": self.cycles, "seconds": self.seconds,
                "roofline_cycles": self.roofline_cycles, "efficiency": self.efficiency,
                "bound": self.roofline.bound if self.roofline is not None else None,
                "binding_resource": self.binding_resource, "events": self.events,
                "bytes_per_datapath": dict(self.bytes_per_datapath),
                "bytes_per_memory": {k: n for k, (n, _) in self.memory_ports.items()}}
