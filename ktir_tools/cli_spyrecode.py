"""`ktir spyrecode show DIR`: the manifest, symbols and job plan of a SpyreCode artifact as
tables (the artifact is checked first, as `ktir launch` reads it)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ktir_tools.common import table


def show_lines(art) -> list[str]:
    from spyrecode.artifact import expression_text

    m = art.manifest
    comp = m.get("compiler", {})
    lines = [f"SpyreCode {art.source}: format version {m['format_version']}, kernel "
             f"@{art.kernel}, grid {m.get('grid')}, compiled by {comp.get('name')} "
             f"{comp.get('version')} (xdsl {comp.get('xdsl')})",
             f"device @{art.device_name}, description SHA-256 {m['device'].get('sha256')}"]
    if art.compile_args:
        lines.append("bound at compile time: " + ", ".join(
            f"{k}={v}" for k, v in art.compile_args.items()))
    lines += table("files", ["file", "bytes", "sha256"],
                   [[f["path"], str(f.get("bytes", "")), f["sha256"][:16] + "..."]
                    for f in m["files"]])
    lines += table("symbols", ["id", "kind", "name", "arg", "type", "element", "constraints",
                               "reads"],
                   [[str(s.id), s.kind, s.name, "-" if s.argument is None else str(s.argument),
                     s.type if s.kind != "derived" else "-",
                     f"{s.element_type} ({s.element_bytes} B)" if s.element_type else "-",
                     "; ".join(s.constraints()) or (expression_text(s.expression)
                                                   if s.kind == "derived" else "-"),
                     str(s.reads)] for s in art.symbols.symbols])
    prep, launch = art.jobplan["prepare"], art.jobplan["launch"]
    lines += table(f"job plan: prepare (device @{prep['device']['name']}, {prep.get('cores')} "
                   "core(s))", ["program file", "program_units", "units"],
                   [[p["file"], str(p["program_units"]),
                     ", ".join(f"{k} x {n}" for k, n in p["units"].items())]
                    for p in prep.get("programs", [])])
    if prep.get("reservations"):
        lines += table("  reservations", ["memory", "bytes"],
                       [[r["memory"], str(r["bytes"])] for r in prep["reservations"]])
    if prep.get("tables"):
        lines += table("  constant tables", ["file", "op", "tables", "entries"],
                       [[t["file"], t["op"], str(t["tables"]), str(t["entries"])]
                        for t in prep["tables"]])
    start = launch.get("start", {})
    lines += table(f"job plan: launch @{launch['entry']} (bind {launch['bind']}, evaluate "
                   f"{launch['evaluate']}, then start {start.get('programs')} program(s) on "
                   f"{start.get('units')} unit(s))", ["symbol", "check"],
                   [[f"{c['symbol']} ({c['name']})", c["check"]] for c in launch["checks"]]
                   or [["-", "-"]])
    if launch.get("patch"):
        lines += table("  patched", ["symbol", "file", "reads"],
                       [[str(p["symbol"]), p["file"], str(p["reads"])]
                        for p in launch["patch"]])
    return lines


def show(
    artifact: Annotated[Path, typer.Argument(
        help="The SpyreCode artifact: a directory or a .tar archive.")],
) -> None:
    """Print the manifest, the symbols and the job plan of a SpyreCode artifact."""
    from spyrecode.artifact import read_artifact

    for line in show_lines(read_artifact(artifact)):
        typer.echo(line)


def register(app: typer.Typer) -> None:
    group = typer.Typer(name="spyrecode", no_args_is_help=True, add_completion=False,
                        help="Inspect SpyreCode artifacts (`ktir compile --emit spyrecode`).")
    group.command(name="show")(show)
    app.add_typer(group, name="spyrecode")
