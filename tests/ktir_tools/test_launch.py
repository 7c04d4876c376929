"""SpyreCode end to end: every example `ktir run` supports gives the same result through
`--emit spyrecode` + `ktir launch --check`; one prepared plan launches many times with other
tensors (byte pointers), each matching the reference interpreter, without changing the plan or
compiling anything; bad arguments are refused naming the symbol."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ktir.diagnostics import KtirDiagnostic
from ktir.interpreter import run_kernel
from ktir_tools.launch import compile_spyrecode, launch_kernel
from ktir_tools.run import run_and_check
from ktir_tools.runtime import LaunchError, launch, memory_image, prepare
from tests.ktir_tools.test_run import DEVICES, EXAMPLES, SUPPORTED


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("kernel", SUPPORTED)
def test_example_gives_the_same_result_through_spyrecode(kernel, device, tmp_path) -> None:
    path = EXAMPLES / f"{kernel}.mlir"
    direct = run_and_check(path, device, seed=1)
    compile_spyrecode(path, device, out=tmp_path / "art.tar")
    launched = launch_kernel(tmp_path / "art.tar", seed=1, check=True)
    assert direct.match
    assert launched.match, [c for c in launched.checks if not c.match]
    assert launched.emulation.cycles == direct.emulation.cycles
    assert [c.name for c in launched.checks] == [c.name for c in direct.checks]
    for name, want in direct.outputs.items():
        assert launched.outputs[name].tobytes() == want.tobytes(), name


@pytest.fixture(scope="module")
def bias_plan(tmp_path_factory):
    out = tmp_path_factory.mktemp("spyrecode") / "bias_add"
    compile_spyrecode(EXAMPLES / "bias_add.mlir", "sample_device", out=out)
    return prepare(out)


def _compiled(plan) -> tuple:
    """What the emulator has compiled for a plan: its generated functions and cost sites."""
    cg = plan.program.compiler.cg
    return tuple(sorted(k for k in cg.g if not k.startswith("__"))), len(cg.sites)


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 0, 1), (1, 2, 0)])
def test_one_plan_launches_with_other_address_sets(bias_plan, order) -> None:
    """Buffers X (128x256), b (1x256), Y (128x256) of f16 at three different byte layouts,
    with gaps, against the interpreter on the same inputs."""
    rng = np.random.default_rng(sum(order))
    x = rng.standard_normal((128, 256)).astype(np.float16)
    b = rng.standard_normal((1, 256)).astype(np.float16)
    want = run_kernel(EXAMPLES / "bias_add.mlir", inputs={"X": x, "b": b}).outputs["Y"]
    sizes = [x.nbytes, b.nbytes, x.nbytes]
    ptr = [0, 0, 0]
    at = 256 * (1 + order[0])
    for k in order:
        ptr[k] = at
        at += sizes[k] + 128 * (k + 1)
    files_before = dict(bias_plan.artifact.files)
    compiled_before = _compiled(bias_plan) if bias_plan.program.costs else None
    ddr = memory_image([(ptr[0], x), (ptr[1], b)])
    image = ddr.copy()
    r = launch(bias_plan, {"X": ptr[0], "b": ptr[1], 2: ptr[2]}, {"DDR": ddr})
    got = r.read("DDR", ptr[2], (128, 256), np.float16)
    assert got.tobytes() == want.tobytes()
    assert r.symbols == {-1: ptr[0] // 2, -2: ptr[1] // 2, -3: ptr[2] // 2}
    assert 0 <= r.overhead_seconds < r.seconds
    assert dict(bias_plan.artifact.files) == files_before
    if compiled_before is not None:  # a later launch compiles nothing new
        assert _compiled(bias_plan) == compiled_before
    assert np.array_equal(ddr, image)  # the caller's memory is an input, left as it was
    assert r.memory["DDR"][ptr[2]: ptr[2] + x.nbytes].tobytes() == want.tobytes()


def test_bad_arguments_are_refused_naming_the_symbol(bias_plan) -> None:
    with pytest.raises(LaunchError, match=r"symbol -3 'Y' \(tensor_address, argument 2\): "
                                          "missing argument"):
        launch(bias_plan, {0: 0, 1: 65536})
    with pytest.raises(LaunchError, match=r"symbol -2 'b' .*byte pointer 65537 is not a "
                                          "multiple of 2, the byte width of its f16"):
        launch(bias_plan, [0, 65537, 131072])
    with pytest.raises(LaunchError, match=r"symbol -1 'X' .*expects an integer, got 1.5"):
        launch(bias_plan, [1.5, 0, 0])
    with pytest.raises(KtirDiagnostic, match="no argument named 'Z'"):
        launch(bias_plan, {"Z": 0})


def test_a_compile_time_scalar_keeps_its_value(tmp_path) -> None:
    src = (EXAMPLES / "add_96x64.mlir").read_text().replace(
        "%C: index)", "%C: index, %K: index)")
    kernel = tmp_path / "add_k.mlir"
    kernel.write_text(src)
    compile_spyrecode(kernel, "sample_device", args={"K": "5"}, out=tmp_path / "art")
    plan = prepare(tmp_path / "art")
    k = plan.arguments[3]
    assert (k.kind, k.value) == ("scalar", 5)
    assert launch_kernel(plan=plan, check=True).match  # the compile-time value is the default
    with pytest.raises(LaunchError, match=r"symbol -4 'K' .*was bound to 5 at compile time; "
                                          "the launch gives 6"):
        launch_kernel(plan=plan, args={"K": "6"})


def test_prepare_refuses_another_device(tmp_path) -> None:
    compile_spyrecode(EXAMPLES / "add_96x64.mlir", "sample_device", out=tmp_path / "art")
    with pytest.raises(KtirDiagnostic, match=r"art/manifest\.json: was compiled for device "
                                             "@sample_device"):
        prepare(tmp_path / "art", "spyre")
    assert Path(tmp_path / "art" / "manifest.json").is_file()


KERNELS = Path(__file__).resolve().parent / "kernels"
DYNAMIC = [  # kernel, its size argument, three sizes, the buffers' shape and dtype per size
    ("add_rows_runtime_arg", "M_arg", (64, 512, 1024), lambda m: (m, 64), np.float16),
    ("vector_add_n", "n", (1, 300, 1024), lambda n: (n,), np.float32),
]


@pytest.mark.parametrize(("kernel", "size_arg", "sizes", "shape", "dtype"), DYNAMIC,
                         ids=[d[0] for d in DYNAMIC])
def test_compiled_once_launched_with_three_sizes_and_address_sets(
        kernel, size_arg, sizes, shape, dtype, tmp_path) -> None:
    path = KERNELS / f"{kernel}.mlir"
    compile_spyrecode(path, "sample_device", out=tmp_path / "art.tar")
    plan = prepare(tmp_path / "art.tar")
    for k, size in enumerate(sizes):
        rng = np.random.default_rng(k)
        a, b = (rng.standard_normal(shape(size)).astype(dtype) for _ in range(2))
        names = [s.name for s in plan.arguments]
        want = run_kernel(path, args={size_arg: str(size)},
                          inputs={names[0]: a, names[1]: b}).outputs[names[2]]
        # the output first, then the inputs in turn, with gaps that differ per launch
        gap = 128 * (k + 1)
        ptr = {names[2]: 4096 * k, names[(k % 2)]: 4096 * k + a.nbytes + gap}
        ptr[names[1 - k % 2]] = ptr[names[k % 2]] + a.nbytes + gap
        ddr = memory_image([(ptr[names[0]], a), (ptr[names[1]], b)])
        r = launch(plan, {**ptr, size_arg: size}, {"DDR": ddr})
        got = r.read("DDR", ptr[names[2]], shape(size), dtype)
        assert got.tobytes() == want.tobytes(), (kernel, size)
