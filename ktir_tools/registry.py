"""Every dialect and pass of ktir, gathered lazily from the packages, and the xDSL Universe.

The `xdsl.universe` entry point names `KTIR_UNIVERSE`, so plain `xdsl-opt` sees the same
dialects and passes as `ktir-opt`. Factories import on first use only.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe

PACKAGES = ("ktir", "arch_descriptions", "scheduler", "spyrecode")


def _collect(attr: str) -> dict:
    out: dict = {}
    for name in PACKAGES:
        try:
            mod = import_module(name)
        except ModuleNotFoundError as e:
            if e.name == name:  # a package that has no code yet
                continue
            raise
        out.update(getattr(mod, attr)())
    return out


def all_dialects() -> dict[str, Callable[[], Dialect]]:
    return _collect("get_all_dialects")


def all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return _collect("get_all_passes")


KTIR_UNIVERSE = Universe(all_dialects=all_dialects(), all_passes=all_passes())
