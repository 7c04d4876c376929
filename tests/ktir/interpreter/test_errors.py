"""Every user-facing failure is a located diagnostic that names the op and the tile."""

import re
from pathlib import Path

import numpy as np
import pytest

from ktir.diagnostics import KtirDiagnostic
from ktir.interpreter import run_kernel
from tests.ktir.interpreter.kernels import run_text

INPUTS = Path(__file__).resolve().parents[3] / "filecheck" / "ktir" / "interpreter" / "Inputs"


def fails(path_or_text, match: str, **kw) -> str:
    run = run_kernel if isinstance(path_or_text, Path) else run_text
    with pytest.raises(KtirDiagnostic) as e:
        run(path_or_text, **kw)
    text = str(e.value)
    assert re.search(match, text), text
    return text


def test_view_overflow():
    text = fails(INPUTS / "view-overflow.mlir", r"'ktdp.load' op overflows its view: coordinate "
                 r"\(96, 0\) is in the coordinate_set but outside the view's 96x64 elements "
                 r"\(view overflow\) on tile 32 \(grid coordinates \(32\)\)")
    assert text.startswith(str(INPUTS / "view-overflow.mlir") + ":")


def test_scratchpad_overflow():
    fails(INPUTS / "scratchpad-overflow.mlir",
          r"'ktdp.store' op overflows the scratchpad: it addresses bytes \[2093056, 2101248\) of "
          r"the scratchpad of tile 1, which holds 2097152 bytes on tile 1 \(grid coordinates "
          r"\(1, 0\)\)")
    # a larger scratchpad holds it
    run_kernel(INPUTS / "scratchpad-overflow.mlir", scratchpad_bytes=4 * 1024 * 1024)


def test_missing_argument():
    fails(INPUTS / "missing-argument.mlir",
          r"'func.func' op argument 'n' \(index\) is not bound: give --arg n=VALUE")


def test_mismatched_allreduce_is_a_deadlock_naming_the_waiting_tiles():
    text = fails(INPUTS / "mismatched-allreduce.mlir", r"'ktdp.inter_tile_reduce' op deadlock")
    for t in (0, 1, 2):
        assert (f"tile {t} (grid coordinates ({t})) waits at 'ktdp.inter_tile_reduce' for the "
                "partials of tile(s) 3 (group 0, instance 0)") in text
    assert "tile(s) 3 finished without producing what is missing" in text


def test_indirect_index_out_of_range():
    text = (Path(__file__).resolve().parents[3] / "examples" / "kernels" / "gather_add.mlir")
    ids = np.zeros(64, dtype=np.int32)
    ids[5] = 100
    fails(text, r"'ktdp.load' op accesses coordinate \(100, 0\) outside the coordinate_set of "
          r"its base view on tile 0", inputs={"Ids": ids})


def test_unsupported_op_is_reported_before_running():
    text = """func.func @k() attributes {grid = [1]} {
  %a = arith.constant 1 : i32
  %b, %o = arith.addui_extended %a, %a : i32, i1
  return
}"""
    fails(text, r"kernel.mlir:3:3: error: 'arith.addui_extended' op is not supported by the "
          r"KTIR interpreter")


def test_uninferable_buffer_asks_for_a_shape():
    text = """#s = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @k(%P: index, %Q: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Pv = ktdp.construct_memory_view %P, sizes: [4], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<4xindex>
  %pt = ktdp.construct_access_tile %Pv[%c0] {access_tile_order = #id, access_tile_set = #s} : memref<4xindex> -> !ktdp.access_tile<4xindex>
  %p = ktdp.load %pt : !ktdp.access_tile<4xindex> -> tensor<4xindex>
  %o = tensor.extract %p[%c0] : tensor<4xindex>
  %q = arith.addi %Q, %o : index
  %Qv = ktdp.construct_memory_view %q, sizes: [4], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
  %qt = ktdp.construct_access_tile %Qv[%c0] {access_tile_order = #id, access_tile_set = #s} : memref<4xf32> -> !ktdp.access_tile<4xindex>
  %z = arith.constant dense<1.0> : tensor<4xf32>
  ktdp.store %z, %qt : tensor<4xf32>, !ktdp.access_tile<4xindex>
  return
}"""
    fails(text, r"kernel.mlir:10:3: error: 'ktdp.construct_memory_view' op cannot infer the "
          r"buffer of argument 'Q': its address depends on the result of 'tensor.extract'; give "
          r"--arg Q=SHAPExTYPE")
    r = run_text(text, args={"Q": "8xf32"}, inputs={"P": np.array([2, 0, 0, 0])})
    expected = r.inputs["Q"].copy()
    expected[2:6] = 1
    np.testing.assert_array_equal(r.outputs["Q"], expected)


def test_bad_argument_values():
    path = INPUTS / "missing-argument.mlir"
    fails(path, r"argument 'n' of type index cannot take the value 'abc'", args={"n": "abc"})
    fails(path, r"has no argument named 'm'", args={"n": 4, "m": 1})
    fails(path, r"argument 'n' is not an address any memory view is built on: give n=VALUE",
          args={"n": "4x4xf32"})
    fails(path, r"argument 'X' is given 8 elements but the kernel addresses 64",
          args={"n": 4, "X": "8xf32"})
    with pytest.raises(KtirDiagnostic, match="input 'X' has shape 5 but the kernel's buffer "
                       "is 64"):
        run_kernel(path, args={"n": 4}, inputs={"X": np.zeros(5, np.float32)})


SOFTMAX = Path(__file__).resolve().parents[3] / "examples" / "kernels" / "softmax.mlir"


@pytest.mark.parametrize("value", [np.array(40), np.int64(40), np.array(40, np.int32), 40])
def test_a_scalar_input_is_a_number_or_a_0d_array(value):
    """An .npz holds scalars as 0-d arrays: they bind scalar arguments like --arg does."""
    got = run_kernel(SOFTMAX, inputs={"M": value}, seed=1)
    want = run_kernel(SOFTMAX, args={"M": "40"}, seed=1)
    np.testing.assert_array_equal(got.outputs["Y"], want.outputs["Y"])


@pytest.mark.parametrize(("value", "match"), [
    (np.array("40"), r"input 'M' is a scalar of type <U2, not a number"),
    (np.array(40.5), r"argument 'M' of type index cannot take the value '40.5'"),
    (np.array([40]), r"argument 'M' is not an address any memory view is built on"),
])
def test_a_bad_scalar_input_is_an_error(value, match):
    fails(SOFTMAX, match, inputs={"M": value})
