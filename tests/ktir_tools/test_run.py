"""End to end: every example kernel the scheduler supports, compiled for every shipped device,
runs on the emulator and matches the reference interpreter bit for bit; so do random
element-wise kernels over grids of 1 to 32 tiles, also taking their rows in `scf.for` loops
whose bounds depend on the tile id (blocks, or Triton's pid-strided rows) and through loops
with iter_args."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ktir.diagnostics import KtirDiagnostic
from ktir_tools.run import compare, run_and_check
from tests.ktir_tools.checks import assert_matches
from tests.strategies.kernels import elementwise_kernel, elementwise_specs

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "kernels"
SUPPORTED = ["add_96x64", "bias_add", "eltwise_chain", "mul_max"]
GATHERS = ["gather_add", "paged_gather"]
UNSUPPORTED = ["softmax", "layernorm", "rmsnorm", "matmul"]
# allreduce: test_inter_tile.py; distributed_rotate: test_cross_core.py
DEVICES = ["sample_device", "spyre", "stream_device"]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("kernel", SUPPORTED)
def test_example_matches_reference(kernel: str, device: str) -> None:
    assert_matches(run_and_check(EXAMPLES / f"{kernel}.mlir", device))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("kernel", GATHERS)
def test_gather_example_matches_reference(kernel: str, device: str) -> None:
    assert_matches(run_and_check(EXAMPLES / f"{kernel}.mlir", device))


@pytest.mark.parametrize("kernel", UNSUPPORTED)
def test_unsupported_example_is_a_located_diagnostic(kernel: str) -> None:
    with pytest.raises(KtirDiagnostic, match=rf"{kernel}\.mlir:\d+:\d+: error: '[a-z_.]+' op "):
        run_and_check(EXAMPLES / f"{kernel}.mlir", "spyre")


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(spec=elementwise_specs(max_grid=32, loops=True), device=st.sampled_from(DEVICES))
def test_random_elementwise_kernels_match(tmp_path_factory, spec, device) -> None:
    path = tmp_path_factory.mktemp("k") / "eltwise.mlir"
    path.write_text(elementwise_kernel(spec))
    report = run_and_check(path, device)
    assert report.match, (spec, report.to_json())


def test_compare_is_bitwise_by_default_and_tolerant_on_request() -> None:
    want = np.array([[1.0, 2.0], [3.0, np.nan]], dtype=np.float16)
    got = want.copy()
    assert compare("x", got, want).match  # NaN equals NaN with the same bits
    got[0, 1] = np.nextafter(np.float16(2.0), np.float16(3.0))  # one ulp off
    bitwise = compare("x", got, want)
    assert not bitwise.match
    assert bitwise.mismatches == 1
    assert bitwise.first_mismatch == (0, 1)
    assert bitwise.expected == 2.0
    assert bitwise.got == pytest.approx(2.001953125)
    assert compare("x", got, want, rtol=1e-2).match
    got[1, 1] = 0.0
    assert not compare("x", got, want, rtol=1e-2).match  # NaN vs number never matches


@pytest.mark.parametrize("module, name", [("ktir_tools.ktir_cli", "app"),
                                          ("ktir_tools.ktir_opt", "KtirOptMain")])
def test_out_of_memory_is_an_error_not_a_bug(module: str, name: str, monkeypatch,
                                             capsys) -> None:
    """A run that needs more memory than the machine has free (within the size limits) says
    so and exits 1: not "internal error" with a request to report it (fuzz seed 17,
    kernel:482, a 1.84 GiB output while other jobs held the memory)."""
    import importlib

    cli = importlib.import_module(module)

    def out_of_memory(*args, **kwargs):
        raise MemoryError("Unable to allocate 1.84 GiB for an array with shape (987525511,)")

    monkeypatch.setattr(cli, name, out_of_memory)
    with pytest.raises(SystemExit) as exit_:
        cli.main(["interpret", "k.mlir"] if name == "app" else ["k.mlir"])
    err = capsys.readouterr().err
    assert exit_.value.code == 1
    assert "error: out of memory: Unable to allocate 1.84 GiB" in err
    assert "internal error" not in err and "report" not in err


def test_interpreter_out_of_memory_is_located(monkeypatch) -> None:
    """Memory running out in the reference interpreter is located at the kernel."""
    from ktir.interpreter import runner

    def out_of_memory(*args, **kwargs):
        raise MemoryError("Unable to allocate 3.68 GiB for an array")

    monkeypatch.setattr(runner, "_run_on", out_of_memory)
    path = Path(__file__).resolve().parents[2] / "examples" / "kernels" / "add_96x64.mlir"
    with pytest.raises(KtirDiagnostic) as e:
        runner.run_kernel(path)
    assert f"{path}:7:1: error:" in e.value.text
    assert "ran out of memory: Unable to allocate 3.68 GiB" in e.value.text
