"""SpyreCode: the DataflowIR dialects (`dataflow`, `agen`, `vectorchain`, `matrixchain`, `uniform`, `symbol`) and the symbolic binary + job plan.

Nothing heavy is imported here: each factory imports its dialect module on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.ir import Dialect
    from xdsl.passes import ModulePass

# dialect name -> (module under spyrecode.dialects, Dialect object in it)
_DIALECTS = {
    "dataflow": ("dataflow", "Dataflow"),
    "agen": ("agen", "Agen"),
    "vectorchain": ("vectorchain", "VectorChain"),
    "matrixchain": ("matrixchain", "MatrixChain"),
    "uniform": ("uniform", "Uniform"),
    "symbol": ("symbol", "Symbol"),
}


def _factory(module: str, attr: str) -> Callable[[], Dialect]:
    def load() -> Dialect:
        return getattr(import_module(f"spyrecode.dialects.{module}"), attr)

    return load


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    return {name: _factory(mod, attr) for name, (mod, attr) in _DIALECTS.items()}


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {}
