"""Architecture descriptions: the `ktdf_arch` dialect, the read-only device model, shipped devices.

Nothing heavy is imported here: `get_all_dialects()` maps names to factories that import on
first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.ir import Dialect
    from xdsl.passes import ModulePass


def _ktdf_arch() -> Dialect:
    from arch_descriptions.dialects.ktdf_arch import KtdfArch

    return KtdfArch


def _ptr() -> Dialect:
    from arch_descriptions.dialects.ptr import Ptr

    return Ptr


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    return {"ktdf_arch": _ktdf_arch, "ptr": _ptr}


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {}
