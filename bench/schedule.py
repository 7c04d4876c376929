"""Schedule quality: what the optimisation passes buy, kernel by kernel, against the bound.

    python -m bench.schedule [--devices spyre,sample_device] [--only NAME]

For each kernel on each device: emulated cycles of the naive schedule (`-O0`: every pass of
`scheduler.pipeline.OPTIMISATIONS` disabled — one vector per transfer behind a handshake),
of the optimised one (the default pipeline), the bound (`ktir run`'s: compulsory bytes over
the shared bandwidths, element operations over the compute lanes, one round trip), the
efficiency (bound / optimised cycles), the speed-up (naive / optimised), the compile seconds
of the optimised schedule, and one ablation row per pass (that pass alone disabled: its
cycles and how much slower than the optimised schedule). Every run is checked bitwise
against the reference interpreter (`match`); a kernel that does not run yet is reported as
such. Kernels: the element-wise examples (add_96x64, bias_add, eltwise_chain), a 1024 x 1024
fp16 add (2 MiB per operand) as one slab per tile and in the Inductor / Triton style (an
`scf.for` over the rows, strided by the tile id), and the softmax / layer norm examples
(reductions: both passes leave them naive, so their rows show no gain).

Measured on the project's 2-core machine (other jobs running), races checked:

    (table below; see the note in the report of issue 14)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

N = 1024
TILES = 32


def slab_add(n: int = N, tiles: int = TILES) -> str:
    """C = A + B over an n x n fp16 matrix, one slab of n / tiles rows per tile."""
    r = n // tiles
    full = f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {n - 1} >= 0, d1 >= 0, -d1 + {n - 1} >= 0)>"
    tile = f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {r - 1} >= 0, d1 >= 0, -d1 + {n - 1} >= 0)>"
    mem, at, t = f"memref<{n}x{n}xf16>", f"!ktdp.access_tile<{r}x{n}xindex>", f"tensor<{r}x{n}xf16>"
    lines = [f"#full = {full}", f"#tile = {tile}", "#id = affine_map<(d0, d1) -> (d0, d1)>",
             f"func.func @add(%A: index, %B: index, %C: index) attributes {{grid = [{tiles}]}} {{",
             "  %c0 = arith.constant 0 : index", f"  %rows = arith.constant {r} : index",
             "  %id = ktdp.get_compute_tile_id : index", "  %row0 = arith.muli %id, %rows : index"]
    for x in "ABC":
        lines += [f"  %{x}v = ktdp.construct_memory_view %{x}, sizes: [{n}, {n}], strides: [{n}, 1] "
                  f"{{coordinate_set = #full, memory_space = #ktdp.memory_space<global>}} : {mem}",
                  f"  %{x}t = ktdp.construct_access_tile %{x}v[%row0, %c0] {{access_tile_order = "
                  f"#id, access_tile_set = #tile}} : {mem} -> {at}"]
    lines += [f"  %a = ktdp.load %At : {at} -> {t}", f"  %b = ktdp.load %Bt : {at} -> {t}",
              f"  %e = tensor.empty() : {t}",
              f"  %c = linalg.add ins(%a, %b : {t}, {t}) outs(%e : {t}) -> {t}",
              f"  ktdp.store %c, %Ct : {t}, {at}", "  return", "}"]
    return "\n".join(lines) + "\n"


def tiled_add(n: int = N, tiles: int = TILES) -> str:
    """The same add written as Inductor / Triton do: `scf.for %i = %tile to n step tiles`,
    one 1 x n row per iteration."""
    full = f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {n - 1} >= 0, d1 >= 0, -d1 + {n - 1} >= 0)>"
    row = f"affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + {n - 1} >= 0)>"
    mem, at, t = f"memref<{n}x{n}xf16>", f"!ktdp.access_tile<1x{n}xindex>", f"tensor<1x{n}xf16>"
    lines = [f"#full = {full}", f"#row = {row}", "#id = affine_map<(d0, d1) -> (d0, d1)>",
             f"func.func @add(%A: index, %B: index, %C: index) attributes {{grid = [{tiles}]}} {{",
             "  %c0 = arith.constant 0 : index", f"  %step = arith.constant {tiles} : index",
             f"  %n = arith.constant {n} : index", "  %t = ktdp.get_compute_tile_id : index"]
    for x in "ABC":
        lines.append(f"  %{x}v = ktdp.construct_memory_view %{x}, sizes: [{n}, {n}], strides: "
                     f"[{n}, 1] {{coordinate_set = #full, memory_space = "
                     f"#ktdp.memory_space<global>}} : {mem}")
    lines.append("  scf.for %i = %t to %n step %step {")
    for x in "ABC":
        lines.append(f"    %{x}t = ktdp.construct_access_tile %{x}v[%i, %c0] {{access_tile_order "
                     f"= #id, access_tile_set = #row}} : {mem} -> {at}")
    lines += [f"    %a = ktdp.load %At : {at} -> {t}", f"    %b = ktdp.load %Bt : {at} -> {t}",
              f"    %e = tensor.empty() : {t}",
              f"    %c = linalg.add ins(%a, %b : {t}, {t}) outs(%e : {t}) -> {t}",
              f"    ktdp.store %c, %Ct : {t}, {at}", "  }", "  return", "}"]
    return "\n".join(lines) + "\n"


def kernels(tmp: Path) -> list[tuple[str, Path, dict[str, str]]]:
    ex = ROOT / "examples" / "kernels"
    (tmp / "add_1024x1024.mlir").write_text(slab_add())
    (tmp / "add_1024x1024_tiled.mlir").write_text(tiled_add())
    return [
        ("add_96x64", ex / "add_96x64.mlir", {}),
        ("bias_add", ex / "bias_add.mlir", {}),
        ("eltwise_chain", ex / "eltwise_chain.mlir", {}),
        ("add_1024x1024", tmp / "add_1024x1024.mlir", {}),
        ("add_1024x1024_tiled", tmp / "add_1024x1024_tiled.mlir", {}),
        ("softmax", ex / "softmax.mlir", {"M": "64"}),
        ("layernorm", ex / "layernorm.mlir", {}),
    ]


def measure(path: Path, device: str, args: dict[str, str], disable: tuple[str, ...]):
    """(cycles, bound, match, compile seconds) or the error text."""
    from emulator import EmulationError
    from ktir.diagnostics import KtirDiagnostic
    from ktir_tools.run import run_and_check

    try:
        r = run_and_check(path, device, args=args, disable=disable)
    except (KtirDiagnostic, EmulationError) as e:
        text = str(getattr(e, "text", e)).strip().splitlines()
        return text[0][:90] if text else type(e).__name__
    em = r.emulation
    return em.cycles, em.roofline_cycles, r.match, r.compile_seconds


def main() -> int:
    from scheduler.pipeline import OPTIMISATIONS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--devices", default="spyre,sample_device")
    ap.add_argument("--only", default=None, help="only kernels whose name contains this")
    opts = ap.parse_args()
    tmp = Path("/tmp") / f"ktir-bench-schedule-{time.time_ns()}"
    tmp.mkdir(parents=True)
    head = (f"{'kernel':<22} {'device':<14} {'row':<22} {'cycles':>9} {'bound':>8} "
            f"{'eff':>5} {'speed-up':>8} {'compile s':>9} match")
    print(head)
    for name, path, args in kernels(tmp):
        if opts.only and opts.only not in name:
            continue
        for device in opts.devices.split(","):
            naive = measure(path, device, args, OPTIMISATIONS)
            best = measure(path, device, args, ())
            if isinstance(best, str) or isinstance(naive, str):
                err = best if isinstance(best, str) else naive
                print(f"{name:<22} {device:<14} does not run yet: {err}")
                continue
            cyc, bound, match, comp = best
            rows = [("naive (-O0)", naive), ("optimised", best)]
            rows += [(f"  without {p}", measure(path, device, args, (p,))) for p in OPTIMISATIONS]
            for label, m in rows:
                if isinstance(m, str):
                    print(f"{name:<22} {device:<14} {label:<22} {m}")
                    continue
                c, b, ok, s = m
                speed = naive[0] / c
                print(f"{name:<22} {device:<14} {label:<22} {c:>9,} {b:>8,} {b / c:>5.2f} "
                      f"{speed:>7.2f}x {s:>9.2f} {ok}")
            del cyc, bound, match, comp
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
