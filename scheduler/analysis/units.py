"""Unit handles after `ktdf-to-ktdflowering`: which kind of unit an `index` handle names.

A kind materialised per core is a `uniform.def_immutable_mapping` from tile id to the
`dataflow.get_unit` of each core, queried by the executing tile (`uniform.query_map`); a kind
outside the cores (the global memory) is one `get_unit` without a core. Both lowerings ask
here: `ktdf-to-ktdflowering` for the handles its `execute_on`s and signals use,
`ktdflowering-to-dfir` for the peers of FIFOs and signals and the memory of each view.
"""

from __future__ import annotations

import re

from xdsl.ir import Block, SSAValue

from spyrecode.dialects.dataflow import GetUnitOp
from spyrecode.dialects.uniform import DefImmutableMappingOp, QueryMapOp


def unit_key(kind: str, instance: int | None = None) -> str:
    """The name work is bound to: the unit kind, or for a corelet-level unit of another
    instance than the first (`parallelize-loops-across-instances`) `KIND-CL<k>`."""
    return kind if not instance else f"{kind}-CL{instance}"


def kind_hint(kind: str) -> str:
    """An SSA name for a unit or memory kind ("C0-LX" -> "c0_lx"): a kind that is an
    integer (`kind = 7` -> "unit7") or an attribute (`#ptr.generic_space` ->
    "_ptr.generic_space") is no name as it is spelled."""
    hint = re.sub(r"[^a-z0-9_$.]", "_", kind.lower())
    return hint if hint[:1].isalpha() or hint[:1] == "_" else f"unit{hint}"


def split_key(key: str) -> tuple[str, int]:
    """(kind, instance) of a `unit_key`."""
    kind, sep, k = key.rpartition("-CL")
    if sep and k.isdigit():
        return kind, int(k)
    return key, 0


def get_unit_key(op: GetUnitOp) -> str:
    return unit_key(op.kind, op.corelet)


def table_kind(table: SSAValue) -> str | None:
    """The unit key a tile -> unit table maps to (None for any other table)."""
    owner = table.owner
    if isinstance(owner, DefImmutableMappingOp) and owner.values:
        unit = owner.values[0].owner
        if isinstance(unit, GetUnitOp):
            return get_unit_key(unit)
    return None


def unit_kind(handle: SSAValue) -> str | None:
    """The unit key a handle names: a query of a unit table, or a `get_unit`."""
    owner = handle.owner
    if isinstance(owner, QueryMapOp):
        return table_kind(owner.mapping)
    if isinstance(owner, GetUnitOp):
        return get_unit_key(owner)
    return None


def queried_units(block: Block) -> dict[str, SSAValue]:
    """Unit key -> the (last) query of that key's unit table among the block's ops."""
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
