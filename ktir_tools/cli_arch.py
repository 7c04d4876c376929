"""`ktir arch`: check, tabulate and draw architecture descriptions (arch_descriptions/README.md).

    ktir arch list                      the shipped devices
    ktir arch check FILE|NAME           validate; one summary line, or located errors and exit 1
    ktir arch show FILE|NAME            memories, units, datapaths, groups, bound resources, defaults
    ktir arch draw FILE|NAME -o X.dot   Graphviz DOT (and X.svg when `dot` is installed)
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ktir_tools.common import table as _table

if TYPE_CHECKING:
    from arch_descriptions.model import Device

SPEC_HELP = "a device file, or the name of a shipped device (see `ktir arch list`)"


def _lanes(m) -> str:
    return ", ".join(f"{t} x {n}" for t, n in m.items()) or "-"


def _total(dev: Device, per_core: int, shared: int) -> str:
    if dev.max_cores is not None:
        return str(shared + per_core * dev.max_cores)
    return str(shared) if per_core == 0 else f"{per_core} x grid" + (
        f" + {shared}" if shared else "")


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' * (count != 1)}"


def summary(dev: Device) -> str:
    cores = (f"{dev.max_cores} cores" if dev.max_cores is not None
             else "1 core template (cores from the kernel grid)")
    unit = dev.units[dev.compute_kind]
    return (f"device @{dev.name}: ok: {cores} x {_n(dev.corelets_per_core, 'corelet')}; "
            f"{_n(len(dev.memories), 'memory kind')}, {_n(len(dev.units), 'unit kind')}, "
            f"{_n(len(dev.datapaths), 'datapath kind')}; compute {dev.compute_kind} "
            f"({_lanes(unit.simd_lanes)}); "
            + " -> ".join(dev.route(dev.global_memory_kind, dev.compute_kind)))


def show_text(dev: Device) -> str:
    from arch_descriptions.model.draw import format_size

    unit = dev.units[dev.compute_kind]
    spaces = ", ".join(f"{s} -> {dev.memory_for_space(s)}" for s in ("global", "ct_local"))
    out = [f"device @{dev.name}   {dev.source_path}",
           f"  cores            {dev.max_cores} (written out)" if dev.max_cores is not None
           else "  cores            1 template (the kernel's grid sets the count)",
           f"  corelets/core    {dev.corelets_per_core}",
           f"  clock            {dev.clock_ghz} GHz",
           f"  signal latency   {dev.signal_latency} cycle(s)",
           f"  compute unit     {dev.compute_kind} ({_lanes(unit.simd_lanes)} lanes)"]
    if (mx := unit.matrix) is not None:
        out.append(f"  matrix engine    {mx.rows} x {mx.cols} x {mx.depth} "
                   f"({', '.join(mx.inputs)} in, {mx.accumulator} accumulate), "
                   f"{mx.macs_per_cycle} MACs/cycle, latency {mx.latency}")
    out += [f"  memory spaces    {spaces}"]
    out += _table("memories", ["KIND", "SIZE", "DEPTH", "PARENT", "PER CORE", "DEVICE",
                               "LATENCY", "B/CYCLE"],
                  [[m.kind, format_size(m.size) or "-", str(m.depth), m.parent or "-",
                    str(m.per_core), _total(dev, m.per_core, m.shared), str(m.latency),
                    f"{m.bytes_per_cycle} shared" if m.bytes_per_cycle else "-"]
                   for m in dev.memories.values()])
    out += _table("execution units", ["KIND", "FEATURES", "PER CORE", "DEVICE", "CORELET",
                                      "LANES/CYCLE", "ISSUE", "OUTSTANDING"],
                  [[u.kind, ", ".join(f.removeprefix("ktdf_arch.feature.") for f in u.features)
                    or "-", str(u.per_core), _total(dev, u.per_core, u.shared),
                    "yes" if u.is_corelet else "no", _lanes(u.lanes_per_cycle),
                    str(u.issue_cycles), str(u.max_outstanding) if u.moves_data else "-"]
                   for u in dev.units.values()])
    out += _table("datapaths", ["LINK", "B/CYCLE", "LATENCY", "QUEUE", "GRANULARITY",
                                "PER CORE", "DEVICE"],
                  [[f"{d.src} -> {d.dst}", str(d.bytes_per_cycle), str(d.latency),
                    (f"depth {d.queue_depth}" + (f", {d.queue_size} B" if d.queue_size else "")
                     + (", ordered" if d.ordered else "")) if d.is_queue else "-",
                    ", ".join(map(str, d.granularity)) or "-", str(d.per_core),
                    _total(dev, d.per_core, d.shared)] for d in dev.datapaths])
    out += _table("groups", ["KIND", "ROLE", "NESTING", "SIBLINGS"],
                  [[g.kind or "(none)", g.role, str(g.nesting), str(g.siblings)]
                   for g in dev.groups])
    out += _table("compute timing", ["CLASS", "LATENCY", "INTERVAL"],
                  [[c, str(n), str(unit.op_interval[c])] for c, n in unit.op_latency.items()])
    cores = dev.max_cores or 1
    latency, trip = dev.round_trip()
    where = (f"{cores} cores" if dev.max_cores is not None
             else "1 core; a kernel's grid multiplies the per-core ones")
    out += _table(f"bound resources ({where}): what `ktir run` charges a kernel's compulsory "
                  "bytes and element ops to",
                  ["RESOURCE", "CARRIES", "RATE"],
                  [[r.name, r.carries, r.describe_rate()] for r in dev.resources(cores)])
    out += [f"  round trip      {latency} cycles: " + " -> ".join(trip)]
    out += ["", "defaults used (shared/spec/arch.md §8)"]
    out += [f"  {d}" for d in dev.defaults_used] or ["  none: every timing value is written"]
    out += [f"warning: {w}" for w in dev.warnings]
    return "\n".join(out)


def _echo_summaries(devices: list[Device]) -> None:
    for dev in devices:
        typer.echo(summary(dev))
        for w in dev.warnings:
            typer.echo(f"warning: {w}", err=True)


def _check_chunks(path: str) -> int:
    from arch_descriptions.model import devices_in_text
    from ktir.diagnostics import KtirDiagnostic, register_source
    from ktir_tools.ktir_opt import split_chunks

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        typer.echo(f"ktir arch check: error: cannot read '{path}': {e}", err=True)
        return 1
    register_source(path, text)
    failed = 0
    for chunk, offset in split_chunks(text):
        try:
            _echo_summaries(devices_in_text(chunk, path, offset))
        except KtirDiagnostic as d:
            typer.echo(d.text, err=True)
            failed += 1
    return 1 if failed else 0


def register(app: typer.Typer) -> None:
    arch = typer.Typer(name="arch", no_args_is_help=True, add_completion=False,
                       help="Check, show and draw architecture descriptions (ktdf_arch).")

    @arch.command("list", help="List the shipped devices (usable by name).")
    def list_devices() -> None:
        from arch_descriptions.model import device_path, shipped_devices

        for name in shipped_devices():
            typer.echo(f"{name:16} {device_path(name)}")

    @arch.command(help="Validate: one summary line per device, or located errors and exit 1.")
    def check(specs: list[str] = typer.Argument(..., metavar="FILE|NAME", help=SPEC_HELP + " (several may be given)"),
              split_input_file: bool = typer.Option(
                  False, "--split-input-file",
                  help="check each `// -----` chunk on its own (all errors, exit 1 if any)"),
              ) -> None:
        from arch_descriptions.model import load_devices
        from ktir.diagnostics import KtirDiagnostic

        failed = 0
        for spec in specs:
            if split_input_file:
                failed |= _check_chunks(spec)
                continue
            try:
                devices = load_devices(spec)
            except KtirDiagnostic as e:  # report it, go on with the other files
                typer.echo(e.text, err=True)
                failed = 1
                continue
            _echo_summaries(devices)
        raise typer.Exit(failed)

    @arch.command(help="Tables: memories, units, datapaths, groups, compute timing, the "
                       "resources of the bound, timing defaults used.")
    def show(spec: str = typer.Argument(..., metavar="FILE|NAME", help=SPEC_HELP)) -> None:
        from arch_descriptions.model import load_devices

        typer.echo("\n\n".join(show_text(dev) for dev in load_devices(spec)))

    @arch.command(help="Graphviz DOT of groups (clusters), memories and units (nodes), "
                       "datapaths (labelled edges); also .svg when `dot` is installed.")
    def draw(spec: str = typer.Argument(..., metavar="FILE|NAME", help=SPEC_HELP),
             output: Path | None = typer.Option(
                 None, "-o", "--output", help="write DOT here (and an .svg next to it when "
                                             "Graphviz `dot` is installed); default stdout"),
             name: str | None = typer.Option(None, "--name", help="the device to draw when "
                                             "the file declares several"),
             ) -> None:
        from arch_descriptions.model import load_device
        from arch_descriptions.model.draw import to_dot

        text = to_dot(load_device(spec, name))
        if output is None:
            typer.echo(text, nl=False)
            return
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as e:
            typer.echo(f"ktir arch draw: error: cannot write '{output}': {e.strerror}", err=True)
            raise typer.Exit(1) from None
        written = [str(output)]
        if (dot := shutil.which("dot")) is not None:
            svg = output.with_suffix(".svg")
            proc = subprocess.run([dot, "-Tsvg", str(output), "-o", str(svg)],
                                  capture_output=True, text=True, timeout=120)
            if proc.returncode != 0:
                typer.echo(f"ktir arch draw: error: dot failed: {proc.stderr.strip()}",
                           err=True)
                raise typer.Exit(1)
            written.append(str(svg))
        typer.echo("wrote " + ", ".join(written))

    app.add_typer(arch, name="arch")
