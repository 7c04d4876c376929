"""SpyreCode: the DataflowIR dialects (`dataflow`, `agen`, `vectorchain`, `uniform`, `symbol`) and the symbolic binary + job plan."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.ir import Dialect
    from xdsl.passes import ModulePass


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    return {}


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {}
