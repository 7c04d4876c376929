"""`ktir interpret`: run a KTIR kernel on the reference interpreter and summarise what it wrote."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ktir_tools.common import fail, output_file, parse_args, read_npz, write_npz
from ktir_tools.process import startup


def _checksum(arr: Any) -> str:
    import zlib

    import numpy as np

    return f"{zlib.crc32(np.ascontiguousarray(arr).reshape(-1).view(np.uint8)):08x}"  # no copy


def _sum(arr: Any) -> float:
    """`np.sum(arr, dtype=np.float64)`, the same bits: for an fp16 array whose total cannot
    round (every partial sum is a multiple of 2**-24 below 2**29, exact in float64 whatever
    the order) it is summed from its float32 widening, which numpy casts to float64 ~8x
    faster than fp16 (21M RoPE outputs: ~60 -> ~8 ms); otherwise as numpy sums it."""
    import numpy as np

    if arr.dtype == np.float16 and arr.size >= 1 << 16:
        from ktir.interpreter.dtypes import widen_f16

        wide = widen_f16(arr)
        hi, lo = float(wide.max()), float(wide.min())
        if max(hi, -lo) * arr.size < 2.0**29:  # False for inf and NaN
            return float(np.sum(wide, dtype=np.float64))
    return float(np.sum(arr, dtype=np.float64))


def interpret(
    kernel: Annotated[Path, typer.Argument(help="The KTIR file (.mlir) to run.")],
    arg: Annotated[list[str] | None, typer.Option(
        "--arg", help="NAME=VALUE binds a scalar or runtime_arg (a runtime_arg without one "
        "takes its upper bound); NAME=96x64xf16 gives a buffer's shape and element type. "
        "Repeatable.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the random inputs.", min=0)] = 0,
    inputs: Annotated[Path | None, typer.Option(
        help="An .npz file with input arrays by argument name, or by the name of a "
        "constant-address view (a fixed buffer): in device memory, or in a scratchpad "
        "(data an earlier operator left on chip), e.g. A_LX0_view for %A_LX0_view over "
        "<ct_local, ct_id = 0>: shaped like the view's coordinate box, with a leading "
        "tile axis for a view of each tile's own scratchpad (<ct_local>). Unnamed ones "
        "are seeded.")] = None,
    out: Annotated[str | None, typer.Option(
        help="Write the buffers the kernel wrote to this .npz file.")] = None,
    function: Annotated[str | None, typer.Option(
        help="The kernel to run when the module holds several.")] = None,
    device: Annotated[str | None, typer.Option(
        "--device", "-d", help="Take the scratchpad capacity from this device (a shipped name "
        "or a device file): the size of its per-core scratchpad memory.")] = None,
    scratchpad_bytes: Annotated[int | None, typer.Option(
        help="Capacity of each tile's scratchpad in bytes (default: the device's, or 2 MiB "
        "without --device).")] = None,
    json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Run a kernel on the KTIR reference interpreter.

    Runs KERNEL on every tile of its grid and lists the device-memory buffers it wrote (name,
    shape, dtype, CRC-32 checksum of the bytes, sum). Constant-address views are fixed
    buffers, seeded unless --inputs names them: in device memory, and in scratchpads (a
    `<ct_local, ct_id = k>` view in tile k's, a `<ct_local>` one in every tile's)."""
    import json as jsonlib

    with startup():
        import numpy as np

        from ktir.context import load_module
        from ktir.interpreter import run_kernel

        if scratchpad_bytes is None and device:
            from arch_descriptions.model import load_device

            scratchpad_bytes = load_device(device).scratchpad_bytes  # None: the device says none
        if scratchpad_bytes is not None and scratchpad_bytes <= 0:
            raise fail("--scratchpad-bytes must be positive")
        out_path = output_file(out, "--out")
        given = read_npz(inputs) if inputs is not None else {}
        module = load_module(kernel)
    result = run_kernel(module, args=parse_args(arg or []), seed=seed,
                        scratchpad_bytes=scratchpad_bytes, function=function, inputs=given)
    from ktir.interpreter.arguments import default_notes

    for note in default_notes(result.specs):
        typer.echo(note, err=True)
    rows = [{"name": k, "shape": list(v.shape), "dtype": str(v.dtype),
             "checksum": _checksum(v), "sum": _sum(v)}
            for k, v in result.outputs.items()]
    if out_path is not None:
        write_npz(out_path, result.outputs)
    if json:
        typer.echo(jsonlib.dumps({"kernel": result.kernel, "grid": list(result.grid),
                                  "buffers": rows}))
        return
    tiles = int(np.prod(result.grid))
    typer.echo(f"kernel @{result.kernel}: grid {list(result.grid)} ({tiles} tiles), "
               f"{len(rows)} buffer(s) written")
    if not rows:
        return
    table = [("name", "shape", "dtype", "checksum", "sum")] + [
        (r["name"], "x".join(map(str, r["shape"])), r["dtype"], r["checksum"],
         f"{r['sum']:.6g}") for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(5)]
    for row in table:
        typer.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())


def register(app: typer.Typer) -> None:
    app.command(name="interpret")(interpret)
