"""Every kernel in examples/kernels/ against a numpy formula written here.

fp16 outputs are compared with a tolerance of a few fp16 ulps of the result magnitude
(`atol` below); fp32 statistics, gathers, copies and the all-reduce are compared exactly.
"""

from pathlib import Path

import numpy as np
import pytest

from ktir.interpreter import run_kernel

KERNELS = Path(__file__).resolve().parents[3] / "examples" / "kernels"


def run(name: str, **args):
    return run_kernel(KERNELS / f"{name}.mlir", args=args or None, seed=7)


def test_every_example_is_covered():
    covered = {"add_96x64", "distributed_rotate", "paged_gather", "softmax", "layernorm",
               "rmsnorm", "matmul", "gather_add", "scatter_add", "allreduce", "bias_add", "eltwise_chain",
               "mul_max", "matmul_512", "matmul_1024"}
    assert {p.stem for p in KERNELS.glob("*.mlir")} == covered


def test_add():
    r = run("add_96x64")
    a, b = r.inputs["A"], r.inputs["B"]
    assert r.outputs["C"].dtype == np.float16
    np.testing.assert_array_equal(r.outputs["C"], a + b)  # one fp16 add: exact


def test_bias_add():
    r = run("bias_add")
    x, b = r.inputs["X"], r.inputs["b"]
    assert b.shape == (1, 256)
    np.testing.assert_array_equal(r.outputs["Y"], x + b)  # broadcast over rows, one fp16 add


def test_eltwise_chain():
    r = run("eltwise_chain")
    a, b, c = r.inputs["A"], r.inputs["B"], r.inputs["C"]
    expected = ((a - b).astype(np.float16) * c).astype(np.float16)  # rounded after each op
    np.testing.assert_array_equal(r.outputs["D"], expected)


def test_mul_max():
    r = run("mul_max")
    x, y = r.inputs["X"], r.inputs["Y"]
    np.testing.assert_array_equal(r.outputs["Z"], np.maximum(x * y, x))


def test_distributed_rotate():
    r = run("distributed_rotate")
    x, b = r.inputs["X"], r.inputs["B"]
    expected = np.empty_like(b)
    for t in range(4):
        nb = (t + 1) % 4
        expected[16 * t: 16 * t + 16] = x[16 * nb: 16 * nb + 16] + b[16 * t: 16 * t + 16]
    np.testing.assert_array_equal(r.outputs["C"], expected)
    assert [s.memory for s in r.specs] == ["scratchpad", "global", "global"]


def test_paged_gather():
    r = run("paged_gather")
    cache, idx = r.inputs["Cache"], r.inputs["Idx"]
    assert idx.min() >= 0
    assert idx.max() <= 15
    out = r.outputs["Out"]
    for b in range(4):
        for tok in range(32):
            np.testing.assert_array_equal(out[b, tok], cache[idx[b, tok // 8], tok % 8])


def test_softmax():
    r = run("softmax", M=70)
    x = r.inputs["X"].astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    expected = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(r.outputs["Y"].astype(np.float64), expected, rtol=0, atol=2e-5)
    assert r.outputs["Y"].shape == (70, 1024)


def test_layernorm():
    r = run("layernorm", M=37, N=2048, eps=1e-5)
    x = r.inputs["X"].astype(np.float64)
    w, b = r.inputs["W"].astype(np.float64), r.inputs["B"].astype(np.float64)
    mean = x.sum(axis=1) / 2048
    var = ((x - mean[:, None]) ** 2).sum(axis=1) / 2048
    rstd = 1 / np.sqrt(var + 1e-5)
    y = (x - mean[:, None]) * rstd[:, None] * w + b
    np.testing.assert_allclose(r.outputs["Mean"], mean, rtol=0, atol=1e-6)
    np.testing.assert_allclose(r.outputs["Rstd"], rstd, rtol=1e-5)
    np.testing.assert_allclose(r.outputs["Y"].astype(np.float64), y, rtol=0, atol=4e-3)


def test_rmsnorm():
    r = run("rmsnorm", eps=1e-6)
    x, w = r.inputs["X"].astype(np.float64), r.inputs["W"].astype(np.float64)
    y = x / np.sqrt((x * x).sum(axis=1, keepdims=True) / 256 + 1e-6) * w
    np.testing.assert_allclose(r.outputs["Y"].astype(np.float64), y, rtol=0, atol=4e-3)


def test_matmul():
    r = run("matmul", K=384)
    a, b = r.inputs["A"].astype(np.float64), r.inputs["B"].astype(np.float64)
    c = a @ b  # |c| < ~40: 3 fp16 roundings of the accumulator stay within 0.1
    np.testing.assert_allclose(r.outputs["C"].astype(np.float64), c, rtol=0, atol=0.1)
    assert r.outputs["C"].shape == (64, 8192)


@pytest.mark.parametrize("n", [512, 1024])
def test_square_matmuls(n):
    """K in steps of 128, the fp16 accumulator block rounded after each step (the kernel's
    iter_args): each step's f32 sum of products plus the accumulator, rounded once."""
    r = run(f"matmul_{n}")
    a, b = r.inputs["A"].astype(np.float32), r.inputs["B"].astype(np.float32)
    acc = np.zeros((n, n), np.float16)
    for k in range(0, n, 128):
        acc = (acc.astype(np.float32) + a[:, k:k + 128] @ b[k:k + 128]).astype(np.float16)
    # only the f32 summation order may differ: within an fp16 ulp of the result
    np.testing.assert_allclose(r.outputs["C"].astype(np.float32), acc, rtol=1e-3, atol=1e-2)


def test_gather_add():
    r = run("gather_add")
    table, ids, pos = r.inputs["Table"], r.inputs["Ids"], r.inputs["Pos"]
    assert ids.dtype == np.int32
    assert ids.min() >= 0
    assert ids.max() <= 99
    np.testing.assert_array_equal(r.outputs["Out"], table[ids] + pos)


def test_scatter_add_last_row_wins():
    r = run("scatter_add")
    x, y, ids, table = r.inputs["X"], r.inputs["Y"], r.inputs["Ids"], r.inputs["Out"]
    assert ids.dtype == np.int32
    assert 0 <= ids.min() <= ids.max() <= 99
    expected = table.copy()
    for i, row in enumerate(ids):  # in row order: a repeated index keeps the last row
        expected[row] = x[i] + y[i]
    np.testing.assert_array_equal(r.outputs["Out"], expected)


def test_allreduce_folds_in_ascending_tile_order():
    r = run("allreduce")
    x = r.inputs["X"]
    expected = np.empty_like(x)
    for g in range(2):
        acc = np.zeros(256, np.float32)
        for u in range(4 * g, 4 * g + 4):
            acc = acc + x[u]
        expected[4 * g: 4 * g + 4] = acc
    np.testing.assert_array_equal(r.outputs["Out"], expected)


@pytest.mark.parametrize("seed", [0, 1])
def test_inputs_are_reproducible(seed):
    a = run_kernel(KERNELS / "add_96x64.mlir", seed=seed)
    b = run_kernel(KERNELS / "add_96x64.mlir", seed=seed)
    np.testing.assert_array_equal(a.inputs["A"], b.inputs["A"])
    assert a.inputs["A"].min() >= -1
    assert a.inputs["A"].max() <= 1
