"""One place to build an xDSL context with every dialect a KTIR kernel may use, and to parse.

The upstream dialects come from xDSL (lazily, like xdsl-opt); ktir's own come from the
registry. Parsing goes through `ktir.diagnostics` so every error is located.
"""

from __future__ import annotations

from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp

from ktir.diagnostics import KtirDiagnostic, parse_text, verify_located


def make_context(allow_unregistered: bool = False) -> Context:
    from scheduler.registry import all_dialects

    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in {**get_all_dialects(), **all_dialects()}.items():
        ctx.register_dialect(name, factory)
    return ctx


def parse_module(text: str, name: str = "<string>", ctx: Context | None = None,
                 verify: bool = True) -> ModuleOp:
    """Parse (and verify) MLIR text; raises `KtirDiagnostic` with a located message."""
    module = parse_text(ctx or make_context(), text, name)
    if verify:
        verify_located(module)
    return module


def load_module(path: str | Path, ctx: Context | None = None, verify: bool = True) -> ModuleOp:
    """Parse (and verify) an MLIR file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise KtirDiagnostic(f"error: cannot read '{p}': {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise KtirDiagnostic(f"error: '{p}' is not UTF-8 text (byte {e.start})") from None
    return parse_module(text, str(path), ctx, verify)
