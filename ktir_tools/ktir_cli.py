"""`ktir`: the user-facing command line (typer). Subcommands live in `cli_<name>.py` modules of
this package, each exposing `register(app)`; they are discovered here so that each can be
written and tested on its own. Heavy imports happen inside the commands, not at start-up.

Errors are reported, never raised: a `KtirDiagnostic` (located input error) or a usage error
prints one message and exits 1.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import traceback
from typing import Annotated

# Plain click help and errors: typer's rich rendering costs ~0.15 s of start-up per command
# (importing rich); `TYPER_USE_RICH=1` brings it back.
os.environ.setdefault("TYPER_USE_RICH", "0")
# One BLAS thread (before numpy is imported): the interpreter's products are per tile and
# small; on a shared 2-core machine a second spinning thread made `ktir interpret` of a
# 64x2048x8192 matmul take 4x the CPU time. `OPENBLAS_NUM_THREADS=N` still overrides.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import typer

from ktir.errors import KtirDiagnostic, internal_error
from ktir_tools.process import begin, leave

app = typer.Typer(
    name="ktir",
    help="Compile KTIR kernels for dataflow accelerators, run them on an emulator, and check "
         "the numbers against the KTIR reference interpreter.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # reflow docstring paragraphs (when rich renders)
)


ORDER = ("run", "compile", "launch", "emulate", "interpret", "spyrecode", "arch", "sweep", "plot")
"""How `ktir --help` lists the commands: the main job first; unknown ones after, by name."""


def _register_subcommands() -> None:
    import ktir_tools as tools

    names = [m.name[4:] for m in pkgutil.iter_modules(tools.__path__) if m.name.startswith("cli_")]
    names.sort(key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), n))
    for name in names:
        importlib.import_module(f"ktir_tools.cli_{name}").register(app)


@app.callback()
def _root(
    max_input_bytes: Annotated[int | None, typer.Option(
        help="Refuse input files (kernels, devices, DataflowIR, .npz) larger than this "
        "[default: 64 MiB].", show_default=False)] = None,
    max_elements: Annotated[int | None, typer.Option(
        help="Refuse a constant, tensor or access tile of more elements than this "
        "[default: 2^28].", show_default=False)] = None,
    max_buffer_bytes: Annotated[int | None, typer.Option(
        help="Refuse to allocate one buffer (an argument's array, a tensor, a memory, an "
        "array read back) larger than this [default: 2 GiB].", show_default=False)] = None,
    max_tiles: Annotated[int | None, typer.Option(
        help="Refuse to interpret a kernel whose grid has more tiles than this (each costs "
        "~0.3 ms) [default: 65536].",
        show_default=False)] = None,
) -> None:
    """Compile KTIR kernels for dataflow accelerators, run them on an emulator, and check the
    numbers against the KTIR reference interpreter."""
    from ktir.limits import set_limits

    set_limits(input_bytes=max_input_bytes, elements=max_elements,
               buffer_bytes=max_buffer_bytes, tiles=max_tiles)


_register_subcommands()


@app.command()
def version() -> None:
    """Print the versions of ktir and of the xDSL it runs on."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as pkg_version

    try:
        mine = pkg_version("ktir")
    except PackageNotFoundError:
        mine = "(source tree)"
    typer.echo(f"ktir {mine} (xdsl {pkg_version('xdsl')}, numpy {pkg_version('numpy')})")


def main(argv: list[str] | None = None) -> None:
    begin(argv)
    try:
        code = app(args=argv, standalone_mode=False)
    except KtirDiagnostic as d:
        typer.echo(d.text, err=True)
        code = 1
    except typer.Exit as e:
        code = e.exit_code
    except (typer.Abort, KeyboardInterrupt):
        code = 130
    except Exception as e:
        show = getattr(e, "show", None)
        if show is not None and hasattr(e, "exit_code"):  # click/typer usage error: exit 1
            show()
            leave(1, argv)
        if os.environ.get("KTIR_TRACEBACK"):  # an internal error: one line unless asked
            traceback.print_exc()
        typer.echo(internal_error("ktir", e), err=True)
        code = 1
    leave(code if isinstance(code, int) else 0, argv)


if __name__ == "__main__":
    main()
