"""The generated Python of one emulation, kept debuggable (shared/spec/dataflow-ir.md §7 E10).

Every generated function gets a file name of its own: the path of its dump file when the run
dumps its programs (`emulate(..., dump_programs=DIR)` or `KTIR_DUMP_PROGRAMS=DIR`), else a
pseudo-file name `<dfir STEM #HASH>` whose lines are registered in `linecache`, so tracebacks
and pdb show the generated lines either way. STEM names the function
(`local_schedule_0_body.program0.DMA_IN`), HASH is of the source, so the name is the same on
every run of the same program and two different sources never share one.

A `Sources` belongs to one `Codegen` (one emulation) and holds the op of every generated line
(how a fault is traced back to its DataflowIR op, engine.failing_op). The generated functions
reach it through their globals (`__dfir__`), so it lives exactly as long as the code or a
traceback through it; when it dies its `linecache` entries go too (`LIVE` counts the live
`Sources` registering each pseudo-file name, since equal sources share one).
"""

from __future__ import annotations

import hashlib
import linecache
import os
import re
import weakref
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import FileLineColLoc
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from emulator.access import Access, Plan, ViewSpec
from emulator.errors import EmulationError

GLOBAL = "__dfir__"  # the name of the Sources in the generated functions' globals
ENV_DUMP = "KTIR_DUMP_PROGRAMS"
LIVE: dict[str, int] = {}
_UNSAFE = re.compile(r"[^\w.@+-]")
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


class DumpError(EmulationError):
    """The directory for generated programs cannot be made or written."""

    def __init__(self, path: Path, e: OSError):
        super().__init__(f"cannot write the generated programs to '{path}': "
                         f"{e.strerror or e} (--dump-programs / ${ENV_DUMP})")


def dump_dir(dump: str | os.PathLike | None) -> Path | None:
    """The directory to dump generated programs into: `dump`, else $KTIR_DUMP_PROGRAMS."""
    d = dump if dump is not None else os.environ.get(ENV_DUMP) or None
    if d is None:
        return None
    path = Path(d)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DumpError(path, e) from None
    return path


def _release(names: list[str]) -> None:
    for n in names:
        left = LIVE.get(n, 0) - 1
        if left > 0:
            LIVE[n] = left
        else:
            LIVE.pop(n, None)
            linecache.cache.pop(n, None)


class Sources:
    """The file names, lines and ops of the functions generated for one emulation."""

    def __init__(self, dump: Path | None):
        self.dump = dump
        self.ops: dict[str, list[Operation | None]] = {}
        self._stems: set[str] = set()
        self._names: list[str] = []
        self._index: dict[Operation, int] = {}
        weakref.finalize(self, _release, self._names)

    def add(self, stem: str, lines: list[str], ops: list[Operation | None]) -> str:
        """Register one generated function's lines (and the op of each); its file name."""
        stem = _UNSAFE.sub("_", stem)
        base, n = stem, 1
        while stem in self._stems:
            n += 1
            stem = f"{base}.{n}"
        self._stems.add(stem)
        text = "\n".join(lines) + "\n"
        if self.dump is not None:
            path = self.dump / f"{stem}.py"
            try:
                path.write_text(text)
            except OSError as e:
                raise DumpError(self.dump, e) from None
            name = str(path)
        else:
            name = f"<dfir {stem} #{hashlib.sha1(text.encode()).hexdigest()[:8]}>"
            if name not in LIVE:
                linecache.cache[name] = (len(text), None, text.splitlines(True), name)
            LIVE[name] = LIVE.get(name, 0) + 1
            self._names.append(name)
        self.ops[name] = ops
        return name

    def op_at(self, filename: str, line: int) -> Operation | None:
        ops = self.ops.get(filename)
        return ops[line - 1] if ops is not None and 0 < line <= len(ops) else None

    def describe(self, op: Operation) -> str:
        """The op as a generated comment names it: its name, its first result's name in
        the IR, and where it is: its own source location, else its position in its
        function (the pipeline builds most DataflowIR ops without a location)."""
        text = op.name
        hint = op.results[0].name_hint if op.results else None
        if hint:
            text += f" -> %{hint}"
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            return f"{text}  at {loc.filename.data}:{loc.line.data}:{loc.column.data}"
        fn = op if isinstance(op, FuncOp) else op.parent_op()
        while fn is not None and not isinstance(fn, FuncOp):
            fn = fn.parent_op()
        if fn is None:
            return text
        if op not in self._index:
            self._index.update((o, i) for i, o in enumerate(fn.walk()))
        return f"{text}  (@{fn.sym_name.data}, op {self._index[op]} in walk order)"

    def commented(self, body: list[tuple[str, Operation | None]]
                  ) -> list[tuple[str, Operation | None]]:
        """The lines with a comment naming the op before each group of lines of one op."""
        out: list[tuple[str, Operation | None]] = []
        prev = None
        for line, op in body:
            if op is not None and op is not prev:
                indent = line[: len(line) - len(line.lstrip())]
                out.append((f"{indent}# {self.describe(op)}", op))
                prev = op
            out.append((line, op))
        return out


# The names of the globals every generated function may use, for the header of its file.
LEGEND = """\
# Generated by the KTIR emulator (emulator/codegen*.py) from DataflowIR; a comment names the
# op each group of lines comes from. P: the process (emulator/runtime.py), p_<field>: its
# clock and counters held in locals (P.<field>), T: the cost (latency, interval, name, site)
# of each vector-op site, S: the symbol table, IC: the unit's cycles per scalar op, M: the
# machine (emulator/machine.py), E: the prelude's values a program uses. v<n>_<name>: the
# value %<name> of the IR, w<n>_<name>: the cycle it is ready (vectors)."""


def describe_const(obj: object) -> str:
    """A constant as the header of a generated file lists it, the same on every run (no
    addresses), so equal programs keep one file name and compile once."""
    if callable(obj) and hasattr(obj, "__qualname__"):
        text = f"{getattr(obj, '__module__', None) or '?'}.{obj.__qualname__}"
    else:
        text = _ADDRESS.sub("", repr(obj))
    return text if len(text) <= 200 else text[:197] + "..."


def const_kind(obj: object) -> str:
    """What a constant of the generated code is, for its name (`PLAN12`)."""
    if isinstance(obj, Plan):
        return "PLAN"
    if isinstance(obj, ViewSpec):
        return "VIEW"
    if isinstance(obj, Access):
        return "ACCESS"
    if isinstance(obj, str):
        return "TYPE"
    if isinstance(obj, np.dtype):
        return "DTYPE"
    if isinstance(obj, np.ndarray):
        return "LANES"
    if isinstance(obj, list):
        return "STEPS"
    return "K"
