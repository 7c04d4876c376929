"""`ktir emulate`: run a DataflowIR program (compiled or hand-written) on the emulator."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated, Any

import typer

from ktir.limits import DEFAULT_LOOP_LIMIT
from ktir_tools.cli_compile import Progress
from ktir_tools.common import fail, output_file, read_npy, write_file, write_npz

_LOCATION = re.compile(r"^(?P<mem>[A-Za-z0-9_@-]+)@(?P<addr>\d+)$")
_READ = re.compile(r"^(?P<name>\w+)=(?P<mem>[A-Za-z0-9_@-]+)@(?P<addr>\d+):"
                   r"(?P<shape>(?:\d+x)*\d+)x(?P<dtype>f16|f32|f64|i8|i16|i32|i64|bf16)$")
_DTYPES = {"f16": "float16", "f32": "float32", "f64": "float64", "i8": "int8", "i16": "int16",
           "i32": "int32", "i64": "int64", "bf16": "uint16"}


def _number(text: str) -> int | float:
    try:
        v = int(text, 0)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise fail(f"--arg expects a number, got '{text}'") from None
    if not -(1 << 63) <= v < 1 << 64:
        raise fail(f"--arg {text}: an index or integer argument must fit in 64 bits")
    return v


def _init(items: list[str]) -> dict[str, list[tuple[int, Any]]]:
    out: dict[str, list[tuple[int, Any]]] = {}
    for item in items:
        where, sep, path = item.partition("=")
        m = _LOCATION.match(where)
        if not sep or m is None:
            raise fail(f"--init expects MEMORY@ADDRESS=FILE.npy, got '{item}'")
        out.setdefault(m["mem"], []).append((int(m["addr"]), read_npy(Path(path), "--init")))
    return out


def _entry(module, name: str | None, program: Path) -> str:
    """`name`, else the only host function that no other function calls."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import ModuleOp

    from ktir.diagnostics import format_at, op_error
    from ktir.errors import KtirDiagnostic

    if name is not None:
        return name
    host = [op for top in module.body.block.ops
            if not (isinstance(top, ModuleOp) and top.sym_name is not None)
            for op in ([top] if isinstance(top, func.FuncOp) else top.walk())
            if isinstance(op, func.FuncOp) and not op.is_declaration]
    called = {c.callee.root_reference.data for c in module.walk() if isinstance(c, func.CallOp)}
    roots = [f for f in host if f.sym_name.data not in called]
    if len(roots) == 1:
        return roots[0].sym_name.data
    if not host:
        raise KtirDiagnostic(format_at(str(program), 1, 1, "the program has no function to run"))
    if not roots:
        raise op_error(host[0], "is called, as is every function of the program, so none is "
                       "the entry: give --entry NAME")
    names = ", ".join("@" + f.sym_name.data for f in roots)
    # located at the second candidate: it makes the choice ambiguous
    raise op_error(roots[1], f"is one of the program's entry candidates ({names}: functions "
                   "no other calls): give --entry NAME")


def _unit_table(stats, per_instance: bool) -> list[str]:
    """Busy, stalled and end cycles per unit instance, or per kind (mean over instances)."""
    groups: dict[str, list] = {}
    for u in stats:
        groups.setdefault(u.name if per_instance else u.kind, []).append(u)
    head = "unit" if per_instance else "unit kind (instances)"
    lines = [f"{head:<24}{'busy':>10}{'stalled':>10}{'end':>10}"]
    for key in sorted(groups):
        us = groups[key]
        label = key if per_instance else f"{key} ({len(us)})"
        n = len(us)
        lines.append(f"{label:<24}{sum(u.busy for u in us) / n:10.0f}"
                     f"{sum(u.stalled_total for u in us) / n:10.0f}{max(u.end for u in us):10.0f}")
    return lines


def emulate_cmd(
    program: Annotated[Path, typer.Argument(help="A DataflowIR file (`ktir compile` output "
                                            "or hand-written).")],
    device: Annotated[str | None, typer.Option(
        "--device", "-d", help="A shipped device name or a device file (default: the device "
        "the module declares).")] = None,
    entry: Annotated[str | None, typer.Option(
        help="The host function to run (default: the only one).")] = None,
    arg: Annotated[list[str] | None, typer.Option(
        "--arg", help="The entry's arguments in order: element addresses and scalars. "
        "Repeatable.")] = None,
    init: Annotated[list[str] | None, typer.Option(
        help="MEMORY@ADDRESS=FILE.npy: place an array at an element address of a memory "
        "(DDR@0, L1@3 for core 3's, L1 for every core's). Repeatable.")] = None,
    read: Annotated[list[str] | None, typer.Option(
        help="NAME=MEMORY@ADDRESS:SHAPExTYPE: read an array back after the run, e.g. "
        "C=DDR@12288:96x64xf16. Repeatable.")] = None,
    out: Annotated[str | None, typer.Option(help="Write the --read arrays to this .npz.")] = None,
    trace: Annotated[str | None, typer.Option(help="Write a Chrome trace (JSON).")] = None,
    dump_programs: Annotated[Path | None, typer.Option(
        help="Write the Python the emulator generates for each program into this folder, "
        "one file each, and run it from there (tracebacks and pdb show it; each statement "
        "names its DataflowIR op). Also: $KTIR_DUMP_PROGRAMS.")] = None,
    strict: Annotated[bool, typer.Option(
        help="Data left in a FIFO or a signal left counting at the end is an error.")] = False,
    check_races: Annotated[bool, typer.Option(
        help="Check that no two units touch the same bytes (one writing) unordered by a "
        "chain of signals and FIFO messages between them.")
    ] = True,
    cycle_limit: Annotated[int, typer.Option(help="Stop after this many cycles.", min=1)
                           ] = 10**9,
    loop_limit: Annotated[int, typer.Option(
        help="Stop a loop whose body does no timed work (no transfer, vector op or signal) "
        "after this many iterations.", min=1)] = DEFAULT_LOOP_LIMIT,
    units: Annotated[bool, typer.Option(
        "--units", help="One line per unit instance (default: one per unit kind).")] = False,
    json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Run a DataflowIR program on the emulator.

    Prints cycles, per-unit busy and stall time and bytes per datapath (and per memory with a
    bandwidth of its own); the bound needs the kernel, so `ktir run` reports it. A
    deadlock, an out-of-bounds access, a FIFO type mismatch or the cycle limit stops the run
    with a located error naming the units (exit 1).
    """
    import json as jsonlib

    import numpy as np

    from arch_descriptions.model import device_from_module, load_device
    from emulator import EmulationError, emulate
    from ktir.context import load_module
    from ktir.limits import over

    trace_path = output_file(trace, "--trace")
    out_path = output_file(out, "--out")
    module = load_module(program)
    dev = load_device(device) if device is not None else device_from_module(module)
    if dev is None:
        raise fail(f"{program} declares no device: give --device NAME|FILE")
    reads = []
    for item in read or []:
        m = _READ.match(item)
        if m is None:
            raise fail(f"--read expects NAME=MEMORY@ADDRESS:SHAPExTYPE, got '{item}'")
        shape = tuple(int(x) for x in m["shape"].split("x"))
        nbytes = math.prod(shape) * np.dtype(_DTYPES[m["dtype"]]).itemsize
        if (msg := over("buffer_bytes", nbytes, f"--read '{item}'")) is not None:
            raise fail(msg)
        reads.append((m["name"], m["mem"], int(m["addr"]), shape, _DTYPES[m["dtype"]]))
    argv = [_number(a) for a in arg or []]
    progress = Progress(not json)
    progress.emulating()
    try:
        result = emulate(module, dev, entry=_entry(module, entry, program), args=argv,
                         memory_init=_init(init or []), cycle_limit=cycle_limit,
                         trace=trace is not None, strict=strict, check_races=check_races,
                         dump_programs=dump_programs, loop_limit=loop_limit)
        arrays = {n: result.read(mem, a, shape, dt) for n, mem, a, shape, dt in reads}
    except EmulationError as e:
        progress.finish()
        typer.echo(e.text, err=True)
        raise typer.Exit(1) from None
    finally:
        progress.finish()
    if trace_path is not None:
        write_file(trace_path, lambda f: result.write_trace(f), "--trace", binary=False)
    if out_path is not None:
        write_npz(out_path, arrays)
    if json:
        summary = result.summary()
        summary["units"] = {u.name: {"busy": u.busy, "stalled": u.stalled_total, "end": u.end}
                            for u in result.units.values()}
        summary["reads"] = {n: {"sum": float(np.sum(v, dtype=np.float64))}
                            for n, v in arrays.items()}
        typer.echo(jsonlib.dumps(summary))
        return
    typer.echo(f"{result.cycles} cycles on @{dev.name} ({result.seconds * 1e9:.0f} ns), "
               f"{result.events} events in {result.wall_seconds:.3f} s (the bound needs the "
               "kernel's work: `ktir run` reports it)")
    for line in _unit_table(result.units.values(), per_instance=units):
        typer.echo(line)
    for k, v in result.bytes_per_datapath.items():
        typer.echo(f"bytes {k}: {v}")
    for k, (n, busy) in result.memory_ports.items():
        typer.echo(f"bytes {k} (its own bandwidth, shared): {n}, busy {busy:.0f} cycles")
    for n, v in arrays.items():
        typer.echo(f"{n}: {'x'.join(map(str, v.shape))} {v.dtype} sum "
                   f"{float(np.sum(v, dtype=np.float64)):.6g}")
    for w in result.warnings:
        typer.echo(f"warning: {w}", err=True)


def register(app: typer.Typer) -> None:
    app.command(name="emulate")(emulate_cmd)
