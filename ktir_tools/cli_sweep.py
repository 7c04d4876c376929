"""`ktir sweep SPEC.toml`: a design-space sweep (ktir_tools/sweep/)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ktir_tools.common import fail


def sweep(
    spec: Annotated[Path, typer.Argument(help="The sweep file (TOML): kernels, devices, "
                                              "overrides, option sets.")],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="The results file, .parquet (needs pyarrow) or .csv "
        "(default: the file's `results`, else SPEC's name with .parquet, or .csv without "
        "pyarrow).")] = None,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", help="Points run at once (default: the CPUs available; with --ray, "
        "the CPUs of the local cluster it starts).")] = None,
    ray: Annotated[bool, typer.Option(
        "--ray", help="Run on Ray, one task per point: the cluster $RAY_ADDRESS names, else a "
        "new local one. Needs `pip install 'ktir[ray]'`.")] = False,
    ray_address: Annotated[str | None, typer.Option(
        "--ray-address", metavar="ADDRESS", help="Run on the Ray cluster at ADDRESS "
        "(`ray://head:10001`, `auto`); implies --ray. Every node needs ktir installed.")
    ] = None,
    fresh: Annotated[bool, typer.Option(
        "--fresh", help="Ignore the results already computed: run every point.")] = False,
    list_points: Annotated[bool, typer.Option(
        "--list", help="Print the points (and which are already computed); run nothing.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress, no summary.")
                     ] = False,
) -> None:
    """Run a design-space sweep: every point compiled, emulated and checked.

    SPEC names kernels, devices (shipped names or files), device parameter overrides
    (`memory.scratchpad.size`, `datapath.DDR->MNILU.bytes_per_cycle`, `unit.PE.simd_lanes.f16`,
    `device.cores`, ...: see arch_descriptions/README.md) swept as a cartesian product or
    listed as points, and compiler option sets (`disable = [passes]`). Each point records
    cycles, the bound and its binding resource, the efficiency, the check, bytes per datapath,
    peak scratchpad use and times, or its diagnostic when it fails.

    Results go to one Parquet (or CSV) file, one row per point, keyed by a hash of the kernel,
    the device after overrides, the options and the compiler: a rerun (after a crash or
    Ctrl-C) computes only the points missing. `ktir plot RESULTS` draws them.
    """
    from ktir_tools.sweep import load_spec, run_sweep
    from ktir_tools.sweep.report import Progress, print_summary
    from ktir_tools.sweep.results import Store, check_writable_format, default_path

    if jobs is not None and jobs < 1:
        raise fail("--jobs must be at least 1")
    plan = load_spec(spec)
    results = output or plan.results or default_path(plan.path)
    if list_points:
        check_writable_format(results)
        cached = Store(results, fresh=fresh).cached
        for p in plan.points:
            typer.echo(f"{p.index:4}  {p.key}  {'cached  ' if p.key in cached else 'to run  '}"
                       f"{p.describe()}")
        return
    outcome = run_sweep(plan, results=results, jobs=jobs, ray=ray, ray_address=ray_address,
                        fresh=fresh, progress=Progress(quiet=quiet))
    if not quiet:
        print_summary(outcome.rows, plan.override_keys)
    rows = outcome.rows
    failed = sum(1 for r in rows if r["status"] != "ok")
    where = f"Ray{f' at {ray_address}' if ray_address else ''}" if ray or ray_address \
        else "local processes"
    typer.echo(f"{outcome.results}: {len(rows)} of {len(plan.points)} point(s), {failed} "
               f"failed; computed {outcome.computed} in {outcome.seconds:.1f} s ({where}), "
               f"{outcome.cached} from earlier runs")
    if outcome.interrupted:
        typer.echo(f"interrupted: {outcome.missing} point(s) not run; run the same command "
                   "again to compute them", err=True)
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command(name="sweep")(sweep)
