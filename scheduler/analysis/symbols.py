"""Which run-time symbol each argument of a compute-group function is.

Kernel argument p is symbol -(p+1) whichever group function receives it (found through the
host's call of the group); other arguments (host loop indices, derived values) get fresh ids
below the kernel's. `ktdflowering-to-dfir` reads symbols with these ids and
`wrap-program-dfir` binds them, so both ask here.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument


def _host_calls(module: ModuleOp):
    """The calls outside the compute groups' own modules (`module @local_schedule_N`): the
    host's. Walking only those keeps lowering linear in the number of groups."""
    for top in module.body.block.ops:
        if isinstance(top, ModuleOp) and top.sym_name is not None:
            continue
        for op in top.walk():
            if isinstance(op, func.CallOp):
                yield op


def symbol_ids(fn: func.FuncOp, module: ModuleOp) -> dict[BlockArgument, int]:
    kernel_pos: dict[int, int] = {}
    n_kernel = 0
    for call in _host_calls(module):
        if not (isinstance(call, func.CallOp)
                and call.callee.root_reference.data == fn.sym_name.data):
            continue
        caller = call.parent_op()
        while caller is not None and not isinstance(caller, func.FuncOp):
            caller = caller.parent_op()
        if caller is None:
            continue
        n_kernel = max(n_kernel, len(caller.args))
        for i, v in enumerate(call.arguments):
            if isinstance(v, BlockArgument) and v.block is caller.body.block:
                kernel_pos[i] = v.index
    out: dict[BlockArgument, int] = {}
    fresh = -(n_kernel + 1)
    for i, a in enumerate(fn.args):
        if i in kernel_pos:
            out[a] = -(kernel_pos[i] + 1)
        else:
            out[a] = fresh
            fresh -= 1
    return out
