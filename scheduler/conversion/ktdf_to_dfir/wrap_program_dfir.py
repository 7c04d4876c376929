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
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass

from scheduler.analysis.symbols import symbol_ids
from spyrecode.dialects.dataflow import ProgramUnitOp
from spyrecode.dialects.symbol import CreateIdOp


def wrap(fn: func.FuncOp, module: ModuleOp, called: set[str]) -> bool:
    """Wrap `fn` unless it holds no programs or is already an inner level (argument-free and
    called by another function: `called` holds the names of all called functions)."""
    if fn.is_declaration or not any(isinstance(o, ProgramUnitOp) for o in fn.body.block.ops):
        return False
    if not fn.args and fn.sym_name.data in called:
        return False
    if any(a.first_use is not None for a in fn.args):
        return False
    ids = symbol_ids(fn, module)
    body_name = f"{fn.sym_name.data}_body"
    inner_block = Block()
    for op in list(fn.body.block.ops):
        op.detach()
        inner_block.add_op(op)
    inner = func.FuncOp(body_name, ([], []), Region(inner_block))
    if "grid" in fn.attributes:
        inner.attributes["grid"] = fn.attributes["grid"]
    inner.location = fn.location
    outer_block = fn.body.block
    for a in fn.args:
        outer_block.add_op(CreateIdOp(a, ids[a]))
    outer_block.add_ops([func.CallOp(body_name, [], []), func.ReturnOp()])
    holder_block = fn.parent_block()
    assert holder_block is not None
    holder_block.insert_op_after(ModuleOp([inner]), fn)
    # the body lives in a nested module (its own symbol table); declare it beside the caller,
    # as the host declares the group functions it calls
    holder_block.insert_op_after(func.FuncOp.external(body_name, [], []), fn)
    return True


class WrapProgramDfirPass(ModulePass):
    """Split each function holding `dataflow.program_unit`s into an outer function that binds
    its arguments to symbols and an argument-free `<name>_body` (see the module docstring).
    Idempotent: an outer function holds no program units any more."""

    name = "wrap-program-dfir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        funcs = [f for f in op.walk() if isinstance(f, func.FuncOp)]
        called = {c.callee.root_reference.data for c in op.walk() if isinstance(c, func.CallOp)}
        for fn in funcs:
            wrap(fn, op, called)
