"""The `ktdp` dialect of KTIR (shared/spec/ktir.md): views, access tiles, loads and stores.

Printed spellings follow the newer frontend TableGen; older spellings are accepted on input
(`#ktdp.spyre_memory_space<HBM>` becomes `#ktdp.memory_space<global>` while parsing). Rules
tagged (P) in the spec are stricter than upstream and are checked here as well. Attributes and
types live in ktdp_types.py, the inter-tile ops in ktdp_intertile.py; the Dialect is here.
The access-tile semantics (sets, orders, bounds) live in `ktir.affine`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I32,
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.dialects.utils.dynamic_index_list import DynamicIndexList
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap, AffineSet
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import (
    HasParent,
    IsTerminator,
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from ktir import affine
from ktir.dialects.directives import (
    BoxIfMissing,
    CheckedType,
    IndirectSubscripts,
    IndirectTypes,
    KeywordIndex,
    Required,
    ShortType,
    SsaSubscripts,
    TileType,
)
from ktir.dialects.ktdp_intertile import (
    InterTileConsumeOp,
    InterTileProduceOp,
    InterTileReduceOp,
    YieldPartialOp,
    YieldReducedOp,
)
from ktir.dialects.ktdp_types import (
    AccessTileType,
    AnyMemorySpace,
    MemoryKind,
    MemorySpaceAttr,
    RuntimeArgType,
    SpyreMemorySpaceAttr,
    TileFutureType,
    box_set,
    int_list,
    kernel_grid,
    shape_str,
)

# --------------------------------------------------------------------------------------------
# views and tiles
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class GetComputeTileIdOp(IRDLOperation):
    """`%id = ktdp.get_compute_tile_id : index` (linear id) or one result per grid dimension."""

    name = "ktdp.get_compute_tile_id"
    ids = var_result_def(IndexType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($ids)"

    def __init__(self, n: int = 1):
        super().__init__(result_types=[[IndexType()] * n])

    def verify_(self) -> None:
        n = len(self.ids)
        if n < 1:
            raise VerifyException("expects at least one result")
        grid = kernel_grid(self)
        if grid is not None and n != 1 and n != len(grid):
            raise VerifyException(
                f"expects 1 result or one per grid dimension ({len(grid)}), got {n}")


@irdl_op_definition
class ConstructMemoryViewOp(IRDLOperation):
    """A view of memory: `%v = ktdp.construct_memory_view %addr, sizes: [...], strides: [...]
    {coordinate_set = ..., memory_space = ...} : memref<...>`. No data moves (spec §4.2)."""

    name = "ktdp.construct_memory_view"
    offset = operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    result = result_def(MemRefType)
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))
    coordinate_set = prop_def(AffineSetAttr)
    memory_space = prop_def(MemorySpaceAttr | SpyreMemorySpaceAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    traits = traits_def(Pure())
    custom_directives = (DynamicIndexList, BoxIfMissing, Required, CheckedType)
    assembly_format = (
        "$offset `,` `sizes` `` `:` custom<DynamicIndexList>($sizes, $static_sizes) `,` "
        "`strides` `` `:` custom<DynamicIndexList>($strides, $static_strides) attr-dict "
        "`:` custom<CheckedType>(type($result)) "
        "custom<BoxIfMissing>(ref($coordinate_set), ref($static_sizes)) "
        "custom<Required>(ref($memory_space))")

    def __init__(self, offset: SSAValue, sizes: Sequence[int | SSAValue],
                 strides: Sequence[int | SSAValue], result_type: MemRefType,
                 memory_space: Attribute, coordinate_set: AffineSet | None = None):
        st_sizes = [DYNAMIC_INDEX if isinstance(s, SSAValue) else s for s in sizes]
        st_strides = [DYNAMIC_INDEX if isinstance(s, SSAValue) else s for s in strides]
        super().__init__(
            operands=[offset, [s for s in sizes if isinstance(s, SSAValue)],
                      [s for s in strides if isinstance(s, SSAValue)]],
            result_types=[result_type],
            properties={
                "static_sizes": DenseArrayBase.from_list(i64, st_sizes),
                "static_strides": DenseArrayBase.from_list(i64, st_strides),
                "coordinate_set": AffineSetAttr(coordinate_set or box_set(st_sizes)),
                "memory_space": memory_space,
            })

    def verify_(self) -> None:
        sizes, strides = int_list(self.static_sizes), int_list(self.static_strides)
        if len(sizes) != len(strides):
            raise VerifyException("static sizes and strides must have the same length")
        if sizes.count(DYNAMIC_INDEX) != len(self.sizes):
            raise VerifyException(
                f"{len(self.sizes)} dynamic size operands for {sizes.count(DYNAMIC_INDEX)} '?'")
        if strides.count(DYNAMIC_INDEX) != len(self.strides):
            raise VerifyException(f"{len(self.strides)} dynamic stride operands for "
                                  f"{strides.count(DYNAMIC_INDEX)} '?'")
        rtype = cast(MemRefType, self.result.type)
        if rtype.get_num_dims() != len(sizes):
            raise VerifyException("result memref rank does not match sizes/strides length")
        for k, (s, r) in enumerate(zip(sizes, rtype.get_shape())):
            if s != DYNAMIC_INDEX and r != DYNAMIC_INDEX and s != r:
                raise VerifyException(f"result dimension {k} is {r} but size {k} is {s}")
            if s != DYNAMIC_INDEX and s < 0:
                raise VerifyException(f"size {k} must be >= 0, got {s}")
        for k, s in enumerate(strides):
            if s != DYNAMIC_INDEX and s < 0:
                raise VerifyException(f"stride {k} must be >= 0, got {s}")
        cset = self.coordinate_set.data
        if cset.num_dims != len(sizes):
            raise VerifyException(f"coordinate_set has {cset.num_dims} dims but the view has "
                                  f"rank {len(sizes)}")
        if cset.num_symbols > len(self.sizes):
            raise VerifyException(
                f"coordinate_set has {cset.num_symbols} symbols but only {len(self.sizes)} "
                "dynamic sizes to bind them to")
        try:
            bounds = affine.dim_bounds(cset)
        except affine.NonLinearError:
            bounds = []
        for k, (lo, hi) in enumerate(bounds):
            for b in (lo, hi):
                if b is not None and not -(1 << 63) <= b < 1 << 63:
                    raise VerifyException(f"coordinate_set bounds dimension {k} at {b}, beyond "
                                          "the 64-bit range of index coordinates")
        ms = rtype.memory_space
        if not isinstance(ms, NoneAttr) and isinstance(ms, AnyMemorySpace) \
                and ms != self.memory_space:
            raise VerifyException(f"result memory space {ms} differs from memory_space "
                                  f"{self.memory_space}")
        _check_ct_id(self, self.memory_space)


def _check_ct_id(op: Operation, space: Attribute) -> None:
    if isinstance(space, MemorySpaceAttr) and space.ct_id.data >= 0:
        grid = kernel_grid(op)
        if grid is not None:
            n = 1
            for g in grid:
                n *= g
            if space.ct_id.data >= n:
                raise VerifyException(
                    f"ct_id {space.ct_id.data} is out of range for a grid of {n} tiles")


def _view_root(v: SSAValue) -> Operation | None:
    return v.owner if isinstance(v.owner, Operation) else None


@irdl_op_definition
class ConstructDistributedMemoryViewOp(IRDLOperation):
    """One logical tensor over several views: `(%a, %b : T, T) : T` (spec §4.3)."""

    name = "ktdp.construct_distributed_memory_view"
    parts = var_operand_def(MemRefType)
    result = result_def(MemRefType)
    traits = traits_def(Pure())
    assembly_format = "`(` $parts `:` type($parts) `)` attr-dict `:` type($result)"

    def __init__(self, parts: Sequence[SSAValue], result_type: MemRefType):
        super().__init__(operands=[parts], result_types=[result_type])

    def verify_(self) -> None:
        rtype = cast(MemRefType, self.result.type)
        if not self.parts:
            raise VerifyException("expects at least one input view")
        for p in self.parts:
            t = cast(MemRefType, p.type)
            if t.element_type != rtype.element_type:
                raise VerifyException(
                    "all input memrefs must have the same element type as the result")
            if t.get_num_dims() != rtype.get_num_dims():
                raise VerifyException("all input memrefs must have the same rank as the result")
        for p in self.parts:
            owner = p.owner
            if isinstance(owner, Operation) and not isinstance(owner, ConstructMemoryViewOp):
                raise VerifyException(
                    f"input views must come from ktdp.construct_memory_view, not {owner.name}")


def _result_shape_check(kind: str, aset: AffineSet, order: AffineMap,
                        shape: Sequence[int]) -> None:
    """(P) the tile shape is the bounding box of order(set); symbolic extents are '?'."""
    if len(shape) != aset.num_dims:
        raise VerifyException(f"result rank {len(shape)} must equal the {kind} dims "
                              f"({aset.num_dims})")
    extents = affine.order_extents(aset, order)
    for k, (want, got) in enumerate(zip(extents, shape)):
        if want is None:
            if got != DYNAMIC_INDEX:
                why = ""
                with contextlib.suppress(affine.NonLinearError):
                    if affine.expr_bounds(aset, order.results[k])[0] is None:
                        why = (" and so does where it starts (ambiguous: the set has no fixed "
                               "first position for the type's box to start from)")
                raise VerifyException(
                    f"result dimension {k} is {got} but its extent depends on a symbol"
                    f"{why}; write '?'")
        elif got != DYNAMIC_INDEX and got != want:
            larger = any(w is not None and g != DYNAMIC_INDEX and g > w
                         for w, g in zip(extents, shape))
            why = (": ambiguous, the set does not say where the extra positions lie"
                   if larger else "")
            raise VerifyException(
                f"result shape {shape_str(shape)} does not match the extents "
                f"{shape_str([e if e is not None else DYNAMIC_INDEX for e in extents])} of "
                f"the {kind} under its order map{why}")


def _check_order(order: AffineMap, ndims: int, what: str) -> None:
    if order.num_dims != ndims:
        raise VerifyException(f"{what} order map has {order.num_dims} inputs but the set has "
                              f"{ndims} dims")
    if len(order.results) != order.num_dims:
        raise VerifyException(f"{what} order map must be square (as many results as inputs)")


@irdl_op_definition
class ConstructAccessTileOp(IRDLOperation):
    """`ktdp.construct_access_tile %view[%row0 + %i, %c0] symbols(%n) {access_tile_order = ...,
    access_tile_set = ...} : memref<...> -> !ktdp.access_tile<...>` (spec §4.4)."""

    name = "ktdp.construct_access_tile"
    base = operand_def(MemRefType | TensorType)
    indices = var_operand_def(IndexType)
    symbol_operands = var_operand_def(IndexType)
    result = result_def(AccessTileType)
    base_map = prop_def(AffineMapAttr)
    access_tile_set = prop_def(AffineSetAttr)
    access_tile_order = prop_def(AffineMapAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    traits = traits_def(Pure())
    custom_directives = (SsaSubscripts, Required, CheckedType, TileType)
    assembly_format = (
        "$base `` custom<SsaSubscripts>($indices, $base_map) "
        "(`symbols` `(` $symbol_operands^ `)`)? attr-dict "
        "custom<Required>(ref($access_tile_order)) custom<Required>(ref($access_tile_set)) "
        "`:` custom<CheckedType>(type($base)) `->` "
        "custom<TileType>(type($result), ref($access_tile_set), ref($access_tile_order))")

    def __init__(self, base: SSAValue, indices: Sequence[SSAValue], base_map: AffineMap,
                 tile_set: AffineSet, order: AffineMap, result_type: AccessTileType,
                 symbol_operands: Sequence[SSAValue] = ()):
        super().__init__(operands=[base, indices, symbol_operands], result_types=[result_type],
                         properties={"base_map": AffineMapAttr(base_map),
                                     "access_tile_order": AffineMapAttr(order),
                                     "access_tile_set": AffineSetAttr(tile_set)})

    def verify_(self) -> None:
        aset, order = self.access_tile_set.data, self.access_tile_order.data
        bmap = self.base_map.data
        rank = cast(MemRefType | TensorType, self.base.type).get_num_dims()
        if aset.num_dims != rank:
            raise VerifyException(f"access_tile_set has {aset.num_dims} dims but the base has "
                                  f"rank {rank}")
        if len(bmap.results) != rank:
            raise VerifyException(f"{len(bmap.results)} subscripts for a base of rank {rank}")
        if bmap.num_dims != len(self.indices):
            raise VerifyException("base map inputs must equal the number of index operands")
        if aset.num_symbols != len(self.symbol_operands):
            raise VerifyException(f"access_tile_set has {aset.num_symbols} symbols but "
                                  f"{len(self.symbol_operands)} symbol operands are given")
        _check_order(order, aset.num_dims, "access_tile")
        _result_shape_check("access_tile_set", aset, order,
                            cast(AccessTileType, self.result.type).get_shape())
        self._check_constant_tile_inside_view()

    def _check_constant_tile_inside_view(self) -> None:
        """(P) a tile at constant indices must lie inside its view's coordinate set."""
        view = self.base.owner
        if not isinstance(view, ConstructMemoryViewOp) or self.symbol_operands:
            return
        vset = view.coordinate_set.data
        if vset.num_symbols:
            return
        consts: list[int] = []
        for v in self.indices:
            c = _constant_index(v)
            if c is None:
                return
            consts.append(c)
        aset = self.access_tile_set.data
        try:
            base = [e.eval(consts, []) for e in self.base_map.data.results]
            vineqs, _ = affine.inequalities(vset)
            for coeffs, k in vineqs:
                # min over the tile of coeffs . (base + p) + k must be >= 0
                expr = AffineExpr.constant(0)
                for d, c in enumerate(coeffs[: vset.num_dims]):
                    if c:
                        expr = expr + AffineExpr.dimension(d) * c
                lo, _ = affine.expr_bounds(aset, expr)
                if lo is None:
                    continue
                shift = sum(c * b for c, b in zip(coeffs, base))
                if lo + shift + k < 0:
                    raise VerifyException(
                        f"the access tile at constant indices {consts} reaches outside the "
                        f"view's coordinate_set")
        except affine.NonLinearError:
            return


def _constant_index(v: SSAValue) -> int | None:
    from xdsl.dialects.arith import ConstantOp

    owner = v.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


@irdl_op_definition
class RegionTerminatorOp(IRDLOperation):
    """Implicit terminator of the hidden region of construct_indirect_access_tile."""

    name = "ktdp.region_terminator"
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(ConstructIndirectAccessTileOp),
                                      Pure()))
    assembly_format = "attr-dict"


@irdl_op_definition
class ConstructIndirectAccessTileOp(IRDLOperation):
    """Tiles whose coordinates are partly read from index views (spec §4.5):

    `ktdp.construct_indirect_access_tile intermediate_variables(%b, %t) %X[ind(%Idx[%b]),
    (%t mod 64)] {variables_space_order = ..., variables_space_set = ...} : T, T_idx -> tile`.
    Maps are over dims (captured..., intermediate...).
    """

    name = "ktdp.construct_indirect_access_tile"
    base = operand_def(MemRefType | TensorType)
    indirect_memrefs = var_operand_def(MemRefType | TensorType)
    captured_variables = var_operand_def(IndexType)
    symbol_operands = var_operand_def(IndexType)
    result = result_def(AccessTileType)
    per_dim_subscript_kinds = prop_def(ArrayAttr)
    per_dim_subscript_maps = prop_def(ArrayAttr[AffineMapAttr])
    variables_space_set = prop_def(AffineSetAttr)
    variables_space_order = prop_def(AffineMapAttr)
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    traits = traits_def(SingleBlockImplicitTerminator(RegionTerminatorOp), MemoryReadEffect())
    custom_directives = (IndirectSubscripts, Required, IndirectTypes, CheckedType)
    assembly_format = (
        "`intermediate_variables` `` custom<IndirectSubscripts>($body, $base, $indirect_memrefs, "
        "$captured_variables, $per_dim_subscript_kinds, $per_dim_subscript_maps) "
        "(`symbols` `(` $symbol_operands^ `)`)? attr-dict "
        "custom<Required>(ref($variables_space_order)) custom<Required>(ref($variables_space_set)) "
        "`:` custom<IndirectTypes>(type($base), type($indirect_memrefs)) "
        "`->` custom<CheckedType>(type($result))")

    @property
    def intermediate_variables(self) -> Sequence[SSAValue]:
        return self.body.block.args

    def verify_(self) -> None:
        vss, vso = self.variables_space_set.data, self.variables_space_order.data
        _check_order(vso, vss.num_dims, "variables_space")
        if len(self.intermediate_variables) != vss.num_dims:
            raise VerifyException(f"{len(self.intermediate_variables)} intermediate variables "
                                  f"but variables_space_set has {vss.num_dims} dims")
        if vss.num_symbols != len(self.symbol_operands):
            raise VerifyException(f"variables_space_set has {vss.num_symbols} symbols but "
                                  f"{len(self.symbol_operands)} symbol operands are given")
        kinds, maps = self.per_dim_subscript_kinds.data, self.per_dim_subscript_maps.data
        rank = cast(MemRefType | TensorType, self.base.type).get_num_dims()
        if len(kinds) != len(maps) or len(kinds) != rank:
            raise VerifyException(f"expects one subscript per base dimension ({rank}), got "
                                  f"{len(kinds)} kinds and {len(maps)} maps")
        if not all(_is_bool(k) for k in kinds):
            raise VerifyException("per_dim_subscript_kinds must be booleans")
        n_ind = sum(1 for k in kinds if _is_true(k))
        if n_ind != len(self.indirect_memrefs):
            raise VerifyException(f"{n_ind} indirect subscripts but "
                                  f"{len(self.indirect_memrefs)} index views")
        ndims = len(self.captured_variables) + vss.num_dims
        views = iter(self.indirect_memrefs)
        for d, (k, m) in enumerate(zip(kinds, maps)):
            amap = m.data
            if amap.num_dims != ndims:
                raise VerifyException(f"subscript map {d} has {amap.num_dims} inputs, expected "
                                      f"{ndims} (captured + intermediate variables)")
            if (big := affine.wide_constant(amap)) is not None:
                raise VerifyException(f"subscript map {d} holds the constant {big}, beyond the "
                                      "64-bit range of index values")
            if _is_true(k):
                view = next(views)
                vt = cast(MemRefType | TensorType, view.type)
                if len(amap.results) != vt.get_num_dims():
                    raise VerifyException(f"indirect subscript {d} has {len(amap.results)} "
                                          f"indices for an index view of rank {vt.get_num_dims()}")
                et = vt.get_element_type()
                if not isinstance(et, IntegerType | IndexType):
                    raise VerifyException(f"index view of subscript {d} must hold integers or "
                                          f"index, not {et}")
            elif len(amap.results) != 1:
                raise VerifyException(f"direct subscript {d} must be a single expression")
        _result_shape_check("variables_space_set", vss, vso,
                            cast(AccessTileType, self.result.type).get_shape())


def _is_bool(a: Attribute) -> bool:
    return isinstance(a, IntegerAttr) and a.type == IntegerType(1)


def _is_true(a: Attribute) -> bool:
    return _is_bool(a) and cast(IntegerAttr, a).value.data != 0


def tile_base_view(tile: SSAValue) -> SSAValue | None:
    """The memref/tensor an access tile addresses."""
    owner = tile.owner
    if isinstance(owner, ConstructAccessTileOp | ConstructIndirectAccessTileOp):
        return owner.base
    return None


def _check_tile_data(op: Operation, tile: SSAValue, data: Attribute, what: str) -> None:
    tshape = cast(AccessTileType, tile.type).get_shape()
    if not isinstance(data, TensorType):
        raise VerifyException(f"{what} must be a ranked tensor")
    if tuple(data.get_shape()) != tshape:
        raise VerifyException(
            "access tile shape must match result tensor shape" if what == "result"
            else "data tile shape must match access tile shape")
    base = tile_base_view(tile)
    if base is not None:
        et = cast(MemRefType | TensorType, base.type).get_element_type()
        if data.get_element_type() != et:
            raise VerifyException(f"{what} element type {data.get_element_type()} differs from "
                                  f"the element type {et} of the tile's view")


@irdl_op_definition
class LoadOp(IRDLOperation):
    """`%d = ktdp.load %t : <32x64xindex> -> tensor<32x64xf16>`: the only way data is read."""

    name = "ktdp.load"
    tile = operand_def(AccessTileType)
    result = result_def(TensorType)
    traits = traits_def(MemoryReadEffect())
    custom_directives = (ShortType, CheckedType)
    assembly_format = ("$tile attr-dict `:` custom<ShortType>(type($tile)) "
                       "`->` custom<CheckedType>(type($result))")

    def __init__(self, tile: SSAValue, result_type: TensorType):
        super().__init__(operands=[tile], result_types=[result_type])

    def verify_(self) -> None:
        _check_tile_data(self, self.tile, self.result.type, "result")


@irdl_op_definition
class StoreOp(IRDLOperation):
    """`ktdp.store %d, %t : tensor<32x64xf16>, <32x64xindex>`: the only way data is written."""

    name = "ktdp.store"
    data = operand_def(TensorType)
    tile = operand_def(AccessTileType)
    traits = traits_def(MemoryWriteEffect())
    custom_directives = (ShortType, CheckedType)
    assembly_format = ("$data `,` $tile attr-dict `:` custom<CheckedType>(type($data)) "
                       "`,` custom<ShortType>(type($tile))")

    def __init__(self, data: SSAValue, tile: SSAValue):
        super().__init__(operands=[data, tile])

    def verify_(self) -> None:
        _check_tile_data(self, self.tile, self.data.type, "data")
        base = tile_base_view(self.tile)
        if base is not None and isinstance(base.type, TensorType):
            raise VerifyException("cannot store through a tile whose base is a tensor (no "
                                  "destination memory)")


class ExtractKind(StrEnum):
    """What `runtime_arg_extract` reads; stored as an i32 (0, 1, 2) like the upstream enum."""

    VALUE = "value"
    GRANULARITY = "granularity"
    UPPERBOUND = "upperbound"


_EXTRACT_KINDS = tuple(ExtractKind)


@irdl_op_definition
class RuntimeArgExtractOp(IRDLOperation):
    """`%M = ktdp.runtime_arg_extract value from %M_sym : !ktdp.runtime_arg<...> -> index`."""

    name = "ktdp.runtime_arg_extract"
    arg = operand_def(RuntimeArgType)
    result = result_def()
    kind = prop_def(IntegerAttr[I32])
    traits = traits_def(Pure())
    KEYWORDS: ClassVar[tuple[str, ...]] = tuple(k.value for k in _EXTRACT_KINDS)
    KEYWORD_ROLE: ClassVar[str] = "extraction kind"
    custom_directives = (KeywordIndex, CheckedType)
    assembly_format = ("custom<KeywordIndex>($kind) `from` $arg attr-dict "
                       "`:` custom<CheckedType>(type($arg)) `->` type($result)")

    def __init__(self, kind: ExtractKind, arg: SSAValue, result_type: Attribute):
        super().__init__(operands=[arg], result_types=[result_type],
                         properties={"kind": IntegerAttr(_EXTRACT_KINDS.index(kind), i32)})

    @property
    def extract_kind(self) -> ExtractKind:
        k = self.kind.value.data
        if not 0 <= k < len(_EXTRACT_KINDS):
            raise VerifyException(f"unknown extraction kind {k}")
        return _EXTRACT_KINDS[k]

    def verify_(self) -> None:
        kind = self.extract_kind
        at = cast(RuntimeArgType, self.arg.type)
        rt = self.result.type
        if kind is ExtractKind.VALUE:
            if rt != at.value_type:
                raise VerifyException(f"result type ({rt}) must match the runtime_arg value type "
                                      f"({at.value_type})")
            return
        if getattr(at, f"{kind.value}_value") is None:
            raise VerifyException(f"cannot extract {kind.value} from runtime_arg that "
                                  "doesn't have one")
        if not isinstance(rt, IndexType):
            raise VerifyException(f"result type must be index when extracting {kind.value}")


Ktdp = Dialect(
    "ktdp",
    [
        GetComputeTileIdOp,
        ConstructMemoryViewOp,
        ConstructDistributedMemoryViewOp,
        ConstructAccessTileOp,
        ConstructIndirectAccessTileOp,
        RegionTerminatorOp,
        LoadOp,
        StoreOp,
        RuntimeArgExtractOp,
        InterTileProduceOp,
        InterTileReduceOp,
        InterTileConsumeOp,
        YieldPartialOp,
        YieldReducedOp,
    ],
    [MemorySpaceAttr, SpyreMemorySpaceAttr, AccessTileType, RuntimeArgType, TileFutureType],
)

__all__ = [
    "AccessTileType", "ConstructAccessTileOp", "ConstructDistributedMemoryViewOp",
    "ConstructIndirectAccessTileOp", "ConstructMemoryViewOp", "ExtractKind",
    "GetComputeTileIdOp", "InterTileConsumeOp", "InterTileProduceOp", "InterTileReduceOp",
    "Ktdp", "LoadOp", "MemoryKind", "MemorySpaceAttr", "RegionTerminatorOp",
    "RuntimeArgExtractOp", "RuntimeArgType", "SpyreMemorySpaceAttr", "StoreOp",
    "TileFutureType", "YieldPartialOp", "YieldReducedOp", "box_set", "kernel_grid",
    "tile_base_view",
]
