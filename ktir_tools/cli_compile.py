"""`ktir compile`: KTIR -> ScheduleIR -> DataflowIR for a device, with progress and timings."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Annotated

import typer

from ktir_tools.common import fail, parse_args

DEFAULT_DEVICE = "spyre"


class Progress:
    """One line per step on stderr (`[ 3/13] construct-three-stage-pipeline  4.1 ms`); on a
    terminal the line of the running step is shown while it runs."""

    EVERY = (10.0, 1.0)  # seconds between two `emulating` lines: to a file, to a terminal

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.current = ""
        self.ticker: threading.Thread | None = None
        self.stop = threading.Event()

    def start(self, i: int, n: int, name: str) -> None:
        self.current = f"[{i + 1:>{len(str(n))}}/{n}] {name}"
        if self.enabled and self.tty:
            sys.stderr.write(self.current + " ...\r")
            sys.stderr.flush()

    def done(self, seconds: float) -> None:
        if self.enabled:
            sys.stderr.write(f"{self.current:<48} {seconds * 1e3:8.1f} ms\n")

    def emulating(self) -> None:
        """The emulation starts: until `finish`, say how long it has run, so a long run is not
        mistaken for a hang (on a terminal a line redrawn every second, otherwise a line
        every ten seconds; a daemon thread, so the emulator pays nothing)."""
        if not self.enabled:
            return
        began, self.stop = time.perf_counter(), threading.Event()

        def tick() -> None:
            while not self.stop.wait(self.EVERY[self.tty]):
                line = f"emulating ... {time.perf_counter() - began:.0f} s"
                sys.stderr.write(line + ("\r" if self.tty else "\n"))
                sys.stderr.flush()
            if self.tty:
                sys.stderr.write(" " * 40 + "\r")
        self.ticker = threading.Thread(target=tick, daemon=True)
        self.ticker.start()

    def finish(self) -> None:
        """The emulation has ended (or failed): stop the line."""
        if self.ticker is not None:
            self.stop.set()
            self.ticker.join()
            self.ticker = None


def timing_table(steps, parse_seconds: float) -> str:
    rows = [("parse + verify", parse_seconds)] + [(s.step, s.seconds) for s in steps]
    total = sum(t for _, t in rows)
    width = max(len(n) for n, _ in rows)
    lines = [f"{'step':<{width}}  {'ms':>9}  {'%':>5}"]
    lines += [f"{n:<{width}}  {t * 1e3:9.2f}  {100 * t / total if total else 0:5.1f}"
              for n, t in rows]
    lines.append(f"{'total':<{width}}  {total * 1e3:9.2f}  100.0")
    return "\n".join(lines)


def compile_cmd(
    kernel: Annotated[Path, typer.Argument(help="The KTIR kernel file (.mlir).")],
    device: Annotated[str, typer.Option(
        "--device", "-d", help="A shipped device name (see `ktir arch list`) or a device "
        "file.")] = DEFAULT_DEVICE,
    emit: Annotated[str, typer.Option(
        help="What to produce: 'dfir' (DataflowIR, the whole pipeline), 'ktdf' (scheduled "
        "ScheduleIR, before lowering) or 'spyrecode' (a SpyreCode artifact for `ktir launch`: "
        "-o DIR, or -o FILE.tar for one archive).")] = "dfir",
    stop_at: Annotated[str | None, typer.Option(
        help="Stop after this checkpoint (pre_mapping, pre_scheduling, post_scheduling, "
        "post_lowering) or pass.")] = None,
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
    arg: Annotated[list[str] | None, typer.Option(
        "--arg", help="NAME=VALUE binds a scalar kernel argument at compile time (e.g. "
        "BLOCK_SIZE=128: subscripts become constants). Unbound scalars and runtime_args stay "
        "symbolic down to DataflowIR. Repeatable.")] = None,
    output: Annotated[Path | None, typer.Option(
        "-o", "--output", help="Write into this directory: complete DataflowIR as global.mlir "
        "plus one file per compute group; anything else as <kernel>.<emit>.mlir. Default: "
        "print the IR on stdout.")] = None,
    print_ir_after_all: Annotated[bool, typer.Option(
        "--print-ir-after-all", help="Print the IR after every step on stderr.")] = False,
    timings: Annotated[bool, typer.Option(
        "--timings", help="Print a table of the time per step.")] = False,
    verify_each: Annotated[bool, typer.Option(
        "--verify-each", help="Verify the IR after every step, not only where each group of "
        "the pipeline ends.")] = False,
    schedule_report: Annotated[bool, typer.Option(
        "--schedule-report", help="Print on stderr, per compute group, what the scheduler "
        "chose at the post_scheduling checkpoint (stages, what each transfer moves, buffers, "
        "copies, instances) and its predicted cycles (`ktir run --schedule-report` adds the "
        "emulated ones).")] = False,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No progress lines.")] = False,
) -> None:
    """Compile a kernel to DataflowIR (or ScheduleIR) for a device.

    Runs the pipeline declared in scheduler/pipeline.py: legality check, compute groups,
    Load -> Compute -> Store pipelines, routing through the device's memories, addresses,
    units and signals, DataflowIR. Prints one progress line per step on stderr.
    """
    from scheduler.driver import compile_kernel
    from scheduler.pipeline import disabled_passes
    from scheduler.transforms.emit_split_dfir import write_split

    progress = Progress(not quiet)
    disable = list(disabled_passes(disable or (), opt_level)) or None
    if emit == "spyrecode":
        _emit_spyrecode(kernel, device, stop_at, disable, arg, output, progress, timings)
        return

    report: list[str] = []

    def after_step(name, module, seconds) -> None:
        progress.done(seconds)
        if print_ir_after_all:
            sys.stderr.write(f"// -----// IR Dump After {name} //----- //\n{module!s}\n\n")
        if schedule_report and name == "post_scheduling":
            from arch_descriptions.model import device_from_module
            from scheduler.analysis.schedule_model import describe, format_report

            report.extend(format_report(describe(module, device_from_module(module))))

    result = compile_kernel(kernel, device, emit=emit, stop_at=stop_at, disable=disable or (),
                            args=parse_args(arg or []),
                            on_step=progress.start, after_step=after_step,
                            verify_each=verify_each)
    complete = emit == "dfir" and result.steps and result.steps[-1].step == "wrap-program-dfir"
    if complete:  # never write what `ktir emulate` would refuse
        from ktir_tools.run import check_compiled

        check_compiled(result.module, result.device)
    if output is None:
        typer.echo(str(result.module))
    elif complete:
        written = write_split(result.module, output)
        typer.echo(f"wrote {len(written)} file(s) to {output}: "
                   f"{', '.join(p.name for p in written)}", err=True)
    else:
        path = output / f"{kernel.stem}.{stop_at or emit}.mlir"
        try:
            output.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{result.module!s}\n")
        except OSError as e:
            raise fail(f"cannot write to '{output}': {e.strerror}") from None
        typer.echo(f"wrote {path}", err=True)
    if schedule_report:
        typer.echo("\n".join(report) if report else "schedule report: the pipeline stopped "
                   "before the post_scheduling checkpoint", err=True)
    if timings:
        typer.echo(timing_table(result.steps, result.parse_seconds), err=True)


def _emit_spyrecode(kernel: Path, device: str, stop_at: str | None, disable: list[str] | None,
                    arg: list[str] | None, output: Path | None, progress: Progress,
                    timings: bool) -> None:
    """`--emit spyrecode`: the whole pipeline, then the verified artifact, written atomically."""
    from ktir_tools.launch import compile_spyrecode

    if output is None:
        raise fail("--emit spyrecode writes an artifact: give -o DIR or -o FILE.tar")
    if stop_at or disable:
        raise fail("--emit spyrecode needs the whole pipeline: drop --stop-at / --disable")
    steps: list = []

    def after_step(name, module, seconds) -> None:
        progress.done(seconds)
        steps.append((name, seconds))

    files = compile_spyrecode(kernel, device, args=parse_args(arg or []), out=output,
                              on_step=progress.start, after_step=after_step)
    typer.echo(f"wrote SpyreCode to {output}: {len(files)} file(s): "
               f"{', '.join(sorted(files))}", err=True)
    if timings:
        from scheduler.driver import StepTiming

        typer.echo(timing_table([StepTiming(n, t) for n, t in steps], 0.0), err=True)


def register(app: typer.Typer) -> None:
    app.command(name="compile")(compile_cmd)
