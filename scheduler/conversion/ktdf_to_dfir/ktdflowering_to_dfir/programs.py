"""One `dataflow.program_unit` per unit kind, cloned from a compute group's body.

After `ktdf-to-ktdflowering` a group function holds a prelude (`dataflow.get_unit`, index
constants, `uniform` tables: it stays at the top and runs once) and the work, bound to unit
kinds by `ktdf_lowering.execute_on`. `BuildPrograms` gives every kind K that some
`execute_on` is bound to a unit -> tile table and a program run by all of K's units, holding
a clone of the work: the executing tile is `uniform.query_map(tile_of_K, %iter_arg)`, every
other handle is queried by it. The other families' patterns then lower the clone op by op,
each asking here which program, kind, tile and unit handles it sits in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from scheduler.analysis.units import (
    get_unit_key,
    global_unit,
    kind_hint,
    queried_units,
    split_key,
    unit_key,
)
from scheduler.dialects.ktdf import CreateTokenOp, FifoAllocateOp
from scheduler.dialects.ktdf_lowering import ExecuteOnOp
from scheduler.rewriting import OpClasses
from spyrecode.dialects.dataflow import GetUnitOp, ProgramUnitOp
from spyrecode.dialects.uniform import DefImmutableMappingOp, QueryMapOp

DROPPED: tuple[type[Operation], ...] = (FifoAllocateOp, CreateTokenOp, tensor.EmptyOp,
                                        ktdp.ConstructMemoryViewOp)
"""ScheduleIR values with no DataflowIR counterpart (a FIFO is its send/receive pair, a view
its `get_logical_memory_view`): once the patterns lowered their users, dead-code elimination
removes them by their effect traits."""

KEPT: tuple[type[Operation], ...] = (QueryMapOp, scf.ForOp, scf.IfOp, scf.YieldOp)
"""Ops of the clone that are DataflowIR already, besides scalar `arith`, `math`, `affine`:
the unit queries and the structured control flow (its ScheduleIR marks are stripped,
control.py)."""
_is_kept = OpClasses(*KEPT)


def is_prelude(op: Operation) -> bool:
    """An op of the function's top block that stays there and runs once."""
    if isinstance(op, GetUnitOp | DefImmutableMappingOp):
        return True
    return isinstance(op, arith.ConstantOp) and isinstance(op.result.type, IndexType)


def is_dataflow_ir(op: Operation) -> bool:
    """Ops a program keeps as they are (`KEPT`, scalar arithmetic)."""
    if _is_kept(op):
        return True
    return op.dialect_name() in ("arith", "math", "affine") and not op.regions


@dataclass
class Program:
    """A program `BuildPrograms` built: its kind, the executing tile, and per unit kind the
    handle of the unit serving that tile (the queries cloned into it)."""

    op: ProgramUnitOp
    kind: str
    tile: SSAValue
    handles: dict[str, SSAValue]
    prelude: Block  # the function's top block: units outside the cores
    outside: dict[str, SSAValue | None] = field(default_factory=dict)

    def unit(self, kind: str | None, *, outside_cores: bool = False) -> SSAValue | None:
        """The unit of `kind` serving the executing tile: its query, the program's own unit,
        or (`outside_cores`, for memories) the one `get_unit` of a kind outside the cores."""
        if kind is None:
            return None
        own = split_key(self.kind)[1]
        if own:  # a program of another corelet than the first: that corelet's units
            key = unit_key(kind, own)
            if key in self.handles:
                return self.handles[key]
            if key == self.kind:
                return self.op.iter_arg
        found = self.handles.get(kind)
        if found is None and kind == self.kind:
            found = self.op.iter_arg
        if found is None and outside_cores:
            if kind not in self.outside:
                self.outside[kind] = global_unit(self.prelude, kind)
            found = self.outside[kind]
        return found


@dataclass
class Programs:
    """The programs one run of the pass builds; the family patterns lower ops inside them
    only (a program already in DataflowIR is left alone)."""

    built: dict[ProgramUnitOp, Program] = field(default_factory=dict)

    def of(self, op: Operation) -> Program | None:
        """The program an op was cloned into."""
        cur = op.parent_op()
        while cur is not None and not isinstance(cur, func.FuncOp):
            if isinstance(cur, ProgramUnitOp):
                return self.built.get(cur)
            cur = cur.parent_op()
        return None


def _clone_for(op: Operation, kind: str, values: dict[SSAValue, SSAValue]) -> Operation | None:
    """`op` cloned for a program of `kind`: an `execute_on` bound to another kind is not
    (that work runs in another program)."""
    if isinstance(op, ExecuteOnOp):
        units = op.applicable_units
        if len(units) == 1 and units[0] != kind:
            return None
    if not isinstance(op, ExecuteOnOp | scf.ForOp | scf.IfOp):  # no execute_on inside
        return op.clone(values)
    new = op.clone_without_regions(values)
    for old_region, region in zip(op.regions, new.regions):
        for old in old_region.blocks:
            block = Block(arg_types=[a.type for a in old.args])
            for a, b in zip(old.args, block.args):
                values[a] = b
                b.name_hint = a.name_hint
            for inner in old.ops:
                if (c := _clone_for(inner, kind, values)) is not None:
                    block.add_op(c)
            region.add_block(block)
    return new


def _bound_kinds(block: Block) -> list[str]:
    """Unit kinds of the single-kind `execute_on`s below `block`, outside programs."""
    kinds: list[str] = []
    for op in block.ops:
        if isinstance(op, ProgramUnitOp):
            continue
        if isinstance(op, ExecuteOnOp):
            units = op.applicable_units
            if len(units) == 1 and units[0] not in kinds:
                kinds.append(units[0])
        for region in op.regions:
            for b in region.blocks:
                kinds += [k for k in _bound_kinds(b) if k not in kinds]
    return kinds


def _check_lowerable(block: Block, lowered: OpClasses, whole: OpClasses, top: bool = True
                     ) -> None:
    """Report the first op no pattern lowers, before anything is rewritten. The bodies of
    ops lowered whole (`linalg.generic`: compute.py) are checked by their pattern."""
    for op in block.ops:
        if top and (is_prelude(op) or isinstance(op, func.ReturnOp)):
            continue
        if not lowered(op) and not is_dataflow_ir(op):
            raise op_error(op, f"'{op.name}' has no DataflowIR lowering")
        if not whole(op):
            for region in op.regions:
                for b in region.blocks:
                    _check_lowerable(b, lowered, whole, False)


class BuildPrograms(RewritePattern):
    """A group function with `execute_on`s outside programs: tables, programs, clones.

    `lowered` holds the op types the family patterns lower, `whole` those whose bodies
    their pattern checks itself; the programs built go into `programs`."""

    def __init__(self, programs: Programs, lowered: tuple[type[Operation], ...],
                 whole: tuple[type[Operation], ...]):
        self.programs = programs
        self.lowered = OpClasses(*lowered, *DROPPED)
        self.whole = OpClasses(*whole)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, fn: func.FuncOp, rewriter: PatternRewriter) -> None:
        if fn.is_declaration:
            return
        block = fn.body.block
        kinds = _bound_kinds(block)
        if not kinds:
            return
        gets = {k: [o for o in block.ops if isinstance(o, GetUnitOp) and get_unit_key(o) == k]
                for k in kinds}
        for kind in kinds:
            if not gets[kind]:
                raise op_error(fn, f"no units of kind '{kind}' are materialised")
        _check_lowerable(block, self.lowered, self.whole)
        work = [o for o in block.ops if not is_prelude(o) and not isinstance(o, func.ReturnOp)]
        new_ops: list[Operation] = []
        programs: list[ProgramUnitOp] = []
        for kind in kinds:
            units = gets[kind]
            keys = [arith.ConstantOp.from_int_and_width(u.core or 0, IndexType()) for u in units]
            table = DefImmutableMappingOp([(u.unit, k.result) for u, k in zip(units, keys)])
            table.result.name_hint = f"tile_of_{kind_hint(kind)}"
            new_ops += [*keys, table]
            body = Block(arg_types=[IndexType()])
            body.args[0].name_hint = kind_hint(kind)
            tile = QueryMapOp(table.result, body.args[0])
            tile.result.name_hint = "tile"
            body.add_op(tile)
            clones: dict[SSAValue, SSAValue] = {}
            for o in work:
                if (c := _clone_for(o, kind, clones)) is None:
                    continue
                if isinstance(c, QueryMapOp):  # the handle names belong to the prelude's
                    c.result.name_hint = None
                body.add_op(c)
            pu = ProgramUnitOp([u.unit for u in units], body)
            programs.append(pu)
            self.programs.built[pu] = Program(pu, kind, tile.result, queried_units(body),
                                              block)
        assert block.last_op is not None
        rewriter.insert([*new_ops, *programs], InsertPoint.before(block.last_op))
        for o in reversed(work):
            rewriter.erase(o, safe_erase=False)
