"""What several `ktir` subcommands share: the error exit and the `--arg` / `--inputs` options.

Not a subcommand (only `cli_<name>.py` modules are); heavy imports stay inside the functions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer


def fail(message: str) -> typer.Exit:
    """Print `error: <message>` on stderr and return the Exit(1) to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(1)


def read_npz(path: Path) -> dict[str, Any]:
    """The arrays of an `--inputs` .npz file, by name."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    except (OSError, ValueError) as e:
        raise fail(f"cannot read inputs from '{path}': {e}") from None


def parse_args(items: list[str]) -> dict[str, str]:
    """`--arg NAME=VALUE` options as a dict."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise fail(f"--arg expects NAME=VALUE or NAME=SHAPExTYPE, got '{item}'")
        out[name.strip()] = value.strip()
    return out
