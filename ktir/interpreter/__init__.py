"""The KTIR reference interpreter: the project's golden semantics of KTIR, on numpy.

`interpret(module_or_path, **arrays)` runs a kernel on every tile of its grid and returns the
device-memory buffers it wrote; `run_kernel` returns the whole run (arguments, inputs,
outputs); `plan_arguments` and `make_inputs` let another tool (the emulator) build exactly the
same buffers and inputs. Modules: `core` (closure compiler), `memory` (memories, views),
`tiles` (access tiles), `ops_*` (one per dialect family), `intertile` (communication and the
grid scheduler), `arguments`/`probe` (argument inference), `runner` (placing inputs, running,
reading back), `dtypes` (element types, df16/bf16, erf).
"""

from ktir.interpreter.arguments import ArgumentSpec, make_inputs, plan_arguments
from ktir.interpreter.runner import (
    DEFAULT_SCRATCHPAD_BYTES,
    RunResult,
    interpret,
    run_kernel,
    select_kernel,
)

__all__ = [
    "DEFAULT_SCRATCHPAD_BYTES", "ArgumentSpec", "RunResult", "interpret", "make_inputs",
    "plan_arguments", "run_kernel", "select_kernel",
]
