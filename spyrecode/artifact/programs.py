"""The symbolic binary: DataflowIR split into files and joined back.

`global.mlir` holds the device declaration and the host module (the kernel functions and the
declarations of the group functions they call); each compute group's module (`module
@local_schedule_N`, outer and `_body` functions) is a file of its own. Joining parses every
file (located diagnostics name it), moves the group modules back after the host's ops and
verifies the whole.
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from ktir.diagnostics import verify_located


def split_files(module: ModuleOp) -> dict[str, str]:
    """File name -> text of the split output (`global.mlir` first)."""
    global_ops: list[Operation] = []
    files: dict[str, str] = {}
    for op in module.body.block.ops:
        if isinstance(op, ModuleOp) and op.sym_name is not None:
            files[f"{op.sym_name.data}.mlir"] = f"{ModuleOp([op.clone()])!s}\n"
        else:
            global_ops.append(op.clone())
    return {"global.mlir": f"{ModuleOp(global_ops)!s}\n", **files}


def join_files(texts: Mapping[str, str], shown: Mapping[str, str] | None = None) -> ModuleOp:
    """The module of split files (`global.mlir` and the group files, by name); `shown` says
    how diagnostics name each file. Raises a located `KtirDiagnostic`."""
    from ktir.context import make_context, parse_module

    ctx = make_context()
    shown = shown or {}
    whole = parse_module(texts["global.mlir"], shown.get("global.mlir", "global.mlir"), ctx,
                         verify=False)
    for name, text in texts.items():
        if name == "global.mlir":
            continue
        part = parse_module(text, shown.get(name, name), ctx, verify=False)
        for op in list(part.body.block.ops):
            op.detach()
            whole.body.block.add_op(op)
    verify_located(whole, ctx)
    return whole
