"""How the command-line programs end: `sys.exit` after moving every live object out of the
garbage collector's sight.

A `ktir` process holds a few hundred thousand objects it never frees (xDSL's op and attribute
classes, their definitions and format programs, the parsed kernel); the full collections
Python runs while it shuts down walk all of them, about 0.2 CPU s of every process (a third of
`ktir interpret`'s start-up). `gc.freeze()` skips that walk and nothing else: exit handlers,
stream flushing and finalizers run as before.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from typing import NoReturn


def leave(code: int, argv: Sequence[str] | None) -> NoReturn:
    """Exit with `code`. Only the program itself (`argv` None: it read `sys.argv`) freezes
    the heap; a caller running `main([...])` in-process keeps its collector as it was."""
    if argv is None:
        gc.freeze()
    sys.exit(code)
