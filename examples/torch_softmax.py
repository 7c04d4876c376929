"""torch.compile(fn, backend="ktir") on the emulated Spyre: a row softmax and x * sigmoid(x) + y.

    .venv/bin/pip install -e '.[torch]' && .venv/bin/python examples/torch_softmax.py

Each function is compiled with `backend="ktir", options={"device": "spyre"}`; the groups of
ops the backend lowers become KTIR kernels (kernel builder -> compiler -> emulator), the
others run in eager PyTorch with a KtirFallbackWarning. For each function this prints where
it ran, the emulated cycles of its kernels, and the largest difference from eager PyTorch.
"""

from __future__ import annotations

import argparse
import warnings

import torch

import ktir_tools.torch as ktorch


def softmax(x: torch.Tensor) -> torch.Tensor:
    return torch.softmax(x, -1)


def silu_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return x * torch.sigmoid(x) + y


def run(name: str, fn, *inputs: torch.Tensor, device: str) -> None:
    compiled = torch.compile(fn, backend="ktir", options={"device": device})
    before = len(ktorch.RUNS)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ktorch.KtirFallbackWarning)
        got = compiled(*inputs)
    want = fn(*inputs)
    err = (got.double() - want.double()).abs().max().item()
    runs = ktorch.RUNS[before:]
    shape = "x".join(map(str, inputs[0].shape))
    print(f"{name} on {shape} {str(inputs[0].dtype).removeprefix('torch.')}:")
    for r in runs:
        print(f"  kernel @{r.kernel} ({', '.join(r.ops)}): {r.tiles} tiles, {r.cycles} emulated "
              f"cycles on {r.device} (compile {r.compile_seconds:.1f} s, emulate "
              f"{r.emulate_seconds:.2f} s)")
    for w in caught:
        if issubclass(w.category, ktorch.KtirFallbackWarning):
            print(f"  fallback: {w.message}")
    where = "the KTIR compiler and the emulator" if runs and not caught else \
        "eager PyTorch (fallback)" if not runs else "partly eager PyTorch"
    print(f"  ran on {where}; max abs error against eager PyTorch: {err:.3g}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="spyre")
    p.add_argument("--rows", type=int, default=64)
    p.add_argument("--cols", type=int, default=1024)
    a = p.parse_args()
    torch.manual_seed(0)
    x = torch.randn(a.rows, a.cols)
    y = torch.randn(a.rows, a.cols)
    run("torch.softmax(x, -1)", softmax, x, device=a.device)
    run("x * torch.sigmoid(x) + y", silu_add, x, y, device=a.device)


if __name__ == "__main__":
    main()
