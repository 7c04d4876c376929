"""DataflowIR -> Python source, compiled once per run (shared/spec/dataflow-ir.md §7 E10).

Each program (`dataflow.program_unit`) becomes one Python generator function whose locals are
the SSA values; scalar ops become inline Python expressions, `scf`/`affine` control flow
becomes Python loops and branches, and every op that can block (receive, send into a full
FIFO, sync_recv) checks its condition inline and yields `(kind, object, op index)` to the
engine when it must wait. Timing and memory effects go through the process helpers
(runtime.py). Host functions (outside the body) and the body's prelude become plain functions.

Nothing is looked up in xDSL attributes while a program runs: every static fact (view layouts,
access sets, vector kernels, latency classes) is computed here and bound as a constant of the
generated module, named after its kind (`PLAN12`). A failing op is found again from the line
of the generated source (sources.py), so the hot path carries no bookkeeping; the source of
every function can be dumped, shows in tracebacks and pdb, and names the op of each group of
lines in a comment. A program keeps its process's clock and counters in locals (STATE) and its
per-event work inline (codegen_inline.py). Handlers: memory accesses in codegen_access.py,
the other dataflow, vectorchain, uniform, symbol and memref ops in codegen_ops.py, control
flow in codegen_control.py, scalar ops here.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineExpr

from emulator.errors import RuntimeFault, UnsupportedOpError
from emulator.numerics import etype
from emulator.sources import GLOBAL, LEGEND, Sources, const_kind, describe_const
from ktir.semantics import (
    affine_src,
    ceildiv,
    ieee_div,
    int_bounds,
    scalar_maximum,
    scalar_minimum,
    scalar_rounder,
    tdiv,
    trem,
    wrap_int,
)
from spyrecode.dialects.dataflow_types import is_vector_like

if TYPE_CHECKING:
    from emulator.access import ViewSpec

Handler = Callable[["Gen", Operation], None]
_IDENT = re.compile(r"[A-Za-z_]\w*")
_NOT_WORD = re.compile(r"\W")
HANDLERS: dict[str, Handler] = {}
I64_MIN, I64_MAX = int_bounds(64)
BLOCKING = frozenset({"dataflow.receive", "dataflow.send", "dataflow.sync_recv"})


def handles(*names: str) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        for n in names:
            HANDLERS[n] = fn
        return fn
    return deco


def tuple_src(items: Iterable[str]) -> str:
    """Python source of a tuple of the source expressions `items` (`(a, )`, `()`)."""
    return "(" + "".join(x + ", " for x in items) + ")"


# ---- helpers bound into every generated module --------------------------------------------


def query(m: dict, key: object) -> object:
    try:
        return m[key]
    except KeyError:
        raise RuntimeFault(f"key {key!r} is not in the map (keys: "
                           f"{', '.join(repr(k) for k in list(m)[:8])}"
                           f"{', ...' if len(m) > 8 else ''})") from None
    except TypeError:
        raise RuntimeFault(f"{key!r} cannot key a map") from None


def rounding(t: Attribute) -> Callable[[float], float]:
    """Rounding of a scalar to float type `t` (ktir.semantics, as in the interpreter)."""
    et = etype(t)
    if not et.is_float:
        raise UnsupportedOpError(f"scalar type {t} is not supported")
    return scalar_rounder(et)


def width(t: Attribute) -> int:
    if isinstance(t, IndexType):
        return 64
    if isinstance(t, IntegerType):
        return t.width.data
    return 0


# A program keeps its process's clock and counters in locals (`p_t` for `P.t`, ...): they
# are written back to the process before it parks (only `t`, which the engine reads), around
# calls of process helpers and generated functions, when it ends, and when it fails.
STATE = ("t", "busy", "nev", "pend", "dmadone", "epoch", "st_data", "st_send", "st_link",
         "st_recv", "st_signal", "st_dma", "slot")
STATE_IN = f"{', '.join('p_' + f for f in STATE)}, = {', '.join('P.' + f for f in STATE)},"
STATE_OUT = f"{', '.join('P.' + f for f in STATE)}, = {', '.join('p_' + f for f in STATE)},"

# Process attributes that inlined helpers (codegen_inline.py) read on every event, bound to
# locals once per generated function that uses them.
PROCESS_LOCALS = {"SITES": "P.sites", "SL": "P.sl", "RC": "P.rc", "VID": "P.vid", "RLOG": "P.rlog",
                  "KNOWN": "P.known", "OPEN": "P.open", "WAKE": "P.wake", "TR": "P.trace",
                  "LIMIT": "P.limit", "SLOTS": "P.slots", "NSLOTS": "len(P.slots)"}

# The scalar rules shared with the interpreter (ktir/semantics.py), and what else the generated
# code of every module uses.
BASE_GLOBALS: dict[str, Any] = {"WRAP": wrap_int, "TDIV": tdiv, "TREM": trem, "CEILDIV": ceildiv,
                                "FDIV": ieee_div, "FMAXIMUM": scalar_maximum,
                                "FMINIMUM": scalar_minimum, "QM": query, "math": math, "np": np}


@functools.lru_cache(maxsize=512)
def _compiled(src: str, filename: str) -> CodeType:
    """Python's compilation of generated source, which runs and tests repeat."""
    return compile(src, filename, "exec")


class Codegen:
    """One compilation: the globals shared by its generated functions (constants, process
    helpers and the functions themselves), its sources (emulator/sources.py), the op table
    used by blocking tokens, and the vector-op cost sites. Everything here belongs to one
    emulation and goes with it."""

    def __init__(self, function: Callable[[str, Operation], tuple[str, bool]], races: bool,
                 trace: bool = False, dump: Path | None = None):
        self.sources = Sources(dump)
        self.g: dict[str, Any] = dict(BASE_GLOBALS)
        self.g[GLOBAL] = self.sources
        self.function = function  # a function called from a program: (Python name, blocks)
        self.specs: dict[SSAValue, ViewSpec] = {}  # the static layouts of view values
        self.ops: list[Operation] = []
        self.sites: list[tuple[str, int, str, str]] = []
        self.races = races
        self.trace = trace
        self._k = 0
        self._consts: set[str] = set()

    def const(self, obj: object, hint: str | None = None) -> str:
        """Bind `obj` as a global of the generated code; its name (`hint` or its kind, and
        a number)."""
        self._k += 1
        name = f"{hint or const_kind(obj)}{self._k}"
        self.g[name] = obj
        self._consts.add(name)
        return name

    def const_round(self, t: Attribute) -> str:
        return self.const(rounding(t), "ROUND")

    def opindex(self, op: Operation) -> int:
        self.ops.append(op)
        return len(self.ops) - 1

    def site(self, cls: str, lanes: int, elem: str, label: str) -> int:
        self.sites.append((cls, lanes, elem, label))
        return len(self.sites) - 1

    def build(self, name: str, params: str, gen: Gen, stem: str, about: str,
              generator: bool = False) -> Callable:
        """Compile the function `name` (its file: `stem`, its header says what it is:
        `about`); `generator` makes it one even when nothing in it blocks."""
        ind = "    "
        pro = [f"{n} = {PROCESS_LOCALS[n]}" for n in sorted(gen.uses)] + gen.prologue
        head = [f"def {name}({params}):"] + [ind + line for line in pro]
        body = gen.drop_unused()
        if gen.mode == "program":  # the process state in locals, written back on the way out
            head += [ind + STATE_IN, ind + "try:"]
            body = [(ind + line, op) for line, op in body] + [(2 * ind + STATE_OUT, None)]
        if generator and not gen.has_yield:
            lvl = 2 * ind if gen.mode == "program" else ind
            body += [(lvl + "return", None), (lvl + "yield", None)]
        if gen.mode == "program":
            body += [(ind + "except BaseException:", None), (2 * ind + STATE_OUT, None),
                     (2 * ind + "raise", None)]
        lines = [(line, None) for line in head] + self.sources.commented(body)
        used = sorted({w for line, _ in lines for w in _IDENT.findall(line)} & self._consts,
                      key=lambda c: int(re.sub(r"\D", "", c)))
        top = [f"# {about}", *LEGEND.splitlines()]
        if used:
            top += ["# Constants:"] + [f"#   {c} = {describe_const(self.g[c])}" for c in used]
        lines = [(line, None) for line in top] + lines
        filename = self.sources.add(stem, [line for line, _ in lines], [op for _, op in lines])
        exec(_compiled("\n".join(line for line, _ in lines) + "\n", filename), self.g)
        return self.g[name]


class Gen:
    """Source of one generated function. `mode`: "host", "prelude" or "program"."""

    def __init__(self, cg: Codegen, mode: str, outer: dict[SSAValue, str] | None = None):
        self.cg = cg
        self.mode = mode
        self.out: list[tuple[str, Operation | None]] = []
        self.ind = 1
        self.names: dict[SSAValue, str] = dict(outer or {})
        self.n = 0
        self.pending = 0
        self.events = 0
        self.timed = 0  # ops emitted that take emulated time (loops without any: `settle`)
        self.targets: list[list[tuple[str, str | None]]] = []
        self.has_yield = False
        self.prologue: list[str] = []
        self.uses: set[str] = set()
        # memory and start address (source) of the views defined in this function
        self.viewparts: dict[SSAValue, tuple[str, str]] = {}
        # (line, name, the line without defining name): definitions to drop when unused
        self.optional: list[tuple[int, str, str]] = []

    # ---- names ---------------------------------------------------------------------------

    def tmp(self, prefix: str = "_t") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def define(self, value: SSAValue) -> str:
        """A new local for `value`: `v<n>`, with the value's name in the IR when it has one
        (`v12_tile` for `%tile`)."""
        self.n += 1
        hint = value.name_hint
        name = f"v{self.n}_{_NOT_WORD.sub('_', hint)}" if hint else f"v{self.n}"
        self.names[value] = name
        return name

    def v(self, value: SSAValue) -> str:
        name = self.names.get(value)
        if name is None:
            raise UnsupportedOpError(f"value {value} is used outside the region that defines "
                                     "it", op=value.owner if isinstance(value.owner, Operation)
                                     else None)
        return name

    def w(self, value: SSAValue) -> str:
        """The ready cycle of a vector value ('0.0' when not tracked)."""
        name = self.names.get(value)
        return "w" + name[1:] if name is not None and name.startswith("v") and \
            is_vector_like(value.type) else "0.0"

    def with_ready_names(self, value: SSAValue, name: str) -> list[str]:
        """`name`, and the name of its ready cycle when `value` is a vector."""
        return [name, "w" + name[1:]] if is_vector_like(value.type) else [name]

    def with_ready(self, values: list[SSAValue]) -> list[str]:
        """The values' names, each vector followed by its ready cycle (how a program's
        functions take arguments and return results)."""
        return [n for x in values for n in ([self.v(x), self.w(x)] if is_vector_like(x.type)
                                            else [self.v(x)])]

    def use(self, *names: str) -> None:
        """Bind these PROCESS_LOCALS at the start of the function."""
        self.uses.update(names)

    # ---- emission ------------------------------------------------------------------------

    def emit(self, text: str, op: Operation | None = None) -> None:
        self.out.append(("    " * self.ind + text, op))

    def emit_optional(self, text: str, name: str, without: str, op: Operation) -> None:
        """Emit `text`, which defines `name`; if nothing else uses `name`, `without` (the
        rest of its work) replaces it."""
        self.optional.append((len(self.out), name, "    " * self.ind + without))
        self.emit(text, op)

    def drop_unused(self) -> list[tuple[str, Operation | None]]:
        """The emitted lines, optional definitions of unused names replaced."""
        out = list(self.out)
        if self.optional:
            counts = Counter(w for line, _ in out for w in _IDENT.findall(line))
            for i, name, without in self.optional:
                if counts[name] == 1:
                    out[i] = (without, out[i][1])
        return out

    def scalar(self, n: int = 1) -> None:
        self.pending += n

    def flush(self) -> None:
        if self.pending and self.mode == "program":  # Process.scalar, inline
            self.emit(f"if IC: _sc = IC * {self.pending}; p_t += _sc; p_busy += _sc")
        self.pending = 0

    def event(self) -> None:
        """Count one emulated event; the count is added to `p_nev` once per straight-line
        run of code (flush_events), not per event: nothing reads it before the end."""
        self.events += 1
        self.timed += 1

    def flush_events(self) -> None:
        if self.events:
            self.emit(f"p_nev += {self.events}")
        self.events = 0

    def helper(self, src: str, op: Operation, pre: str = "") -> None:
        """A statement that calls process helpers or generated functions, which read and
        update the process state: written back before, read again after (`pre`: extra
        indentation). It may take time (a transfer, a called function's work)."""
        self.timed += 1
        for line in (STATE_OUT, src, STATE_IN):
            self.emit(pre + line, op)

    def park_src(self, obj: str, field: str, wait: str) -> str:
        """Source that parks the process on `obj`.`field` (engine.py) until it changes;
        `wait` names (kind, obj, index of the op waiting) for deadlock reports."""
        self.has_yield = True
        self.timed += 1
        return f"{obj}.{field} = P; P.t = p_t; yield {wait}"

    def need_program(self, op: Operation, what: str) -> None:
        if self.mode != "program":
            raise UnsupportedOpError(f"{what} outside a dataflow.program_unit (only programs "
                                     "have an executing unit)", op=op)

    def block(self, block: Block, args: list[str] | None = None) -> None:
        start = len(self.out)
        for a, name in zip(block.args, args or [], strict=False):
            self.names[a] = name
        for op in block.ops:
            self.op(op)
        self.flush()
        self.flush_events()
        if len(self.out) == start:
            self.emit("pass")

    def op(self, op: Operation) -> None:
        h = HANDLERS.get(op.name)
        if h is None:
            raise UnsupportedOpError("unsupported op: the emulator does not execute "
                                     f"'{op.name}'", op=op)
        if op.name in BLOCKING or op.name.startswith(("agen.", "vectorchain.")) or \
                op.name in ("dataflow.sync_send", "func.call", "dataflow.opaque"):
            self.flush()
        if op.regions or op.name in ("scf.condition", "func.return"):
            self.flush_events()  # before code that branches, loops or leaves
        h(self, op)

    def assign(self, targets: list[tuple[str, str | None]], values: list[SSAValue],
               op: Operation) -> None:
        """`targets = values` for a region yield (vectors carry their ready cycle)."""
        if len(targets) != len(values):
            raise UnsupportedOpError(f"yields {len(values)} values, expected {len(targets)}",
                                     op=op)
        lhs, rhs = [], []
        for (name, ready), val in zip(targets, values, strict=True):
            lhs.append(name)
            rhs.append(self.v(val))
            if ready is not None:
                lhs.append(ready)
                rhs.append(self.w(val))
        if lhs:
            self.emit(f"{', '.join(lhs)} = {', '.join(rhs)}", op)

    def results(self, op: Operation) -> list[tuple[str, str | None]]:
        return self.carried(list(op.results))

    def carried(self, args: list[SSAValue]) -> list[tuple[str, str | None]]:
        """Define each value: (name, name of its ready cycle when it is a vector)."""
        out = []
        for a in args:
            name = self.define(a)
            out.append((name, "w" + name[1:] if is_vector_like(a.type) else None))
        return out

    def guard(self, trips: str, op: Operation) -> tuple[int, int, str]:
        """The iteration guard of a loop, before its body: `P.loop` counts the trips against
        the cycle limit. `settle` then turns it into `P.spin` / `SPIN` (the loop limit) when
        the body turned out to do no timed work, which the cycle limit cannot bound."""
        self.emit(f"P.loop({trips})" if self.mode == "program" else f"SPIN({trips})", op)
        return len(self.out) - 1, self.timed, trips

    def settle(self, guard: tuple[int, int, str]) -> None:
        i, timed, trips = guard
        if self.timed == timed and self.mode == "program":
            line, op = self.out[i]
            self.out[i] = (line.replace(f"P.loop({trips})", f"P.spin({trips})"), op)


# ---- affine expressions -------------------------------------------------------------------


def affine_py(e: AffineExpr, dims: list[str], syms: list[str]) -> str:
    """Python source of an affine expression over named dims and symbols (the interpreter's
    expression printer, with symbols turned into trailing dims)."""
    if syms:
        e = e.replace_dims_and_symbols(
            [AffineExpr.dimension(i) for i in range(len(dims))],
            [AffineExpr.dimension(len(dims) + i) for i in range(len(syms))])
    return affine_src(e, [*dims, *syms])


def map_py(amap: Any, operands: list[str]) -> list[str]:
    dims = operands[: amap.num_dims]
    syms = operands[amap.num_dims:]
    return [affine_py(e, dims, syms) for e in amap.results]


def set_py(aset: Any, operands: list[str]) -> str:
    from xdsl.ir.affine import AffineConstraintKind

    dims, syms = operands[: aset.num_dims], operands[aset.num_dims:]
    parts = []
    for c in aset.constraints:
        lhs, rhs = affine_py(c.lhs, dims, syms), affine_py(c.rhs, dims, syms)
        op = {AffineConstraintKind.ge: ">=", AffineConstraintKind.le: "<=",
              AffineConstraintKind.eq: "=="}[c.kind]
        parts.append(f"{lhs} {op} {rhs}")
    return " and ".join(parts) or "True"


# ---- arith ----------------------------------------------------------------------------------

_INT_BIN = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*", "arith.shli": "<<"}
_BITS = {"arith.andi": "&", "arith.ori": "|", "arith.xori": "^", "arith.shrsi": ">>"}
_CMPI = ["==", "!=", "<", "<=", ">", ">=", "<", "<=", ">", ">="]


def _scalar_only(g: Gen, op: Operation) -> None:
    for v in (*op.operands, *op.results):
        if is_vector_like(v.type) or not isinstance(v.type, IndexType | IntegerType | AnyFloat):
            raise UnsupportedOpError(f"'{op.name}' on {v.type} is not supported (scalars only;"
                                     " vectors use vectorchain)", op=op)


@handles(*_INT_BIN, *_BITS)
def _int_binary(g: Gen, op: Operation) -> None:
    _scalar_only(g, op)
    a, b = g.v(op.operands[0]), g.v(op.operands[1])
    r = g.define(op.results[0])
    w = width(op.results[0].type)
    if op.name in _BITS:
        g.emit(f"{r} = {a} {_BITS[op.name]} {b}", op)
    elif w == 64:
        g.emit(f"{r} = {a} {_INT_BIN[op.name]} {b}", op)
        g.emit(f"if not {I64_MIN} <= {r} <= {I64_MAX}: {r} = WRAP({r}, 64)", op)
    else:
        g.emit(f"{r} = WRAP({a} {_INT_BIN[op.name]} {b}, {w})", op)
    g.scalar()


@handles("arith.divsi", "arith.remsi", "arith.divui", "arith.remui", "arith.floordivsi",
         "arith.ceildivsi", "arith.shrui", "arith.maxsi", "arith.minsi", "arith.maxui",
         "arith.minui", "arith.ceildivui")
def _int_other(g: Gen, op: Operation) -> None:
    _scalar_only(g, op)
    a, b = g.v(op.operands[0]), g.v(op.operands[1])
    w = width(op.results[0].type)
    m = (1 << w) - 1
    ua, ub = f"({a} & {m})", f"({b} & {m})"
    expr = {"arith.divsi": f"TDIV({a}, {b})", "arith.remsi": f"TREM({a}, {b})",
            "arith.divui": f"WRAP({ua} // {ub}, {w})", "arith.remui": f"WRAP({ua} % {ub}, {w})",
            "arith.floordivsi": f"({a} // {b})", "arith.ceildivsi": f"CEILDIV({a}, {b})",
            "arith.ceildivui": f"WRAP(CEILDIV({ua}, {ub}), {w})",
            "arith.shrui": f"WRAP({ua} >> {b}, {w})", "arith.maxsi": f"max({a}, {b})",
            "arith.minsi": f"min({a}, {b})",
            "arith.maxui": f"({a} if {ua} >= {ub} else {b})",
            "arith.minui": f"({a} if {ua} <= {ub} else {b})"}[op.name]
    r = g.define(op.results[0])
    g.emit(f"{r} = WRAP({expr}, {w})" if op.name in ("arith.divsi", "arith.floordivsi",
                                                    "arith.ceildivsi") else f"{r} = {expr}", op)
    g.scalar()


@handles("arith.cmpi")
def _cmpi(g: Gen, op: Operation) -> None:
    _scalar_only(g, op)
    a, b = g.v(op.operands[0]), g.v(op.operands[1])
    p = op.predicate.value.data  # type: ignore[attr-defined]
    r = g.define(op.results[0])
    if p >= 6:
        m = (1 << width(op.operands[0].type)) - 1
        a, b = f"({a} & {m})", f"({b} & {m})"
    g.emit(f"{r} = {a} {_CMPI[p]} {b}", op)
    g.scalar()


@handles("arith.select")
def _select(g: Gen, op: Operation) -> None:
    c, a, b = (g.v(x) for x in op.operands)
    r = g.define(op.results[0])
    if is_vector_like(op.results[0].type):
        g.emit(f"{r} = np.where({c}, {a}, {b}); w{r[1:]} = max({g.w(op.operands[1])}, "
               f"{g.w(op.operands[2])})", op)  # noqa: RUF100
    else:
        g.emit(f"{r} = {a} if {c} else {b}", op)
    g.scalar()


@handles("arith.constant")
def _constant(g: Gen, op: Operation) -> None:
    t = op.results[0].type
    attr = op.value  # type: ignore[attr-defined]
    r = g.define(op.results[0])
    if is_vector_like(t):
        from emulator.numerics import constant_lanes

        g.emit(f"{r} = {g.cg.const(constant_lanes(op))}; w{r[1:]} = 0.0", op)
        return
    if isinstance(attr, IntegerAttr):
        v = attr.value.data
        lit = wrap_int(v, width(t)) if width(t) else v
        g.names[op.results[0]] = f"({lit})" if lit < 0 else str(lit)
    elif isinstance(t, AnyFloat):
        x = rounding(t)(attr.value.data)  # type: ignore[attr-defined]
        if math.isfinite(x):
            g.names[op.results[0]] = f"({x!r})"
        else:
            g.emit(f"{r} = float({str(x)!r})", op)
    else:
        raise UnsupportedOpError(f"constant {attr} of type {t} is not supported", op=op)


@handles("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui",
         "arith.trunci")
def _int_cast(g: Gen, op: Operation) -> None:
    _scalar_only(g, op)
    a = g.v(op.operands[0])
    src, dst = width(op.operands[0].type), width(op.results[0].type)
    r = g.define(op.results[0])
    if op.name in ("arith.extui", "arith.index_castui") and src < 64:
        g.emit(f"{r} = WRAP({a} & {(1 << src) - 1}, {dst})", op)
    else:
        g.emit(f"{r} = WRAP({a}, {dst})", op)
    g.scalar()


_FLOAT_BIN = {"arith.addf": "{a} + {b}", "arith.subf": "{a} - {b}", "arith.mulf": "{a} * {b}",
              "arith.divf": "FDIV({a}, {b})", "arith.maximumf": "FMAXIMUM({a}, {b})",
              "arith.minimumf": "FMINIMUM({a}, {b})", "arith.maxnumf": "max({a}, {b})",
              "arith.minnumf": "min({a}, {b})"}


@handles(*_FLOAT_BIN)
def _float_binary(g: Gen, op: Operation) -> None:
    _scalar_only(g, op)
    a, b = g.v(op.operands[0]), g.v(op.operands[1])
    rnd = g.cg.const_round(op.results[0].type)
    r = g.define(op.results[0])
    g.emit(f"{r} = {rnd}({_FLOAT_BIN[op.name].format(a=a, b=b)})", op)
    g.scalar()


@handles("arith.sitofp", "arith.uitofp", "arith.extf", "arith.truncf", "arith.fptosi",
         "arith.fptoui")
def _float_cast(g: Gen, op: Operation) -> None:
    _scalar_only(g, op)
    a = g.v(op.operands[0])
    src, dst = op.operands[0].type, op.results[0].type
    r = g.define(op.results[0])
    if op.name in ("arith.fptosi", "arith.fptoui"):
        g.emit(f"{r} = WRAP(int({a}), {width(dst)})", op)
    else:
        if op.name == "arith.uitofp":
            a = f"({a} & {(1 << width(src)) - 1})"
        g.emit(f"{r} = {g.cg.const_round(dst)}({a})", op)
    g.scalar()


_CMPF = {1: "{a} == {b}", 2: "{a} > {b}", 3: "{a} >= {b}", 4: "{a} < {b}", 5: "{a} <= {b}",
         6: "({a} != {b} and {a} == {a} and {b} == {b})", 7: "({a} == {a} and {b} == {b})",
         8: "not ({a} != {b} and {a} == {a} and {b} == {b})", 9: "not ({a} <= {b})",
         10: "not ({a} < {b})", 11: "not ({a} >= {b})", 12: "not ({a} > {b})",
         13: "{a} != {b}", 14: "({a} != {a} or {b} != {b})", 0: "False", 15: "True"}


@handles("arith.cmpf")
def _cmpf(g: Gen, op: Operation) -> None:
    _scalar_only(g, op)
    a, b = g.v(op.operands[0]), g.v(op.operands[1])
    r = g.define(op.results[0])
    g.emit(f"{r} = {_CMPF[op.predicate.value.data].format(a=a, b=b)}", op)  # type: ignore
    g.scalar()


# one operand: (expression, rounded to the result type)
_UNARY = {"arith.negf": ("-{a}", False), "math.exp": ("math.exp({a})", True),
          "math.log": ("math.log({a})", True), "math.sqrt": ("math.sqrt({a})", True),
          "math.rsqrt": ("1.0 / math.sqrt({a})", True), "math.tanh": ("math.tanh({a})", True),
          "math.absf": ("abs({a})", False), "math.floor": ("float(math.floor({a}))", False),
          "math.ceil": ("float(math.ceil({a}))", False),
          "math.absi": ("WRAP(abs({a}), {w})", False)}


@handles(*_UNARY)
def _unary(g: Gen, op: Operation) -> None:
    _scalar_only(g, op)
    template, rounded = _UNARY[op.name]
    expr = template.format(a=g.v(op.operands[0]), w=width(op.results[0].type))
    if rounded:
        expr = f"{g.cg.const_round(op.results[0].type)}({expr})"
    r = g.define(op.results[0])
    g.emit(f"{r} = {expr}", op)
    g.scalar()


# ---- affine --------------------------------------------------------------------------------


@handles("affine.apply", "affine.min", "affine.max")
def _affine_apply(g: Gen, op: Operation) -> None:
    exprs = map_py(op.map.data, [g.v(x) for x in op.operands])  # type: ignore[attr-defined]
    r = g.define(op.results[0])
    if op.name == "affine.apply":
        g.emit(f"{r} = {exprs[0]}", op)
    else:
        g.emit(f"{r} = {op.name[7:]}({', '.join(exprs)})" if len(exprs) > 1 else
               f"{r} = {exprs[0]}", op)
    g.scalar()
