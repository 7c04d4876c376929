"""ktdp semantics: views, masking, access-tile shapes and orders, distributed views,
indirect gathers and scatters, tensor bases, runtime arguments, grid numbering (D2)."""

from pathlib import Path

import numpy as np
import pytest

from ktir.diagnostics import KtirDiagnostic
from ktir.interpreter import run_kernel
from tests.ktir.interpreter.kernels import run_text

HEAD = """#id = affine_map<(d0, d1) -> (d0, d1)>
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
"""


def copy_kernel(tile_set: str, order: str, shape: str, origin: str = "%c0, %c0",
                grid: str = "[1]", extra: str = "") -> str:
    """Load a tile of X (8x8 f32) and store it through the same tile of Y."""
    return HEAD + f"""#t = {tile_set}
#o = {order}
func.func @k(%X: index, %Y: index) attributes {{grid = {grid}}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
{extra}
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 8], strides: [8, 1] {{coordinate_set = #full, memory_space = #ktdp.memory_space<global>}} : memref<8x8xf32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 8], strides: [8, 1] {{coordinate_set = #full, memory_space = #ktdp.memory_space<global>}} : memref<8x8xf32>
  %xt = ktdp.construct_access_tile %Xv[{origin}] {{access_tile_order = #o, access_tile_set = #t}} : memref<8x8xf32> -> !ktdp.access_tile<{shape}xindex>
  %yt = ktdp.construct_access_tile %Yv[{origin}] {{access_tile_order = #o, access_tile_set = #t}} : memref<8x8xf32> -> !ktdp.access_tile<{shape}xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<{shape}xindex> -> tensor<{shape}xf32>
  ktdp.store %x, %yt : tensor<{shape}xf32>, !ktdp.access_tile<{shape}xindex>
  return
}}
"""


X = np.arange(64, dtype=np.float32).reshape(8, 8) + 1


def copied(text: str) -> np.ndarray:
    return run_text(text, inputs={"X": X, "Y": np.zeros((8, 8), np.float32)}).outputs["Y"]


def test_triangular_tile_writes_only_its_points():
    tri = "affine_set<(d0, d1) : (d0 >= 0, d1 >= 0, d0 - d1 >= 0, -d0 + 7 >= 0)>"
    got = copied(copy_kernel(tri, "affine_map<(d0, d1) -> (d0, d1)>", "8x8"))
    np.testing.assert_array_equal(got, np.tril(X))


def test_strided_tile_and_its_holes():
    even = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 6 >= 0, d1 mod 2 == 0)>"
    got = copied(copy_kernel(even, "affine_map<(d0, d1) -> (d0, d1)>", "4x7", "%c2, %c1"))
    expected = np.zeros_like(X)
    expected[2:6, 1:8:2] = X[2:6, 1:8:2]
    np.testing.assert_array_equal(got, expected)


def test_skewed_tile():
    skew = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - d0 >= 0, -d1 + d0 + 3 >= 0)>"
    got = copied(copy_kernel(skew, "affine_map<(d0, d1) -> (d0, d1)>", "4x7"))
    expected = np.zeros_like(X)
    for i in range(4):
        expected[i, i:i + 4] = X[i, i:i + 4]
    np.testing.assert_array_equal(got, expected)


def test_transposed_order_turns_the_tile():
    box = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>"
    text = copy_kernel(box, "affine_map<(d0, d1) -> (d1, d0)>", "8x2")
    np.testing.assert_array_equal(copied(text)[:2], X[:2])
    text = text.replace("ktdp.store %x, %yt", "%e = tensor.empty() : tensor<8x2xf32>\n"
                        "  %two = arith.constant 2.0 : f32\n"
                        "  %f = linalg.fill ins(%two : f32) outs(%e : tensor<8x2xf32>) -> tensor<8x2xf32>\n"
                        "  %m = arith.mulf %x, %f : tensor<8x2xf32>\n  ktdp.store %m, %yt")
    np.testing.assert_array_equal(copied(text)[:2], 2 * X[:2])


def test_tiles_outside_the_coordinate_set_are_masked():
    box = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>"
    got = copied(copy_kernel(box, "affine_map<(d0, d1) -> (d0, d1)>", "4x4",
                             "%c6, %c6", extra="  %c3 = arith.constant 3 : index\n  %c6 = arith.muli %c2, %c3 : index"))
    expected = np.zeros_like(X)
    expected[6:, 6:] = X[6:, 6:]  # the 12 points beyond row/column 7 read 0 and are dropped
    np.testing.assert_array_equal(got, expected)


def test_grid_numbering_first_dimension_fastest():
    text = """#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 2 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @ids(%Y: index) attributes {grid = [2, 3]} {
  %t = ktdp.get_compute_tile_id : index
  %x, %y = ktdp.get_compute_tile_id : index, index
  %Yv = ktdp.construct_memory_view %Y, sizes: [6, 3], strides: [3, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<6x3xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %ti = arith.index_cast %t : index to i64
  %xi = arith.index_cast %x : index to i64
  %yi = arith.index_cast %y : index to i64
  %v = tensor.from_elements %ti : tensor<1x1xi64>
  %vx = tensor.from_elements %xi : tensor<1x1xi64>
  %vy = tensor.from_elements %yi : tensor<1x1xi64>
  %a0 = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_order = #id, access_tile_set = #one} : memref<6x3xi64> -> !ktdp.access_tile<1x1xindex>
  %a1 = ktdp.construct_access_tile %Yv[%t, %c1] {access_tile_order = #id, access_tile_set = #one} : memref<6x3xi64> -> !ktdp.access_tile<1x1xindex>
  %a2 = ktdp.construct_access_tile %Yv[%t, %c2] {access_tile_order = #id, access_tile_set = #one} : memref<6x3xi64> -> !ktdp.access_tile<1x1xindex>
  ktdp.store %v, %a0 : tensor<1x1xi64>, !ktdp.access_tile<1x1xindex>
  ktdp.store %vx, %a1 : tensor<1x1xi64>, !ktdp.access_tile<1x1xindex>
  ktdp.store %vy, %a2 : tensor<1x1xi64>, !ktdp.access_tile<1x1xindex>
  return
}
"""
    got = run_text(text).outputs["Y"]
    assert got.tolist() == [[t, t % 2, t // 2] for t in range(6)]


def test_dynamic_view_with_symbolic_set_and_runtime_arg():
    text = """#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#blk = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%X: index, %Y: index, %n: !ktdp.runtime_arg<index, granularity=2, upperbound=8>, %s: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %m = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity=2, upperbound=8> -> index
  %g = ktdp.runtime_arg_extract granularity from %n : !ktdp.runtime_arg<index, granularity=2, upperbound=8> -> index
  %Xv = ktdp.construct_memory_view %X, sizes: [%m, 4], strides: [%s, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x4xf32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [%m, 4], strides: [4, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x4xf32>
  %xt = ktdp.construct_access_tile %Xv[%c0, %c0] symbols(%m) {access_tile_order = #id, access_tile_set = #blk} : memref<?x4xf32> -> !ktdp.access_tile<?x4xindex>
  %yt = ktdp.construct_access_tile %Yv[%c0, %c0] symbols(%m) {access_tile_order = #id, access_tile_set = #blk} : memref<?x4xf32> -> !ktdp.access_tile<?x4xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<?x4xindex> -> tensor<?x4xf32>
  %gi = arith.index_cast %g : index to i64
  %gf = arith.sitofp %gi : i64 to f32
  %c = tensor.splat %gf[%m] : tensor<?x4xf32>
  %y = arith.mulf %x, %c : tensor<?x4xf32>
  ktdp.store %y, %yt : tensor<?x4xf32>, !ktdp.access_tile<?x4xindex>
  return
}
"""
    r = run_text(text, args={"n": 6, "s": 5})
    x = r.inputs["X"]
    assert x.shape == (29,)  # 6 rows of stride 5, the last one 4 wide
    rows = np.stack([x[5 * i: 5 * i + 4] for i in range(6)])
    np.testing.assert_array_equal(r.outputs["Y"], 2 * rows)
    with pytest.raises(KtirDiagnostic, match="not a multiple of its granularity 2"):
        run_text(text, args={"n": 5, "s": 5})
    with pytest.raises(KtirDiagnostic, match="exceeds its upperbound 8"):
        run_text(text, args={"n": 10, "s": 5})


RUNTIME_ROWS = """#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%X: index, %Y: index, %n: !ktdp.runtime_arg<index, granularity=4, upperbound=11>, %k: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %m = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity=4, upperbound=11> -> index
  %Xv = ktdp.construct_memory_view %X, sizes: [%m, 4], strides: [4, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x4xf32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [%m, 4], strides: [4, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x4xf32>
  %xt = ktdp.construct_access_tile %Xv[%c0, %c0] symbols(%m) {access_tile_order = #id, access_tile_set = #rows} : memref<?x4xf32> -> !ktdp.access_tile<?x4xindex>
  %yt = ktdp.construct_access_tile %Yv[%c0, %c0] symbols(%m) {access_tile_order = #id, access_tile_set = #rows} : memref<?x4xf32> -> !ktdp.access_tile<?x4xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<?x4xindex> -> tensor<?x4xf32>
  %y = arith.addf %x, %x : tensor<?x4xf32>
  ktdp.store %y, %yt : tensor<?x4xf32>, !ktdp.access_tile<?x4xindex>
  return
}
"""


def test_a_runtime_arg_given_no_value_takes_the_largest_its_type_admits():
    """upperbound 11, granularity 4: M = 8 rows, the spec says it was defaulted (the CLIs
    print its note); given a value, that one. A plain scalar without a value stays an
    error."""
    from ktir.interpreter.arguments import default_notes

    r = run_text(RUNTIME_ROWS, args={"k": 0})
    n = next(s for s in r.specs if s.name == "n")
    assert (n.value, n.defaulted) == (8, True)
    assert r.outputs["Y"].shape == (8, 4)
    np.testing.assert_array_equal(r.outputs["Y"], 2 * r.inputs["X"])
    assert default_notes(r.specs) == [
        "note: runtime_arg 'n' (!ktdp.runtime_arg<index, granularity=4, upperbound=11>) has "
        "no value: using 8, the largest its type admits; choose another with --arg n=VALUE"]
    r = run_text(RUNTIME_ROWS, args={"n": 4, "k": 0})
    assert r.outputs["Y"].shape == (4, 4)
    assert not default_notes(r.specs)
    unused = RUNTIME_ROWS.replace("%k: index) attributes", "%k: index, %j: index) attributes")
    unused = unused.replace("%c0 = arith.constant 0 : index",
                            "%c0 = arith.constant 0 : index\n  %u = arith.addi %j, %c0 : index")
    with pytest.raises(KtirDiagnostic, match=r"argument 'j' \(index\) is not bound: give "
                                             r"--arg j=VALUE"):
        run_text(unused, args={"k": 0})


def test_distributed_view_over_device_memory_and_scratchpads():
    text = """#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 - 2 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#p2 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%D: index, %S: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %v0 = ktdp.construct_memory_view %D, sizes: [2, 4], strides: [4, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<2x4xf32>
  %v1 = ktdp.construct_memory_view %S, sizes: [2, 4], strides: [1, 2] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<2x4xf32>
  %v2 = ktdp.construct_memory_view %S, sizes: [2, 4], strides: [4, 1] {coordinate_set = #p2, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<2x4xf32>
  %d = ktdp.construct_distributed_memory_view (%v0, %v1, %v2 : memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>) : memref<6x4xf32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [6, 4], strides: [4, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<6x4xf32>
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %t, %c0 : index
  scf.if %is0 {
    %at = ktdp.construct_access_tile %d[%c0, %c0] {access_tile_order = #id, access_tile_set = #all} : memref<6x4xf32> -> !ktdp.access_tile<6x4xindex>
    %yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_order = #id, access_tile_set = #all} : memref<6x4xf32> -> !ktdp.access_tile<6x4xindex>
    %a = ktdp.load %at : !ktdp.access_tile<6x4xindex> -> tensor<6x4xf32>
    ktdp.store %a, %yt : tensor<6x4xf32>, !ktdp.access_tile<6x4xindex>
  }
  return
}
"""
    r = run_text(text)
    assert r.specs[1].memory == "scratchpad"
    assert r.specs[1].shape == (6, 4)
    expected = np.concatenate([r.inputs["D"], r.inputs["S"][2:]])
    np.testing.assert_array_equal(r.outputs["Y"], expected)


def test_indirect_scatter_and_tensor_base_gather():
    text = """#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%X: index, %P: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 4], strides: [4, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x4xf32>
  %Pv = ktdp.construct_memory_view %P, sizes: [4], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<4xindex>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 4], strides: [4, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x4xf32>
  %xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_order = #id, access_tile_set = #vars} : memref<8x4xf32> -> !ktdp.access_tile<4x4xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<4x4xindex> -> tensor<4x4xf32>
  %tt = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d1, d0)>, access_tile_set = #vars} : tensor<4x4xf32> -> !ktdp.access_tile<4x4xindex>
  %xT = ktdp.load %tt : !ktdp.access_tile<4x4xindex> -> tensor<4x4xf32>
  %dst = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %Yv[ind(%Pv[%i]), (%j)] {variables_space_order = #id, variables_space_set = #vars} : memref<8x4xf32>, memref<4xindex> -> !ktdp.access_tile<4x4xindex>
  ktdp.store %xT, %dst : tensor<4x4xf32>, !ktdp.access_tile<4x4xindex>
  return
}
"""
    x = np.arange(32, dtype=np.float32).reshape(8, 4)
    p = np.array([6, 1, 3, 0], dtype=np.int64)
    r = run_text(text, inputs={"X": x, "P": p, "Y": np.zeros((8, 4), np.float32)})
    expected = np.zeros((8, 4), np.float32)
    expected[p] = x[:4].T
    np.testing.assert_array_equal(r.outputs["Y"], expected)
    assert r.specs[1].int_range == (0, 7)


def test_indirect_tile_over_an_empty_variable_space_moves_nothing():
    path = Path(__file__).resolve().parents[3] / "filecheck" / "ktir" / "interpreter" / \
        "Inputs" / "empty-indirect.mlir"
    y = np.arange(32, dtype=np.float32).reshape(8, 4)
    p = np.array([3, 1, 2, 0], dtype=np.int64)
    assert run_kernel(path, args={"n": 0}, inputs={"Y": y, "P": p}).outputs == {}
    got = run_kernel(path, args={"n": 2}, inputs={"Y": y, "P": p})
    x = got.inputs["X"]
    expected = y.copy()
    expected[p[:2]] = x[p[:2]]
    np.testing.assert_array_equal(got.outputs["Y"], expected)
