"""ktdflowering-to-dfir is assembled from one module per lowered family: each family exports
its patterns and the op types they lower, and the pass runs all of them (a family added as a
module but not to the pass would leave its ops to the "no DataflowIR lowering" error)."""

from __future__ import annotations

import importlib
import pkgutil

from xdsl.pattern_rewriter import RewritePattern

import scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir as pkg
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.programs import Programs


def test_every_family_is_assembled() -> None:
    helpers = ("programs", "masked")  # the split into programs; masked DMA for transfers
    families = [m.name for m in pkgutil.iter_modules(pkg.__path__) if m.name not in helpers]
    assert sorted(families) == ["buffering", "compute", "control", "indirect", "matrix", "signals",
                                "symbols", "transfers"]
    for name in families:
        family = importlib.import_module(f"{pkg.__name__}.{name}")
        assert family in pkg.FAMILIES, name
        patterns = family.patterns(Programs())
        assert patterns, name
        assert all(isinstance(p, RewritePattern) for p in patterns), name
        assert set(family.LOWERED) <= set(pkg.LOWERED), name
