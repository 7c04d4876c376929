"""KTIR: the `ktdp` and `spyreop` dialects and the reference interpreter (golden semantics).

Nothing heavy is imported here: `get_all_dialects()` maps names to factories that import on
first use, which keeps CLI start-up short.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xdsl.ir import Dialect
    from xdsl.passes import ModulePass


def _ktdp() -> Dialect:
    from ktir.dialects.ktdp import Ktdp

    return Ktdp


def _spyreop() -> Dialect:
    from ktir.dialects.spyreop import Spyreop

    return Spyreop


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    return {"ktdp": _ktdp, "spyreop": _spyreop}


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {}


def interpret(module_or_path: Any, *, args: dict[str, Any] | None = None, seed: int = 0,
              scratchpad_bytes: int | None = None, **arrays: Any) -> dict[str, Any]:
    """Run a KTIR kernel on numpy (the reference interpreter) and return the device-memory
    buffers it wrote, by argument name; see `ktir.interpreter.interpret`."""
    from ktir.interpreter import interpret as _interpret

    return _interpret(module_or_path, args=args, seed=seed, scratchpad_bytes=scratchpad_bytes,
                      **arrays)
