"""`compute-group-extraction`: cut each kernel into compute groups, one function each.

A compute group is a set of `ktdp.store`s whose data depends on overlapping loads, together
with everything they need (the backward slice: loads, compute, views, tiles, index math); the
plain copies of one shape in a segment that are the same on every tile share nothing but
form one group, so that their transfers overlap in one launch (share-invariant-loads' copies). Groups
never span an op with regions: a region op ends the running segment, and stores inside it form
groups of their own whose calls stay inside that region op (the loop then runs on the host).

    func.func @k(%A: index, ...) attributes {grid = [32]} { ...loads, compute, store... }
becomes
    module { func.func @k(%A: index, ...) {grid} { call @local_schedule_0(%A, ...) }
             func.func private @local_schedule_0(index, ...) }
    module @local_schedule_0 { func.func @local_schedule_0(%A: index, ...) {grid} { ... } }
Values from outside the slice that are block arguments (kernel arguments, loop indices) become
parameters; everything else the slice needs is cloned. The device declaration stays on top.
Runtime arguments become their values first (wrap_program_dfir.RuntimeArgsToValues): the host
computes with them (loop bounds) and passes them to the groups like any index argument.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from scheduler.analysis.slices import backward_slice, per_tile
from scheduler.conversion.ktdf_to_dfir.wrap_program_dfir import RuntimeArgsToValues
from scheduler.rewriting import apply_patterns, dead_code

GROUP_PREFIX = "local_schedule_"


def _loads_of(ops: set[Operation]) -> set[Operation]:
    return {op for op in ops if isinstance(op, ktdp.LoadOp)}


def _segments(block: Block) -> list[list[ktdp.StoreOp]]:
    """Stores of a block, split at ops with regions (which are handled recursively)."""
    segments: list[list[ktdp.StoreOp]] = [[]]
    for op in block.ops:
        if op.regions and not _is_compute_with_body(op):
            segments.append([])
        elif isinstance(op, ktdp.StoreOp):
            segments[-1].append(op)
    return [s for s in segments if s]


def _is_compute_with_body(op: Operation) -> bool:
    """Ops whose regions are bodies of a computation, not control flow (linalg, ktdp)."""
    return op.dialect_name() in ("linalg", "ktdp", "tensor")


def _plain_copy(store: ktdp.StoreOp, ops: set[Operation]) -> bool:
    """A store of a loaded tensor, as loaded, the same on every tile (share-invariant-loads'
    copies into scratchpad slots): merged, the group stays tile-invariant."""
    return isinstance(store.data.owner, ktdp.LoadOp) and not any(per_tile(op) for op in ops)


def _classes(stores: list[ktdp.StoreOp]) -> list[list[ktdp.StoreOp]]:
    """Union stores that share a load (directly or through another store)."""
    slices = {s: backward_slice([s]) for s in stores}
    parent = list(range(len(stores)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(stores):
        for j in range(i):
            if _loads_of(slices[a]) & _loads_of(slices[stores[j]]):
                parent[find(i)] = find(j)
    # independent copies of one shape share a launch (their transfers overlap); a group
    # has one iteration space, so copies of other shapes (the pieces of a distributed
    # view, split-distributed-views) stay groups of their own
    first_copy: dict[object, int] = {}
    for i, s in enumerate(stores):
        if _plain_copy(s, slices[s]):
            key = s.data.type
            parent[find(i)] = find(first_copy.setdefault(key, i))
    groups: dict[int, list[ktdp.StoreOp]] = {}
    for i, s in enumerate(stores):
        groups.setdefault(find(i), []).append(s)
    return list(groups.values())


def _all_groups(fn: func.FuncOp) -> list[list[ktdp.StoreOp]]:
    out: list[list[ktdp.StoreOp]] = []

    def visit(block: Block) -> None:
        for seg in _segments(block):
            out.extend(_classes(seg))
        for op in block.ops:
            if op.regions and not _is_compute_with_body(op):
                for region in op.regions:
                    for b in region.blocks:
                        visit(b)

    visit(fn.body.block)
    return out


def _in_walk_order(fn: func.FuncOp, ops: set[Operation]) -> list[Operation]:
    return [op for op in fn.body.walk() if op in ops]


def _external(v: BlockArgument, inside: set[Operation]) -> bool:
    parent = v.block.parent_op()
    while parent is not None:
        if parent in inside:
            return False
        parent = parent.parent_op()
    return True


def _params(ordered: list[Operation], fn: func.FuncOp) -> list[SSAValue]:
    """Block arguments the slice reads from outside: kernel args first, then loop indices."""
    inside = set(ordered)
    found: list[SSAValue] = []
    for op in ordered:
        for inner in op.walk():
            for v in inner.operands:
                if isinstance(v, BlockArgument) and v not in found and _external(v, inside):
                    found.append(v)
    kernel_args = [a for a in fn.args if a in found]
    return kernel_args + [v for v in found if v not in kernel_args]


def extract_group(fn: func.FuncOp, stores: list[ktdp.StoreOp], name: str) -> func.FuncOp:
    """Build the group function and replace the group's stores by a call in `fn`."""
    ordered = _in_walk_order(fn, backward_slice(stores))
    params = _params(ordered, fn)
    block = Block(arg_types=[p.type for p in params])
    mapper: dict[SSAValue, SSAValue] = dict(zip(params, block.args))
    for p, a in zip(params, block.args):
        a.name_hint = p.name_hint
    for op in ordered:
        block.add_op(op.clone(mapper))
    block.add_op(func.ReturnOp())
    group = func.FuncOp(name, ([p.type for p in params], []), Region(block))
    if "grid" in fn.attributes:
        group.attributes["grid"] = fn.attributes["grid"]
    group.location = stores[0].location

    call = func.CallOp(name, params, [])
    call.location = stores[-1].location
    Rewriter.insert_op(call, InsertPoint.after(stores[-1]))
    for st in stores:  # moved into the group; what only they used is dead code now
        Rewriter.erase_op(st)
    return group


def _is_kernel(fn: func.FuncOp) -> bool:
    """A function with a grid or with ktdp ops (a kernel without stores computes nothing:
    it becomes a host function without groups)."""
    return "grid" in fn.attributes or any(o.dialect_name() == "ktdp" for o in fn.walk())


def _check_host(fn: func.FuncOp) -> None:
    """What stays on the host runs once, not per tile, and on no unit: no ktdp op may stay
    there (a value that reaches no store but steers control flow, say)."""
    for o in fn.walk():
        if o.dialect_name() == "ktdp":
            raise op_error(o, "is needed outside every compute group (its value reaches no "
                              "ktdp.store, but the host code that runs the groups uses it): "
                              "not supported by the scheduler yet")


class ComputeGroupExtractionPass(ModulePass):
    """Move each compute group of each kernel into `module @local_schedule_N` and call it.

    Before:  func.func @add(%A, %B, %C) {grid = [32]} { views, tiles, loads, linalg.add, store }
    After:   module { func.func @add(%A, %B, %C) {grid} { call @local_schedule_0(%A, %B, %C) }
                      func.func private @local_schedule_0(index, index, index) }
             module @local_schedule_0 { func.func @local_schedule_0(%A, %B, %C) {grid} {...} }
    A kernel without stores keeps no code (everything it computes is dead) and no groups.
    Idempotent: once the kernels are in the host module, the pass finds none at top level.

    A module pass, not patterns: it lays out the module anew — every kernel moves into the
    one host module, followed by one module per group, groups numbered across all kernels —
    and a block's stores are grouped all at once (stores that share a load go together).
    """

    name = "compute-group-extraction"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # the host computes with runtime arguments (a loop bound M/32) and passes them to
        # the groups: their values, from here on
        apply_patterns(op, [RuntimeArgsToValues()])
        kernels = [f for f in op.body.block.ops
                   if isinstance(f, func.FuncOp) and not f.is_declaration and _is_kernel(f)]
        if not kernels:
            return
        taken = {o.sym_name.data for o in op.walk() if isinstance(o, func.FuncOp)}
        counter = 0
        groups: list[func.FuncOp] = []
        for fn in kernels:
            for stores in _all_groups(fn):
                while f"{GROUP_PREFIX}{counter}" in taken:
                    counter += 1
                name = f"{GROUP_PREFIX}{counter}"
                taken.add(name)
                groups.append(extract_group(fn, stores, name))
            # what the kernel computes but never stores (dead values left after the groups
            # moved out) goes, by effects: the host keeps calls, control flow and their inputs
            dead_code(fn.body)
            _check_host(fn)
        host = ModuleOp([])
        for fn in kernels:
            fn.detach()
            host.body.block.add_op(fn)
        for g in groups:
            decl = func.FuncOp.external(g.sym_name.data, list(g.function_type.inputs.data), [])
            host.body.block.add_op(decl)
        op.body.block.add_op(host)
        for g in groups:
            holder = ModuleOp([g])
            holder.properties["sym_name"] = StringAttr(g.sym_name.data)
            op.body.block.add_op(holder)
