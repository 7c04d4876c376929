"""The guide's worked example (arch_descriptions/README.md), followed literally: every step's
file gives exactly the `ktir arch check` output the guide shows, and the final device works."""

import re
from pathlib import Path

import pytest

from arch_descriptions.model import device_from_module, load_device
from ktir.context import load_module
from ktir_tools.ktir_cli import main

GUIDE = Path(__file__).resolve().parents[2] / "arch_descriptions" / "README.md"
BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)


def guide_steps() -> tuple[dict[int, str], dict[int, list[str]]]:
    files: dict[int, str] = {}
    outputs: dict[int, list[str]] = {}
    step = None
    for lang, body in BLOCK.findall(GUIDE.read_text(encoding="utf-8")):
        m = re.match(r"// tiny_npu\.mlir, step (\d)", body)
        if lang == "mlir" and m:
            step = int(m.group(1))
            files[step] = body
        elif lang == "console" and body.startswith("$ ktir arch check tiny_npu.mlir") and step:
            outputs[step] = body.splitlines()[1:]
    return files, outputs


def step_file(files: dict[int, str], step: int) -> str:
    if step < 5:
        return files[step]
    # step 5 replaces the top of step 4, down to and including the device line
    rest = files[4].split("\n")
    cut = next(i for i, line in enumerate(rest) if line.startswith("ktdf_arch.device"))
    return files[5] + "\n".join(rest[cut + 1:])


def run(argv, capsys) -> tuple[int, list[str]]:
    with pytest.raises(SystemExit) as done:
        main(argv)
    captured = capsys.readouterr()
    return done.value.code, (captured.out + captured.err).splitlines()


def test_guide_has_five_checked_steps():
    files, outputs = guide_steps()
    assert sorted(files) == [1, 2, 3, 4, 5]
    assert sorted(outputs) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("step", [1, 2, 3, 4, 5])
def test_each_step_checks_as_the_guide_says(step, tmp_path, monkeypatch, capsys):
    files, outputs = guide_steps()
    (tmp_path / "tiny_npu.mlir").write_text(step_file(files, step), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, lines = run(["arch", "check", "tiny_npu.mlir"], capsys)
    assert lines == outputs[step]
    assert code == (1 if step == 1 else 0)


def test_final_device_is_usable(tmp_path, monkeypatch, capsys):
    files, _ = guide_steps()
    (tmp_path / "tiny_npu.mlir").write_text(step_file(files, 5), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    dev = load_device("tiny_npu.mlir")
    assert dev.route("HBM", "VPU") == ["HBM", "DMA_IN", "SPM", "LD", "VPU"]
    assert dev.corelets_per_core == 2
    assert dev.memories["VREG"].depth == 2
    assert dev.clock_ghz == 1.2
    assert dev.datapath("HBM", "DMA_IN").bytes_per_cycle == 128
    assert dev.datapath("LD", "VPU").bytes_per_cycle == 64
    used = "\n".join(dev.defaults_used)
    assert "datapath HBM -> DMA_IN: latency = 100 cycles" in used
    assert "datapath DMA_IN -> SPM: latency = 8 cycles" in used
    assert "unit VPU: op_latency defaults for simple = 2, mul = 3, fma = 4, reduce = 4, " \
           "opaque = 16" in used
    assert "issue_cycles = 0 on units" in used
    assert run(["arch", "draw", "tiny_npu.mlir", "-o", "tiny_npu.dot"], capsys)[0] == 0
    assert (tmp_path / "tiny_npu.dot").read_text().startswith('digraph "tiny_npu" {')
    kernel = tmp_path / "kernel.mlir"
    declaration = next(body for lang, body in BLOCK.findall(GUIDE.read_text(encoding="utf-8"))
                       if lang == "mlir" and "mem_space_mapping" in body)
    kernel.write_text(declaration + "func.func @k() {\n  func.return\n}\n", encoding="utf-8")
    dev = device_from_module(load_module(kernel))
    assert dev.memory_for_space("global") == "HBM"
    assert dev.memory_for_space("ct_local") == "SPM"
