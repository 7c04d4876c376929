"""`wrap-program-dfir`: give each compute group the two-level form of DataflowIR.

The outer function keeps the group's signature and says what its arguments are (one
`symbol.create_id` per argument, ids from `scheduler.analysis.symbols`), then calls the inner
`<name>_body`, which takes no arguments and holds the prelude and the programs:

    module @local_schedule_0 {
      func.func @local_schedule_0(%A: index, ...) {grid} {
        symbol.create_id %A {symbol_id = -1 : si64} : index
        func.call @local_schedule_0_body() : () -> ()
        func.return
      }
      func.func private @local_schedule_0_body()
      module { func.func @local_schedule_0_body() {grid} { <units, maps, program_units> } }
    }
Calls resolve by name to the one definition in the whole module (the host declares the group
functions the same way).
A function whose body still reads an argument directly stays one-level (dataflow-ir.md §1).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from scheduler.analysis.symbols import symbol_ids
from scheduler.rewriting import apply_patterns
from spyrecode.dialects.dataflow import ProgramUnitOp
from spyrecode.dialects.symbol import CreateIdOp


class WrapProgram(RewritePattern):
    """Split a function holding programs into the outer level (argument symbols, a call)
    and `<name>_body` in a nested module. Not matched: functions without programs, inner
    levels (argument-free and called: `called` holds the names of all called functions, and
    every body this pattern creates), and functions whose programs read an argument
    directly (they stay one-level)."""

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
        if any(a.first_use is not None for a in fn.args):
            return
        ids = [symbol_ids(fn, self.module)[a] for a in fn.args]
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
    its arguments to symbols and an argument-free `<name>_body` (see the module docstring).

    Before:  func.func @g(%A: index) { <units, maps, program_units> }
    After:   func.func @g(%A: index) { symbol.create_id %A {symbol_id = -1 : si64} : index
                                       func.call @g_body() : () -> () }
             func.func private @g_body()
             builtin.module { func.func @g_body() { <units, maps, program_units> } }
    Idempotent: an outer function holds no program units any more.
    """

    name = "wrap-program-dfir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        called = {c.callee.root_reference.data for c in op.walk() if isinstance(c, func.CallOp)}
        apply_patterns(op, [WrapProgram(op, called)])
