"""The optimisation passes end to end: the optimised schedule matches the
reference interpreter, each pass buys cycles on its own, and -O0 is the naive schedule."""

from __future__ import annotations

from pathlib import Path

import pytest

from ktir.diagnostics import KtirDiagnostic
from ktir_tools.run import run_and_check
from scheduler.pipeline import OPTIMISATIONS, disabled_passes


def _add(rows: int, cols: int, tiles: int) -> str:
    r = rows // tiles
    mem, at, t = f"memref<{rows}x{cols}xf16>", f"!ktdp.access_tile<{r}x{cols}xindex>", \
        f"tensor<{r}x{cols}xf16>"
    full = f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, -d1 + {cols - 1} >= 0)>"
    tile = f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {r - 1} >= 0, d1 >= 0, -d1 + {cols - 1} >= 0)>"
    views = "".join(
        f"  %{x}v = ktdp.construct_memory_view %{x}, sizes: [{rows}, {cols}], strides: [{cols}, 1]"
        f" {{coordinate_set = #full, memory_space = #ktdp.memory_space<global>}} : {mem}\n"
        f"  %{x}t = ktdp.construct_access_tile %{x}v[%row0, %c0] {{access_tile_order = #id, "
        f"access_tile_set = #tile}} : {mem} -> {at}\n" for x in "ABC")
    return (f"#full = {full}\n#tile = {tile}\n#id = affine_map<(d0, d1) -> (d0, d1)>\n"
            f"func.func @add(%A: index, %B: index, %C: index) attributes {{grid = [{tiles}]}} {{\n"
            f"  %c0 = arith.constant 0 : index\n  %r = arith.constant {r} : index\n"
            "  %id = ktdp.get_compute_tile_id : index\n  %row0 = arith.muli %id, %r : index\n"
            + views +
            f"  %a = ktdp.load %At : {at} -> {t}\n  %b = ktdp.load %Bt : {at} -> {t}\n"
            f"  %e = tensor.empty() : {t}\n"
            f"  %c = linalg.add ins(%a, %b : {t}, {t}) outs(%e : {t}) -> {t}\n"
            f"  ktdp.store %c, %Ct : {t}, {at}\n  return\n}}\n")


@pytest.fixture(scope="module")
def kernel(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("sched") / "add_128x256.mlir"
    p.write_text(_add(128, 256, 2))  # 64 rows per tile: four blocks of 16 on sample_device
    return p


def _cycles(kernel: Path, disable: tuple[str, ...]) -> int:
    r = run_and_check(kernel, "sample_device", disable=disable)
    assert r.match
    return r.emulation.cycles


def test_each_pass_gains_and_o0_is_naive(kernel: Path) -> None:
    best = _cycles(kernel, ())
    naive = _cycles(kernel, disabled_passes((), 0))
    assert naive >= 4 * best
    for p in ("stage-coarsening", "double-buffering"):  # each alone disabled costs cycles
        assert _cycles(kernel, (p,)) > best, p


def test_reduction_rows_overlap() -> None:
    """The softmax example at M=100 (three or four rows a tile, a host loop over them):
    sink-host-loops moves the loop into the group, where the next row's DMA overlaps this
    row's passes, and unroll-compute-loops runs several vectors per step of each pass, their
    chains interleaved (interleave-compute-chains): at least 0.8 of the bound, bitwise
    (3,308 of 3,200). At M=64 (two rows a tile) unroll-compute-loops' issue model already
    orders one row's vectors as well as interleaving does (2,156 either way)."""
    softmax = Path(__file__).parents[3] / "examples" / "kernels" / "softmax.mlir"

    def run(disable: tuple[str, ...]):
        r = run_and_check(softmax, "spyre", args={"M": "100"}, disable=disable)
        assert r.match
        return r.emulation

    best = run(())
    naive = run(OPTIMISATIONS).cycles
    assert best.cycles < naive
    assert best.roofline_cycles >= 0.8 * best.cycles
    for p in ("sink-host-loops", "unroll-compute-loops", "interleave-compute-chains"):
        assert run((p,)).cycles > best.cycles, p


def test_disabled_passes() -> None:
    assert disabled_passes((), 0) == OPTIMISATIONS
    assert disabled_passes(("double-buffering",), 1) == ("double-buffering",)
    assert sorted(disabled_passes(("stage-coarsening",), 0)) == sorted(OPTIMISATIONS)
    with pytest.raises(KtirDiagnostic, match="unknown pass 'no-such-pass'"):
        disabled_passes(("no-such-pass",))
