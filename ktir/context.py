"""One place to build an xDSL context with every dialect a KTIR kernel may use, and to parse.

The upstream dialects come from xDSL (lazily, like xdsl-opt); the others from the installed
xDSL universes (the `xdsl.universe` entry points, as xdsl-opt finds plugins): ktir's
application layer declares one naming the dialects of every ktir package, so a kernel file
holding a device declaration parses here without this bottom layer importing the layers
above it. Parsing goes through `ktir.diagnostics` so every error is located.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.ir import Dialect, Operation

from ktir.errors import KtirDiagnostic


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


@cache
def installed_dialects() -> dict[str, Callable[[], Dialect]]:
    """xDSL's dialects, ktir's own, and those of every installed xDSL universe (lazy
    factories; nothing is imported until a dialect is used)."""
    from xdsl.universe import Universe

    import ktir
    from ktir.dialects import mlir_compat

    mlir_compat.install()
    return {**get_all_dialects(), **ktir.get_all_dialects(),
            **Universe.get_multiverse().all_dialects}


def make_context(allow_unregistered: bool = False,
                 dialects: Mapping[str, Callable[[], Dialect]] | None = None) -> Context:
    """A context knowing `dialects` (default: `installed_dialects()`)."""
    ctx = KtirContext(allow_unregistered=allow_unregistered)
    for name, factory in (installed_dialects() if dialects is None else dialects).items():
        ctx.register_dialect(name, factory)
    return ctx


def parse_module(text: str, name: str = "<string>", ctx: Context | None = None,
                 verify: bool = True) -> ModuleOp:
    """Parse (and verify) MLIR text; raises `KtirDiagnostic` with a located message."""
    from ktir.diagnostics import parse_text, verify_located  # not at start-up (CLI --help)

    ctx = ctx or make_context()
    module = parse_text(ctx, text, name)
    if verify:
        verify_located(module, ctx)
    return module


def load_module(path: str | Path, ctx: Context | None = None, verify: bool = True) -> ModuleOp:
    """Parse (and verify) an MLIR file."""
    from ktir.limits import read_limited

    p = Path(path)
    try:
        if os.path.isdir(p):
            raise KtirDiagnostic(f"error: cannot read '{p}': it is a directory")
        # universal newlines, as Path.read_text does
        text = read_limited(p).decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except OSError as e:
        raise KtirDiagnostic(f"error: cannot read '{p}': {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise KtirDiagnostic(f"error: '{p}' is not UTF-8 text (byte {e.start})") from None
    return parse_module(text, str(path), ctx, verify)
