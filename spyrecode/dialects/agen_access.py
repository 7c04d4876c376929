"""What every `agen` op is built from (shared/spec/dataflow-ir.md §3): the direction
attribute, `Access` / `TimeLoop` for builders, the pieces of upstream's syntax that the ops'
assembly formats share (`%m[subscripts]`, `time_symbols(...)`, `load_iv(%x:T)`,
`multicast_info = %m`; the custom directives are in directives.py), the verify pieces, the
field groups the ops share, and `agen.yield`. The ops are in agen.py and agen_indirect.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    IndexType,
    MemRefType,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Operation,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.ir.affine import AffineMap, AffineSet
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    prop_def,
    region_def,
    var_operand_def,
)
from xdsl.traits import (
    HasParent,
    IsTerminator,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException

from ktir.dialects.directives import SsaSubscripts
from spyrecode.dialects.dataflow_types import (
    RoutingDirection,
    element_type,
    is_vector_like,
    lanes,
)
from spyrecode.dialects.directives import (
    Body,
    BodyUnless,
    EntryArg,
    PresentTypes,
    RegionIfNoDict,
)
from spyrecode.dialects.syntax import WithDebugName, set_size

MEMORY_EFFECTS = (MemoryReadEffect(), MemoryWriteEffect())
OPTIONS = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())


@irdl_attr_definition
class AgenDirectionAttr(EnumAttribute[RoutingDirection], SpacedOpaqueSyntaxAttribute):
    """`#agen<direction Clockwise>`: routing direction of a transfer."""

    name = "agen.direction"


class Access(NamedTuple):
    """`%memref[map(indices)]`; `map=None` means the identity over `indices`."""

    memref: SSAValue
    indices: Sequence[SSAValue] = ()
    map: AffineMap | None = None

    def map_attr(self) -> AffineMapAttr:
        return AffineMapAttr(self.map if self.map is not None
                             else AffineMap.identity(len(self.indices)))


class TimeLoop(NamedTuple):
    """The time dimension of a composite op: its points, their order, the set's symbols."""

    set: AffineSet
    order: AffineMap
    symbols: Sequence[SSAValue] = ()


def pattern(kind: str, aset: AffineSet | None, order: AffineMap | None
            ) -> dict[str, Attribute | None]:
    """The `<kind>_set` / `<kind>_order` properties (kind: load or store)."""
    return {f"{kind}_set": None if aset is None else AffineSetAttr(aset),
            f"{kind}_order": None if order is None else AffineMapAttr(order)}


def time_props(time: TimeLoop, **addr_maps: AffineMap | None) -> dict[str, Attribute | None]:
    return {"time_set": AffineSetAttr(time.set), "time_order": AffineMapAttr(time.order),
            **{k: None if m is None else AffineMapAttr(m) for k, m in addr_maps.items()}}


def body_region(body: Block | None, arg_types: Sequence[Attribute]) -> Region:
    return Region(body if body is not None else Block(arg_types=arg_types))


# --------------------------------------------------------------------------------------------
# syntax: pieces of the ops' assembly formats (directives.py holds the custom directives)
# --------------------------------------------------------------------------------------------

DIRECTIVES = (SsaSubscripts, PresentTypes, EntryArg, RegionIfNoDict, Body, BodyUnless)


def access(memref: str, operands: str, amap: str, label: str | None = None,
           optional: bool = False) -> str:
    """`label:%m[subscripts]` (or `%m[subscripts]`): a memref operand, the subscript operands
    and the property holding their map; `optional`: the whole access may be left out."""
    head = f"`{label}` `` `:` `` " if label else ""
    text = f"{head}${memref}{'^' if optional else ''} `` custom<SsaSubscripts>(${operands}, ${amap})"
    return f"({text})?" if optional else text


NEW_LINE = "`\\n` ` `"  # the upstream layout: time loop and attributes on lines of their own
TIME_SYMBOLS = "`time_symbols` `(` $time_symbols `)`"
LOAD_IV = "`load_iv` `(` custom<EntryArg>(ref($body)) `)`"
MULTICAST = "(`multicast_info` `=` $multicast_info^)?"
# attributes, then the region (`RegionIfNoDict` tells the two `{` apart), then `:`
ATTRS = "`\\n` custom<RegionIfNoDict>(ref($body)) attr-dict"
ATTRS_AND_BODY = f"{ATTRS} `\\n` `` custom<Body>($body) `:`"


# --------------------------------------------------------------------------------------------
# verification pieces
# --------------------------------------------------------------------------------------------


def memref_type(v: SSAValue, what: str) -> MemRefType:
    if not isinstance(v.type, MemRefType):
        raise VerifyException(f"the {what} must be a memref, got {v.type}")
    return v.type


def verify_access(what: str, memref: SSAValue, amap: AffineMapAttr,
                  operands: Sequence[SSAValue]) -> int:
    """Subscripts of one access: as many operands as map inputs, one result per dimension;
    returns the memref's rank."""
    m, rank = amap.data, memref_type(memref, f"{what} memref").get_num_dims()
    if m.num_dims + m.num_symbols != len(operands):
        raise VerifyException(f"the {what} subscripts take {m.num_dims + m.num_symbols} "
                              f"operands, got {len(operands)}")
    if len(m.results) != rank:
        raise VerifyException(f"the {what} subscripts give {len(m.results)} coordinates for "
                              f"a rank-{rank} memref")
    return rank


def verify_pattern(what: str, rank: int, kind: str, aset: AffineSetAttr,
                   order: AffineMapAttr) -> int:
    """A `<kind>_set` over the memref's dimensions and the order packing it; #points."""
    if aset.data.num_dims != rank:
        raise VerifyException(f"{kind}_set has {aset.data.num_dims} dimensions but the {what} "
                              f"memref has rank {rank}")
    if order.data.num_dims != aset.data.num_dims or order.data.num_symbols:
        raise VerifyException(f"{kind}_set and {kind}_order dimensions should match "
                              f"({aset.data.num_dims} vs {order.data.num_dims}, no symbols)")
    return set_size(f"{kind}_set", aset)


def verify_lanes(kind: str, points: int, vector: Attribute, memref: SSAValue) -> None:
    """(P, §7 E6) one lane per selected element, of the memory's element type."""
    if not is_vector_like(vector):
        raise VerifyException(f"expected a vector, got {vector}")
    n = lanes(vector)
    if n is not None and n != points:
        raise VerifyException(f"{kind}_set selects {points} elements but the vector has "
                              f"{n} lanes")
    verify_element_type(vector, memref)


def verify_element_type(vector: Attribute, memref: SSAValue) -> None:
    if element_type(vector) != element_type(memref.type):
        raise VerifyException(f"vector element type {element_type(vector)} differs from the "
                              f"memref element type {element_type(memref.type)}")


def verify_time(op: TimedOp, addr_maps: Sequence[tuple[str, AffineMapAttr | None, int]]
                ) -> None:
    """time_set's symbols are the time_symbols; each address map takes the time point and
    gives one offset per dimension of its memref."""
    ts, to = op.time_set.data, op.time_order.data
    if ts.num_symbols != len(op.time_symbols):
        raise VerifyException(f"time_set has {ts.num_symbols} symbols but "
                              f"{len(op.time_symbols)} time_symbols are given")
    if to.num_dims != ts.num_dims:
        raise VerifyException(f"time_order must have one input per time_set dimension "
                              f"({ts.num_dims}), got {to.num_dims}")
    for name, m, rank in addr_maps:
        if m is None:
            continue
        if m.data.num_dims != ts.num_dims or m.data.num_symbols not in (0, ts.num_symbols):
            raise VerifyException(f"{name} must take the {ts.num_dims} time dimension(s)")
        if len(m.data.results) != rank:
            raise VerifyException(f"{name} must give one offset per memref dimension "
                                  f"({rank}), got {len(m.data.results)}")


def yielded(body: Region) -> list[SSAValue]:
    term = body.block.last_op
    return list(term.operands) if isinstance(term, YieldOp) else []


def loaded_vector(body: Region) -> BlockArgument:
    args = body.block.args
    if len(args) != 1 or not is_vector_like(args[0].type):
        raise VerifyException("the region takes exactly one vector argument (the loaded "
                              "vector)")
    return args[0]


def stored_vector(body: Region, loaded: BlockArgument | None) -> Attribute:
    """Type of what the store side writes: the yielded vector, else the loaded one."""
    out = yielded(body)
    if len(out) > 1:
        raise VerifyException(f"the region yields {len(out)} values, at most one vector")
    if out:
        return out[0].type
    if loaded is None:
        raise VerifyException("the region must yield the vector to store")
    return loaded.type


def no_arguments(body: Region) -> None:
    if body.block.args:
        raise VerifyException("the region takes no arguments")


def nothing_yielded(body: Region, why: str) -> None:
    if yielded(body):
        raise VerifyException(f"the region must not yield values ({why})")


# --------------------------------------------------------------------------------------------
# field groups shared by the ops
# --------------------------------------------------------------------------------------------


class TimedOp(WithDebugName):
    """A composite op: a time loop (`time_set` with its `time_symbols`, `time_order`) whose
    steps each run the single-block region."""

    time_symbols = var_operand_def(IndexType)
    time_set = prop_def(AffineSetAttr)
    time_order = prop_def(AffineMapAttr)
    body = region_def("single_block")
    traits = lazy_traits_def(lambda: (*MEMORY_EFFECTS, SingleBlockImplicitTerminator(YieldOp)))

    @property
    def time_loop(self) -> TimeLoop:
        return TimeLoop(self.time_set.data, self.time_order.data, tuple(self.time_symbols))

    @property
    def load_iv(self) -> BlockArgument | None:
        """The region argument bound to each step's loaded vector (ops that load)."""
        args = self.body.block.args
        return args[0] if args else None


class LoadsPattern(IRDLOperation):
    load_set = prop_def(AffineSetAttr)
    load_order = prop_def(AffineMapAttr)


class StoresPattern(IRDLOperation):
    store_set = prop_def(AffineSetAttr)
    store_order = prop_def(AffineMapAttr)


class DirectAccess(IRDLOperation):
    """One memref accessed at `mem_ref[affine_map(map_operands)]`."""

    mem_ref = operand_def(MemRefType)
    map_operands = var_operand_def(IndexType)
    affine_map = prop_def(AffineMapAttr)

    @property
    def access(self) -> Access:
        return Access(self.mem_ref, tuple(self.map_operands), self.affine_map.data)

    def verify_direct(self) -> int:
        return verify_access("memref", self.mem_ref, self.affine_map, self.map_operands)


# --------------------------------------------------------------------------------------------
# the region terminator
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`agen.yield (%v : T)?`: ends a composite op's region, yielding the vector to store."""

    name = "agen.yield"
    values = var_operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), NoMemoryEffect(),
                                      HasParent(*composite_ops())))
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


def composite_ops() -> tuple[type[Operation], ...]:
    """The ops whose region `agen.yield` ends (composites and the interleave)."""
    from spyrecode.dialects import agen
    from spyrecode.dialects import agen_indirect as ind

    return (agen.CompositeLoadAndStoreOp, agen.CompositeLoadOp, agen.CompositeStoreOp,
            ind.CompositeIndirectLoadAndStoreOp, ind.CompositeIndirectLoadOp,
            ind.CompositeIndirectStoreOp, agen.CompositeMemoryInterleaveOp)
