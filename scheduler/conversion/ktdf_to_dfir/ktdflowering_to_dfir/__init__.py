"""`ktdflowering-to-dfir`: one `dataflow.program_unit` per unit type, in DataflowIR.

One module per lowered op family, as upstream's KTDFLowToDFIR splits it; a new family is a
new module with its `patterns(programs)`, the op types they lower (`LOWERED`) and those whose
bodies its pattern checks itself (`WHOLE`, optional), added to `FAMILIES`:

* programs.py  — the split into a prelude and one program per unit kind (cloned work);
* control.py   — `execute_on` inlined or dropped per kind, the tile id, loop marks;
* signals.py   — `ktdf_lowering.signal` to `dataflow.sync_send` / `sync_recv`;
* transfers.py — `ktdf.data_transfer` and FIFO reads/writes to `agen` + `send`/`receive`;
* indirect.py  — `ktdf.ind_data_transfer` (gathers, scatters) to
  `agen.composite_indirect_load_and_store`;
* compute.py   — the fused `linalg.generic` to `vectorchain`;
* matrix.py    — block products (`linalg.matmul` of a contraction pipeline) to
  `matrixchain.matmul`, arith on whole blocks to `vectorchain`;
* symbols.py   — views and buffers to logical memory views, kernel arguments to symbols;
* buffering.py — buffer phases and selections (double buffering) to a rotating start address.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ktir.diagnostics import op_error
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir import (
    buffering,
    compute,
    control,
    indirect,
    matrix,
    signals,
    symbols,
    transfers,
)
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.programs import (
    BuildPrograms,
    Programs,
)
from scheduler.rewriting import OpClasses, apply_patterns, dead_code
from spyrecode.dialects.dataflow import ProgramUnitOp

FAMILIES = (control, signals, transfers, indirect, compute, matrix, symbols, buffering)
LOWERED: tuple[type[Operation], ...] = tuple(t for f in FAMILIES for t in f.LOWERED)
WHOLE: tuple[type[Operation], ...] = tuple(t for f in FAMILIES for t in getattr(f, "WHOLE", ()))
_is_lowered = OpClasses(*LOWERED)


def _check_lowered(program: ProgramUnitOp) -> None:
    """An op a family lowers that is still there could not be (a compute op whose inputs
    never became vectors, say)."""
    for op in program.walk():
        if _is_lowered(op):
            raise op_error(op, f"'{op.name}' has no DataflowIR lowering")


class KtdfloweringToDfirPass(ModulePass):
    """Lower each compute group to one `dataflow.program_unit` per unit type.

    Before:  ktdf_lowering.execute_on %mnilu { ktdf.data_transfer from %A[...] to %buf[0, 0] ... }
    After:   dataflow.program_unit iter_arg : %u -> (%mnilu_0, ..., %mnilu_31) : {
               %tile = uniform.query_map(map:%tile_of_mnilu, key:%u) : index
               ... agen.composite_load_and_store src:%A[...] dst:%buf[0, 0] ... { agen.yield } }
    The prelude (`get_unit`, index constants, tables) stays on top; in a program of kind K
    the work bound to K is lowered and the rest dropped (the family modules above), then
    what no program reads is removed as dead code, by effects. Idempotent: a function
    without `execute_on` outside programs is left alone.
    """

    name = "ktdflowering-to-dfir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        programs = Programs()
        # each group function is split once; the programs are then lowered one by one (the
        # patterns only look inside them, not at the prelude's hundreds of units)
        apply_patterns(op, [BuildPrograms(programs, LOWERED, WHOLE)])
        lowering = [p for family in FAMILIES for p in family.patterns(programs)]
        for program in programs.built:
            # what an op waits for (its FIFO reads, its views) comes before it in the walk;
            # whatever is left over is reported below
            apply_patterns(program.body, lowering)
            _check_lowered(program)
            dead_code(program.body)
