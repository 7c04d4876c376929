"""Lanes mode (ktir/interpreter/lanes.py): every tile at once gives the bits of the tiles run
one after another, falls back to that when it would not, and says which way it ran."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from ktir.diagnostics import KtirDiagnostic
from ktir.interpreter import run_kernel
from ktir.interpreter.lanes import LaneAbort, NotBatchable
from tests.ktir.interpreter.kernels import run_text
from tests.strategies.kernels import elementwise_kernel, elementwise_specs

KERNELS = Path(__file__).resolve().parents[3] / "examples" / "kernels"
ARGS = {"softmax": {"M": 70}, "layernorm": {"M": 37, "N": 2048, "eps": 1e-5},
        "rmsnorm": {"eps": 1e-6}, "matmul": {"K": 384}}
SEQUENTIAL = {"allreduce": "inter-tile communication", "distributed_rotate": "scratchpad views",
              "scatter_add": "one tile: nothing to run at once"}


def assert_same_bits(a, b):
    assert a.outputs.keys() == b.outputs.keys()
    for k in a.outputs:
        assert a.outputs[k].dtype == b.outputs[k].dtype
        np.testing.assert_array_equal(a.outputs[k].view(np.uint8), b.outputs[k].view(np.uint8))


def both(text: str, **kw):
    """(tile by tile, automatic) runs of a kernel text; their outputs are the same bits."""
    seq = run_text(text, vectorise=False, **kw)
    auto = run_text(text, **kw)
    assert not seq.vectorised
    assert_same_bits(seq, auto)
    return seq, auto


@pytest.mark.parametrize("name", sorted(p.stem for p in KERNELS.glob("*.mlir")))
def test_every_example_same_bits_and_vectorised_unless_it_cannot(name):
    path = KERNELS / f"{name}.mlir"
    seq = run_kernel(path, args=ARGS.get(name), seed=7, vectorise=False)
    auto = run_kernel(path, args=ARGS.get(name), seed=7)
    assert_same_bits(seq, auto)
    assert auto.vectorised == (name not in SEQUENTIAL)


@settings(max_examples=40, deadline=None)
@given(elementwise_specs())
def test_random_elementwise_kernels_same_bits(spec):
    text = elementwise_kernel(spec)
    _, auto = both(text, seed=3)
    assert auto.vectorised == (spec.grid > 1)


ROWS = """#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + {m1} >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%X: index, %Y: index) attributes {{grid = [{grid}]}} {{
  %t = ktdp.get_compute_tile_id : index
  %m = arith.constant {m} : index
  %g = arith.constant {grid} : index
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [{m}, 64], strides: [64, 1] {{coordinate_set = #x, memory_space = #ktdp.memory_space<global>}} : memref<{m}x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [{m}, 64], strides: [64, 1] {{coordinate_set = #x, memory_space = #ktdp.memory_space<global>}} : memref<{m}x64xf16>
  scf.for %r = %t to %m step %g {{
    %xa = ktdp.construct_access_tile %Xv[%r, %c0] {{access_tile_order = #id, access_tile_set = #row}} : memref<{m}x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %xa : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
{body}
    %ya = ktdp.construct_access_tile %Yv[{dst}, %c0] {{access_tile_order = #id, access_tile_set = #row}} : memref<{m}x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %y, %ya : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }}
  return
}}
"""


def rows_kernel(m: int, grid: int, body: str = "    %y = arith.mulf %x, %x : tensor<1x64xf16>",
                dst: str = "%r") -> str:
    return ROWS.format(m=m, m1=m - 1, grid=grid, body=body, dst=dst)


def test_tiles_with_fewer_rows_stop_early():
    """37 rows on 8 tiles: tiles 0-4 take 5 rows, 5-7 four; the others idle at the end."""
    _, auto = both(rows_kernel(37, 8))
    assert auto.vectorised
    x = auto.inputs["X"]
    np.testing.assert_array_equal(auto.outputs["Y"], x * x)


def test_branch_taken_on_some_tiles():
    body = """    %tf = arith.index_cast %t : index to i32
    %ti = arith.sitofp %tf : i32 to f16
    %odd = arith.remui %t, %c2 : index
    %c = arith.cmpi eq, %odd, %c0 : index
    %y = scf.if %c -> (tensor<1x64xf16>) {
      %s = tensor.splat %ti : tensor<1x64xf16>
      %a = arith.addf %x, %s : tensor<1x64xf16>
      scf.yield %a : tensor<1x64xf16>
    } else {
      scf.yield %x : tensor<1x64xf16>
    }"""
    text = rows_kernel(16, 4, "    %c2 = arith.constant 2 : index\n" + body)
    _, auto = both(text)
    assert auto.vectorised
    x = auto.inputs["X"]
    tile = np.arange(16) % 4
    expected = np.where((tile % 2 == 0)[:, None], x + tile[:, None].astype(np.float16), x)
    np.testing.assert_array_equal(auto.outputs["Y"], expected)


def test_store_on_one_tile_only():
    text = rows_kernel(8, 4).replace(
        "    ktdp.store %y, %ya : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>\n",
        "    %first = arith.cmpi eq, %t, %c0 : index\n"
        "    scf.if %first {\n"
        "      ktdp.store %y, %ya : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>\n"
        "    }\n")
    _, auto = both(text)
    assert auto.vectorised
    got = auto.outputs["Y"]
    x = auto.inputs["X"]
    np.testing.assert_array_equal(got[0::4], (x * x)[0::4])
    keep = np.arange(8) % 4 != 0  # rows of the other tiles keep their (seeded) contents
    np.testing.assert_array_equal(got[keep], auto.inputs["Y"][keep])


def test_while_loop_runs_a_different_count_on_each_tile():
    body = """    %n0 = arith.constant 0 : index
    %one = arith.constant 1 : index
    %y, %k = scf.while (%v = %x, %i = %n0) : (tensor<1x64xf16>, index) -> (tensor<1x64xf16>, index) {
      %go = arith.cmpi ult, %i, %t : index
      scf.condition(%go) %v, %i : tensor<1x64xf16>, index
    } do {
    ^bb0(%v2: tensor<1x64xf16>, %i2: index):
      %w = arith.addf %v2, %v2 : tensor<1x64xf16>
      %j = arith.addi %i2, %one : index
      scf.yield %w, %j : tensor<1x64xf16>, index
    }"""
    _, auto = both(rows_kernel(8, 4, body))
    assert auto.vectorised
    x = auto.inputs["X"].astype(np.float32)
    scale = 2.0 ** (np.arange(8) % 4)
    np.testing.assert_array_equal(auto.outputs["Y"], (x * scale[:, None]).astype(np.float16))


def test_two_tiles_storing_one_row_run_tile_by_tile():
    """Every tile stores row 0: the last tile's store must win, as one after another."""
    _, auto = both(rows_kernel(8, 4, dst="%c0"))
    assert not auto.vectorised
    with pytest.raises(LaneAbort):
        run_text(rows_kernel(8, 4, dst="%c0"), vectorise=True)
    x = auto.inputs["X"]
    np.testing.assert_array_equal(auto.outputs["Y"][0], (x * x)[7])


def test_a_buffer_loaded_and_stored_runs_tile_by_tile():
    text = rows_kernel(8, 4).replace("%Yv = ktdp.construct_memory_view %Y,",
                                     "%Yv = ktdp.construct_memory_view %X,")
    text = text.replace("func.func @k(%X: index, %Y: index)", "func.func @k(%X: index)")
    _, auto = both(text)
    assert not auto.vectorised
    with pytest.raises(NotBatchable):
        run_text(text, vectorise=True)


def test_generic_body_reading_the_tile_id_runs_per_lane():
    body = """    %ti = arith.index_cast %t : index to i32
    %tf = arith.sitofp %ti : i32 to f16
    %e = tensor.empty() : tensor<1x64xf16>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
    ^bb0(%a: f16, %o: f16):
      %col = linalg.index 1 : index
      %s = arith.addi %col, %t : index
      %si = arith.index_cast %s : index to i32
      %sf = arith.sitofp %si : i32 to f16
      %v = arith.mulf %a, %sf : f16
      %w = arith.addf %v, %tf : f16
      linalg.yield %w : f16
    } -> tensor<1x64xf16>"""
    _, auto = both(rows_kernel(8, 4, body))
    assert auto.vectorised


def test_an_error_names_the_tile_that_runs_into_it():
    """Tile 2 divides by zero: the diagnostic is the tile-by-tile one."""
    body = """    %c2 = arith.constant 2 : index
    %d = arith.subi %t, %c2 : index
    %q = arith.divui %c2, %d : index
    %y = arith.mulf %x, %x : tensor<1x64xf16>"""
    with pytest.raises(KtirDiagnostic, match="divides by zero on tile 2"):
        run_text(rows_kernel(8, 4, body))
