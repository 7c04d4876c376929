"""Limits on the work one input may ask for, so that a mistaken size fails at once with a
message instead of exhausting memory or time: the bytes of an input file, the elements of one
constant or tensor, and the memory of one buffer (the emulator's loop limit is an `emulate`
argument). The command lines set them (`ktir --max-input-bytes N ...`, `ktir-opt
--max-elements N`); `limits(...)` changes them for a `with` block.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace

from ktir.errors import KtirDiagnostic


@dataclass
class Limits:
    input_bytes: int = 64 << 20
    """bytes of one text input file (kernel, device, DataflowIR)"""
    elements: int = 1 << 28
    """elements of one constant, tensor or access tile that is materialised"""
    buffer_bytes: int = 2 << 30
    """bytes of one buffer: an argument's array, a tensor, a memory, an array read back, and
    of one array file (.npz, .npy)"""
    tiles: int = 1 << 16
    """tiles of one interpreted grid: each costs ~0.2-0.3 ms of Python (its addresses, or its
    coroutine when tiles communicate), so 2^16 tiles is ~20 s"""


CURRENT = Limits()

DEFAULT_LOOP_LIMIT = 10_000_000
"""iterations the emulator allows a loop whose body does no timed work (`emulate(...,
loop_limit=)`, `--loop-limit`): a few seconds of wall time"""

OPTIONS = {"input_bytes": "--max-input-bytes", "elements": "--max-elements",
           "buffer_bytes": "--max-buffer-bytes", "tiles": "--max-tiles"}


@contextmanager
def limits(**changes: int | None) -> Iterator[Limits]:
    """Change some limits for a block (None leaves one as it is)."""
    global CURRENT
    old = CURRENT
    CURRENT = replace(old, **{k: v for k, v in changes.items() if v is not None})
    try:
        yield CURRENT
    finally:
        CURRENT = old


def set_limits(**changes: int | None) -> None:
    """Change limits for the rest of the process (a command line's options)."""
    global CURRENT
    for f in fields(Limits):
        v = changes.get(f.name)
        if v is not None:
            if v <= 0:
                raise KtirDiagnostic(f"error: {OPTIONS[f.name]} must be positive, got {v}")
            CURRENT = replace(CURRENT, **{f.name: v})


def over(kind: str, amount: int, what: str) -> str | None:
    """The message when `amount` exceeds limit `kind` for `what` ('a tensor<...>'), else None."""
    limit = getattr(CURRENT, kind)
    if amount <= limit:
        return None
    unit = "elements" if kind == "elements" else "bytes"
    return (f"{what} needs {amount:,} {unit}, more than the limit of {limit:,} "
            f"(raise it with {OPTIONS[kind]})")


def read_limited(path, what: str = "input", kind: str = "input_bytes") -> bytes:
    """The bytes of a file, at most limit `kind` of them (raises KtirDiagnostic naming the
    file, or OSError). Text inputs are held to `input_bytes`; array files (.npz, .npy) hold
    buffers, so `buffer_bytes` bounds them."""
    limit = getattr(CURRENT, kind)
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    check_file_size(path, len(data), what, kind)
    return data


def check_file_size(path, size: int, what: str, kind: str = "input_bytes") -> None:
    """Raises KtirDiagnostic naming the file when `size` bytes exceed limit `kind`."""
    limit = getattr(CURRENT, kind)
    if size > limit:
        raise KtirDiagnostic(f"error: {what} '{path}' is larger than the limit of {limit:,} "
                             f"bytes (raise it with {OPTIONS[kind]})")
