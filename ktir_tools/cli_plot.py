"""`ktir plot RESULTS`: the roofline and a Pareto front of a sweep's results."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

KINDS = ("roofline", "pareto")


def plot(
    results: Annotated[Path, typer.Argument(help="A results file of `ktir sweep` (.parquet or "
                                                 ".csv).")],
    kind: Annotated[list[str] | None, typer.Option(
        "--kind", "-k", help="What to draw: roofline, pareto (repeatable; default both).")
    ] = None,
    x: Annotated[str, typer.Option(help="The Pareto front's x column.")] = "scratchpad_bytes",
    y: Annotated[str, typer.Option(help="The Pareto front's y column.")] = "cycles",
    by: Annotated[str, typer.Option(help="The columns (comma-separated) whose values get a "
                                         "colour and a front each.")] = "kernel,device",
    fmt: Annotated[str, typer.Option("--format", help="png or svg.")] = "png",
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Where to write: a file (one --kind; its suffix gives the "
        "format) or a folder (default: beside RESULTS, as RESULTS-STEM.<kind>.<format>).")
    ] = None,
) -> None:
    """Draw a sweep's results: the roofline (achieved element ops per cycle and efficiency
    against arithmetic intensity, under each device's bound) and the Pareto front of two
    columns (default cycles against scratchpad size, per kernel and device). Needs matplotlib:
    `pip install 'ktir[plot]'`."""
    from ktir_tools.common import fail
    from ktir_tools.sweep import plot as draw
    from ktir_tools.sweep.results import read_rows

    kinds = kind or list(KINDS)
    for k in kinds:
        if k not in KINDS:
            raise fail(f"--kind must be one of {', '.join(KINDS)}, not '{k}'")
    if fmt not in draw.FORMATS:
        raise fail(f"--format must be one of {', '.join(draw.FORMATS)}, not '{fmt}'")
    rows = read_rows(results)
    if output is not None and output.suffix and not output.is_dir():
        if len(kinds) != 1:
            raise fail("-o FILE draws one picture: give one --kind, or -o FOLDER")
        targets = {kinds[0]: output}
    else:
        folder = output or results.parent
        if not folder.is_dir():
            raise fail(f"no folder '{folder}'")
        targets = {k: folder / f"{results.stem}.{k}.{fmt}" for k in kinds}
    for k, path in targets.items():
        written = draw.roofline(rows, path) if k == "roofline" else \
            draw.pareto(rows, path, x=x, y=y,
                                                  by=[c.strip() for c in by.split(",")])
        typer.echo(f"wrote {written}")


def register(app: typer.Typer) -> None:
    app.command(name="plot")(plot)
