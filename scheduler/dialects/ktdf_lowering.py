"""The `ktdf_lowering` dialect: temporary ops between ScheduleIR and DataflowIR
(shared/spec/schedule-ir.md §6).

`ktdf-to-ktdflowering` turns stages into `execute_on` over their units and inserts `signal`
barriers for scratchpad conflicts; `ktdflowering-to-dfir` splits the result per unit type.
Neither op carries an effect trait: unknown effects keep them from being erased as dead.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    region_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import NoTerminator

from scheduler.dialects.directives import BlockBody
from scheduler.dialects.ktdf_types import (
    Body,
    UnitsMixin,
    as_region,
    drop_none,
    units_attr,
)


@irdl_op_definition
class ExecuteOnOp(UnitsMixin):
    """`ktdf_lowering.execute_on %u0, %u1 { ... } {applicable_units = ["SFU"]}`: the body runs
    on the listed units (`index` handles from `dataflow.get_unit` / `uniform.query_map`).
    No parentheses; attributes follow the region.

    `ExecuteOnOp([u], body, applicable_units=["SFU"])`; `op.applicable_units -> list[str]`.
    """

    name = "ktdf_lowering.execute_on"
    units = var_operand_def(IndexType)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())
    assembly_format = "$units custom<BlockBody>($body) attr-dict"
    custom_directives = (BlockBody,)

    def __init__(self, units: Sequence[SSAValue] = (), body: Body = None,
                 applicable_units: Sequence[str] | None = None):
        super().__init__(operands=[units], regions=[as_region(body)],
                         attributes=drop_none({"applicable_units": units_attr(applicable_units)}))


@irdl_op_definition
class SignalOp(UnitsMixin):
    """`ktdf_lowering.signal %a, %b`: the listed units synchronise (a barrier among them).
    Lowered to one `dataflow.sync_send` to every peer, then one `dataflow.sync_recv` from
    every peer, in the program of each unit type whose `execute_on` holds it.

    Project extension: a discardable `sync = "send"` or `sync = "recv"` makes it one-way
    (only the sends, or only the receives: a counting semaphore, dataflow-ir.md E8), as the
    handshakes of a `modulo(size : N)` pipeline need, whose writer runs N instances ahead."""

    name = "ktdf_lowering.signal"
    units = var_operand_def(IndexType)
    assembly_format = "$units attr-dict"

    def __init__(self, units: Sequence[SSAValue] = (),
                 applicable_units: Sequence[str] | None = None):
        super().__init__(operands=[units],
                         attributes=drop_none({"applicable_units": units_attr(applicable_units)}))


KtdfLowering = Dialect("ktdf_lowering", [ExecuteOnOp, SignalOp], [])
