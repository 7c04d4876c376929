"""Double buffering: `ktdf.buffer_phase` and `ktdf.select_memref` in a program.

A phase is the linearised iteration count of its loops (their bounds are constants in
DataflowIR: the prelude's) modulo its number of phases, in `arith`. A selection among
buffers becomes one logical memory view with a rotating start address: the candidates'
views (symbols.py lowered the addressed buffers) share their memory and layout, and the
start address is the candidate's picked by `arith.select` on the phase.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir.diagnostics import op_error
from scheduler.analysis.index_exprs import index_constant, linear_iteration
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.programs import Programs
from scheduler.dialects.ktdf import BufferPhaseOp, SelectMemrefOp
from scheduler.rewriting import replace_keeping_names
from spyrecode.dialects.dataflow import GetLogicalMemoryViewOp


class _InPrograms(RewritePattern):
    def __init__(self, programs: Programs):
        self.programs = programs


class LowerBufferPhase(_InPrograms):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BufferPhaseOp, rewriter: PatternRewriter) -> None:
        if self.programs.of(op) is None:
            return
        loops: list[scf.ForOp] = []
        for iv in op.ivs:
            block = iv.owner
            loop = block.parent_op() if isinstance(block, Block) else None
            if not isinstance(loop, scf.ForOp) or loop.body.block.args[0] is not iv:
                raise op_error(op, "a buffer phase counts the iterations of scf.for loops")
            loops.append(loop)
        got = linear_iteration(loops)
        if got is None:
            raise op_error(op, "a buffer phase needs loops with constant bounds")
        ops, acc, _ = got
        n = index_constant(op.num_phases)
        ops += [n, arith.RemUIOp(acc, n)]
        replace_keeping_names(rewriter, op, ops)


class LowerSelectMemref(_InPrograms):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SelectMemrefOp, rewriter: PatternRewriter) -> None:
        if self.programs.of(op) is None:
            return
        views = [c.owner for c in op.candidates]
        if not all(isinstance(v, GetLogicalMemoryViewOp) for v in views):
            return  # once symbols.py lowered the buffers
        first = views[0]
        assert isinstance(first, GetLogicalMemoryViewOp)
        for v in views[1:]:
            assert isinstance(v, GetLogicalMemoryViewOp)
            if v.from_unit is not first.from_unit or v.layout_map != first.layout_map:
                raise op_error(op, "the buffers a phase selects among must share their "
                                   "memory and layout")
        ops: list[Operation] = []
        start: SSAValue = first.start_address  # type: ignore[attr-defined]
        for k, v in enumerate(views[1:], start=1):
            c = index_constant(k)
            eq = arith.CmpiOp(op.phase, c, "eq")
            sel = arith.SelectOp(eq.result, v.start_address, start)  # type: ignore
            ops += [c, eq, sel]
            start = sel.result
        g = GetLogicalMemoryViewOp(first.from_unit, start, first.layout_map.data,
                                   first.data.type)
        g.data.name_hint = op.result.name_hint
        replace_keeping_names(rewriter, op, [*ops, g])


def patterns(programs: Programs) -> tuple[RewritePattern, ...]:
    return LowerBufferPhase(programs), LowerSelectMemref(programs)


LOWERED = (BufferPhaseOp, SelectMemrefOp)
