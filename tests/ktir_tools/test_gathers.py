"""Gathers end to end: kernels reading through `ktdp.construct_indirect_access_tile` compile,
run on the emulator and match the reference interpreter (also random row gathers, with and
without an element-wise add, on every shipped device); what the scheduler does not gather
yet (two index views on a route without a memory) is a located diagnostic. Scatters:
test_scatters.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ktir.diagnostics import KtirDiagnostic
from ktir_tools.run import run_and_check
from tests.strategies.kernels import box_set, row_major_view

KERNELS = Path(__file__).resolve().parent / "kernels"
RFC = Path(__file__).resolve().parents[2] / "filecheck" / "ktir" / "interpreter" / "Inputs"


@pytest.mark.parametrize("device", ["sample_device", "spyre", "stream_device"])
@pytest.mark.parametrize(("kernel", "args"), [
    # a 4-D table row picked by an i64 index per tile (grid 2 x 8), added to a direct tile
    ("indexed_add_small", {"dim1_start": "0"}),
    # an index per element: one-element vectors
    ("per_lane_gather", {}),
])
def test_gather_kernels_match_reference(kernel: str, args: dict[str, str], device: str
                                        ) -> None:
    report = run_and_check(KERNELS / f"{kernel}.mlir", device, args=args)
    assert report.checks, report.to_json()
    assert report.match, report.to_json()
    em = report.emulation
    assert em.cycles >= em.roofline_cycles > 0


@pytest.mark.parametrize("device", ["sample_device", "spyre"])
def test_rfc_indirect_access_copy_matches_reference(device: str) -> None:
    # ktir-cpu's rfc/indirect-access-copy (addresses rebased to elements): both coordinates
    # read per element from two index views, staged side by side into the scratchpad
    report = run_and_check(RFC / "indirect-access-copy-elements.mlir", device)
    assert report.checks, report.to_json()
    assert report.match, report.to_json()


@pytest.mark.parametrize(("kernel", "device", "where", "why"), [
    ("indirect-access-copy-elements", "stream_device", "ktdf.ind_data_transfer",
     "with 2 index views on a route of device @stream_device without a memory"),
])
def test_unsupported_indirect_tiles_are_located(kernel: str, device: str, where: str,
                                                why: str) -> None:
    with pytest.raises(KtirDiagnostic, match=rf"{kernel}\.mlir:\d+:\d+: error: '{where}' op "
                                             rf".*{why}.*not supported by the scheduler yet"):
        run_and_check(RFC / f"{kernel}.mlir", device)


def gather_kernel(rows: int, cols: int, per_tile: int, grid: int, add: bool) -> str:
    """Out[t * per_tile + i, :] = Table[Ids[t * per_tile + i], :] (+ Pos[...]) on `grid`
    tiles: one indirect tile per tile, the index read from an i32 view."""
    n = per_tile * grid


    mat = f"memref<{n}x{cols}xf16>"
    tile = (f"ktdp.construct_access_tile %{{v}}[%first, %c0] {{{{access_tile_order = #id, "
            f"access_tile_set = {box_set(per_tile, cols)}}}}} : {mat} -> "
            f"!ktdp.access_tile<{per_tile}x{cols}xindex>")
    tt = f"tensor<{per_tile}x{cols}xf16>"
    at = f"!ktdp.access_tile<{per_tile}x{cols}xindex>"
    pos = "%Pos: index, " if add else ""
    lines = [
        "#id = affine_map<(d0, d1) -> (d0, d1)>",
        f"func.func @gather(%Table: index, %Ids: index, {pos}%Out: index) "
        f"attributes {{grid = [{grid}]}} {{",
        "  %c0 = arith.constant 0 : index",
        f"  %cT = arith.constant {per_tile} : index",
        "  %t = ktdp.get_compute_tile_id : index",
        "  %first = arith.muli %t, %cT : index",
        "  %Tv = " + row_major_view("Table", rows, cols, f"memref<{rows}x{cols}xf16>"),
        f"  %Iv = ktdp.construct_memory_view %Ids, sizes: [{n}], strides: [1] "
        f"{{coordinate_set = {box_set(n)}, memory_space = #ktdp.memory_space<global>}} : "
        f"memref<{n}xi32>",
        "  %Ov = " + row_major_view("Out", n, cols, mat),
        f"  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i, %d) "
        f"%Tv[ind(%Iv[%first + %i]), (%d)] {{variables_space_order = #id, "
        f"variables_space_set = {box_set(per_tile, cols)}}} : memref<{rows}x{cols}xf16>, "
        f"memref<{n}xi32> -> {at}",
        f"  %x = ktdp.load %g : {at} -> {tt}",
    ]
    out = "%x"
    if add:
        lines += [
            "  %Pv = " + row_major_view("Pos", n, cols, mat),
            "  %pt = " + tile.format(v="Pv"),
            f"  %p = ktdp.load %pt : {at} -> {tt}",
            f"  %e = tensor.empty() : {tt}",
            f"  %s = linalg.add ins(%x, %p : {tt}, {tt}) outs(%e : {tt}) -> {tt}",
        ]
        out = "%s"
    lines += ["  %ot = " + tile.format(v="Ov"), f"  ktdp.store {out}, %ot : {tt}, {at}",
              "  return", "}"]
    return "\n".join(lines) + "\n"


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(rows=st.integers(1, 40), cols=st.sampled_from([32, 64, 128]),
       per_tile=st.integers(1, 6), grid=st.integers(1, 4), add=st.booleans(),
       device=st.sampled_from(["sample_device", "spyre", "stream_device"]))
def test_random_gathers_match(tmp_path_factory, rows: int, cols: int, per_tile: int,
                              grid: int, add: bool, device: str) -> None:
    path = tmp_path_factory.mktemp("g") / "gather.mlir"
    path.write_text(gather_kernel(rows, cols, per_tile, grid, add))
    report = run_and_check(path, device)
    assert report.checks, report.to_json()
    assert report.match, (rows, cols, per_tile, grid, add, device, report.to_json())
