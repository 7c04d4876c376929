"""`sink-host-loops`: a host loop that only calls one compute group moves into the group.

Loops run on the host (compute-group-extraction keeps them there): a row softmax strided by
the tile id calls its group once per row, `scf.for %k { func.call @local_schedule_0(.., %k) }`,
and each call is one pipeline instance that loads a row, makes its passes over it and stores
it, with nothing to overlap with. Inside the group the loop is an ordinary parallel loop
around the group's code: the pipeline runs once per row in one call, and the DMA of the
next row starts as soon as the load unit has streamed this row's buffer, overlapping the
passes over it and its store (ktdf-to-ktdflowering's handshakes between the instances of a
pipeline in a loop). The reduction pipelines of reduction_pipeline.py already move a whole
row per DMA with the passes streaming its vectors from the scratchpad: this is what they
were missing (softmax on spyre, 64 rows: 3,340 -> 2,581 cycles, bound 2,048).
`double-buffering` still leaves reduction pipelines alone: with two copies of the row
buffers the softmax ran slower (3,022 cycles).

    func.func @softmax(%X, %Y) { scf.for %k = 0 to 2 step 1 { func.call @g(%X, %Y, %k) } }
    func.func @g(%X, %Y, %k) { %i = t + %k * 32 ... ktdf.pipeline ... }
becomes
    func.func @softmax(%X, %Y) { func.call @g(%X, %Y) }
    func.func @g(%X, %Y) { scf.for %k = 0 to 2 step 1 { %i = t + %k * 32 ... ktdf.pipeline ... }
                          {loop_type = parallel_loop} }

Applies when the loop has constant bounds, no loop-carried values, and its body is one call
of a group (nothing else), called nowhere else, which receives the loop index and no other
value defined in the loop; and when the iterations are independent: the group writes no
global view that it (or another tile) also reads — every DMA into global memory goes to a
view of a function argument that no DMA reads from (a view at a constant address, a slot
another group filled, counts as its memory: read and written, the iterations depend). (Calls run one after the other on every
tile; inside the group each tile runs its iterations on its own, so an iteration must not
read what another one wrote.) Otherwise the loop stays on the host.

A module pass, not patterns: it rewrites the host function and a group's module together.
Idempotent: a sunk loop's body holds the group's code, not a call.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from scheduler.dialects.ktdf import (
    DataTransferOp,
    IndDataTransferOp,
    LoopType,
    LoopTypeAttr,
    PrivateOp,
)
from scheduler.dialects.ktdf_types import const_int


def _root_arg(v: SSAValue, fn: func.FuncOp) -> int | None:
    """The index of the function argument a view is built from (through casts and view
    constructions: their first operand), or None."""
    seen = 0
    while seen < 32:
        seen += 1
        if v in fn.body.block.args:
            return fn.body.block.args.index(v)  # type: ignore[arg-type]
        owner = v.owner
        if not isinstance(owner, Operation) or not owner.operands:
            return None
        v = owner.operands[0]
    return None


def _independent(g: func.FuncOp) -> bool:
    """No global view written by a DMA of the group is also read by one (see the module
    docstring); a DMA whose global side is not traced to an argument refuses."""
    read: set[int] = set()
    written: set[int] = set()
    for t in g.walk():
        if not isinstance(t, DataTransferOp | IndDataTransferOp):
            continue
        sides = [(t.source, read), (t.destination, written)]
        if isinstance(t, IndDataTransferOp):  # a gather also reads its index buffers
            sides += [(b, read) for b in t.index_buffers]
        for side, into in sides:
            ty = side.type
            if not isinstance(ty, MemRefType) or not isinstance(ty.memory_space, StringAttr):
                continue
            if isinstance(side.owner, PrivateOp):
                continue  # a scratchpad buffer of the pipeline
            a = _root_arg(side, g)
            if a is None:
                if _root_address(side) is None:
                    return False
                a = ty.memory_space.data  # a view at a constant address of this memory
            into.add(a)
    return not (read & written)


def _root_address(v: SSAValue) -> int | None:
    """The constant a view is built from (a scratchpad slot's element address), or None."""
    for _ in range(32):
        owner = v.owner
        if not isinstance(owner, Operation):
            return None
        if not owner.operands:
            return const_int(v)
        v = owner.operands[0]
    return None


def _groups(op: ModuleOp) -> dict[str, func.FuncOp]:
    out: dict[str, func.FuncOp] = {}
    for m in op.body.block.ops:
        if isinstance(m, ModuleOp) and "sym_name" in m.properties:
            for f in m.body.block.ops:
                if isinstance(f, func.FuncOp) and not f.is_declaration:
                    out[f.sym_name.data] = f
    return out


def _sink(loop: scf.ForOp, call: func.CallOp, g: func.FuncOp) -> None:
    iv = loop.body.block.args[0]
    k = next(i for i, a in enumerate(call.arguments) if a is iv)
    # the group: its body (without the return) moves into a loop over the same bounds
    block = g.body.block
    ret = block.last_op
    assert isinstance(ret, func.ReturnOp)
    consts = [arith.ConstantOp.from_int_and_width(const_int(v), v.type)  # type: ignore
              for v in (loop.lb, loop.ub, loop.step)]
    body = Block(arg_types=[iv.type])
    for o in list(block.ops):
        if o is ret:
            continue
        o.detach()
        body.add_op(o)
    body.add_op(scf.YieldOp())
    old = block.args[k]
    old.replace_all_uses_with(body.args[0])
    body.args[0].name_hint = old.name_hint or iv.name_hint
    new = scf.ForOp(consts[0].result, consts[1].result, consts[2].result, [], Region(body))
    new.attributes["loop_type"] = LoopTypeAttr(LoopType.PARALLEL_LOOP)
    for c in consts:
        block.insert_op_before(c, ret)
    block.insert_op_before(new, ret)
    block.erase_arg(old)
    inputs = list(g.function_type.inputs.data)
    del inputs[k]
    g.function_type = func.FunctionType.from_lists(inputs, [])
    # the host: the call, without the index, in the loop's place; the declaration too
    host_fn = loop.parent_op()
    while host_fn is not None and not isinstance(host_fn, func.FuncOp):
        host_fn = host_fn.parent_op()
    host_mod = host_fn.parent_op() if host_fn is not None else None
    args = [a for i, a in enumerate(call.arguments) if i != k]
    newcall = func.CallOp(call.callee, args, [])
    Rewriter.insert_op(newcall, _before(loop))
    bounds = [v.owner for v in (loop.lb, loop.ub, loop.step)]
    Rewriter.erase_op(loop)
    for b in dict.fromkeys(bounds):  # the host's bound constants, now unused
        if isinstance(b, arith.ConstantOp) and not b.result.uses:
            Rewriter.erase_op(b)
    if isinstance(host_mod, ModuleOp):
        for d in host_mod.body.block.ops:
            if isinstance(d, func.FuncOp) and d.is_declaration \
                    and d.sym_name.data == g.sym_name.data:
                d.function_type = func.FunctionType.from_lists(inputs, [])


def _before(op: Operation):
    from xdsl.rewriter import InsertPoint

    return InsertPoint.before(op)


class SinkHostLoopsPass(ModulePass):
    """Move a host `scf.for` whose body is one group call into that group (see module doc)."""

    name = "sink-host-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # a loop nest sinks from the inside out: the sunk loop's call is the body of the next
        while self._sink_one_level(op):
            pass

    @staticmethod
    def _sink_one_level(op: ModuleOp) -> bool:
        changed = False
        groups = _groups(op)
        calls: dict[str, list[func.CallOp]] = {}
        for c in op.walk():
            if isinstance(c, func.CallOp):
                calls.setdefault(c.callee.root_reference.data, []).append(c)
        for name, cs in calls.items():
            g = groups.get(name)
            if g is None or len(cs) != 1:
                continue
            call = cs[0]
            loop = call.parent_op()
            if not isinstance(loop, scf.ForOp) or loop.iter_args:
                continue
            body = [o for o in loop.body.block.ops if not isinstance(o, scf.YieldOp)]
            bounds = [const_int(v) for v in (loop.lb, loop.ub, loop.step)]
            if body != [call] or any(b is None for b in bounds) or bounds[2] <= 0:  # type: ignore
                continue
            iv = loop.body.block.args[0]
            if [a for a in call.arguments if a is iv] != [iv] or any(
                    isinstance(a.owner, Operation) and a.owner.parent_op() is loop
                    for a in call.arguments):
                continue
            if not _independent(g):
                continue
            _sink(loop, call, g)
            changed = True
        return changed
