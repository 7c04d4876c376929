"""Scatters end to end: kernels storing through `ktdp.construct_indirect_access_tile` compile,
run on the emulator and match the reference interpreter, equal indices included (the last in
the tile's enumeration order wins on both sides), also random row and element scatters over
grids of tiles; what the scheduler does not scatter (a device without a memory to stage the
index in, the same index on two tiles, which races) stops with a located error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator.errors import EmulationError
from ktir.diagnostics import KtirDiagnostic
from ktir_tools.run import run_and_check
from tests.ktir_tools.checks import assert_matches
from tests.strategies.kernels import box_set, row_major_view

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "kernels"
RFC = Path(__file__).resolve().parents[2] / "filecheck" / "ktir" / "interpreter" / "Inputs"
DEVICES = ["sample_device", "spyre"]


@pytest.mark.parametrize("device", DEVICES)
def test_rfc_indirect_scatter_matches_reference(device: str) -> None:
    # ktir-cpu's rfc/indirect-scatter (addresses rebased to elements): both coordinates read
    # per element from two index views; 4096 random indices into 64 x 64 repeat, and the
    # last store of each coordinate wins on both sides
    assert_matches(run_and_check(RFC / "indirect-scatter-elements.mlir", device))


@pytest.mark.parametrize("device", DEVICES)
def test_scatter_add_example_matches_reference(device: str) -> None:
    assert_matches(run_and_check(EXAMPLES / "scatter_add.mlir", device))


def test_repeated_rows_keep_the_last() -> None:
    # every row scattered to table row 7: the table holds the last one, X[63] + Y[63]
    ids = np.full(64, 7, dtype=np.int32)
    report = run_and_check(EXAMPLES / "scatter_add.mlir", "spyre", inputs={"Ids": ids})
    assert_matches(report)


def test_scatter_without_a_staging_memory_is_located() -> None:
    with pytest.raises(KtirDiagnostic, match=r"scatter_add\.mlir:\d+:\d+: error: "
                                             r"'ktdf.ind_data_transfer' op a scatter on the route VPU -> VSU -> HBM .*"
                                             r"not supported by the scheduler yet"):
        run_and_check(EXAMPLES / "scatter_add.mlir", "stream_device")


def scatter_kernel(rows: int, cols: int, per_tile: int, grid: int, add: bool,
                   per_element: bool) -> str:
    """Out[Ids[t * per_tile + i], :] = X[t * per_tile + i, :] (+ Y[...]) on `grid` tiles
    (rows of `cols`); with `per_element`, Out[Ids[.., j], Jds[.., j]] = X[.., j] (an index
    pair per element, from two i32 views)."""
    n = per_tile * grid


    mat = f"memref<{n}x{cols}xf16>"
    at = f"!ktdp.access_tile<{per_tile}x{cols}xindex>"
    tile = (f"ktdp.construct_access_tile %{{v}}[%first, %c0] {{{{access_tile_order = #id, "
            f"access_tile_set = {box_set(per_tile, cols)}}}}} : {mat} -> {at}")
    tt = f"tensor<{per_tile}x{cols}xf16>"
    ids_t = f"memref<{n}x{cols}xi32>" if per_element else f"memref<{n}xi32>"
    ids_view = (row_major_view("Ids", n, cols, ids_t) if per_element
                else f"ktdp.construct_memory_view %Ids, sizes: [{n}], strides: [1] "
                     f"{{coordinate_set = {box_set(n)}, memory_space = "
                     f"#ktdp.memory_space<global>}} : {ids_t}")
    args = "%X: index, " + ("%Y: index, " if add else "") + "%Ids: index, " + (
        "%Jds: index, " if per_element else "") + "%Out: index"
    lines = [
        "#id = affine_map<(d0, d1) -> (d0, d1)>",
        f"func.func @scatter({args}) attributes {{grid = [{grid}]}} {{",
        "  %c0 = arith.constant 0 : index",
        f"  %cT = arith.constant {per_tile} : index",
        "  %t = ktdp.get_compute_tile_id : index",
        "  %first = arith.muli %t, %cT : index",
        "  %Xv = " + row_major_view("X", n, cols, mat),
        "  %xt = " + tile.format(v="Xv"),
        f"  %x = ktdp.load %xt : {at} -> {tt}",
        "  %Iv = " + ids_view,
        "  %Ov = " + row_major_view("Out", rows, cols, f"memref<{rows}x{cols}xf16>"),
    ]
    out = "%x"
    if add:
        lines += ["  %Yv = " + row_major_view("Y", n, cols, mat),
                  "  %yt = " + tile.format(v="Yv"),
                  f"  %y = ktdp.load %yt : {at} -> {tt}",
                  f"  %e = tensor.empty() : {tt}",
                  f"  %s = linalg.add ins(%x, %y : {tt}, {tt}) outs(%e : {tt}) -> {tt}"]
        out = "%s"
    if per_element:
        lines.append("  %Jv = " + row_major_view("Jds", n, cols, ids_t))
        subs = "ind(%Iv[%first + %i, %d]), ind(%Jv[%first + %i, %d])"
        views = f"{ids_t}, {ids_t}"
    else:
        subs, views = "ind(%Iv[%first + %i]), (%d)", ids_t
    lines += [f"  %st = ktdp.construct_indirect_access_tile intermediate_variables(%i, %d) "
              f"%Ov[{subs}] {{variables_space_order = #id, variables_space_set = "
              f"{box_set(per_tile, cols)}}} : memref<{rows}x{cols}xf16>, {views} -> {at}",
              f"  ktdp.store {out}, %st : {tt}, {at}", "  return", "}"]
    return "\n".join(lines) + "\n"


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), cols=st.sampled_from([32, 64, 128]), per_tile=st.integers(1, 6),
       grid=st.integers(1, 4), add=st.booleans(), device=st.sampled_from(DEVICES))
def test_random_row_scatters_match(tmp_path_factory, data, cols: int, per_tile: int,
                                   grid: int, add: bool, device: str) -> None:
    n = per_tile * grid
    rows = data.draw(st.integers(n, n + 8), "rows")
    # distinct rows across tiles (two tiles storing to one row race); within one tile the
    # same row may repeat: the later store wins
    perm = np.asarray(data.draw(st.permutations(range(rows)), "perm")[:n], dtype=np.int32)
    ids = perm.copy()
    if per_tile > 1 and data.draw(st.booleans(), "repeat"):
        ids[1::per_tile] = ids[0::per_tile][:len(ids[1::per_tile])]
    path = tmp_path_factory.mktemp("s") / "scatter.mlir"
    path.write_text(scatter_kernel(rows, cols, per_tile, grid, add, False))
    report = run_and_check(path, device, inputs={"Ids": ids})
    assert report.checks, report.to_json()
    assert report.match, (rows, cols, per_tile, grid, add, device, report.to_json())


@pytest.mark.parametrize("device", DEVICES)
def test_element_scatter_over_tilesassert_matches(tmp_path, device: str) -> None:
    # an index pair per element, 2 tiles of 2 x 32 elements into a 16 x 32 table: the pairs
    # of each tile are a permutation of their own half of the table, so tiles never meet
    rng = np.random.default_rng(1)
    cells = rng.permutation(16 * 32)
    half = [cells[cells < 8 * 32], cells[cells >= 8 * 32]]
    pick = np.concatenate([h[:64] for h in half]).reshape(4, 32).astype(np.int32)
    path = tmp_path / "scatter.mlir"
    path.write_text(scatter_kernel(16, 32, 2, 2, False, True))
    report = run_and_check(path, device, inputs={"Ids": pick // 32, "Jds": pick % 32})
    assert_matches(report)


def test_the_same_row_on_two_tiles_is_a_located_race(tmp_path) -> None:
    path = tmp_path / "scatter.mlir"
    path.write_text(scatter_kernel(8, 64, 2, 2, False, False))
    ids = np.array([0, 1, 2, 1], dtype=np.int32)  # row 1 from tile 0 and from tile 1
    with pytest.raises(EmulationError, match=r"scatter\.mlir:\d+:\d+: error: "
                                             r"'agen.composite_indirect_load_and_store' op "
                                             r"unsynchronised access: .*\[unit C\d-DMA_OUT, "
                                             r"cycle \d+\]"):
        run_and_check(path, "spyre", inputs={"Ids": ids})
