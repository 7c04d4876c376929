"""Signals: `ktdf_lowering.signal` in the program of the kind that holds it becomes one
`dataflow.sync_send` to every peer, then one `dataflow.sync_recv` from every peer (a barrier
among the listed units); in the programs of other kinds it is dropped. A one-way signal
(`sync = "send"` or `"recv"`, the handshakes of a `modulo` pipeline) keeps only its sends or
only its receives."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from scheduler.analysis.units import unit_kind
from scheduler.conversion.ktdf_to_dfir.ktdflowering_to_dfir.programs import Programs
from scheduler.dialects.ktdf_lowering import SignalOp
from scheduler.rewriting import replace_keeping_names
from spyrecode.dialects.dataflow import SyncRecvOp, SyncSendOp


class LowerSignal(RewritePattern):
    def __init__(self, programs: Programs):
        self.programs = programs

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SignalOp, rewriter: PatternRewriter) -> None:
        program = self.programs.of(op)
        if program is None:
            return
        kind = program.kind
        units = op.applicable_units
        if units and units[0] != kind:
            rewriter.erase(op)
            return
        peers = [u for u in op.units if unit_kind(u) != kind]
        sync = op.attributes.get("sync")
        mode = sync.data if isinstance(sync, StringAttr) else None
        sends = [SyncSendOp(p, True) for p in peers] if mode in (None, "send") else []
        recvs = [SyncRecvOp(p) for p in peers] if mode in (None, "recv") else []
        replace_keeping_names(rewriter, op, [*sends, *recvs])


def patterns(programs: Programs) -> tuple[RewritePattern, ...]:
    return (LowerSignal(programs),)


LOWERED = (SignalOp,)
