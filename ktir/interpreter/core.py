"""The interpreter's core: IR blocks compiled once into Python closures over a register file.

Every SSA value of a kernel gets a slot in a list (`r`); slot 0 holds the `TileContext` of the
tile being run. Each op becomes a closure `fn(r)` that reads its operands' slots and writes its
results' slots, with everything static (attributes, shapes, dtypes, numpy index plans) looked
up once at compile time. Executing a block is `for fn in fns: fn(r)`. This keeps the per-op cost
to a Python call plus the numpy work, instead of re-reading xDSL properties on every execution.

Ops that contain inter-tile communication compile to generator functions instead: a tile
suspends (yields a `Wait`) at `inter_tile_reduce`/`consume` until its producers have
contributed, so the grid runs as cooperative coroutines (see `intertile.py`). Kernels without
communication never pay for generators.

Handlers live in one module per dialect family (`ops_*.py`); they register with `@handles`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.traits import IsTerminator

from ktir.diagnostics import KtirDiagnostic, op_error
from ktir.interpreter.dtypes import UnsupportedType
from ktir.semantics import affine_src

if TYPE_CHECKING:
    from ktir.interpreter.intertile import Exchange
    from ktir.interpreter.memory import Machine

Fn = Callable[[list[Any]], Any]
Handler = Callable[["Compiler", Operation], Fn]

HANDLERS: dict[type[Operation], Handler] = {}
# lanes mode (lanes.py): handlers of ops whose tile-by-tile closure cannot take a lane axis,
# and ops whose tile-by-tile closure takes it as is when all their operands are tensors
LANE_HANDLERS: dict[type[Operation], Handler] = {}
LANE_TRANSPARENT: set[type[Operation]] = set()
_HANDLER_MODULES = ("ops_arith", "ops_scf", "ops_tensor", "ops_linalg", "ops_ktdp",
                    "intertile", "ops_spyreop", "ops_lanes", "ops_lanes_ktdp")


def handles(*op_types: type[Operation]) -> Callable[[Handler], Handler]:
    """Register a compile function for one or more op classes."""

    def deco(fn: Handler) -> Handler:
        for t in op_types:
            HANDLERS[t] = fn
        return fn

    return deco


def lanes_handles(*op_types: type[Operation]) -> Callable[[Handler], Handler]:
    """Register the lanes-mode compile function of one or more op classes."""

    def deco(fn: Handler) -> Handler:
        for t in op_types:
            LANE_HANDLERS[t] = fn
        return fn

    return deco


def _load_handlers() -> None:
    import importlib

    for name in _HANDLER_MODULES:
        importlib.import_module(f"ktir.interpreter.{name}")


# ---------------------------------------------------------------------------- run-time state


@dataclass
class TileContext:
    """What an op needs to know about the tile executing it (register slot 0)."""

    tile: int
    coords: tuple[int, ...]
    machine: Machine
    exchange: Exchange | None = None
    counters: dict[Operation, int] = field(default_factory=dict)

    def where(self) -> str:
        return f"on tile {self.tile} (grid coordinates ({', '.join(map(str, self.coords))}))"


def fail(op: Operation, r: list[Any], message: str) -> KtirDiagnostic:
    """A diagnostic naming the op and the tile that ran into it."""
    ctx = r[0]
    where = ctx.where() if isinstance(ctx, TileContext) else ""
    return op_error(op, f"{message} {where}".rstrip())


def _check_size(op: Operation, t: TensorType) -> None:
    """A tensor result is an array the interpreter allocates: within the limits."""
    from ktir.interpreter.dtypes import elem_type
    from ktir.limits import over

    shape = [d for d in t.get_shape() if d != DYNAMIC_INDEX]
    n = math.prod(shape)
    try:
        size = elem_type(t).storage.itemsize
    except UnsupportedType:
        return
    msg = over("elements", n, f"a result of type {t}") or \
        over("buffer_bytes", n * size, f"a result of type {t}")
    if msg is not None:
        raise compile_error(op, msg)


def compile_error(op: Operation, message: str) -> KtirDiagnostic:
    return op_error(op, message)


def fill_dynamic(static: Sequence[int], r: Any, slots: Sequence[int]) -> tuple[int, ...]:
    """`static` (sizes, offsets, ...) with each `?` replaced, in order, by the register values
    `r[s]` of `slots` (the op's dynamic operands)."""
    it = iter(slots)
    return tuple(r[next(it)] if s == DYNAMIC_INDEX else s for s in static)


@dataclass
class Wait:
    """What a suspended tile waits for; the scheduler resumes it once `ready()` holds."""

    op: Operation
    ready: Callable[[], bool]
    describe: Callable[[], str]


# ---------------------------------------------------------------------------- compiled blocks


@dataclass
class Body:
    """A compiled block: its ops (plain closures, or (closure, is_generator) pairs) and the
    slots its terminator reads."""

    fns: tuple[Fn, ...]
    gens: tuple[bool, ...]
    term: Operation | None
    term_slots: tuple[int, ...]
    arg_slots: tuple[int, ...]

    @property
    def gen(self) -> bool:
        return any(self.gens)

    def run(self, r: list[Any]) -> None:
        for f in self.fns:
            f(r)

    def run_gen(self, r: list[Any]) -> Iterator[Wait]:
        for f, g in zip(self.fns, self.gens):
            if g:
                yield from f(r)
            else:
                f(r)

    def results(self, r: list[Any]) -> list[Any]:
        return [r[s] for s in self.term_slots]


def _contains_intertile(op: Operation) -> bool:
    from ktir.dialects.ktdp import InterTileConsumeOp, InterTileReduceOp

    return any(isinstance(o, InterTileReduceOp | InterTileConsumeOp) for o in op.walk())


class Compiler:
    """Compiles one function (and what it calls) into closures over a register list."""

    def __init__(self, lanes: int = 0) -> None:
        _load_handlers()
        self.lanes = lanes  # > 0: compile for lanes mode, one lane per tile (lanes.py)
        self.slots: dict[SSAValue, int] = {}
        self.nslots = 1
        self._suspending: dict[Operation, bool] = {}
        self.functions: dict[str, Program] = {}
        self.module: Operation | None = None
        self.index_slots: list[int] = []  # linalg.index reads the innermost generic's slot
        # inside linalg bodies and combiners, scalar-typed ops see whole arrays
        self.vector_mode = False

    def slot(self, v: SSAValue) -> int:
        s = self.slots.get(v)
        if s is None:
            s = self.slots[v] = self.nslots
            self.nslots += 1
        return s

    def slots_of(self, values: Sequence[SSAValue]) -> tuple[int, ...]:
        return tuple(self.slot(v) for v in values)

    def fresh_slot(self) -> int:
        """A slot that no SSA value owns (scratch state of one op)."""
        self.nslots += 1
        return self.nslots - 1

    def suspends(self, op: Operation) -> bool:
        """Whether running `op` may suspend the tile (it is or holds a reduce/consume)."""
        s = self._suspending.get(op)
        if s is None:
            s = self._suspending[op] = _contains_intertile(op)
        return s

    def compile_op(self, op: Operation) -> Fn:
        handler = HANDLERS.get(type(op))
        if handler is None:
            raise compile_error(op, "is not supported by the KTIR interpreter")
        for res in op.results:
            if isinstance(res.type, TensorType):
                _check_size(op, res.type)
        try:
            return self._lanes_op(op, handler) if self.lanes else handler(self, op)
        except UnsupportedType as e:
            raise compile_error(op, str(e)) from None

    def _lanes_op(self, op: Operation, handler: Handler) -> Fn:
        """An op in lanes mode: its lane-aware handler, its own closure when that takes lane
        axes as is, else its tile-by-tile closure run once per lane (pure ops only)."""
        from ktir.dialects.ktdp import GetComputeTileIdOp, StoreOp
        from ktir.interpreter.lanes import NotBatchable, per_lane

        lane_handler = LANE_HANDLERS.get(type(op))
        if lane_handler is not None:
            return lane_handler(self, op)
        if type(op) in LANE_TRANSPARENT and all(
                isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
            return handler(self, op)
        inner = list(op.walk())
        if any(isinstance(o, StoreOp) for o in inner):
            raise NotBatchable(f"{op.name} stores inside its regions")
        self.lanes, lanes = 0, self.lanes
        try:
            fn = handler(self, op)
        finally:
            self.lanes = lanes
        return per_lane(self, op, fn, any(isinstance(o, GetComputeTileIdOp) for o in inner))

    def compile_ops(self, ops: Sequence[Operation]) -> tuple[Fn, ...]:
        """Closures of the ops of a linalg body: scalar-typed ops run on whole arrays."""
        old, self.vector_mode = self.vector_mode, True
        try:
            return tuple(self.compile_op(op) for op in ops)
        finally:
            self.vector_mode = old

    def compile_vector_region(self, region: Region) -> Body:
        """A region whose scalar-typed ops see arrays (linalg.reduce, combiners)."""
        old, self.vector_mode = self.vector_mode, True
        try:
            return self.compile_region(region)
        finally:
            self.vector_mode = old

    def shaped(self, t: Any) -> bool:
        """Whether values of type `t` are arrays here (tensors, or anything in a body)."""
        from ktir.interpreter.dtypes import is_shaped

        return self.vector_mode or is_shaped(t)

    def compile_block(self, block: Block) -> Body:
        fns: list[Fn] = []
        gens: list[bool] = []
        term: Operation | None = None
        for op in block.ops:
            if op.has_trait(IsTerminator):
                term = op
                break
            fns.append(self.compile_op(op))
            gens.append(self.suspends(op))
        term_slots = self.slots_of(term.operands) if term is not None else ()
        return Body(tuple(fns), tuple(gens), term, term_slots, self.slots_of(block.args))

    def compile_region(self, region: Region) -> Body:
        if len(region.blocks) != 1:
            parent = region.parent_op()
            assert parent is not None
            raise compile_error(parent, "regions with several blocks are not supported by "
                                "the interpreter")
        return self.compile_block(region.block)

    def function(self, name: str, at: Operation) -> Program:
        """The compiled program of a function of the module (for func.call)."""
        prog = self.functions.get(name)
        if prog is not None:
            return prog
        module = self.module
        target = None
        if module is not None:
            for o in module.walk():
                if isinstance(o, func.FuncOp) and o.sym_name.data == name:
                    target = o
                    break
        if target is None:
            raise compile_error(at, f"calls unknown function @{name}")
        prog = self.functions[name] = Program(target, self)
        return prog


class Program:
    """A compiled function: a Body plus the slots of its arguments."""

    def __init__(self, fn: func.FuncOp, compiler: Compiler | None = None):
        self.func = fn
        c = compiler or Compiler()
        if c.module is None:
            c.module = fn.parent_op()
        c.functions.setdefault(fn.sym_name.data, self)
        self.compiler = c
        if fn.body.blocks and len(fn.body.blocks) > 1:
            raise compile_error(fn, "functions with several blocks are not supported by the "
                                "interpreter")
        self.body = c.compile_block(fn.body.block) if fn.body.blocks else Body(
            (), (), None, (), ())
        self.arg_slots = c.slots_of(fn.args)

    @property
    def suspends(self) -> bool:
        return self.body.gen

    def frame(self, ctx: TileContext, args: Sequence[Any]) -> list[Any]:
        r: list[Any] = [None] * self.compiler.nslots
        r[0] = ctx
        for s, v in zip(self.arg_slots, args):
            r[s] = v
        return r


# ---------------------------------------------------------------------------- affine maps


def affine_reader(amap: AffineMap, slots: Sequence[int]) -> Callable[[list[Any]], tuple[int, ...]]:
    """An affine map of SSA values as `r -> tuple`, reading dim k from register `slots[k]`.

    The register numbers are compiled into the code, so evaluating a base point is one call.
    """
    body = ", ".join(affine_src(e, [f"r[{s}]" for s in slots]) for e in amap.results)
    code = f"lambda r: ({body}{',' if len(amap.results) == 1 else ''})"
    return eval(code, {"__builtins__": {}})
