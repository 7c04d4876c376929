"""One place to build an xDSL context with every dialect a KTIR kernel may use, and to parse.

The upstream dialects come from xDSL (lazily, like xdsl-opt); the others from the installed
xDSL universes (the `xdsl.universe` entry points, as xdsl-opt finds plugins): ktir's
application layer declares one naming the dialects of every ktir package, so a kernel file
holding a device declaration parses here without this bottom layer importing the layers
above it. A context made by `make_context()` asks for those universes only when a name of
a dialect neither xDSL nor ktir defines comes up: scanning the installed packages' entry
points (importlib.metadata, xDSL's universe of passes and targets) costs ~0.02 CPU s of
every `ktir interpret` start-up, and a kernel of ktdp and upstream ops never needs it. The
universes cannot rename a dialect of xDSL's (the multiverse refuses duplicate names), so the
dialects found are the same.
Parsing goes through `ktir.diagnostics` so every error is located.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.ir import Attribute, Dialect, Operation, TypeAttribute

from ktir.errors import KtirDiagnostic


class KtirContext(Context):
    """A context in which the ops of MLIR's `test` dialect (`"test.use"(%x)`, `test.body`, ...)
    parse as opaque unregistered ops even without --allow-unregistered-dialect.

    Upstream's tests use them as stand-ins for "some user of this value"; accepting them keeps
    those inputs parseable, and every other unknown op is still an error.

    With `universes` set, the dialects of the installed xDSL universes are registered the
    first time a name of an unregistered dialect is looked up (and before the registered
    names are listed)."""

    universes: bool = False  # universes' dialects still to register on a miss

    def _load_universes(self) -> None:
        self.universes = False
        for dialect, factory in universe_dialects().items():
            if dialect not in self._registered_dialects:
                self.register_dialect(dialect, factory)

    def _add_universes(self, name: str) -> None:
        """Register the universes' dialects (once) if `name`'s dialect is not registered."""
        if self.universes and "." in name and \
                name.split(".", 1)[0] not in self._registered_dialects:
            self._load_universes()

    @property
    def registered_dialect_names(self) -> Iterable[str]:
        if self.universes:
            self._load_universes()
        return self._registered_dialects.keys()

    def get_optional_dialect(self, name: str) -> Dialect | None:
        self._add_universes(f"{name}.")
        return super().get_optional_dialect(name)

    def _get_known_op(self, name: str) -> type[Operation] | None:
        if name not in self._loaded_ops:
            self._add_universes(name)
        return super()._get_known_op(name)

    def get_optional_op(self, name: str, *,
                        dialect_stack: Sequence[str] = ()) -> type[Operation] | None:
        op = super().get_optional_op(name, dialect_stack=dialect_stack)
        if op is None and name.startswith("test."):
            op = UnregisteredOp.with_name(name)
            self._loaded_ops[name] = op
        return op

    def get_optional_type(self, name: str) -> type[TypeAttribute] | None:
        if name not in self._loaded_types:
            self._add_universes(name)
        return super().get_optional_type(name)

    def get_optional_attr(self, name: str) -> type[Attribute] | None:
        if name not in self._loaded_attrs:
            self._add_universes(name)
        return super().get_optional_attr(name)


@cache
def own_dialects() -> dict[str, Callable[[], Dialect]]:
    """xDSL's dialects and ktir's own (lazy factories; nothing is imported until a dialect
    is used)."""
    import ktir
    from ktir.dialects import mlir_compat

    mlir_compat.install()
    return {**get_all_dialects(), **ktir.get_all_dialects()}


@cache
def universe_dialects() -> dict[str, Callable[[], Dialect]]:
    """The dialects of every installed xDSL universe (entry points scanned once)."""
    from xdsl.universe import Universe

    return Universe.get_multiverse().all_dialects


def installed_dialects() -> dict[str, Callable[[], Dialect]]:
    """xDSL's dialects, ktir's own, and those of every installed xDSL universe."""
    return {**own_dialects(), **universe_dialects()}


def make_context(allow_unregistered: bool = False,
                 dialects: Mapping[str, Callable[[], Dialect]] | None = None) -> Context:
    """A context knowing `dialects` (default: `installed_dialects()`, the universes' ones
    registered on first need)."""
    ctx = KtirContext(allow_unregistered=allow_unregistered)
    ctx.universes = dialects is None
    for name, factory in (own_dialects() if dialects is None else dialects).items():
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
