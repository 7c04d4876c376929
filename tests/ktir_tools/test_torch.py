"""The PyTorch entry: every supported op, compiled through the builder and the compiler for
spyre and run on the emulator, equals eager PyTorch on random shapes; reductions, whose KTIR
the interpreter runs, equal eager there and, compiled or not, through the backend;
unsupported ops and dtypes warn once per op kind and still equal eager."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
F = torch.nn.functional

import ktir_tools.torch as ktorch  # noqa: E402
from ktir.interpreter import run_kernel  # noqa: E402
from ktir_tools.torch.lower import lower  # noqa: E402

ELEMENTWISE = {
    "add": lambda x, y: x + y,
    "sub": lambda x, y: torch.sub(x, y, alpha=2),
    "mul": lambda x, y: x * y,
    "div": lambda x, y: x / y,
    "neg": lambda x, y: -x,
    "exp": lambda x, y: torch.exp(x),
    "log": lambda x, y: torch.log(y),
    "sqrt": lambda x, y: y.sqrt(),
    "rsqrt": lambda x, y: torch.rsqrt(y),
    "tanh": lambda x, y: torch.tanh(x),
    "sigmoid": lambda x, y: torch.sigmoid(x),
    "gelu": lambda x, y: F.gelu(x),
    "gelu_tanh": lambda x, y: F.gelu(x, approximate="tanh"),
    "relu": lambda x, y: F.relu(x),
    "where": lambda x, y: torch.where(x > 0, x, y * 0.5),
    "bias_scale": lambda x, y: (x + y[..., :1]) * 2.0 - 1.0,
}
REDUCTIONS = {  # functions of the last dimension's size n
    "sum": lambda n: lambda x: x.sum(dim=-1, keepdim=True),
    "mean": lambda n: lambda x: torch.mean(x, -1),
    "amax": lambda n: lambda x: torch.amax(x, -1, keepdim=True),
    "amin": lambda n: lambda x: x.amin(-1),
    "softmax": lambda n: lambda x: torch.softmax(x, -1),
    "layer_norm": lambda n: lambda x: F.layer_norm(x, (n,)),
    "rms_norm": lambda n: lambda x: F.rms_norm(x, (n,), eps=1e-6),
}
TOL = {torch.float32: (2e-5, 1e-5), torch.float16: (2e-3, 2e-3), torch.bfloat16: (2e-2, 2e-2)}

shapes = st.tuples(st.sampled_from([1, 2, 3, 4, 8, 12]), st.sampled_from([1, 3, 8, 16, 64]))


def inputs(shape, dtype, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=g).to(dtype)
    y = (torch.rand(shape, generator=g) + 0.25).to(dtype)  # positive: log, sqrt, rsqrt
    return x, y


def check(got, want, dtype):
    rtol, atol = TOL[dtype]
    torch.testing.assert_close(got, want, rtol=rtol, atol=atol, equal_nan=True)


@pytest.fixture(autouse=True)
def fresh_warnings():
    ktorch.WARNED.clear()
    yield
    ktorch.WARNED.clear()


@pytest.mark.parametrize("op", list(ELEMENTWISE))
@settings(max_examples=3)
@given(shape=shapes, dtype=st.sampled_from([torch.float32, torch.float16, torch.bfloat16]),
       seed=st.integers(0, 2**16))
def test_elementwise_ops_run_on_the_emulator(op, shape, dtype, seed):
    fn = ELEMENTWISE[op]
    x, y = inputs(shape, dtype, seed)
    compiled = ktorch.compile(fn, [x, y], device="spyre")
    before = len(ktorch.RUNS)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ktorch.KtirFallbackWarning)
        got = compiled(x, y)
    assert len(ktorch.RUNS) == before + 1  # one kernel, on the emulator
    assert ktorch.RUNS[-1].cycles > 0
    check(got, fn(x, y), dtype)


@pytest.mark.parametrize("op", list(REDUCTIONS))
@settings(max_examples=4)
@given(shape=st.tuples(st.sampled_from([1, 2, 4, 6]), st.sampled_from([1, 5, 16, 64])),
       dtype=st.sampled_from([torch.float32, torch.float16]), seed=st.integers(0, 2**16))
def test_reductions_emit_ktir_the_interpreter_runs(op, shape, dtype, seed):
    fn = REDUCTIONS[op](shape[-1])
    x, _ = inputs(shape, dtype, seed)
    gm = torch.fx.symbolic_trace(fn)
    plan = lower(gm, [x], "k", cores=32, scratchpad_bytes=2**20)
    (name, kshape), = plan.inputs
    data = x.float().numpy().astype(np.float16 if dtype == torch.float16 else np.float32)
    res = run_kernel(plan.kernel.build(), inputs={name: data.reshape(kshape)})
    (out, oshape, odtype), = plan.outputs
    got = torch.from_numpy(res.outputs[out]).to(odtype).reshape(oshape)
    check(got, fn(x), dtype)


@pytest.mark.parametrize("op", list(REDUCTIONS))
def test_reductions_through_the_backend_equal_eager(op):
    """Compiled where the compiler schedules them, else eager with one warning."""
    fn = REDUCTIONS[op](32)
    x, _ = inputs((4, 32), torch.float32, 7)
    before = len(ktorch.RUNS)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ktorch.KtirFallbackWarning)
        got = ktorch.compile(fn, [x])(x)
    fell_back = [w for w in caught if issubclass(w.category, ktorch.KtirFallbackWarning)]
    assert bool(fell_back) != (len(ktorch.RUNS) == before + 1)
    check(got, fn(x), torch.float32)


def test_torch_compile_backend_name():
    x, y = inputs((8, 64), torch.float32, 1)
    fn = ELEMENTWISE["sigmoid"]
    compiled = torch.compile(lambda a, b: a * fn(a, b) + b, backend="ktir",
                             options={"device": "spyre"})
    before = len(ktorch.RUNS)
    got = compiled(x, y)
    assert len(ktorch.RUNS) == before + 1
    check(got, x * torch.sigmoid(x) + y, torch.float32)


def test_broadcasts_of_a_3d_graph():
    x = torch.randn(2, 4, 16)
    b = torch.randn(16)
    r = torch.rand(2, 4, 1) + 0.5

    def fn(x, b, r):
        return (x * b + 1.0) / r - r * b

    before = len(ktorch.RUNS)
    got = ktorch.compile(fn, [x, b, r])(x, b, r)
    assert len(ktorch.RUNS) == before + 1
    check(got, fn(x, b, r), torch.float32)


def test_unsupported_ops_and_dtypes_warn_once_and_equal_eager():
    def fn(x, y):
        a = torch.cumsum(x, -1)  # not an op the backend lowers
        b = torch.exp(a) + y  # lowered, around the eager cumsum
        return b.sum(0) + torch.cumsum(b, 0).sum(0)  # a sum over dim 0: eager

    x, y = inputs((4, 8), torch.float32, 3)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always", ktorch.KtirFallbackWarning)
        compiled = ktorch.compile(fn, [x, y])
        got = compiled(x, y)
        got2 = compiled(x, y)
    kinds = [str(w.message).split("'")[1] for w in record
             if issubclass(w.category, ktorch.KtirFallbackWarning)]
    assert sorted(kinds) == ["cumsum", "sum"]  # once each, though cumsum appears twice
    assert "dim=0" in str(next(w.message for w in record if "'sum'" in str(w.message)))
    torch.testing.assert_close(got, fn(x, y))
    torch.testing.assert_close(got2, fn(x, y))

    for dtype in (torch.float64, torch.int32):
        ktorch.WARNED.clear()  # warnings are once per op kind and process
        a = (torch.arange(12).reshape(3, 4) % 5).to(dtype)
        with pytest.warns(ktorch.KtirFallbackWarning, match=f"dtype {dtype}"):
            got = ktorch.compile(lambda t: t * 2 + t, [a])(a)
        torch.testing.assert_close(got, a * 2 + a)


def test_a_middle_broadcast_falls_back_with_the_reason():
    x, m = torch.randn(2, 3, 8), torch.randn(2, 1, 8)
    with pytest.warns(ktorch.KtirFallbackWarning, match="along a middle dimension"):
        got = ktorch.compile(lambda a, b: a + b, [x, m])(x, m)
    torch.testing.assert_close(got, x + m)


def test_unknown_option():
    with pytest.raises(ValueError, match="unknown option"):
        ktorch.backend(torch.fx.symbolic_trace(lambda a: a + 1), [], {"cores": 4})


def test_the_example_script(capsys):
    import runpy
    import sys
    from pathlib import Path

    script = Path(__file__).parents[2] / "examples" / "torch_softmax.py"
    argv = sys.argv
    sys.argv = [str(script), "--rows", "8", "--cols", "64"]
    try:
        runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv = argv
    out = capsys.readouterr().out
    assert "torch.softmax(x, -1) on 8x64 float32:" in out
    assert "kernel @ktir_sigmoid_mul_add (sigmoid, mul, add)" in out
    assert "emulated cycles on spyre" in out
    errors = [float(line.rsplit(" ", 1)[1]) for line in out.splitlines()
              if "max abs error" in line]
    assert len(errors) == 2
    assert max(errors) < 1e-5
