"""Emulation failures (shared/spec/dataflow-ir.md §7 E12): every one names the unit, the op
(with its source location when the IR was parsed from text) and the simulated cycle.

Runtime helpers raise these with only a message; the engine fills in the unit, the op (found
from the generated program's line) and the cycle before the error leaves `emulate`. `.text`
is the formatted message the CLI prints.
"""

from __future__ import annotations

from xdsl.ir import Operation

from ktir.diagnostics import op_location


class EmulationError(Exception):
    """Base of every emulator failure; `.text` is the formatted, located message."""

    def __init__(self, message: str, *, unit: str | None = None, op: Operation | None = None,
                 cycle: float | None = None):
        super().__init__(message)
        self.message = message
        self.unit = unit
        self.op = op
        self.cycle = cycle
        self.text = self._format()

    def locate(self, *, unit: str | None = None, op: Operation | None = None,
               cycle: float | None = None) -> EmulationError:
        """Fill in what the raiser did not know (never overwrites)."""
        self.unit = self.unit if self.unit is not None else unit
        self.op = self.op if self.op is not None else op
        self.cycle = self.cycle if self.cycle is not None else cycle
        self.text = self._format()
        return self

    def _format(self) -> str:
        where = []
        if self.unit is not None:
            where.append(f"unit {self.unit}")
        if self.cycle is not None:
            where.append(f"cycle {int(self.cycle)}")
        msg = self.message + (f" [{', '.join(where)}]" if where else "")
        if self.op is None:
            return f"error: {msg}"
        text = f"'{self.op.name}' op {msg}"
        loc = op_location(self.op)
        if loc is None:
            return f"error: {text}"
        from ktir.diagnostics import format_at

        return format_at(*loc, text)

    def __str__(self) -> str:
        return self.text


class DeadlockError(EmulationError):
    """Every live process is blocked; the message lists each with what it waits for."""


class OutOfBoundsError(EmulationError):
    """An access outside a memory's bytes or outside the view's shape."""


class CapacityError(EmulationError):
    """A scratchpad (or deeper memory) overflows its `size`."""


class ChannelTypeError(EmulationError):
    """A receive whose type or element count differs from what was sent."""


class CycleLimitError(EmulationError):
    """The run went past `cycle_limit` cycles (or loop iterations)."""


class RaceError(EmulationError):
    """Two units touched the same bytes, one writing, with no signal or FIFO message ordering
    them (E9)."""


class UnboundSymbolError(EmulationError):
    """`symbol.create_symbol` read an id no `symbol.create_id` bound."""


class UnsupportedOpError(EmulationError):
    """An op (or a form of one) the emulator does not execute."""


class WiringError(EmulationError):
    """Units or memories that the device does not have or does not connect."""


class LeftoverError(EmulationError):
    """Data left in a FIFO or a signal counter at the end, with `strict=True`."""


class RuntimeFault(EmulationError):
    """Any other failure of a program: missing map key, division by zero, bad handle use."""


def loop_limit_message(who: str, iters: int, limit: int) -> str:
    return (f"{who} reached {iters:,} iterations of loops that do no timed work (no transfer, "
            f"vector op or signal), more than the loop limit of {limit:,}: an endless loop? "
            "(raise the limit with --loop-limit)")
