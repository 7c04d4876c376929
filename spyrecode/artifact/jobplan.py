"""`jobplan.json`: the two phases the runtime runs (shared/spec/spyrecode.md §3-4).

*prepare* (once): the device to check, the programs to load per program file (their units by
kind), the scratchpad reservations (views at constant addresses in memories other than the
global one: the highest byte each memory kind must hold) and the constant tables (unit maps).
*launch* (per call): the symbols to bind in argument order, the derived symbols to evaluate,
the checks on `shape` symbols, which program files read which symbol (what a device runtime
patches), then the programs to start.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue

from ktir.interpreter.dtypes import UnsupportedType, elem_type
from spyrecode.artifact.format import GLOBAL_PROGRAM, JOBPLAN, PROGRAMS, ArtifactError
from spyrecode.artifact.symbols import SymbolTable
from spyrecode.dialects.dataflow import GetLogicalMemoryViewOp, GetUnitOp, ProgramUnitOp
from spyrecode.dialects.symbol import CreateSymbolOp, PairsTable, QueryMapBase

PHASES = ("prepare", "launch")


def program_files(module: ModuleOp) -> list[tuple[str, Operation]]:
    """(file name, top-level op) of the split DataflowIR: a named module is its own file."""
    return [(f"{PROGRAMS}/{op.sym_name.data}.mlir" if isinstance(op, ModuleOp)
             and op.sym_name is not None else GLOBAL_PROGRAM, op)
            for op in module.body.block.ops]


def _unit_kind(v: SSAValue) -> str | None:
    """The kind of the unit a handle names: a `dataflow.get_unit`, or a lookup in a table of
    them (a unit per tile)."""
    op = v.owner
    if isinstance(op, GetUnitOp):
        return op.kind
    if isinstance(op, QueryMapBase) and isinstance(op.mapping.owner, PairsTable):
        kinds = {_unit_kind(u) for _, u in op.mapping.owner.pairs}
        return kinds.pop() if len(kinds) == 1 else None
    return None


def _view_end(op: GetLogicalMemoryViewOp) -> int | None:
    """One past the last byte of a view at a constant element address."""
    start = op.start_address.owner
    if not isinstance(start, arith.ConstantOp) or not isinstance(start.value, IntegerAttr):
        return None
    shape = op.data.type.get_shape()
    if any(d < 0 for d in shape):
        return None
    try:
        width = elem_type(op.data.type).itemsize
    except UnsupportedType:
        return None
    last = op.layout.eval([max(d - 1, 0) for d in shape], [])[0] if shape else 0
    return (start.value.value.data + last + 1) * width


def build_jobplan(module: ModuleOp, symbols: SymbolTable, device: Any, entry: str,
                  device_sha: str) -> dict[str, Any]:
    programs: list[dict[str, Any]] = []
    reservations: dict[str, int] = {}
    tables: dict[tuple[str, str], dict[str, Any]] = {}
    patch: list[dict[str, Any]] = []
    total_programs = total_units = 0
    for name, top in program_files(module):
        reads: dict[int, int] = {}
        units: dict[str, int] = {}
        count = 0
        for op in top.walk():
            if isinstance(op, ProgramUnitOp):
                count += 1
                for u in op.units:
                    kind = u.owner.kind if isinstance(u.owner, GetUnitOp) else "?"
                    units[kind] = units.get(kind, 0) + 1
            elif isinstance(op, CreateSymbolOp) and op.id is not None:
                reads[op.id] = reads.get(op.id, 0) + 1
            elif isinstance(op, GetLogicalMemoryViewOp):
                kind = _unit_kind(op.from_unit)
                end = _view_end(op)
                if kind is not None and end is not None and kind != device.global_memory_kind:
                    reservations[kind] = max(reservations.get(kind, 0), end)
            elif isinstance(op, PairsTable):
                key = (name, op.name)
                row = tables.setdefault(key, {"file": name, "op": op.name, "tables": 0,
                                              "entries": 0})
                row["tables"] += 1
                row["entries"] += len(op.pairs)
        if count:
            programs.append({"file": name, "program_units": count, "units": units})
            total_programs += count
            total_units += sum(units.values())
        patch += [{"symbol": sid, "file": name, "reads": n} for sid, n in sorted(
            reads.items(), reverse=True)]
    checks = []
    for s in symbols.symbols:
        checks += [{"symbol": s.id, "name": s.name, "check": c} for c in s.constraints()]
    grid = next((op.attributes.get("grid") for op in module.walk()
                 if isinstance(op, func.FuncOp) and op.sym_name.data == entry), None)
    cores = 1
    for d in getattr(grid, "data", ()):
        cores *= d.value.data
    return {
        "prepare": {
            "device": {"name": device.name, "sha256": device_sha},
            "cores": cores,
            "programs": programs,
            "reservations": [{"memory": k, "bytes": v} for k, v in sorted(reservations.items())],
            "tables": list(tables.values()),
        },
        "launch": {
            "entry": entry,
            "bind": [s.id for s in symbols.symbols if s.argument is not None],
            "evaluate": [s.id for s in symbols.symbols if s.kind == "derived"],
            "checks": checks,
            "patch": patch,
            "start": {"programs": total_programs, "units": total_units},
        },
    }


def check_jobplan(data: Any, symbols: SymbolTable, where: str = JOBPLAN) -> dict[str, Any]:
    """The job plan's shape, and that it names only symbols the table holds."""
    if not isinstance(data, dict) or any(not isinstance(data.get(p), dict) for p in PHASES):
        raise ArtifactError(where, "expected an object with \"prepare\" and \"launch\" phases")
    launch = data["launch"]
    if not isinstance(launch.get("entry"), str):
        raise ArtifactError(where, "launch phase names no \"entry\" function")
    known = symbols.by_id()
    for key in ("bind", "evaluate"):
        ids = launch.get(key)
        if not isinstance(ids, list):
            raise ArtifactError(where, f"launch phase has no \"{key}\" list")
        for i in ids:
            if i not in known:
                raise ArtifactError(where, f"launch phase {key}s symbol {i!r}, which "
                                           "symbols.json does not define")
    prepare = data["prepare"]
    for r in prepare.get("reservations", []):
        if not isinstance(r, dict) or not isinstance(r.get("memory"), str) \
                or not isinstance(r.get("bytes"), int):
            raise ArtifactError(where, f"malformed reservation {r!r}")
    return data
