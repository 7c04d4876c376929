"""The indirect and symbolic ops of the `agen` dialect (shared/spec/dataflow-ir.md §3).

Indirect ops (the target of `ktdf.ind_data_transfer`) take part of each coordinate from an
index memref: `indirect:%i[...] direct:%d[...]`; the direct side carries the set, order and
time map as in the direct ops, the index memref holds integers. Symbolic ops address a 1-D
identity view from `dataflow.get_logical_memory_view` at element sum(index_k * stride_k), lanes
contiguous from there. The Dialect object is in agen.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    DenseArrayBase,
    IndexType,
    IntegerType,
    MemRefType,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineMap, AffineSet
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from spyrecode.dialects.agen_access import (
    ATTRS_AND_BODY,
    DIRECTIVES,
    LOAD_IV,
    MEMORY_EFFECTS,
    MULTICAST,
    NEW_LINE,
    OPTIONS,
    TIME_SYMBOLS,
    Access,
    LoadsPattern,
    StoresPattern,
    TimedOp,
    TimeLoop,
    access,
    body_region,
    loaded_vector,
    memref_type,
    no_arguments,
    nothing_yielded,
    pattern,
    stored_vector,
    time_props,
    verify_access,
    verify_element_type,
    verify_lanes,
    verify_pattern,
    verify_time,
)
from spyrecode.dialects.dataflow import GetLogicalMemoryViewOp
from spyrecode.dialects.dataflow_types import VectorLike, element_type, is_vector_like
from spyrecode.dialects.syntax import (
    WithDebugName,
    close_body,
    is_identity,
    opt,
    props,
    str_attr,
)


def _dims_attr(dims: Sequence[int] | None) -> DenseArrayBase | None:
    return None if dims is None else DenseArrayBase.from_list(i64, list(dims))


def dims_of(a: DenseArrayBase | None) -> list[int]:
    """The direct dimensions the indices replace (`[0]` when the property is absent)."""
    return [0] if a is None else [int(x) for x in a.get_values()]


def verify_dims(name: str, a: DenseArrayBase | None, rank: int) -> None:
    dims = dims_of(a)
    if not dims or len(set(dims)) != len(dims) or not all(0 <= d < rank for d in dims):
        raise VerifyException(f"{name} {dims} must be distinct dimensions of the direct "
                              f"memref (rank {rank})")


# (keyword, memref, map, subscript operands) of one side of an indirect op
Side = tuple[str, SSAValue | None, AffineMapAttr | None, Sequence[SSAValue]]


def verify_sides(sides: Sequence[Side]) -> dict[str, int]:
    """Each present side has its map and subscripts; index memrefs hold integers. Returns the
    rank of each present side."""
    ranks: dict[str, int] = {}
    for kw, mem, amap, ops in sides:
        if (mem is None) != (amap is None):
            raise VerifyException(f"{kw}: the memref and its map come together")
        if mem is None or amap is None:
            if ops:
                raise VerifyException(f"{kw}: subscripts given without a memref")
            continue
        what = kw.replace("_", " ")
        ranks[kw] = verify_access(what, mem, amap, ops)
        if kw.startswith("indirect"):
            e = element_type(memref_type(mem, f"{what} memref"))
            if not isinstance(e, IntegerType | IndexType):
                raise VerifyException(f"the {what} memref must hold integers or indices, "
                                      f"got {e}")
    return ranks


class IndirectPair(WithDebugName):
    """Ops with one index memref and one direct memref, and an optional multicast target."""

    indirect_memref = operand_def(MemRefType)
    direct_memref = operand_def(MemRefType)
    indirect_map_indices = var_operand_def(IndexType)
    direct_map_indices = var_operand_def(IndexType)
    multicast_info = opt_operand_def(IndexType)
    indirect_map = prop_def(AffineMapAttr)
    direct_map = prop_def(AffineMapAttr)

    @property
    def indirect(self) -> Access:
        return Access(self.indirect_memref, tuple(self.indirect_map_indices),
                      self.indirect_map.data)

    @property
    def direct(self) -> Access:
        return Access(self.direct_memref, tuple(self.direct_map_indices), self.direct_map.data)

    def sides(self) -> list[Side]:
        return [("indirect", self.indirect_memref, self.indirect_map, self.indirect_map_indices),
                ("direct", self.direct_memref, self.direct_map, self.direct_map_indices)]

    def verify_pair(self) -> int:
        """Verify both sides; the rank of the direct memref."""
        return verify_sides(self.sides())["direct"]


def pair_operands(indirect: Access, direct: Access, multicast: SSAValue | None) -> list:
    return [indirect.memref, direct.memref, indirect.indices, direct.indices, opt(multicast)]


def pair_props(indirect: Access, direct: Access, dbg_name: str | None
               ) -> dict[str, Attribute | None]:
    return {"indirect_map": indirect.map_attr(), "direct_map": direct.map_attr(),
            "dbgName": str_attr(dbg_name)}


# `indirect:%i[...] direct:%d[...] (multicast_info = %m)?`
PAIR = (f"{access('indirect_memref', 'indirect_map_indices', 'indirect_map', 'indirect')} "
        f"{access('direct_memref', 'direct_map_indices', 'direct_map', 'direct')} {MULTICAST}")
# `%m[indices:(%a, %b), strides:(%c, %d)]`
SYMBOLIC = ("$memref `[` `indices` `` `:` `` `(` $indices `)` `,` `strides` `` `:` `` `(` "
            "$strides `)` `]`")

_SIDES = ("indirect_src", "direct_src", "indirect_dst", "direct_dst")


@irdl_op_definition
class CompositeIndirectLoadAndStoreOp(TimedOp, LoadsPattern, StoresPattern):
    """`composite_load_and_store` where part of each coordinate comes from an index memref:

        agen.composite_indirect_load_and_store (indirect_src:%i[...])? direct_src:%s[...]
          (indirect_dst:%j[...])? direct_dst:%d[...] (multicast_info = %m)?
          time_symbols(...), load_iv(%x:T) {attrs} { ... } : (Ti,)? Ts, (Tj,)? Td

    Each indirect side has its map and `*_indirect_time_addr_map`. The coordinate rule (this
    project's, dataflow-ir.md §3): the integer read from the index memref replaces dimension
    `indirect_src_dims[0]` (`indirect_dst_dims`; `[0]` when absent) of the direct coordinate,
    and index j of a longer list, read with the indirect coordinate's last subscript advanced
    by j, replaces dimension `indirect_src_dims[j]`; an index outside its dimension of the
    direct memref is a run-time error. Builder:
    `CompositeIndirectLoadAndStoreOp(direct_src, direct_dst, load_set, load_order, store_set,
    store_order, time, load_direct_time_addr_map, store_direct_time_addr_map, vector_type,
    indirect_src=None, indirect_dst=None, load_indirect_time_addr_map=None,
    store_indirect_time_addr_map=None, body=None, multicast_info=None)`."""

    name = "agen.composite_indirect_load_and_store"
    indirect_src_memref = opt_operand_def(MemRefType)
    direct_src_memref = operand_def(MemRefType)
    indirect_dst_memref = opt_operand_def(MemRefType)
    direct_dst_memref = operand_def(MemRefType)
    indirect_src_map_indices = var_operand_def(IndexType)
    direct_src_map_indices = var_operand_def(IndexType)
    indirect_dst_map_indices = var_operand_def(IndexType)
    direct_dst_map_indices = var_operand_def(IndexType)
    multicast_info = opt_operand_def(IndexType)
    indirect_src_map = opt_prop_def(AffineMapAttr)
    direct_src_map = prop_def(AffineMapAttr)
    indirect_dst_map = opt_prop_def(AffineMapAttr)
    direct_dst_map = prop_def(AffineMapAttr)
    load_indirect_time_addr_map = opt_prop_def(AffineMapAttr)
    load_direct_time_addr_map = prop_def(AffineMapAttr)
    store_indirect_time_addr_map = opt_prop_def(AffineMapAttr)
    store_direct_time_addr_map = prop_def(AffineMapAttr)
    indirect_src_dims = opt_prop_def(DenseArrayBase.constr(i64))
    indirect_dst_dims = opt_prop_def(DenseArrayBase.constr(i64))
    irdl_options = OPTIONS
    assembly_format = (
        " ".join(access(f"{k}_memref", f"{k}_map_indices", f"{k}_map", k,
                        optional=k.startswith("indirect")) for k in _SIDES)
        + f" {NEW_LINE} {MULTICAST} {TIME_SYMBOLS} `,` {LOAD_IV} {ATTRS_AND_BODY}"
        " custom<PresentTypes>(type($indirect_src_memref), type($direct_src_memref)) `,`"
        " custom<PresentTypes>(type($indirect_dst_memref), type($direct_dst_memref))")
    custom_directives = DIRECTIVES

    def __init__(self, direct_src: Access, direct_dst: Access, load_set: AffineSet,
                 load_order: AffineMap, store_set: AffineSet, store_order: AffineMap,
                 time: TimeLoop, load_direct_time_addr_map: AffineMap,
                 store_direct_time_addr_map: AffineMap, vector_type: Attribute,
                 indirect_src: Access | None = None, indirect_dst: Access | None = None,
                 load_indirect_time_addr_map: AffineMap | None = None,
                 store_indirect_time_addr_map: AffineMap | None = None,
                 body: Block | None = None, multicast_info: SSAValue | None = None,
                 dbg_name: str | None = None, indirect_src_dims: Sequence[int] | None = None,
                 indirect_dst_dims: Sequence[int] | None = None):
        sides = (indirect_src, direct_src, indirect_dst, direct_dst)
        super().__init__(
            operands=[*[[a.memref] if a else [] for a in sides],
                      *[a.indices if a else [] for a in sides], opt(multicast_info),
                      time.symbols],
            regions=[body_region(body, [vector_type])],
            properties=props({
                **{f"{k}_map": a.map_attr() if a else None
                   for k, a in zip(_SIDES, sides, strict=True)},
                **pattern("load", load_set, load_order),
                **pattern("store", store_set, store_order),
                **time_props(time, load_indirect_time_addr_map=load_indirect_time_addr_map,
                             load_direct_time_addr_map=load_direct_time_addr_map,
                             store_indirect_time_addr_map=store_indirect_time_addr_map,
                             store_direct_time_addr_map=store_direct_time_addr_map),
                "indirect_src_dims": _dims_attr(indirect_src_dims),
                "indirect_dst_dims": _dims_attr(indirect_dst_dims),
                "dbgName": str_attr(dbg_name)}))
        close_body(self)

    def indirect_dims(self, side: str) -> list[int]:
        """The direct dimensions the indices of `side` ("src" or "dst") replace."""
        return dims_of(getattr(self, f"indirect_{side}_dims"))

    def sides(self) -> list[Side]:
        return [(k, getattr(self, f"{k}_memref"), getattr(self, f"{k}_map"),
                 getattr(self, f"{k}_map_indices")) for k in _SIDES]

    def verify_(self) -> None:
        ranks = verify_sides(self.sides())
        nload = verify_pattern("direct source", ranks["direct_src"], "load", self.load_set,
                               self.load_order)
        nstore = verify_pattern("direct destination", ranks["direct_dst"], "store",
                                self.store_set, self.store_order)
        for name, side, m in (
                ("load_indirect_time_addr_map", "indirect_src",
                 self.load_indirect_time_addr_map),
                ("store_indirect_time_addr_map", "indirect_dst",
                 self.store_indirect_time_addr_map)):
            if (m is None) != (side not in ranks):
                raise VerifyException(f"{name} is required with, and only with, {side}")
        verify_time(self, [
            ("load_direct_time_addr_map", self.load_direct_time_addr_map, ranks["direct_src"]),
            ("store_direct_time_addr_map", self.store_direct_time_addr_map,
             ranks["direct_dst"]),
            ("load_indirect_time_addr_map", self.load_indirect_time_addr_map,
             ranks.get("indirect_src", 0)),
            ("store_indirect_time_addr_map", self.store_indirect_time_addr_map,
             ranks.get("indirect_dst", 0))])
        for side in ("src", "dst"):
            a = getattr(self, f"indirect_{side}_dims")
            if a is not None and f"indirect_{side}" not in ranks:
                raise VerifyException(f"indirect_{side}_dims without an indirect_{side} "
                                      "memref")
            verify_dims(f"indirect_{side}_dims", a, ranks[f"direct_{side}"])
        iv = loaded_vector(self.body)
        verify_lanes("load", nload, iv.type, self.direct_src_memref)
        verify_lanes("store", nstore, stored_vector(self.body, iv), self.direct_dst_memref)


@irdl_op_definition
class CompositeIndirectLoadOp(IndirectPair, TimedOp, LoadsPattern):
    """`agen.composite_indirect_load indirect:%i[...] direct:%d[...] (multicast_info = %m)?
    time_symbols(...), load_iv(%x:T) {attrs} { ... } : Ti, Td`: a composite load whose
    coordinates are partly read from `%i`. Builder: `CompositeIndirectLoadOp(indirect, direct,
    load_set, load_order, time, time_addr_map, vector_type, body=None, multicast_info=None)`."""

    name = "agen.composite_indirect_load"
    time_addr_map = prop_def(AffineMapAttr)
    irdl_options = OPTIONS
    assembly_format = (f"{PAIR} {NEW_LINE} {TIME_SYMBOLS} `,` {LOAD_IV} {ATTRS_AND_BODY} "
                       "type($indirect_memref) `,` type($direct_memref)")
    custom_directives = DIRECTIVES

    def __init__(self, indirect: Access, direct: Access, load_set: AffineSet,
                 load_order: AffineMap, time: TimeLoop, time_addr_map: AffineMap,
                 vector_type: Attribute, body: Block | None = None,
                 multicast_info: SSAValue | None = None, dbg_name: str | None = None):
        super().__init__(
            operands=[*pair_operands(indirect, direct, multicast_info), time.symbols],
            regions=[body_region(body, [vector_type])],
            properties=props({**pair_props(indirect, direct, dbg_name),
                              **pattern("load", load_set, load_order),
                              **time_props(time, time_addr_map=time_addr_map)}))
        close_body(self)

    def verify_(self) -> None:
        rank = self.verify_pair()
        n = verify_pattern("direct", rank, "load", self.load_set, self.load_order)
        verify_time(self, [("time_addr_map", self.time_addr_map, rank)])
        verify_lanes("load", n, loaded_vector(self.body).type, self.direct_memref)
        nothing_yielded(self.body, "a composite load stores nothing")


@irdl_op_definition
class CompositeIndirectStoreOp(IndirectPair, TimedOp, StoresPattern):
    """`agen.composite_indirect_store indirect:%i[...] direct:%d[...] (multicast_info = %m)?
    time_symbols(...) {attrs} { ... agen.yield %v : T } : Ti, Td`: per time step, store the
    yielded vector at coordinates partly read from `%i`. Builder:
    `CompositeIndirectStoreOp(indirect, direct, store_set, store_order, time, time_addr_map,
    body, multicast_info=None)`."""

    name = "agen.composite_indirect_store"
    time_addr_map = prop_def(AffineMapAttr)
    irdl_options = OPTIONS
    assembly_format = (f"{PAIR} {NEW_LINE} {TIME_SYMBOLS} {ATTRS_AND_BODY} "
                       "type($indirect_memref) `,` type($direct_memref)")
    custom_directives = DIRECTIVES

    def __init__(self, indirect: Access, direct: Access, store_set: AffineSet,
                 store_order: AffineMap, time: TimeLoop, time_addr_map: AffineMap,
                 body: Block, multicast_info: SSAValue | None = None,
                 dbg_name: str | None = None):
        super().__init__(
            operands=[*pair_operands(indirect, direct, multicast_info), time.symbols],
            regions=[Region(body)],
            properties=props({**pair_props(indirect, direct, dbg_name),
                              **pattern("store", store_set, store_order),
                              **time_props(time, time_addr_map=time_addr_map)}))

    def verify_(self) -> None:
        rank = self.verify_pair()
        n = verify_pattern("direct", rank, "store", self.store_set, self.store_order)
        verify_time(self, [("time_addr_map", self.time_addr_map, rank)])
        no_arguments(self.body)
        verify_lanes("store", n, stored_vector(self.body, None), self.direct_memref)


@irdl_op_definition
class IndirectVectorLoadOp(IndirectPair, LoadsPattern):
    """`%v = agen.indirect_vector_load indirect:%i[...] direct:%d[...] (multicast_info = %m)?
    {load_order, load_set} : Ti, Td, Tv`: the integers read from `%i` replace dimensions
    `indirect_dims` (`[0]` when absent) of the direct coordinate, as in
    `composite_indirect_load_and_store`. Builder: `IndirectVectorLoadOp(indirect, direct,
    load_set, load_order, vector_type, multicast_info=None)`."""

    name = "agen.indirect_vector_load"
    result = result_def(VectorLike)
    indirect_dims = opt_prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(*MEMORY_EFFECTS)
    irdl_options = OPTIONS
    assembly_format = (f"{PAIR} attr-dict `:` type($indirect_memref) `,` type($direct_memref) "
                       "`,` type($result)")
    custom_directives = DIRECTIVES

    def __init__(self, indirect: Access, direct: Access, load_set: AffineSet,
                 load_order: AffineMap, vector_type: Attribute,
                 multicast_info: SSAValue | None = None, dbg_name: str | None = None,
                 indirect_dims: Sequence[int] | None = None):
        super().__init__(operands=pair_operands(indirect, direct, multicast_info),
                         result_types=[vector_type],
                         properties=props({**pair_props(indirect, direct, dbg_name),
                                           **pattern("load", load_set, load_order),
                                           "indirect_dims": _dims_attr(indirect_dims)}))

    @property
    def replaced_dims(self) -> list[int]:
        """The direct dimensions the indices replace."""
        return dims_of(self.indirect_dims)

    def verify_(self) -> None:
        rank = self.verify_pair()
        n = verify_pattern("direct", rank, "load", self.load_set, self.load_order)
        verify_dims("indirect_dims", self.indirect_dims, rank)
        verify_lanes("load", n, self.result.type, self.direct_memref)


@irdl_op_definition
class IndirectVectorStoreOp(IndirectPair, StoresPattern):
    """`agen.indirect_vector_store %v indirect:%i[...] direct:%d[...] (multicast_info = %m)?
    {store_order, store_set} : Tv, Ti, Td`. Builder: `IndirectVectorStoreOp(value, indirect,
    direct, store_set, store_order, multicast_info=None)`."""

    name = "agen.indirect_vector_store"
    value = operand_def(VectorLike)
    traits = traits_def(*MEMORY_EFFECTS)
    irdl_options = OPTIONS
    assembly_format = (f"$value {PAIR} attr-dict `:` type($value) `,` type($indirect_memref) "
                       "`,` type($direct_memref)")
    custom_directives = DIRECTIVES

    def __init__(self, value: SSAValue, indirect: Access, direct: Access,
                 store_set: AffineSet, store_order: AffineMap,
                 multicast_info: SSAValue | None = None, dbg_name: str | None = None):
        super().__init__(operands=[value, *pair_operands(indirect, direct, multicast_info)],
                         properties=props({**pair_props(indirect, direct, dbg_name),
                                           **pattern("store", store_set, store_order)}))

    def verify_(self) -> None:
        n = verify_pattern("direct", self.verify_pair(), "store", self.store_set,
                           self.store_order)
        verify_lanes("store", n, self.value.type, self.direct_memref)


class SymbolicAccess(WithDebugName):
    """`%m[indices:(%a, %b), strides:(%c, %d)]` of a 1-D identity view."""

    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)

    def verify_symbolic(self, vector: Attribute, kind: str, aset: AffineSetAttr | None,
                        order: AffineMapAttr | None) -> None:
        t = memref_type(self.memref, "memref")
        if t.get_num_dims() != 1:
            raise VerifyException("the memref must be one-dimensional")
        view = self.memref.owner
        if not isinstance(view, GetLogicalMemoryViewOp) or not is_identity(view.layout):
            raise VerifyException("the memref must be a dataflow.get_logical_memory_view with "
                                  "the identity layout_map")
        if not is_vector_like(vector) or (isinstance(vector, VectorType)
                                          and vector.get_num_dims() != 1):
            raise VerifyException("the vector must be one-dimensional")
        if not self.indices:
            raise VerifyException("expects at least one index")
        if len(self.strides) != len(self.indices):
            raise VerifyException(f"{len(self.strides)} strides for {len(self.indices)} "
                                  "indices")
        if (aset is None) != (order is None):
            raise VerifyException(f"{kind}_set and {kind}_order come together")
        if aset is not None and order is not None:
            verify_lanes(kind, verify_pattern("memref", 1, kind, aset, order), vector,
                         self.memref)
        else:
            verify_element_type(vector, self.memref)


@irdl_op_definition
class SymbolicVectorLoadOp(SymbolicAccess):
    """`%v = agen.symbolic_vector_load %m[indices:(%i), strides:(%s)] (, multicast_info(%x))?
    : memref<128xi8>, vector<128xi8>` (`load_set`/`load_order` optional). Builder:
    `SymbolicVectorLoadOp(memref, indices, strides, vector_type, multicast_info=None)`."""

    name = "agen.symbolic_vector_load"
    memref = operand_def(MemRefType)  # re-declared: operands keep upstream's order
    indices = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    multicast_info = opt_operand_def(IndexType)
    load_set = opt_prop_def(AffineSetAttr)
    load_order = opt_prop_def(AffineMapAttr)
    result = result_def(VectorLike)
    traits = traits_def(*MEMORY_EFFECTS)
    irdl_options = OPTIONS
    assembly_format = (f"{SYMBOLIC} (`,` `multicast_info` `(` $multicast_info^ `)`)? attr-dict "
                       "`:` type($memref) `,` type($result)")
    custom_directives = DIRECTIVES

    def __init__(self, memref: SSAValue, indices: Sequence[SSAValue],
                 strides: Sequence[SSAValue], vector_type: Attribute,
                 multicast_info: SSAValue | None = None, dbg_name: str | None = None):
        super().__init__(operands=[memref, indices, strides, opt(multicast_info)],
                         result_types=[vector_type],
                         properties=props({"dbgName": str_attr(dbg_name)}))

    def verify_(self) -> None:
        self.verify_symbolic(self.result.type, "load", self.load_set, self.load_order)


@irdl_op_definition
class SymbolicVectorStoreOp(SymbolicAccess):
    """`agen.symbolic_vector_store %v, %m[indices:(%i), strides:(%s)] : memref<128xi8>,
    vector<128xi8>`. Builder: `SymbolicVectorStoreOp(value, memref, indices, strides)`."""

    name = "agen.symbolic_vector_store"
    value_to_store = operand_def(VectorLike)
    store_set = opt_prop_def(AffineSetAttr)
    store_order = opt_prop_def(AffineMapAttr)
    traits = traits_def(*MEMORY_EFFECTS)
    irdl_options = OPTIONS
    assembly_format = (f"$value_to_store `,` {SYMBOLIC} attr-dict `:` type($memref) `,` "
                       "type($value_to_store)")
    custom_directives = DIRECTIVES

    def __init__(self, value: SSAValue, memref: SSAValue, indices: Sequence[SSAValue],
                 strides: Sequence[SSAValue], dbg_name: str | None = None):
        super().__init__(operands=[value, memref, indices, strides],
                         properties=props({"dbgName": str_attr(dbg_name)}))

    def verify_(self) -> None:
        self.verify_symbolic(self.value_to_store.type, "store", self.store_set,
                             self.store_order)
