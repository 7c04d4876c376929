"""PyTorch on the emulated device: `torch.compile(fn, backend="ktir", options={"device":
"spyre"})`, or `ktir_tools.torch.compile(fn, example_inputs, device="spyre")`.

The backend splits the FX graph with torch's `CapabilityBasedPartitioner`: each maximal
group of nodes it can lower (ops.py: element-wise ops, last-dimension reductions, softmax,
layer_norm, rms_norm; f32, f16, bf16) becomes one KTIR kernel (lower.py, through the kernel
builder), compiled for the device on first call per input shapes and run on the emulator
(runtime.py; `RUNS` records each launch's emulated cycles). Everything else runs in eager
PyTorch, with one `KtirFallbackWarning` per op kind saying why; so does a group the
compiler rejects (the warning carries its diagnostic). Inference only: with autograd
recording, a group runs eagerly. The backend is registered for `torch.compile` through the
`torch_dynamo_backends` entry point (pyproject.toml).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import torch
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase
from torch.fx.passes.shape_prop import ShapeProp

from ktir.build import BuildError
from ktir_tools.torch.lower import lower, meta
from ktir_tools.torch.ops import COMPUTE_DTYPES, DTYPES, REDUCTIONS, Unsupported, known, op_kind
from ktir_tools.torch.runtime import RUNS, CompiledKernel, KernelRun

DEFAULT_DEVICE = "spyre"
DEFAULT_CORES = 8  # for a device that states no core count
OPTIONS = ("device",)


class KtirFallbackWarning(UserWarning):
    """An op ran in eager PyTorch instead of on the device."""


WARNED: set[str] = set()


def fallback(kind: str, reason: str) -> None:
    """Warn once per op kind (per process) that `kind` runs in eager PyTorch."""
    if kind in WARNED:
        return
    WARNED.add(kind)
    warnings.warn(f"ktir: '{kind}' runs in eager PyTorch: {reason}", KtirFallbackWarning,
                  stacklevel=2)


def node_reason(node: torch.fx.Node) -> str | None:
    """Why `node` cannot be part of a kernel; None when it can."""
    if not known(node):
        return "the KTIR backend does not lower this op"
    m = meta(node)
    if m is None:
        return "its result has no static shape"
    comparison = op_kind(node) in ("gt", "lt", "ge", "le", "eq", "ne")
    if m[1] not in (DTYPES if comparison else COMPUTE_DTYPES):
        return f"dtype {m[1]} (the backend computes in f32, f16 and bf16)"
    for a in node.all_input_nodes:
        am = meta(a)
        if am is None or am[1] not in DTYPES:
            return f"an input of dtype {am[1] if am else 'unknown'}"
    if op_kind(node) in REDUCTIONS and op_kind(node) not in ("layer_norm", "rms_norm"):
        first = node.args[0] if node.args else None
        fm = meta(first) if isinstance(first, torch.fx.Node) else None
        dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
        rank = len(fm[0]) if fm else 0
        dims = list(dim) if isinstance(dim, list | tuple) else [dim]
        if dim is None or len(dims) != 1 or dims[0] not in (-1, rank - 1):
            return f"dim={dim!r} (the backend reduces the last dimension)"
    return None


class _Support(OperatorSupportBase):
    def is_node_supported(self, submodules: Mapping[str, torch.nn.Module],
                          node: torch.fx.Node) -> bool:
        if node.op not in ("call_function", "call_method", "call_module"):
            return False
        reason = node_reason(node)
        if reason is not None:
            fallback(op_kind(node), reason)
        return reason is None


class _Group(torch.nn.Module):
    """One fused group: a KTIR kernel per input signature, else the eager submodule."""

    def __init__(self, gm: torch.fx.GraphModule, device: str, cores: int, scratchpad: int):
        super().__init__()
        self.gm, self.device, self.cores, self.scratchpad = gm, device, cores, scratchpad
        self.ops = tuple(dict.fromkeys(op_kind(n) for n in gm.graph.nodes
                                       if n.op in ("call_function", "call_method")))
        out = next(n for n in gm.graph.nodes if n.op == "output")
        self.single = not isinstance(out.args[0], tuple | list)
        self.kernels: dict[Any, CompiledKernel | None] = {}

    def _eager(self, args: tuple, reason: str) -> Any:
        for kind in self.ops:
            fallback(kind, reason)
        return self.gm(*args)

    def forward(self, *args: Any) -> Any:
        from emulator import EmulationError
        from ktir.diagnostics import KtirDiagnostic

        if torch.is_grad_enabled() and any(isinstance(a, torch.Tensor) and a.requires_grad
                                           for a in args):
            return self._eager(args, "autograd is recording (the backend is for inference)")
        key = tuple((tuple(a.shape), a.dtype) if isinstance(a, torch.Tensor) else repr(a)
                    for a in args)
        if key not in self.kernels:
            try:
                plan = lower(self.gm, list(args), f"ktir_{'_'.join(self.ops)}"[:60],
                             self.cores, self.scratchpad)
                self.kernels[key] = CompiledKernel(plan, self.device, self.ops)
            except (Unsupported, BuildError, KtirDiagnostic) as e:
                self.kernels[key] = None
                self.why = str(e).strip().splitlines()[0]
        kernel = self.kernels[key]
        if kernel is None:
            return self._eager(args, self.why)
        try:
            outs = kernel(*args)
        except EmulationError as e:
            self.kernels[key] = None
            self.why = f"the emulator failed: {e}"
            return self._eager(args, self.why)
        return outs[0] if self.single else tuple(outs)


def _device(options: Mapping[str, Any] | None) -> tuple[str, int, int]:
    from arch_descriptions.model import load_device

    opts = dict(options or {})
    unknown = sorted(set(opts) - set(OPTIONS))
    if unknown:
        raise ValueError(f"ktir backend: unknown option(s) {', '.join(unknown)} (known: "
                         f"{', '.join(OPTIONS)})")
    name = str(opts.get("device", DEFAULT_DEVICE))
    dev = load_device(name)
    return name, dev.max_cores or DEFAULT_CORES, dev.scratchpad_bytes or 2 ** 20


def backend(gm: torch.fx.GraphModule, example_inputs: Sequence[Any],
            options: Mapping[str, Any] | None = None) -> Callable[..., Any]:
    """The `torch.compile` backend "ktir": `gm` with its supported groups on the device."""
    device, cores, scratchpad = _device(options)
    partitioner = CapabilityBasedPartitioner(gm, _Support(), allows_single_node_partition=True)
    fused = partitioner.partition_and_fuse()
    for node in fused.graph.nodes:
        if node.op == "call_module":
            sub = getattr(fused, str(node.target))
            if isinstance(sub, torch.fx.GraphModule):
                setattr(fused, str(node.target), _Group(sub, device, cores, scratchpad))
    return fused


def compile(fn: Callable[..., Any], example_inputs: Sequence[torch.Tensor], *,
            device: str = DEFAULT_DEVICE) -> Callable[..., Any]:
    """`fn` (a function or module FX can trace) with its supported ops on `device`."""
    gm = fn if isinstance(fn, torch.fx.GraphModule) else torch.fx.symbolic_trace(fn)
    ShapeProp(gm).propagate(*example_inputs)
    return backend(gm, list(example_inputs), {"device": device})


__all__ = ["RUNS", "WARNED", "KernelRun", "KtirFallbackWarning", "backend", "compile", "fallback"]
