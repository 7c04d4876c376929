"""The device a module is compiled for, as every pass that needs one asks for it."""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr
from xdsl.ir import SSAValue

from ktir.diagnostics import KtirDiagnostic


def device_of(module: ModuleOp, pass_name: str):
    """The module's `ktdf_arch.device` model; a clear error when there is none (upstream's
    passes silently did nothing there)."""
    from arch_descriptions.model import device_from_module

    device = device_from_module(module)
    if device is None:
        raise KtirDiagnostic(
            f"error: pass '{pass_name}' needs a device: declare one in the module "
            "(ktdf_arch.device @name import(\"path.mlir\")), or compile with --device NAME|FILE "
            "(ktir compile, ktir-opt -p 'ktir-to-dfir{device=spyre}', "
            "-p 'ensure-device-declaration{device=spyre}')")
    return device


def memory_of(value: SSAValue, device):
    """The device memory a memref value lives in (its memory space names the kind), else
    None."""
    t = value.type
    if isinstance(t, MemRefType) and isinstance(t.memory_space, StringAttr):
        return device.memories.get(t.memory_space.data)
    return None


def ring_hops_latency(device, unit_kind: str, tiles: int) -> float:
    """The latency a transfer on `unit_kind` adds crossing cores, for the cost models: on a
    ring (a unit kind linked to its own kind, spyre's RING) the hops to the farthest tile of a
    grid of `tiles`, half way round; 0 on a unit that does not link cores."""
    hop = device.datapath(unit_kind, unit_kind)
    return hop.latency * (tiles // 2) if hop is not None else 0.0
