"""Kernels whose tiles split a tensor by columns (or by rows and columns on a 2-D grid) run
and match with race checking on: each tile touches its own bytes, though the byte ranges of
its strided accesses interleave with its neighbours' (issue 12, item 1)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.emulator.test_kernels import output, run_kernel


def split_add(rows: int, cols: int, grid: tuple[int, int]) -> str:
    """C = A + B over rows x cols fp16; tile (i, j) of the `grid` (rows, columns) adds block
    [i*r, i*r + r) x [j*c, j*c + c). A grid of one row of tiles is written as a 1-D grid."""
    gr, gc = grid
    r, c = rows // gr, cols // gc
    ids = "%j = ktdp.get_compute_tile_id : index\n  %i = arith.constant 0 : index" if gr == 1 \
        else "%i, %j = ktdp.get_compute_tile_id : index, index"
    g = f"[{gc}]" if gr == 1 else f"[{gr}, {gc}]"
    mem, tile = f"memref<{rows}x{cols}xf16>", f"!ktdp.access_tile<{r}x{c}xindex>"
    text = f"""#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + {r - 1} >= 0, d1 >= 0, -d1 + {c - 1} >= 0)>
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, -d1 + {cols - 1} >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add(%A: index, %B: index, %C: index) attributes {{grid = {g}}} {{
  %cr = arith.constant {r} : index
  %cc = arith.constant {c} : index
  {ids}
  %row0 = arith.muli %i, %cr : index
  %col0 = arith.muli %j, %cc : index
"""
    for x in "ABC":
        text += f"""  %{x}v = ktdp.construct_memory_view %{x}, sizes: [{rows}, {cols}], strides: [{cols}, 1] {{coordinate_set = #full, memory_space = #ktdp.memory_space<global>}} : {mem}
  %{x}t = ktdp.construct_access_tile %{x}v[%row0, %col0] {{access_tile_order = #id, access_tile_set = #tile}} : {mem} -> {tile}
"""
    return text + f"""  %a = ktdp.load %At : {tile} -> tensor<{r}x{c}xf16>
  %b = ktdp.load %Bt : {tile} -> tensor<{r}x{c}xf16>
  %e = tensor.empty() : tensor<{r}x{c}xf16>
  %s = linalg.add ins(%a, %b : tensor<{r}x{c}xf16>, tensor<{r}x{c}xf16>) outs(%e : tensor<{r}x{c}xf16>) -> tensor<{r}x{c}xf16>
  ktdp.store %s, %Ct : tensor<{r}x{c}xf16>, {tile}
  return
}}
"""


@pytest.mark.parametrize(("rows", "cols", "grid", "device"), [
    (96, 64, (1, 2), "spyre"),           # 32-column halves: one vector spans two rows
    (96, 64, (1, 2), "sample_device"),
    (96, 64, (1, 4), "spyre"),           # 16-column quarters
    (32, 96, (1, 3), "sample_device"),
    (8, 256, (1, 8), "spyre"),
    (64, 128, (2, 4), "sample_device"),  # a 2-D grid: rows and columns
    (64, 128, (4, 2), "spyre"),
    (96, 64, (1, 2), "stream_device"),
])
def test_column_split_matches_with_race_checking(rows: int, cols: int, grid: tuple[int, int],
                                                 device: str) -> None:
    result, inputs, dev, specs = run_kernel(split_add(rows, cols, grid), "split.mlir", device,
                                            check_races=True)
    assert np.array_equal(output(result, dev, specs, "C"), inputs["A"] + inputs["B"])
