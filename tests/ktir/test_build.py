"""The kernel builder writes the example kernels: the builder's module computes bit for bit
what examples/kernels/*.mlir computes (reference interpreter, same inputs), and the ones the
compiler supports compile, emulate and match again; what it cannot express is a BuildError
naming the construct."""

from pathlib import Path

import numpy as np
import pytest

from ktir.build import BuildError, Kernel, where
from ktir.context import parse_module
from ktir.interpreter import run_kernel

KERNELS = Path(__file__).parents[2] / "examples" / "kernels"


def add_96x64():
    k = Kernel("add", grid=32)
    a, b, c = (k.tensor(n, (96, 64), "f16") for n in "ABC")
    with k.tiles(rows=3) as t:
        t.store(c, t.load(a) + t.load(b))
    return k


def bias_add():
    k = Kernel("bias_add", grid=16)
    x = k.tensor("X", (128, 256), "f16")
    b = k.tensor("b", (1, 256), "f16")
    y = k.tensor("Y", (128, 256), "f16")
    with k.tiles(rows=8) as t:
        t.store(y, t.load(x) + t.load(b))
    return k


def eltwise_chain():
    k = Kernel("sub_mul", grid=8)
    a, b, c, d = (k.tensor(n, (64, 128), "f16") for n in "ABCD")
    with k.tiles(rows=8) as t:
        t.store(d, (t.load(a) - t.load(b)) * t.load(c))
    return k


def mul_max():
    k = Kernel("mul_max", grid=4)
    x, y, z = (k.tensor(n, (32, 192), "f16") for n in "XYZ")
    with k.tiles(rows=8) as t:
        xv = t.load(x)
        t.store(z, (xv * t.load(y)).maximum(xv))
    return k


def softmax():
    k = Kernel("softmax", grid=32)
    x = k.tensor("X", (64, 1024), "f16")
    y = k.tensor("Y", (64, 1024), "f16")
    with k.tiles(rows=1) as t:
        xv = t.load(x)
        e = (xv - xv.max(axis=1, keepdims=True)).exp()
        t.store(y, e / e.sum(axis=1, keepdims=True))
    return k


def rmsnorm():
    k = Kernel("rmsnorm", grid=4)
    x = k.tensor("X", (16, 256), "f16")
    w = k.tensor("W", (256,), "f16")
    y = k.tensor("Y", (16, 256), "f16")
    eps = k.scalar("eps", "f32")
    with k.tiles(rows=4) as t:
        xf = t.load(x).astype("f32")
        inv = ((xf * xf).sum(axis=1, keepdims=True) / 256.0 + eps).rsqrt()
        t.store(y, (xf * inv * t.load(w).astype("f32")).astype("f16"))
    return k


# example file, builder, kernel arguments, compiled by the scheduler today
EXAMPLES = [
    ("add_96x64", add_96x64, {}, True),
    ("bias_add", bias_add, {}, True),
    ("eltwise_chain", eltwise_chain, {}, True),
    ("mul_max", mul_max, {}, True),
    ("softmax", softmax, {"M": "64"}, False),
    ("rmsnorm", rmsnorm, {"eps": "1e-5"}, False),
]


@pytest.mark.parametrize(("name", "make", "args", "compiled"), EXAMPLES,
                         ids=[e[0] for e in EXAMPLES])
def test_builder_writes_the_example(name, make, args, compiled):
    module = make().build()
    # the printed module parses back to the same text
    assert str(parse_module(str(module))) == str(module)
    want = run_kernel(KERNELS / f"{name}.mlir", args=args, seed=3)
    inputs = {k: v for k, v in want.inputs.items()}
    got = run_kernel(module, args={k: v for k, v in args.items() if k != "M"}, inputs=inputs)
    assert got.outputs.keys() == want.outputs.keys()
    for out, ref in want.outputs.items():
        assert got.outputs[out].tobytes() == ref.tobytes(), out
    if compiled:
        from ktir_tools.run import run_and_check

        path = Path(__file__).parent / f".build_{name}.mlir"
        try:
            path.write_text(str(module))
            report = run_and_check(path, "spyre", seed=3)
        finally:
            path.unlink(missing_ok=True)
        assert report.match
        assert report.emulation.cycles > 0


def test_tile_loop_forms():
    """More row blocks than tiles: a constant-trip loop when every tile takes as many,
    else the loop starts at the tile's rows; both compute the rows once."""
    for grid in (4, 5):
        k = Kernel("neg", grid=grid)
        x, y = k.tensor("X", (24, 8), "f32"), k.tensor("Y", (24, 8), "f32")
        with k.tiles(rows=2) as t:
            t.store(y, -t.load(x) * 2.0)
        text = str(k.build())
        assert ("scf.for %k = %0 to" in text) == (grid == 4)
        res = run_kernel(k.build(), seed=1)
        np.testing.assert_array_equal(res.outputs["Y"], -res.inputs["X"] * 2)


def test_where_compare_and_casts():
    k = Kernel("relu_where", grid=2)
    x, y = k.tensor("X", (4, 16), "f16"), k.tensor("Y", (4, 16), "f32")
    with k.tiles(rows=2) as t:
        xv = t.load(x).astype("f32")
        t.store(y, where(xv > 0.0, xv, xv * 0.5) + xv.min(axis=1, keepdims=True))
    res = run_kernel(k.build(), seed=2)
    xv = res.inputs["X"].astype(np.float32)
    want = np.where(xv > 0, xv, xv * np.float32(0.5)) + xv.min(axis=1, keepdims=True)
    np.testing.assert_array_equal(res.outputs["Y"], want)


@pytest.mark.parametrize(("write", "message"), [
    (lambda k, t, x, y: t.store(y, t.load(x).astype("f16")), "store of f16 values to 'Y'"),
    (lambda k, t, x, y: t.store(y, t.load(x) + t.load(x).astype("f16")),
     "add of f32 and f16: convert one with astype()"),
    (lambda k, t, x, y: t.store(y, t.load(x).sum(axis=1)), "(2,) and (2, 8) do not broadcast"),
    (lambda k, t, x, y: t.store(y, t.load(x).sum(axis=1, keepdims=True)[None]),
     "indexing a tile handle"),
    (lambda k, t, x, y: t.store(y, t.load(x) @ t.load(x)), "matmul (@)"),
    (lambda k, t, x, y: t.store(y, t.load(x).sum(axis=2)), "axis 2 of a tile of shape (2, 8)"),
    (lambda k, t, x, y: t.store(y, t.load(x).astype("i32").exp().astype("f32")),
     "operation 'exp' on i32"),
    (lambda k, t, x, y: t.store(y, t.load(x) if t.load(x) > 0.0 else t.load(y)),
     "has no truth value"),
    (lambda k, t, x, y: t.store(k.tensor("B", (1, 8), "f32"), t.load(x)),
     "a stored tensor's first dimension must be the divided one"),
    (lambda k, t, x, y: k.tensor("Z", (8,), "f32", memory="ct_local"),
     "in memory 'ct_local'"),
    (lambda k, t, x, y: t.store(y, t.load(x) + "a"), "a str is not a tensor handle"),
])
def test_what_the_builder_cannot_express(write, message):
    k = Kernel("bad", grid=2)
    x, y = k.tensor("X", (4, 8), "f32"), k.tensor("Y", (4, 8), "f32")
    with pytest.raises(BuildError, match=None) as e, k.tiles(rows=2) as t:
        write(k, t, x, y)
    assert message in str(e.value)


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Kernel("g", grid=(2, 2)), "1-D grid"),
    (lambda: Kernel("r", grid=2).tiles(rows=3).__enter__(), "declare the tensors first"),
    (lambda: Kernel("e").build(), "stores nothing"),
    (lambda: Kernel("t").tensor("X", (4,), "f64"), "element type 'f64'"),
    (lambda: Kernel("t").tensor("x_1", (4,), "f32"), "must not end in _<digits>"),
])
def test_kernel_level_errors(make, message):
    with pytest.raises(BuildError) as e:
        make()
    assert message in str(e.value)


def test_rows_must_divide():
    k = Kernel("r", grid=2)
    k.tensor("X", (5, 4), "f32")
    with pytest.raises(BuildError, match="rows per tile must divide"), k.tiles(rows=2):
        pass
