"""`symbols.json`: what every run-time symbol of a compiled kernel is (shared/spec/spyrecode.md
§2-3), read off the KTIR kernel's signature and the DataflowIR that reads the symbols.

Kernel argument p is symbol -(p+1). Its kind:
* `shape` — a `!ktdp.runtime_arg` (constraints `granularity`, `upperbound` from its type);
* `tensor_address` — an argument some `dataflow.get_logical_memory_view` starts at (as an
  added term of its start address): an element address; the views' element type gives the
  byte width that converts a byte pointer (every view of one argument shares it);
* `scalar` — any other argument (`value` holds what `--arg` bound at compile time, which the
  launch must pass again, or may omit).
Symbols the group functions bind beyond the kernel's arguments are `derived`: values the host
code computes per call of a group (`expression` over other symbols when it is closed-form, a
host loop index otherwise).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue

from ktir.diagnostics import op_error
from ktir.dialects.ktdp import RuntimeArgType
from ktir.interpreter.dtypes import UnsupportedType, elem_type
from spyrecode.artifact.format import SYMBOLS, ArtifactError
from spyrecode.dialects.dataflow import GetLogicalMemoryViewOp
from spyrecode.dialects.symbol import CreateIdOp, CreateSymbolOp

KINDS = ("tensor_address", "shape", "scalar", "derived")
_BINARY = {arith.AddiOp: "+", arith.SubiOp: "-", arith.MuliOp: "*",
           arith.FloorDivSIOp: "floordiv", arith.DivSIOp: "div", arith.RemSIOp: "rem",
           arith.MinSIOp: "min", arith.MaxSIOp: "max"}
"""Host ops a derived symbol's expression may hold (`div`/`rem` truncate, as arith's do)."""


@dataclass(frozen=True)
class Symbol:
    """One run-time symbol (a row of symbols.json)."""

    id: int
    kind: str
    name: str
    argument: int | None = None  # kernel argument position (None: derived)
    type: str = "index"  # the kernel argument's MLIR type
    element_type: str | None = None  # tensor_address: of the views built from it
    element_bytes: int | None = None
    alignment: int | None = None  # tensor_address: a byte pointer must be a multiple
    granularity: int | None = None  # shape: value mod granularity == 0
    upperbound: int | None = None  # shape: value <= upperbound
    value: int | float | None = None  # scalar: bound at compile time
    expression: Any = None  # derived: {"op", "args"} / {"symbol"} / {"const"} tree
    reads: int = 0  # symbol.create_symbol ops of the programs that read it

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @staticmethod
    def from_json(where: str, row: Any) -> Symbol:
        if not isinstance(row, dict) or not isinstance(row.get("id"), int) \
                or row.get("kind") not in KINDS or not isinstance(row.get("name"), str):
            raise ArtifactError(where, f"malformed symbol {row!r}: needs an integer \"id\", a "
                                       f"\"kind\" ({', '.join(KINDS)}) and a \"name\"")
        known = set(Symbol.__dataclass_fields__)
        extra = set(row) - known
        if extra:
            raise ArtifactError(where, f"symbol {row['id']} has unknown field(s) "
                                       f"{', '.join(sorted(extra))}")
        sym = Symbol(**row)
        for key in ("argument", "element_bytes", "alignment", "granularity", "upperbound",
                    "reads"):
            v = getattr(sym, key)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                raise ArtifactError(where, f"symbol {sym.id} ({sym.name}): \"{key}\" must be a "
                                           f"non-negative integer, not {v!r}")
        if sym.kind != "derived" and sym.argument is None:
            raise ArtifactError(where, f"symbol {sym.id} ({sym.name}) of kind {sym.kind} has "
                                       "no \"argument\"")
        if sym.kind == "tensor_address" and not sym.element_bytes:
            raise ArtifactError(where, f"symbol {sym.id} ({sym.name}) is a tensor_address "
                                       "without \"element_bytes\"")
        return sym

    def constraints(self) -> list[str]:
        out = []
        if self.alignment:
            out.append(f"byte pointer mod {self.alignment} == 0")
        if self.granularity:
            out.append(f"mod {self.granularity} == 0")
        if self.upperbound is not None:
            out.append(f"<= {self.upperbound}")
        if self.value is not None:
            out.append(f"== {self.value} (bound at compile time)")
        return out


@dataclass
class SymbolTable:
    symbols: list[Symbol] = field(default_factory=list)

    def by_id(self) -> dict[int, Symbol]:
        return {s.id: s for s in self.symbols}

    def to_json(self) -> dict[str, Any]:
        return {"symbols": [s.to_json() for s in self.symbols]}

    @staticmethod
    def from_json(data: Any, where: str = SYMBOLS) -> SymbolTable:
        if not isinstance(data, dict) or not isinstance(data.get("symbols"), list):
            raise ArtifactError(where, "expected an object with a \"symbols\" list")
        table = SymbolTable([Symbol.from_json(where, r) for r in data["symbols"]])
        seen: set[int] = set()
        for s in table.symbols:
            if s.id in seen:
                raise ArtifactError(where, f"symbol {s.id} is listed twice")
            seen.add(s.id)
        return table


def _added_symbols(v: SSAValue, out: set[int]) -> None:
    """Symbols reaching `v` as added (not scaled) terms."""
    op = v.owner
    if isinstance(op, CreateSymbolOp) and op.id is not None:
        out.add(op.id)
    elif isinstance(op, arith.AddiOp):
        _added_symbols(op.lhs, out)
        _added_symbols(op.rhs, out)
    elif isinstance(op, arith.SubiOp):
        _added_symbols(op.lhs, out)
    elif isinstance(op, arith.IndexCastOp | arith.ExtSIOp | arith.ExtUIOp):
        _added_symbols(op.operands[0], out)


def _host_calls(module: ModuleOp, callee: str) -> list[func.CallOp]:
    out = []
    for top in module.body.block.ops:
        if isinstance(top, ModuleOp) and top.sym_name is not None:
            continue
        for op in top.walk():
            if isinstance(op, func.CallOp) and op.callee.root_reference.data == callee:
                out.append(op)
    return out


def _expression(v: SSAValue, kernel: func.FuncOp | None) -> Any:
    """The host value `v` over kernel-argument symbols and constants, or None."""
    if isinstance(v, BlockArgument):
        owner = v.owner.parent_op()
        if owner is kernel and kernel is not None:
            return {"symbol": -(v.index + 1)}
        if isinstance(owner, scf.ForOp):
            return None
        return None
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value.type, IndexType | IntegerType):
        return {"const": op.value.value.data}  # type: ignore[union-attr]
    if isinstance(op, arith.IndexCastOp):
        return _expression(op.input, kernel)
    if isinstance(op, Operation) and type(op) in _BINARY:
        a, b = (_expression(x, kernel) for x in op.operands)
        if a is None or b is None:
            return None
        return {"op": _BINARY[type(op)], "args": [a, b]}
    return None


def expression_text(e: Any) -> str:
    if e is None:
        return "host loop index"
    if "symbol" in e:
        return f"sym({e['symbol']})"
    if "const" in e:
        return str(e["const"])
    a, b = (expression_text(x) for x in e["args"])
    return f"{e['op']}({a}, {b})" if e["op"] in ("min", "max") else f"({a} {e['op']} {b})"


def build_symbols(kernel: func.FuncOp, dfir: ModuleOp,
                  compile_args: Mapping[str, str] | None = None) -> SymbolTable:
    """The symbol table of `dfir`, compiled from KTIR `kernel` with `compile_args` bound."""
    compile_args = compile_args or {}
    reads: dict[int, int] = {}
    elems: dict[int, dict[str, tuple[int, Operation]]] = {}
    derived: dict[int, CreateIdOp] = {}
    host = next((op for op in dfir.walk() if isinstance(op, func.FuncOp)
                 and op.sym_name.data == kernel.sym_name.data and op.body.blocks), None)
    for op in dfir.walk():
        if isinstance(op, CreateSymbolOp) and op.id is not None:
            reads[op.id] = reads.get(op.id, 0) + 1
        elif isinstance(op, GetLogicalMemoryViewOp):
            ids: set[int] = set()
            _added_symbols(op.start_address, ids)
            for i in ids:
                try:
                    et = elem_type(op.data.type)
                except UnsupportedType as e:
                    raise op_error(op, str(e)) from None
                elems.setdefault(i, {})[str(op.data.type.get_element_type())] = (
                    et.itemsize, op)
        elif isinstance(op, CreateIdOp) and op.id < -len(kernel.args):
            derived.setdefault(op.id, op)
    table = SymbolTable()
    for a in kernel.args:
        sid = -(a.index + 1)
        name = a.name_hint or f"arg{a.index}"
        t = a.type
        common = {"id": sid, "name": name, "argument": a.index, "type": str(t),
                  "reads": reads.get(sid, 0)}
        if isinstance(t, RuntimeArgType):
            table.symbols.append(Symbol(kind="shape", granularity=t.granularity_value,
                                        upperbound=t.upperbound_value, **common))
        elif sid in elems:
            kinds = elems[sid]
            if len(kinds) > 1:
                _, op2 = list(kinds.values())[1]
                raise op_error(op2, f"views of argument '{name}' have element types "
                               f"{' and '.join(kinds)}: a byte pointer converts with one "
                               "element width")
            (et_name, (width, _)), = kinds.items()
            table.symbols.append(Symbol(kind="tensor_address", element_type=et_name,
                                        element_bytes=width, alignment=width, **common))
        else:
            value = compile_args.get(name)
            table.symbols.append(Symbol(kind="scalar", value=_number(value), **common))
    for sid in sorted(derived, reverse=True):
        op = derived[sid]
        expr = None
        v = op.input
        fn = op.parent_op()
        while fn is not None and not isinstance(fn, func.FuncOp):
            fn = fn.parent_op()
        if isinstance(v, BlockArgument) and isinstance(fn, func.FuncOp):
            calls = _host_calls(dfir, fn.sym_name.data)
            exprs = [_expression(c.arguments[v.index], host) for c in calls]
            if exprs and all(e == exprs[0] for e in exprs):
                expr = exprs[0]
        table.symbols.append(Symbol(id=sid, kind="derived", name=v.name_hint or f"s{-sid}",
                                    expression=expr, reads=reads.get(sid, 0)))
    return table


def _number(text: str | None) -> int | float | None:
    if text is None:
        return None
    try:
        return int(text, 0)
    except ValueError:
        return float(text)
