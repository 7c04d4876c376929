"""Unit handles after `ktdf-to-ktdflowering`: which kind of unit an `index` handle names.

A kind materialised per core is a `uniform.def_immutable_mapping` from tile id to the
`dataflow.get_unit` of each core, queried by the executing tile (`uniform.query_map`); a kind
outside the cores (the global memory) is one `get_unit` without a core. Both lowerings ask
here: `ktdf-to-ktdflowering` for the handles its `execute_on`s and signals use,
`ktdflowering-to-dfir` for the peers of FIFOs and signals and the memory of each view.
"""

from __future__ import annotations

from xdsl.ir import Block, SSAValue

from spyrecode.dialects.dataflow import GetUnitOp
from spyrecode.dialects.uniform import DefImmutableMappingOp, QueryMapOp


def table_kind(table: SSAValue) -> str | None:
    """The unit kind a tile -> unit table maps to (None for any other table)."""
    owner = table.owner
    if isinstance(owner, DefImmutableMappingOp) and owner.values:
        unit = owner.values[0].owner
        if isinstance(unit, GetUnitOp):
            return unit.kind
    return None


def unit_kind(handle: SSAValue) -> str | None:
    """The kind of unit a handle names: a query of a unit table, or a `get_unit`."""
    owner = handle.owner
    if isinstance(owner, QueryMapOp):
        return table_kind(owner.mapping)
    if isinstance(owner, GetUnitOp):
        return owner.kind
    return None


def queried_units(block: Block) -> dict[str, SSAValue]:
    """Kind -> the (last) query of that kind's unit table among the block's ops."""
    out: dict[str, SSAValue] = {}
    for op in block.ops:
        if isinstance(op, QueryMapOp) and (k := table_kind(op.mapping)) is not None:
            out[k] = op.result
    return out


def global_unit(block: Block, kind: str) -> SSAValue | None:
    """The first `get_unit` of `kind` among the block's ops (the one unit of a kind outside
    the cores)."""
    for op in block.ops:
        if isinstance(op, GetUnitOp) and op.kind == kind:
            return op.unit
    return None
