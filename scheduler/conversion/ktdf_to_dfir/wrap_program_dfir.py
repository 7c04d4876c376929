"""`wrap-program-dfir`: give each compute group the two-level form of DataflowIR.

The outer function keeps the group's signature and says what its arguments are (one
`symbol.create_id` per argument, ids from `scheduler.analysis.symbols`), then calls the inner
`<name>_body`, which takes no arguments and holds the prelude and the programs:

    module @local_schedule_0 {
      func.func @local_schedule_0(%A: index, %i: index) {grid} {
        symbol.create_id %A {symbol_id = -1 : si64} : index
        symbol.create_id %i {symbol_id = -4 : si64} : index
        func.call @local_schedule_0_body() : () -> ()
        func.return
      }
      func.func private @local_schedule_0_body()
      module { func.func @local_schedule_0_body() {grid} { <units, maps, program_units> } }
    }
Every argument the body still reads directly (a loop index of the host, a scalar kernel
argument in a subscript) is read inside the body as its symbol: one `symbol.create_symbol`
at the top of each program that reads it (and of the prelude, if it does), cast to the
argument's integer type where that is not `index` (symbols hold index values). A float
argument has no symbol: reading one is a located error (the legality check refuses it
first). Calls resolve by name to the one definition in the whole module (the host declares
the group functions the same way).

Kernel arguments typed `!ktdp.runtime_arg<T>` become plain `T` values everywhere (the
runtime passes their value; granularity and upper bound are compile-time facts, kept as the
argument attribute `{ktdp.runtime_arg = !ktdp.runtime_arg<index, granularity=32,
upperbound=300>}`): every `ktdp.runtime_arg_extract` becomes the value, or the constant it
extracts.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.diagnostics import op_error
from ktir.dialects.ktdp import ExtractKind, RuntimeArgExtractOp, RuntimeArgType
from ktir.dialects.ktdp_types import RUNTIME_ARG_ATTR
from scheduler.analysis.symbols import symbol_ids
from scheduler.rewriting import apply_patterns
from spyrecode.dialects.dataflow import ProgramUnitOp
from spyrecode.dialects.symbol import CreateIdOp, CreateSymbolOp


def _value_type(t):
    return t.value_type if isinstance(t, RuntimeArgType) else t


class RuntimeArgsToValues(RewritePattern):
    """A function taking `!ktdp.runtime_arg<T>` arguments (or declaring them) takes `T`;
    the extracts in its body become the argument itself (`value`) or the constant of its
    type (`granularity`, `upperbound`). The argument keeps its former type as the argument
    attribute `ktdp.runtime_arg`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, fn: func.FuncOp, rewriter: PatternRewriter) -> None:
        inputs = list(fn.function_type.inputs.data)
        if not any(isinstance(t, RuntimeArgType) for t in inputs):
            return
        for op in [o for o in fn.walk() if isinstance(o, RuntimeArgExtractOp)]:
            t = op.arg.type
            assert isinstance(t, RuntimeArgType)
            if op.extract_kind == ExtractKind.VALUE:
                rewriter.replace_all_uses_with(op.result, op.arg)
                rewriter.erase(op)
                continue
            value = (t.granularity_value if op.extract_kind == ExtractKind.GRANULARITY
                     else t.upperbound_value)
            assert value is not None  # the op's verifier: present on the type
            c = arith.ConstantOp(IntegerAttr(value, IndexType()))
            rewriter.replace(op, c)
        if not fn.is_declaration:
            for a in fn.args:
                if isinstance(a.type, RuntimeArgType):
                    rewriter.replace_value_with_new_type(a, a.type.value_type)
        fn.function_type = FunctionType.from_lists([_value_type(t) for t in inputs],
                                                   list(fn.function_type.outputs.data))
        fn.arg_attrs = _runtime_arg_attrs(fn, inputs)
        rewriter.notify_op_modified(fn)


def _runtime_arg_attrs(fn: func.FuncOp, inputs: list) -> ArrayAttr[DictionaryAttr]:
    """The argument attributes with `ktdp.runtime_arg = <its former type>` on each runtime
    argument: its granularity and upper bound stay known to whoever launches the kernel."""
    old = list(fn.arg_attrs.data) if fn.arg_attrs is not None else \
        [DictionaryAttr({})] * len(inputs)
    return ArrayAttr([DictionaryAttr({**d.data, RUNTIME_ARG_ATTR: t})
                      if isinstance(t, RuntimeArgType) else d for d, t in zip(old, inputs)])


def _reader(op: Operation) -> Operation:
    """Where a read of an argument by `op` is bound: its program, or the function body."""
    cur: Operation | None = op
    while cur is not None and not isinstance(cur, ProgramUnitOp):
        parent = cur.parent_op()
        if isinstance(parent, func.FuncOp):
            return parent
        cur = parent
    assert cur is not None
    return cur


def _bind_reads(args: list[tuple[BlockArgument, int]], rewriter: PatternRewriter) -> None:
    """Replace every read of the arguments by their symbols, read once per program (or in
    the prelude), in argument order."""
    by_reader: dict[Operation, list[tuple[BlockArgument, int, list]]] = {}
    for arg, sid in args:
        t = arg.type
        if not arg.uses:
            continue
        if not isinstance(t, IndexType | IntegerType):
            user = next(iter(arg.uses)).operation
            raise op_error(user, f"reads the {t} kernel argument %{arg.name_hint or arg.index} "
                                 "inside a compute group: symbols hold index values, so a "
                                 "float argument must be bound at compile time "
                                 "(--arg NAME=VALUE)")
        uses: dict[Operation, list] = {}
        for use in list(arg.uses):
            uses.setdefault(_reader(use.operation), []).append(use)
        for reader, found in uses.items():
            by_reader.setdefault(reader, []).append((arg, sid, found))
    for reader, reads in by_reader.items():
        block = reader.body.block  # type: ignore[attr-defined]
        new: list[Operation] = []
        for arg, sid, found in reads:
            sym = CreateSymbolOp(sid)
            sym.result.name_hint = arg.name_hint
            new.append(sym)
            value: SSAValue = sym.result
            if isinstance(arg.type, IntegerType):
                cast = arith.IndexCastOp(sym.result, arg.type)
                new.append(cast)
                value = cast.result
            for use in found:
                use.operation.operands[use.index] = value
                rewriter.notify_op_modified(use.operation)
        at = InsertPoint.at_start(block)
        if isinstance(reader, ProgramUnitOp) and block.first_op is not None:
            at = InsertPoint.after(block.first_op)  # after the program's tile query
        rewriter.insert(new, at)


class WrapProgram(RewritePattern):
    """Split a function holding programs into the outer level (argument symbols, a call)
    and `<name>_body` in a nested module. Not matched: functions without programs and inner
    levels (argument-free and called: `called` holds the names of all called functions, and
    every body this pattern creates)."""

    def __init__(self, module: ModuleOp, called: set[str]):
        self.module = module
        self.called = called

    @op_type_rewrite_pattern
    def match_and_rewrite(self, fn: func.FuncOp, rewriter: PatternRewriter) -> None:
        if fn.is_declaration or not any(isinstance(o, ProgramUnitOp)
                                        for o in fn.body.block.ops):
            return
        if not fn.args and fn.sym_name.data in self.called:
            return
        sids = symbol_ids(fn, self.module)
        ids = [sids[a] for a in fn.args]
        _bind_reads(list(zip(fn.args, ids)), rewriter)
        body_name = f"{fn.sym_name.data}_body"
        self.called.add(body_name)
        old = fn.body.block
        inner = func.FuncOp(body_name, ([], []), rewriter.move_region_contents_to_new_regions(
            fn.body))
        outer = Block(arg_types=[a.type for a in old.args])
        for a, b in zip(old.args, outer.args):
            b.name_hint = a.name_hint
        for a in reversed(old.args):
            rewriter.erase_block_argument(a)
        outer.add_ops([*(CreateIdOp(a, i) for a, i in zip(outer.args, ids)),
                       func.CallOp(body_name, [], []), func.ReturnOp()])
        fn.body.add_block(outer)
        if "grid" in fn.attributes:
            inner.attributes["grid"] = fn.attributes["grid"]
        inner.location = fn.location
        # the body lives in a nested module (its own symbol table); declare it beside the
        # caller, as the host declares the group functions it calls
        rewriter.insert([func.FuncOp.external(body_name, [], []), ModuleOp([inner])],
                        InsertPoint.after(fn))
        rewriter.notify_op_modified(fn)


class WrapProgramDfirPass(ModulePass):
    """Split each function holding `dataflow.program_unit`s into an outer function that binds
    its arguments to symbols and an argument-free `<name>_body` reading them as symbols (see
    the module docstring); runtime arguments become their values first.

    Before:  func.func @g(%A: index, %i: index) { <units, maps, program_units reading %i> }
    After:   func.func @g(%A: index, %i: index) {
               symbol.create_id %A {symbol_id = -1 : si64} : index
               symbol.create_id %i {symbol_id = -2 : si64} : index
               func.call @g_body() : () -> () }
             func.func private @g_body()
             builtin.module { func.func @g_body() { ... program_unit { %i = symbol.create_symbol
                                                    {SymbolId = -2 : i64} : index ... } } }
    Idempotent: an outer function holds no program units any more, and no runtime_arg is
    left.
    """

    name = "wrap-program-dfir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [RuntimeArgsToValues()])
        called = {c.callee.root_reference.data for c in op.walk() if isinstance(c, func.CallOp)}
        apply_patterns(op, [WrapProgram(op, called)])
