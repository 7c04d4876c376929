"""How the command-line programs start and end, with the garbage collector kept off the
hundreds of thousands of objects start-up makes and never frees.

A `ktir` process holds a few hundred thousand objects it never frees (xDSL's op and attribute
classes, their definitions and format programs, the parsed kernel); the full collections
Python runs while it shuts down walk all of them, about 0.2 CPU s of every process (a third of
`ktir interpret`'s start-up). `gc.freeze()` skips that walk and nothing else: exit handlers,
stream flushing and finalizers run as before. Likewise `startup()` runs a command's imports
and parsing without collections (they make no garbage worth one: ~0.05 CPU s of the
collector's passes over a growing heap) and freezes what they built, so the collections of
the run that follows walk only the run's own objects.

`startup()` also installs `ktir_tools.startup_cache` (dataclass code kept across runs,
assembly formats compiled on first use), another ~0.1 CPU s of every command that uses it.

Only the program itself does this (`main()` with `argv` None: it read `sys.argv`); a caller
running `main([...])` in-process keeps its collector as it was.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import NoReturn

_program = False  # this process is the command-line program


def begin(argv: Sequence[str] | None) -> None:
    """Called first by `main(argv)`."""
    global _program
    _program = argv is None


@contextmanager
def startup() -> Iterator[None]:
    """A command's imports and parsing: no collections, then what they built is frozen."""
    if not _program:
        yield
        return
    from ktir_tools.startup_cache import install

    gc.disable()
    try:
        install()
        yield
    finally:
        gc.freeze()
        gc.enable()


def leave(code: int, argv: Sequence[str] | None) -> NoReturn:
    """Exit with `code` (the heap frozen when this is the program)."""
    if argv is None:
        gc.freeze()
    sys.exit(code)
