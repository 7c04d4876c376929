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
