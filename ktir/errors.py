"""The user-facing error type, in a module that imports nothing heavy, so that command-line
entry points can catch it without importing xDSL at start-up (`ktir.diagnostics` formats and
raises it)."""

from __future__ import annotations


class KtirDiagnostic(Exception):
    """A user-facing error that is already formatted (location, line, caret, message)."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


REPORT_HINT = ("this is a bug in ktir, not in your input: please report it with the input and "
               "this message (KTIR_TRACEBACK=1 shows the traceback)")


def internal_error(tool: str, e: BaseException) -> str:
    """The one line a command prints for an exception that no input should cause. Memory
    running out is not a bug: within the size limits (`--max-buffer-bytes`, ...) a run may
    still need more than the machine has free at the time."""
    first = str(e).strip().split("\n")[0]
    if len(first) > 300:
        first = first[:300] + "..."
    if isinstance(e, MemoryError):
        return (f"{tool}: error: out of memory: {first or 'an allocation failed'} (the machine "
                "has not that much free now: run on smaller sizes, or with less running)")
    return f"{tool}: internal error: {type(e).__name__}: {first}\n{tool}: {REPORT_HINT}"
