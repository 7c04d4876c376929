"""Control: what runs where, in a program of unit kind K.

An `execute_on` bound to K (or to several kinds: the outer one of a pipeline) is inlined; one
bound to another kind is not even cloned into the program (programs.py), and dropped with its
body if found there. The tile id is the executing unit's tile; loops and conditionals stay,
without their ScheduleIR marks (`loop_type`).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.dialects import ktdp
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.programs import Programs
from scheduler.dialects.ktdf_lowering import ExecuteOnOp


class _InPrograms(RewritePattern):
    def __init__(self, programs: Programs):
        self.programs = programs


class InlineExecuteOn(_InPrograms):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ExecuteOnOp, rewriter: PatternRewriter) -> None:
        program = self.programs.of(op)
        if program is None:
            return
        units = op.applicable_units
        if len(units) != 1 or units[0] == program.kind:
            rewriter.inline_block(op.body.block, InsertPoint.before(op))
        rewriter.erase(op)


class UseProgramTile(_InPrograms):
    """`ktdp.get_compute_tile_id` in a program: the tile the program's unit serves."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ktdp.GetComputeTileIdOp, rewriter: PatternRewriter) -> None:
        program = self.programs.of(op)
        if program is None or len(op.ids) != 1:
            return
        rewriter.replace_all_uses_with(op.ids[0], program.tile)
        rewriter.erase(op)


class StripLoopType(_InPrograms):
    """DataflowIR carries no ScheduleIR attribute: a cloned loop loses `#ktdf.loop_type` (and
    double-buffering's `ktdf.stream_copies`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp | scf.IfOp, rewriter: PatternRewriter) -> None:
        marks = [k for k in ("loop_type", "ktdf.stream_copies") if k in op.attributes]
        if marks and self.programs.of(op) is not None:
            for k in marks:
                del op.attributes[k]
            rewriter.notify_op_modified(op)


def patterns(programs: Programs) -> tuple[RewritePattern, ...]:
    return InlineExecuteOn(programs), UseProgramTile(programs), StripLoopType(programs)


LOWERED = (ExecuteOnOp, ktdp.GetComputeTileIdOp)
