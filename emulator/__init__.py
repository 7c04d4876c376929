"""The emulator: a generic dataflow machine built from a device model; runs DataflowIR.

    from emulator import emulate, EmulationError
    result = emulate(dfir_module, device, entry="add", args=[a, b, c],
                     memory_init={"DDR": [(a, A), (b, B)]})
    C = result.read("DDR", c, (96, 64), "float16")
    check_program(dfir_module, device)   # what emulate would refuse before running, raised
    loaded = load(dfir_module, device, entry="add")   # compile once ...
    result = loaded.run([a, b, c], memory_init)       # ... run many times

Everything about the machine comes from `arch_descriptions.model.Device`; the execution model
is shared/spec/dataflow-ir.md §7. Modules: machine (instances, FIFOs, signals), codegen*
(DataflowIR -> Python; codegen_inline: the per-event work, one template per kind, written into
the programs; codegen_access: memory accesses), sources (the generated code's files, dumps
with `emulate(..., dump_programs=DIR)` or $KTIR_DUMP_PROGRAMS, linecache, the op of each line),
runtime (process state and cold helpers), engine (the scheduler), numerics (vectorchain),
races (E9 checker), results, trace, api (`emulate`).
"""

from emulator.api import LoadedProgram, check_program, emulate, load
from emulator.errors import (
    CapacityError,
    ChannelTypeError,
    CycleLimitError,
    DeadlockError,
    EmulationError,
    LeftoverError,
    OutOfBoundsError,
    RaceError,
    RuntimeFault,
    UnboundSymbolError,
    UnsupportedOpError,
    WiringError,
)
from emulator.results import EmulationResult, Roofline, UnitStats
from emulator.runtime import register_opaque

__all__ = [
    "CapacityError", "ChannelTypeError", "CycleLimitError", "DeadlockError", "EmulationError",
    "EmulationResult", "LeftoverError", "LoadedProgram", "OutOfBoundsError", "RaceError",
    "Roofline", "RuntimeFault", "UnboundSymbolError", "UnitStats", "UnsupportedOpError",
    "WiringError", "check_program", "emulate", "load", "register_opaque",
]
