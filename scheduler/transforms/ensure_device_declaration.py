"""`ensure-device-declaration`: declare the target device in a module that has none.

The emitting driver's pass 0 (pipeline.md §2): with `device=spyre` (a shipped device) or
`device=path/to/dev.mlir`, a module without a `ktdf_arch.device` gets
    ktdf_arch.device @spyre import("spyre.mlir")
at its top: a shipped device by its file name (so the output stays portable), any other file by
its absolute path. Devices are found by name in the shipped folder or by path, never through
`../` fixture paths. A module that already declares a device is left alone (idempotent).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Region
from xdsl.passes import ModulePass

from ktir.diagnostics import KtirDiagnostic


@dataclass(frozen=True)
class EnsureDeviceDeclarationPass(ModulePass):
    """Insert `ktdf_arch.device @<name> import("<file>")` when the module declares no device.

    `device` is a shipped device name or a device file; `device_name` picks one device of a
    file that holds several (default: the file's only device).

    Before:  builtin.module { func.func @add(...) {...} }
    After:   builtin.module { ktdf_arch.device @spyre import("spyre.mlir")  func.func @add ... }
    A module pass, not a pattern: whether to insert depends on what the module as a whole
    declares, and there is no op to match — the new op goes at the top of the module.
    """

    name = "ensure-device-declaration"
    device: str | None = None
    device_name: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from arch_descriptions.dialects.ktdf_arch import DeviceOp
        from arch_descriptions.model import device_from_module, load_device
        from arch_descriptions.model.load import DEVICES_DIR, device_path

        if device_from_module(op) is not None:
            return
        if self.device is None:
            raise KtirDiagnostic("error: the module declares no device; give one with "
                                 "ensure-device-declaration{device=NAME|FILE}")
        path = device_path(self.device)
        model = load_device(path, self.device_name)
        shown = path.name if path.parent == DEVICES_DIR else str(path)
        decl = DeviceOp.create(properties={"sym_name": StringAttr(model.name),
                                           "import_path": StringAttr(shown)},
                               regions=[Region()])
        block = op.body.block
        if block.first_op is None:
            block.add_op(decl)
        else:
            block.insert_op_before(decl, block.first_op)
