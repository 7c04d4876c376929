"""One place to build an xDSL context with every dialect a KTIR kernel may use, and to parse.

The upstream dialects come from xDSL (lazily, like xdsl-opt); ktir's own come from the
registry. Parsing goes through `ktir.diagnostics` so every error is located.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.ir import Operation

from ktir.diagnostics import KtirDiagnostic, parse_text, verify_located


class KtirContext(Context):
    """A context in which the ops of MLIR's `test` dialect (`"test.use"(%x)`, `test.body`, ...)
    parse as opaque unregistered ops even without --allow-unregistered-dialect.

    Upstream's tests use them as stand-ins for "some user of this value"; accepting them keeps
    those inputs parseable, and every other unknown op is still an error."""

    def get_optional_op(self, name: str, *,
                        dialect_stack: Sequence[str] = ()) -> type[Operation] | None:
        op = super().get_optional_op(name, dialect_stack=dialect_stack)
        if op is None and name.startswith("test."):
            op = UnregisteredOp.with_name(name)
            self._loaded_ops[name] = op
        return op


def make_context(allow_unregistered: bool = False) -> Context:
    from scheduler.registry import all_dialects

    ctx = KtirContext(allow_unregistered=allow_unregistered)
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
