"""`ktir run`: compile a kernel, execute it on the emulator, check it against the reference."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ktir.limits import DEFAULT_LOOP_LIMIT
from ktir_tools.cli_compile import DEFAULT_DEVICE, Progress
from ktir_tools.common import (
    check_tolerances,
    output_file,
    parse_args,
    read_npz,
    write_file,
    write_npz,
)


def _describe(report) -> list[str]:

    em = report.emulation
    ns = em.seconds * 1e9
    roof = em.roofline
    lines = [
        f"kernel @{report.kernel} on {report.device}: {report.tiles} tile(s), "
        f"{report.programs} program(s)",
        f"  compile    {report.compile_seconds:7.3f} s",
        f"  reference  {report.reference_seconds:7.3f} s",
        f"  emulate    {report.emulate_seconds:7.3f} s   {em.cycles} cycles ({ns:.0f} ns at "
        f"{em.clock_ghz:g} GHz); bound {roof.cycles} cycles, {roof.bound}-bound on "
        f"{roof.binding_resource}; efficiency {em.efficiency:.2f}",
        f"  bound      {roof.describe()}",
    ]
    if (traffic := _traffic(em)) is not None:
        lines.append(traffic)
    return lines + check_lines(report)


def _traffic(em) -> str | None:
    """The bytes each shared memory moved and the bytes on the links between cores (a
    datapath from a unit kind to the same kind: spyre's RING->RING, summed over the hops)."""
    parts = [f"{name} {n:,} B" for name, (n, _) in em.memory_ports.items()]
    for key, n in em.bytes_per_datapath.items():
        ends = key.split("->")
        if len(ends) == 2 and ends[0] == ends[1] and n:
            parts.append(f"{key} {n:,} B (core to core, summed over hops)")
    return "  traffic    " + "; ".join(parts) if parts else None


def check_lines(report) -> list[str]:
    """One `check` line per compared buffer (and the rest of global memory) of a report."""
    from ktir_tools.run import GLOBAL_MEMORY

    lines: list[str] = []
    how = "bitwise" if report.rtol == 0 and report.atol == 0 else \
        f"rtol={report.rtol:g}, atol={report.atol:g}"
    for c in report.checks:
        shape = "x".join(map(str, c.shape))
        if c.name == GLOBAL_MEMORY:
            what = ("the rest of global memory" if len(report.checks) > 1 else
                    "global memory (the kernel writes no buffer)")
            lines.append(f"  check      {what}: " + (
                f"unchanged on both sides ({c.shape[0]} bytes compared)" if c.match else
                f"MISMATCH in {c.mismatches} byte(s); first at byte {c.first_mismatch[0]}: "
                f"expected {int(c.expected)}, got {int(c.got)}"))
            continue
        if c.match:
            lines.append(f"  check      {c.name} {shape} {c.dtype}: matches the reference "
                         f"({how}; max abs error {c.max_abs_err:g})")
        else:
            lines.append(f"  check      {c.name} {shape} {c.dtype}: MISMATCH in {c.mismatches} "
                         f"element(s) ({how}); first at {list(c.first_mismatch or ())}: "
                         f"expected {c.expected!r}, got {c.got!r}; max abs error "
                         f"{c.max_abs_err:g}")
    return lines


def run(
    kernel: Annotated[Path, typer.Argument(help="The KTIR kernel file (.mlir).")],
    device: Annotated[str, typer.Option(
        "--device", "-d", help="A shipped device name (see `ktir arch list`) or a device "
        "file.")] = DEFAULT_DEVICE,
    arg: Annotated[list[str] | None, typer.Option(
        "--arg", help="NAME=VALUE binds a scalar (at compile time) or a runtime_arg (at "
        "launch; default: its upper bound); NAME=96x64xf16 gives a buffer's shape and element "
        "type. Repeatable.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the random inputs.", min=0)] = 0,
    inputs: Annotated[Path | None, typer.Option(
        help="An .npz file with input arrays by argument name, or by the name of a "
        "constant-address view (a fixed buffer): in device memory, or in a scratchpad "
        "(data an earlier operator left on chip), e.g. A_LX0_view for %A_LX0_view over "
        "<ct_local, ct_id = 0>: shaped like the view's coordinate box, with a leading "
        "tile axis for a view of each tile's own scratchpad (<ct_local>). Unnamed ones "
        "are seeded.")] = None,
    function: Annotated[str | None, typer.Option(
        help="The kernel to run when the module holds several.")] = None,
    rtol: Annotated[float, typer.Option(
        help="Relative tolerance of the check (default 0: bitwise).")] = 0.0,
    atol: Annotated[float, typer.Option(
        help="Absolute tolerance of the check (default 0: bitwise).")] = 0.0,
    trace: Annotated[str | None, typer.Option(
        help="Write a Chrome trace (JSON; open in Perfetto or chrome://tracing), one track "
        "per unit.")] = None,
    out: Annotated[str | None, typer.Option(
        help="Write the buffers the emulator produced to this .npz file.")] = None,
    dump_programs: Annotated[Path | None, typer.Option(
        help="Write the Python the emulator generates for each program into this folder "
        "(see `ktir emulate --help`). Also: $KTIR_DUMP_PROGRAMS.")] = None,
    cycle_limit: Annotated[int, typer.Option(
        help="Stop with an error after this many cycles.", min=1)] = 10**9,
    loop_limit: Annotated[int, typer.Option(
        help="Stop a loop whose body does no timed work (no transfer, vector op or signal) "
        "after this many iterations.", min=1)] = DEFAULT_LOOP_LIMIT,
    disable: Annotated[list[str] | None, typer.Option(
        help="Skip a pass of the pipeline by name (an optimisation: "
        "share-invariant-loads, scalar-broadcast-legalization, stage-coarsening, "
        "elide-copy-stages, loop-invariant-code-motion, "
        "unroll-compute-loops, interleave-compute-chains, sink-host-loops, broadcast-promotion, "
        "double-buffering, parallelize-loops-across-instances). Repeatable.")] = None,
    opt_level: Annotated[int, typer.Option(
        "-O", help="Optimisation level: -O0 disables every optimisation pass (the naive "
        "schedule: one vector per transfer), -O1 (default) runs them.", min=0,
        max=1)] = 1,
    schedule_report: Annotated[bool, typer.Option(
        "--schedule-report", help="Print, per compute group, what the scheduler chose "
        "(stages, what each transfer moves, buffers, copies, instances) and its predicted "
        "cycles beside the emulated ones (--json: key 'schedule').")] = False,
    json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
) -> None:
    """Compile, emulate and check a kernel against the reference interpreter.

    Compiles KERNEL for the device, runs it on the emulator and compares every buffer it
    writes with the reference interpreter's on the same seeded inputs. Exit 0 on a match, 1
    otherwise.

    What runs today: element-wise kernels (with masked / partial tiles, loops, dynamic
    sizes), reductions and normalisations (softmax, rmsnorm: compare with --rtol where the
    reduction order rounds differently), views of a given tile's scratchpad (`ct_id`, read
    over the ring), distributed views at constant coordinates or coordinates
    computed from the tile id (each piece read from its owner) or whose pieces are one
    view, pointer arguments viewed in scratchpads (seeded there), inter-tile communication (tile futures: partials
    exchanged through scratchpad slots over the ring, or a device-memory workspace placed
    after the buffers on devices without one, folded in ascending producer id as the
    interpreter does), branches on the tile id, gathers through indirect access tiles
    (paged_gather, gather_add; one index per transfer) and scatters through them
    (scatter_add; not on stream_device), contractions (linalg.matmul, mixed precision
    included, and Triton's K loops: on a matrix engine where the device has one, on the
    SIMD lanes otherwise) and chains of them (FFN, attention). Not yet: integer, batch and
    transposed matmuls; what the compiler cannot run stops with a diagnostic naming the op
    and the reason.

    Scratchpad inputs: a constant-address scratchpad view is a fixed buffer, seeded (or
    given with --inputs by the view's name) in the scratchpad of its tile on both sides;
    the `traffic` line (and --json's bytes_per_datapath, bytes_per_memory) tells ring bytes
    (RING->RING) from device-memory bytes.

    Arguments: a scalar (index, integer or float) given with --arg NAME=VALUE is bound at
    compile time (subscripts and loop bounds that read it become constants); one the kernel
    uses given no value is an error. A !ktdp.runtime_arg stays symbolic down to the DataflowIR (buffers
    sized for its upper bound, loops bounded by the symbol) and takes its --arg value at
    launch; without one it takes the largest value its type admits (its upperbound rounded
    down to its granularity), with a note on stderr. Loops whose bounds depend on the tile id
    run when their trip count is the same on every tile, or when a tile's extra iterations
    only store outside their views (they are masked off); loops with iter_args are unrolled
    (a constant trip count of at most 64).

    Prints cycles, the bound (the kernel's compulsory bytes over the device's shared
    bandwidths, its element operations over its compute lanes, plus one round trip of the
    latency), the resource that binds it, the efficiency (bound / cycles) and times; --json
    gives the same as one object (keys match, cycles, roofline_cycles, efficiency, bound,
    binding_resource, max_abs_err, compile_s, emulate_s, device, ...).
    """
    import json as jsonlib

    from emulator import EmulationError
    from ktir_tools.run import run_and_check
    from scheduler.pipeline import disabled_passes

    check_tolerances(rtol, atol)
    trace_path = output_file(trace, "--trace")
    out_path = output_file(out, "--out")
    progress = Progress(not quiet and not json)
    given = read_npz(inputs) if inputs is not None else None
    try:
        report = run_and_check(kernel, device, args=parse_args(arg or []), seed=seed,
                               inputs=given, function=function, rtol=rtol, atol=atol,
                               trace=trace is not None, cycle_limit=cycle_limit,
                               loop_limit=loop_limit,
                               dump_programs=dump_programs,
                               disable=disabled_passes(disable or (), opt_level),
                               schedule_report=schedule_report,
                               on_step=progress.start,
                               after_step=lambda name, module, s: progress.done(s),
                               on_emulate=progress.emulating)
    except EmulationError as e:
        progress.finish()
        typer.echo(f"{kernel}: emulation failed on device {device}:\n{e.text}", err=True)
        raise typer.Exit(1) from None
    finally:
        progress.finish()  # also on a compile error or Ctrl-C
    for note in report.notes:
        typer.echo(note, err=True)
    if trace is not None:
        write_file(trace_path, lambda f: report.emulation.write_trace(f), "--trace", binary=False)
    if out_path is not None:
        write_npz(out_path, report.outputs)
    if json:
        typer.echo(jsonlib.dumps(report.to_json()))
    else:
        for line in _describe(report):
            typer.echo(line)
        if report.schedule is not None:
            from scheduler.analysis.schedule_model import format_report

            for line in format_report(report.schedule, report.group_cycles()):
                typer.echo("  " + line)
        if trace is not None:
            typer.echo(f"  trace      {trace}")
        typer.echo("PASS" if report.match else "FAIL")
    if not report.match:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command(name="run")(run)
