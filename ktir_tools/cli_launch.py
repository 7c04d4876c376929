"""`ktir launch`: one launch of a SpyreCode artifact (`ktir compile --emit spyrecode`) on the
emulator, optionally checked against the reference interpreter."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ktir.limits import DEFAULT_LOOP_LIMIT
from ktir_tools.common import check_tolerances, output_file, parse_args, read_npz, write_npz


def launch_cmd(
    artifact: Annotated[Path, typer.Argument(
        help="The SpyreCode artifact: a directory or a .tar archive.")],
    device: Annotated[str | None, typer.Option(
        "--device", "-d", help="A shipped device name or a device file; its description must "
        "hash as the one compiled for [default: the device the manifest names].",
        show_default=False)] = None,
    arg: Annotated[list[str] | None, typer.Option(
        "--arg", help="NAME=VALUE gives a scalar or runtime_arg (a shape) its value (a "
        "runtime_arg without one takes its upper bound); NAME=96x64xf16 a buffer's shape and "
        "element type. Repeatable.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the random inputs.", min=0)] = 0,
    inputs: Annotated[Path | None, typer.Option(
        help="An .npz file with input arrays by argument name.")] = None,
    out: Annotated[str | None, typer.Option(
        help="Write every buffer after the launch to this .npz file.")] = None,
    check: Annotated[bool, typer.Option(
        "--check", help="Run the reference interpreter with the same arguments and inputs "
        "and compare every buffer it writes (exit 1 on a mismatch).")] = False,
    rtol: Annotated[float, typer.Option(
        help="Relative tolerance of --check (default 0: bitwise).")] = 0.0,
    atol: Annotated[float, typer.Option(
        help="Absolute tolerance of --check (default 0: bitwise).")] = 0.0,
    cycle_limit: Annotated[int, typer.Option(
        help="Stop with an error after this many cycles.", min=1)] = 10**9,
    loop_limit: Annotated[int, typer.Option(
        help="Stop a loop whose body does no timed work after this many iterations.",
        min=1)] = DEFAULT_LOOP_LIMIT,
) -> None:
    """Prepare a SpyreCode artifact and launch it once on the emulator.

    Prepare verifies the manifest (format version, SHA-256 of every file, the device's
    description hash), parses and verifies the programs, checks capacities and compiles them;
    the launch plans the buffers from the artifact's KTIR source (as `ktir run` does), passes
    byte pointers, shapes and scalars by position, checks them against symbols.json and runs.
    A bad artifact or argument is an error naming the file or the symbol, exit 1.
    """
    from emulator import EmulationError
    from ktir_tools.cli_run import check_lines
    from ktir_tools.launch import launch_kernel

    check_tolerances(rtol, atol)
    out_path = output_file(out, "--out")
    given = read_npz(inputs) if inputs is not None else None
    try:
        report = launch_kernel(artifact, device, args=parse_args(arg or []), inputs=given,
                               seed=seed, check=check, rtol=rtol, atol=atol,
                               cycle_limit=cycle_limit, loop_limit=loop_limit)
    except EmulationError as e:
        typer.echo(f"{artifact}: launch failed:\n{e.text}", err=True)
        raise typer.Exit(1) from None
    for note in report.notes:
        typer.echo(note, err=True)
    em = report.emulation
    typer.echo(f"kernel @{report.kernel} on {report.device} from {artifact}: {report.tiles} "
               f"tile(s), {report.programs} program(s)")
    typer.echo(f"  prepare    {report.prepare_seconds:7.3f} s")
    typer.echo(f"  launch     {report.launch_seconds:7.3f} s   {em.cycles} cycles; overhead "
               f"{report.overhead_seconds * 1e3:.1f} ms (launch minus emulation)")
    if check:
        typer.echo(f"  reference  {report.reference_seconds:7.3f} s")
        for line in check_lines(report):
            typer.echo(line)
    if out_path is not None:
        write_npz(out_path, report.outputs)
    if check:
        typer.echo("PASS" if report.match else "FAIL")
        if not report.match:
            raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command(name="launch")(launch_cmd)
