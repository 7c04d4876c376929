"""Compile a planned kernel for a device once, then run it on the emulator with torch tensors.

The path is `ktir run`'s (ktir_tools/run.py): the interpreter's argument plan places the
buffers, `compile_module` makes DataflowIR, `launch_args` puts the inputs in the device's
global memory, `emulate` runs it and the outputs are read back from there. Every launch is
recorded in `RUNS` (emulated cycles and times), which is how callers see what a compiled
function cost on the device.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import torch

from arch_descriptions.model import Device
from ktir_tools.torch.lower import Plan


@dataclass
class KernelRun:
    kernel: str
    ops: tuple[str, ...]
    device: str
    tiles: int
    cycles: int
    compile_seconds: float
    emulate_seconds: float


RUNS: list[KernelRun] = []


class CompiledKernel:
    """A plan compiled for a device: call it with the graph's input tensors."""

    def __init__(self, plan: Plan, device: str, ops: tuple[str, ...]):
        from ktir.interpreter.arguments import plan_kernel
        from ktir.interpreter.runner import select_kernel
        from ktir_tools.run import check_compiled
        from scheduler.driver import compile_module

        self.plan, self.ops = plan, ops
        t0 = time.perf_counter()
        self.source = plan.kernel.build()
        self.fn = select_kernel(self.source)
        self.specs, _ = plan_kernel(self.fn)
        compiled = compile_module(self.source.clone(), device)
        check_compiled(compiled.module, compiled.device)
        self.program = compiled.module
        self.device: Device = cast(Device, compiled.device)
        self.compile_seconds = time.perf_counter() - t0

    def __call__(self, *inputs: torch.Tensor) -> list[torch.Tensor]:
        from emulator import emulate
        from ktir.interpreter.arguments import check_input
        from ktir_tools.run import launch_args

        by_name = {s.name: s for s in self.specs}
        arrays: dict[str, np.ndarray] = {}
        for (name, shape), t in zip(self.plan.inputs, inputs):
            data = t.detach().to("cpu")
            if data.dtype == torch.bfloat16:  # numpy has no bf16: f32 carries the values
                data = data.float()
            arrays[name] = check_input(by_name[name], data.reshape(shape).numpy())
        for s in self.specs:  # the outputs start as zeros
            if s.kind == "pointer" and s.name not in arrays:
                assert s.shape is not None
                assert s.dtype is not None
                arrays[s.name] = np.zeros(s.shape, s.dtype)
        mem = self.device.global_memory_kind
        argv, init = launch_args(self.specs, arrays, mem)
        t0 = time.perf_counter()
        em = emulate(self.program, self.device, entry=self.fn.sym_name.data, args=argv,
                     memory_init=init)
        RUNS.append(KernelRun(self.fn.sym_name.data, self.ops, self.device.name,
                              self.plan.tiles, em.cycles, self.compile_seconds,
                              time.perf_counter() - t0))
        self.compile_seconds = 0.0  # paid once
        out = []
        for name, shape, dtype in self.plan.outputs:
            spec = by_name[name]
            et = spec.elem
            assert et is not None
            assert spec.shape is not None
            assert spec.start is not None
            raw: Any = em.read(mem, spec.start, spec.shape, et.storage)
            vals = et.decode(raw) if et.decode is not None else raw.copy()
            out.append(torch.from_numpy(np.ascontiguousarray(vals)).to(dtype).reshape(shape))
        return out
