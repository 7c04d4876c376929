"""`emit-split-dfir`: write compiled DataflowIR as files, one per program function.

`global.mlir` holds the device declaration and the host module (the kernel functions and the
declarations of the group functions they call); each compute group's module
(`module @local_schedule_N`, outer and `_body` functions) goes to `local_schedule_N.mlir`.
Works for any number of compute groups and for both the one-level and the two-level form.
The module itself is not changed. The split is SpyreCode's (`spyrecode.artifact.programs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ktir.diagnostics import KtirDiagnostic
from spyrecode.artifact.programs import split_files


def write_split(module: ModuleOp, output_dir: str | Path) -> list[Path]:
    out = Path(output_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for name, text in split_files(module).items():
            (out / name).write_text(text)
            written.append(out / name)
    except OSError as e:
        raise KtirDiagnostic(f"error: cannot write to '{out}': {e.strerror}") from None
    return written


@dataclass(frozen=True)
class EmitSplitDfirPass(ModulePass):
    """Write `global.mlir` and one `<group>.mlir` per compute group into `output_dir`.

    A module pass, not a pattern: it rewrites nothing, it prints the whole module as files
    (`module @local_schedule_0 {...}` -> local_schedule_0.mlir, the rest -> global.mlir).
    """

    name = "emit-split-dfir"
    output_dir: str = "."

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        write_split(op, self.output_dir)
