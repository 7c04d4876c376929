"""Symbols: views and buffers become `dataflow.get_logical_memory_view`s of the memory that
holds them, at symbolic or fixed start addresses.

A view (`memref.memory_space_cast` of a `ktdp.construct_memory_view`) starts at its base
address with the view's strides; when the base is an argument of the group function, the
program reads it as `symbol.create_symbol` (ids from `scheduler.analysis.symbols`, kernel
argument p is symbol -(p+1)), created at its first view and read by everything the symbol
dominates. An addressed buffer (`unrealized_conversion_cast` of an index, after
`address-assignment`) starts at its element address, row-major. Addresses count elements
(ktir.md D1). A `ktdp.runtime_arg_extract` of a group argument reads the argument's
symbol (`value`) or is the constant its type holds (`granularity`, `upperbound`).
"""

from __future__ import annotations

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnrealizedConversionCastOp,
)
from xdsl.ir import BlockArgument, Operation, SSAValue, Use
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import int_list
from scheduler.analysis.placement import owner_core
from scheduler.analysis.symbols import symbol_ids
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.programs import Program, Programs
from scheduler.rewriting import replace_keeping_names
from spyrecode.dialects.dataflow import GetLogicalMemoryViewOp, GetUnitOp
from spyrecode.dialects.symbol import CreateSymbolOp


def row_major(shape: tuple[int, ...] | list[int]) -> AffineMap:
    e = AffineExpr.constant(0)
    stride = 1
    for k in reversed(range(len(shape))):
        e = AffineExpr.dimension(k) * stride + e if stride != 1 else AffineExpr.dimension(k) + e
        stride *= shape[k]
    return AffineMap(len(shape), 0, (e,))


def strided(strides: list[int]) -> AffineMap:
    e = AffineExpr.constant(0)
    for k, s in enumerate(strides):
        e = e + AffineExpr.dimension(k) * s
    return AffineMap(len(strides), 0, (e,))


def _memory(op: Operation, program: Program, t: MemRefType, core: int | None = None
            ) -> SSAValue:
    """The memory holding a view: the executing tile's instance of its kind, or core
    `core`'s (a view of a given tile's scratchpad, `ct_id`)."""
    kind = t.memory_space.data  # type: ignore[union-attr]
    if core is not None:
        for g in program.prelude.ops:
            if isinstance(g, GetUnitOp) and g.kind == kind and g.core == core:
                return g.unit
        raise op_error(op, f"no memory of kind '{kind}' is materialised for core {core}")
    handle = program.unit(kind, outside_cores=True)
    if handle is None:
        raise op_error(op, f"no unit of memory kind '{kind}' is materialised")
    return handle


def _dominates(op: Operation, use: Use) -> bool:
    block = op.parent_block()
    user = None if block is None else block.find_ancestor_op_in_block(use.operation)
    return user is not None and user is not op and op.is_before_in_block(user)


class _SymbolIds:
    """The symbol id of each argument of the group functions (asked once per function)."""

    def __init__(self) -> None:
        self.ids: dict[func.FuncOp, dict[BlockArgument, int]] = {}

    def __call__(self, program: Program, arg: SSAValue) -> int | None:
        fn = program.op.parent_op()
        if not isinstance(arg, BlockArgument) or not isinstance(fn, func.FuncOp) \
                or arg.block is not fn.body.block:
            return None
        if fn not in self.ids:  # the host's calls say which kernel argument each one is
            module = fn.get_toplevel_object()
            assert isinstance(module, ModuleOp)
            self.ids[fn] = symbol_ids(fn, module)
        return self.ids[fn].get(arg)


class LowerView(RewritePattern):
    """A view: its start address (a symbol for a function argument), then the logical view."""

    def __init__(self, programs: Programs, ids: _SymbolIds):
        self.programs = programs
        self.symbol_id = ids

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.MemorySpaceCastOp, rewriter: PatternRewriter
                          ) -> None:
        program = self.programs.of(op)
        if program is None:
            return
        view = op.source.owner
        if not isinstance(view, ktdp.ConstructMemoryViewOp):
            raise op_error(op, "only views built by ktdp.construct_memory_view are lowered")
        new: list[Operation] = []
        start = view.offset
        if (i := self.symbol_id(program, start)) is not None:
            s = CreateSymbolOp(i)
            s.result.name_hint = start.name_hint
            new.append(s)
        t = view.result.type
        g = GetLogicalMemoryViewOp(_memory(op, program, op.dest.type, owner_core(op.dest)),
                                   new[0].results[0] if new else start,
                                   strided(int_list(view.static_strides)),
                                   MemRefType(t.element_type, t.get_shape()))
        g.data.name_hint = op.dest.name_hint
        replace_keeping_names(rewriter, op, [*new, g])
        if new:  # what the symbol dominates reads it (a later view of the argument, say)
            sym = new[0]
            rewriter.replace_uses_with_if(start, sym.results[0],
                                          lambda use: _dominates(sym, use))


class LowerBuffer(RewritePattern):
    """An addressed buffer: the logical view at its element address, row-major."""

    def __init__(self, programs: Programs):
        self.programs = programs

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: UnrealizedConversionCastOp, rewriter: PatternRewriter
                          ) -> None:
        program = self.programs.of(op)
        if program is None:
            return
        t = op.results[0].type
        if not isinstance(t, MemRefType) or not isinstance(op.inputs[0].type, IndexType) \
                or not isinstance(t.memory_space, StringAttr):
            raise op_error(op, "unexpected unrealized_conversion_cast")
        shape = list(t.get_shape())
        g = GetLogicalMemoryViewOp(_memory(op, program, t), op.inputs[0], row_major(shape),
                                   MemRefType(t.element_type, shape))
        g.data.name_hint = op.results[0].name_hint
        replace_keeping_names(rewriter, op, [g])


class LowerRuntimeArg(RewritePattern):
    """`ktdp.runtime_arg_extract` in a program: the argument's symbol (cast to an integer
    value type), or the granularity / upper bound its type states."""

    def __init__(self, programs: Programs, ids: _SymbolIds):
        self.programs = programs
        self.symbol_id = ids

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ktdp.RuntimeArgExtractOp, rewriter: PatternRewriter
                          ) -> None:
        program = self.programs.of(op)
        if program is None:
            return
        t = op.arg.type
        assert isinstance(t, ktdp.RuntimeArgType)
        if op.extract_kind != ktdp.ExtractKind.VALUE:
            value = (t.granularity_value if op.extract_kind == ktdp.ExtractKind.GRANULARITY
                     else t.upperbound_value)
            assert value is not None  # the op's verifier: present on the type
            replace_keeping_names(rewriter, op, [arith.ConstantOp(IntegerAttr(value,
                                                                              IndexType()))])
            return
        sid = self.symbol_id(program, op.arg)
        if sid is None:
            raise op_error(op, "reads a runtime_arg that is not an argument of the compute "
                               "group")
        if not isinstance(t.value_type, IndexType | IntegerType):
            raise op_error(op, f"reads a {t.value_type} runtime_arg inside a compute group: "
                               "symbols hold index values")
        s = CreateSymbolOp(sid)
        s.result.name_hint = op.result.name_hint
        new: list[Operation] = [s]
        if isinstance(t.value_type, IntegerType):
            new.append(arith.IndexCastOp(s.result, t.value_type))
        replace_keeping_names(rewriter, op, new)


def patterns(programs: Programs) -> tuple[RewritePattern, ...]:
    ids = _SymbolIds()
    return LowerView(programs, ids), LowerBuffer(programs), LowerRuntimeArg(programs, ids)


LOWERED = (memref.MemorySpaceCastOp, UnrealizedConversionCastOp, ktdp.RuntimeArgExtractOp)
