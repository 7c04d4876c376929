"""FIFO and transfer ops of `ktdf` (shared/spec/schedule-ir.md §3.2).

Data moves explicitly: `fifo.allocate` makes slots of a conceptually infinite FIFO,
`read_from_fifo` / `write_to_fifo` consume / produce one slot, `data_transfer` moves a box
between memrefs and FIFO slots, and `ind_data_transfer` (project extension) gathers or
scatters through index buffers. Each side of a transfer is `%v ([subscripts])? (size [sizes])?`: subscripts are
affine expressions of SSA ids (`%i + 3`) held as a dims-only map, sizes mix integers and SSA
values. Transfers and FIFO accesses carry read/write effects on the values they touch, so the
greedy rewriter never erases them. The Dialect is in ktdf.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    i64,
)
from xdsl.dialects.utils.dynamic_index_list import (
    split_dynamic_index_list,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap, AffineSet
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import EffectInstance, HasCanonicalizationPatternsTrait, MemoryEffectKind
from xdsl.utils.exceptions import VerifyException

from scheduler.dialects.directives import (
    CellOrSlot,
    CheckedType,
    IndirectCell,
    IndirectOrCell,
    IndTransferTypes,
    StrippedType,
)
from scheduler.dialects.effects import AllocatesResults
from scheduler.dialects.ktdf_sides import (
    Sizes,
    TransferMixin,
    build_side,
    mixed_sizes,
    mode_attr,
    side_count,
    transfer_effects,
    verify_pair,
    verify_side,
    verify_sizes,
)
from scheduler.dialects.ktdf_types import (
    FifoSlotType,
    OwnEffects,
    drop_none,
    element_type_of,
    is_true,
)

_READ, _WRITE = MemoryEffectKind.READ, MemoryEffectKind.WRITE

# --------------------------------------------------------------------------------------------
# FIFO slots
# --------------------------------------------------------------------------------------------


class _EraseUnusedAllocate(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, FifoAllocateOp) and all(r.first_use is None for r in op.slots):
            rewriter.erase(op)


class _FifoAllocateCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (_EraseUnusedAllocate(),)


@irdl_op_definition
class FifoAllocateOp(IRDLOperation):
    """`%s0, %s1 = ktdf.fifo.allocate(%n) -> !ktdf.fifo.slot<... ?xf16>, !ktdf.fifo.slot<...>`:
    slots of a conceptually infinite FIFO, used in allocation order, each passing exactly its
    N elements before the next; after the last the FIFO rolls back to the first. One size
    operand per `?` slot, in order. Unused allocations are erased by canonicalization."""

    name = "ktdf.fifo.allocate"
    dynamic_sizes = var_operand_def(IndexType)
    slots = var_result_def(FifoSlotType)
    traits = traits_def(_FifoAllocateCanonicalization(), AllocatesResults())
    assembly_format = "`(` $dynamic_sizes `)` attr-dict `->` type($slots)"

    def __init__(self, slot_types: Sequence[FifoSlotType],
                 dynamic_sizes: Sequence[SSAValue] = ()):
        super().__init__(operands=[dynamic_sizes], result_types=[slot_types])

    def verify_(self) -> None:
        n_dyn = sum(1 for s in self.slots if cast(FifoSlotType, s.type).is_dynamic)
        if len(self.dynamic_sizes) != n_dyn:
            raise VerifyException(f"number of dynamic size operands ({len(self.dynamic_sizes)}) "
                                  "must match number of dynamic sizes in result types "
                                  f"({n_dyn})")


def _check_fifo_data(slot: Attribute, data: Attribute) -> None:
    if not isinstance(slot, FifoSlotType):
        return  # reported by the operand constraint
    et = element_type_of(data)
    if et != slot.element_type:
        raise VerifyException(f"element type of the FIFO slot ({slot.element_type}) and of the "
                              f"data ({et}) differ")
    shape = cast(TensorType | MemRefType, data).get_shape()
    data_dynamic = any(d == DYNAMIC_INDEX for d in shape)
    if data_dynamic != slot.is_dynamic:
        raise VerifyException("FIFO slot and data must both be dynamic or both be static")
    n = 1
    for d in shape:
        n *= d
    if not data_dynamic and n != slot.num_elements:
        raise VerifyException(f"data total elements ({n}) must match FIFO slot size "
                              f"({slot.num_elements})")


@irdl_op_definition
class ReadFromFifoOp(IRDLOperation):
    """`%d = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>`: consume
    one slot. A memref result is an unrealized buffer scoped to the parent region. The slot
    type prints unqualified (upstream quirk); both spellings parse."""

    name = "ktdf.read_from_fifo"
    fifo_slot = operand_def(FifoSlotType)
    result = result_def(TensorType | MemRefType)
    traits = traits_def(OwnEffects())
    assembly_format = ("$fifo_slot attr-dict `:` custom<StrippedType>(type($fifo_slot)) `->` "
                       "custom<CheckedType>(type($result))")
    custom_directives = (CheckedType, StrippedType)

    def __init__(self, slot: SSAValue, result_type: Attribute):
        super().__init__(operands=[slot], result_types=[result_type])

    def memory_effects(self) -> set[EffectInstance]:
        return {EffectInstance(_READ, self.fifo_slot), EffectInstance(_WRITE, self.fifo_slot)}

    def verify_(self) -> None:
        _check_fifo_data(self.fifo_slot.type, self.result.type)


@irdl_op_definition
class WriteToFifoOp(IRDLOperation):
    """`ktdf.write_to_fifo %d, %s : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>`: produce one
    slot (same rules as `read_from_fifo`)."""

    name = "ktdf.write_to_fifo"
    data = operand_def(TensorType | MemRefType)
    fifo_slot = operand_def(FifoSlotType)
    traits = traits_def(OwnEffects())
    assembly_format = ("$data `,` $fifo_slot attr-dict `:` custom<CheckedType>(type($data)) `,` "
                       "custom<StrippedType>(type($fifo_slot))")
    custom_directives = (CheckedType, StrippedType)

    def __init__(self, value: SSAValue, slot: SSAValue):
        super().__init__(operands=[value, slot])

    def memory_effects(self) -> set[EffectInstance]:
        effects = {EffectInstance(_WRITE, self.fifo_slot)}
        if isinstance(self.data.type, MemRefType):
            effects.add(EffectInstance(_READ, self.data))
        return effects

    def verify_(self) -> None:
        _check_fifo_data(self.fifo_slot.type, self.data.type)


@irdl_op_definition
class DataTransferOp(TransferMixin):
    """`ktdf.data_transfer from %A[%i, %j] size [1, 64] to %l1[%c0, %c0] size [1, 64] : T, T`.

    The source region is the box of `sizes` at `source_map(source_indices)`, enumerated
    row-major; the destination likewise; element k goes to element k. A FIFO side has no
    subscripts and moves its slot. Kinds: memref->memref (DMA), memref->FIFO, FIFO->memref.

    Build with `DataTransferOp(src, [i, 0], None, [1, 64], dst, [0, 0], None, [1, 64])`:
    indices may hold ints when the map is None (identity over the SSA indices), sizes mix
    ints and SSA values, None sizes leave the side without `size [...]`.

    Masked (Triton-style) transfers, after the sides: `source_mask S` reads the source
    elements whose coordinate (subscripts + box offset) lies outside the integer set S as 0
    (the padding value); `dest_mask S` drops the writes outside S. S has one dimension per
    dimension of that side's memref, its symbols are `mask_symbols(...)` (a view's dynamic
    sizes, say): `... to %buf[0] size [32] source_mask affine_set<(d0)[s0] : (d0 >= 0,
    -d0 + s0 - 1 >= 0)> mask_symbols(%n) : ...`.
    """

    name = "ktdf.data_transfer"
    source = operand_def(MemRefType | FifoSlotType)
    source_indices = var_operand_def(IndexType)
    source_sizes = var_operand_def(IndexType)
    destination = operand_def(MemRefType | FifoSlotType)
    dest_indices = var_operand_def(IndexType)
    dest_sizes = var_operand_def(IndexType)
    static_source_sizes = opt_prop_def(DenseArrayBase.constr(i64))
    static_dest_sizes = opt_prop_def(DenseArrayBase.constr(i64))
    source_map = opt_prop_def(AffineMapAttr)
    dest_map = opt_prop_def(AffineMapAttr)
    mask_symbols = var_operand_def(IndexType)
    source_mask = opt_prop_def(AffineSetAttr)
    dest_mask = opt_prop_def(AffineSetAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(OwnEffects())
    assembly_format = (
        "`from` custom<CellOrSlot>($source, $source_indices, $source_map, $source_sizes, "
        "$static_source_sizes) "
        "`to` custom<CellOrSlot>($destination, $dest_indices, $dest_map, $dest_sizes, "
        "$static_dest_sizes) "
        "(`source_mask` $source_mask^)? (`dest_mask` $dest_mask^)? "
        "(`mask_symbols` `(` $mask_symbols^ `)`)? "
        "attr-dict `:` custom<CheckedType>(type($source)) `,` "
        "custom<CheckedType>(type($destination))")
    custom_directives = (CellOrSlot, CheckedType)

    def __init__(self, source: SSAValue, source_indices: Sequence[SSAValue | int],
                 source_map: AffineMap | AffineMapAttr | None, source_sizes: Sizes,
                 dest: SSAValue, dest_indices: Sequence[SSAValue | int],
                 dest_map: AffineMap | AffineMapAttr | None, dest_sizes: Sizes,
                 transfer_mode: str | None = None, *, source_mask: AffineSet | None = None,
                 dest_mask: AffineSet | None = None, mask_symbols: Sequence[SSAValue] = ()):
        s_idx, s_map, s_static, s_dyn = build_side(source, source_indices, source_map,
                                                   source_sizes)
        d_idx, d_map, d_static, d_dyn = build_side(dest, dest_indices, dest_map, dest_sizes)
        super().__init__(
            operands=[source, s_idx, s_dyn, dest, d_idx, d_dyn, list(mask_symbols)],
            properties=drop_none({
                "static_source_sizes": s_static, "static_dest_sizes": d_static,
                "source_map": s_map, "dest_map": d_map,
                "source_mask": None if source_mask is None else AffineSetAttr(source_mask),
                "dest_mask": None if dest_mask is None else AffineSetAttr(dest_mask)}),
            attributes=drop_none({"transfer_mode": mode_attr(transfer_mode)}))

    @property
    def mask(self) -> tuple[str, AffineSet] | None:
        """(`source` or `dest`, the set) of a masked transfer."""
        if self.source_mask is not None:
            return "source", self.source_mask.data
        if self.dest_mask is not None:
            return "dest", self.dest_mask.data
        return None

    @property
    def source_is_fifo(self) -> bool:
        return isinstance(self.source.type, FifoSlotType)

    @property
    def source_is_memref(self) -> bool:
        return isinstance(self.source.type, MemRefType)

    @property
    def kind(self) -> str:
        """`memref_to_memref`, `memref_to_fifo` or `fifo_to_memref`."""
        src = "fifo" if self.source_is_fifo else "memref"
        return f"{src}_to_{'fifo' if self.dest_is_fifo else 'memref'}"

    @property
    def mixed_source_sizes(self) -> list[int | SSAValue] | None:
        return mixed_sizes(self.static_source_sizes, self.source_sizes)

    @property
    def source_count(self) -> int | None:
        """Elements the source sends, when static."""
        return side_count(self.source, self.static_source_sizes)

    def memory_effects(self) -> set[EffectInstance]:
        return transfer_effects(self.source, self.destination)

    def verify_(self) -> None:
        verify_side("source", self.source, self.source_map, self.source_indices,
                     self.static_source_sizes, self.source_sizes)
        verify_side("dest", self.destination, self.dest_map, self.dest_indices,
                     self.static_dest_sizes, self.dest_sizes)
        verify_pair(self, self.source_count, self.dest_count)
        self.verify_mask()

    def verify_mask(self) -> None:
        if self.source_mask is not None and self.dest_mask is not None:
            raise VerifyException("a transfer masks one side: source_mask or dest_mask")
        mask = self.mask
        if mask is None:
            if self.mask_symbols:
                raise VerifyException("mask_symbols without a source_mask or dest_mask")
            return
        side, aset = mask
        v = self.source if side == "source" else self.destination
        if not isinstance(v.type, MemRefType):
            raise VerifyException(f"{side}_mask needs a memref {side}, not a FIFO slot")
        if aset.num_dims != v.type.get_num_dims():
            raise VerifyException(f"{side}_mask has {aset.num_dims} dimension(s) but the "
                                  f"{side} has rank {v.type.get_num_dims()}")
        if aset.num_symbols != len(self.mask_symbols):
            raise VerifyException(f"{side}_mask has {aset.num_symbols} symbol(s) but "
                                  f"{len(self.mask_symbols)} mask_symbols are given")


# --------------------------------------------------------------------------------------------
# indirect transfer (project extension)
# --------------------------------------------------------------------------------------------

Subscript = AffineExpr | tuple[SSAValue, Sequence[AffineExpr]]


def _subscript_props(subscripts: Sequence[Subscript], n: int
                     ) -> tuple[ArrayAttr, ArrayAttr, list[SSAValue]]:
    """Kinds, maps over `n` subscript operands and the index buffers of one side."""
    kinds: list[Attribute] = []
    maps: list[AffineMapAttr] = []
    buffers: list[SSAValue] = []
    for sub in subscripts:
        if isinstance(sub, AffineExpr):
            exprs: Sequence[AffineExpr] = (sub,)
        else:
            buffers.append(sub[0])
            exprs = sub[1]
        kinds.append(BoolAttr.from_bool(not isinstance(sub, AffineExpr)))
        maps.append(AffineMapAttr(AffineMap(n, 0, tuple(exprs))))
    return ArrayAttr(kinds), ArrayAttr(maps), buffers


def _subscripts_of(kinds: ArrayAttr | None, maps: ArrayAttr | None,
                   buffers: Sequence[SSAValue]) -> list[Subscript]:
    out: list[Subscript] = []
    if kinds is None or maps is None:
        return out
    it = iter(buffers)
    for k, m in zip(kinds.data, maps.data):
        results = cast(AffineMapAttr, m).data.results
        out.append((next(it), results) if is_true(k) else results[0])
    return out


def _verify_subscripts(side: str, rank: int, kinds: ArrayAttr, maps: ArrayAttr,
                       buffers: Sequence[SSAValue], n: int) -> None:
    """One subscript per dimension of a memref side, each a map over its `n` operands."""
    if len(kinds.data) != rank or len(maps.data) != rank:
        raise VerifyException(f"expects one subscript per {side} dimension ({rank}), got "
                              f"{len(kinds.data)} kinds and {len(maps.data)} maps")
    if not all(isinstance(k, IntegerAttr) and k.type == IntegerType(1) for k in kinds.data):
        raise VerifyException(f"{'per_dim' if side == 'source' else 'dest'}_subscript_kinds "
                              "must be booleans")
    n_ind = sum(1 for k in kinds.data if is_true(k))
    if n_ind != len(buffers):
        raise VerifyException(f"{n_ind} indirect subscripts but {len(buffers)} index buffers"
                              + ("" if side == "source" else f" on the {side}"))
    it = iter(buffers)
    for d, (k, m) in enumerate(zip(kinds.data, maps.data)):
        amap = cast(AffineMapAttr, m).data
        if amap.num_dims != n or amap.num_symbols:
            raise VerifyException(f"subscript map {d} has {amap.num_dims} dims and "
                                  f"{amap.num_symbols} symbols, expected {n} dims (the "
                                  "subscript operands) and no symbols")
        if not is_true(k):
            if len(amap.results) != 1:
                raise VerifyException(f"direct subscript {d} must be a single expression")
            continue
        bt = cast(MemRefType, next(it).type)
        if len(amap.results) != bt.get_num_dims():
            raise VerifyException(f"indirect subscript {d} has {len(amap.results)} indices "
                                  f"for an index buffer of rank {bt.get_num_dims()}")
        if not isinstance(bt.get_element_type(), IntegerType | IndexType):
            raise VerifyException(f"index buffer of subscript {d} must hold integers or "
                                  f"index, not {bt.get_element_type()}")


def _verify_memref_sizes(side: str, t: MemRefType, static: DenseArrayBase | None,
                         dynamic: Sequence[SSAValue]) -> None:
    """One size per dimension of a memref side, holes matched by operands."""
    rank = t.get_num_dims()
    n_sizes = 0 if static is None else len(static.get_values())
    if n_sizes != rank:
        raise VerifyException(f"{side} size count ({n_sizes}) must match memref rank "
                              f"({rank})")
    verify_sizes(side, static, dynamic)


@irdl_op_definition
class IndDataTransferOp(TransferMixin):
    """`ktdf.ind_data_transfer from %X[ind(%idx[%b]), (%h), (%c0)] size [1, 1, 128] to
    %l1[%c0, %c0, %c0] size [1, 1, 128] : memref<1000x8x128xf16, "DDR">, memref<16xi32, "L1">,
    memref<1x1x128xf16, "L1">` (project extension, lowered to the agen indirect ops): a
    gather, or, with `ind(...)` on the destination, a scatter
    (`from %buf[0, 0] size [1, 64] to %Y[ind(%idx[0]), (%v1)] size [1, 64]`).

    A memref side has one subscript per dimension over its SSA operands (`source_indices`,
    `dest_indices`, first-use order): `ind(%buf[exprs])` reads the coordinate from an index
    buffer resident in a memory the transfer unit reads, `(expr)` is direct. The box of that
    side starts at that coordinate; along an indirect dimension offset k reads the index at
    the buffer position whose last subscript is advanced by k (consecutive indices; size 1 =
    one index). A destination with only direct subscripts is held as `dest_map`, as in
    `data_transfer`; either side may be a FIFO slot (no subscripts); one side at least is
    indirect. The types: source, index buffers (the source's, then the destination's),
    destination. Equal indices of a scatter write in the box's row-major order: the last
    wins.

    Build with `IndDataTransferOp(src, [b, h], [(idx, [d0]), d1, AffineExpr.constant(0)],
    [1, 1, 128], dst, [0, 0, 0], None, [1, 1, 128])`: a subscript is an AffineExpr over dims
    indexing the side's operands (direct) or `(buffer, exprs)` (indirect); a FIFO source has
    `subscripts=None`; `dest_subscripts` makes the destination indirect (its operands are
    `dest_indices`).
    """

    name = "ktdf.ind_data_transfer"
    source = operand_def(MemRefType | FifoSlotType)
    index_buffers = var_operand_def(MemRefType)
    source_indices = var_operand_def(IndexType)
    source_sizes = var_operand_def(IndexType)
    destination = operand_def(MemRefType | FifoSlotType)
    dest_index_buffers = var_operand_def(MemRefType)
    dest_indices = var_operand_def(IndexType)
    dest_sizes = var_operand_def(IndexType)
    per_dim_subscript_kinds = opt_prop_def(ArrayAttr)
    per_dim_subscript_maps = opt_prop_def(ArrayAttr[AffineMapAttr])
    static_source_sizes = opt_prop_def(DenseArrayBase.constr(i64))
    static_dest_sizes = opt_prop_def(DenseArrayBase.constr(i64))
    dest_map = opt_prop_def(AffineMapAttr)
    dest_subscript_kinds = opt_prop_def(ArrayAttr)
    dest_subscript_maps = opt_prop_def(ArrayAttr[AffineMapAttr])
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(OwnEffects())
    assembly_format = (
        "`from` custom<IndirectCell>($source, $index_buffers, $source_indices, "
        "$per_dim_subscript_kinds, $per_dim_subscript_maps, $source_sizes, "
        "$static_source_sizes) "
        "`to` custom<IndirectOrCell>($destination, $dest_index_buffers, $dest_indices, "
        "$dest_subscript_kinds, $dest_subscript_maps, $dest_map, $dest_sizes, "
        "$static_dest_sizes) "
        "attr-dict `:` custom<IndTransferTypes>(type($source), type($index_buffers), "
        "type($dest_index_buffers), type($destination))")
    custom_directives = (IndirectCell, IndirectOrCell, IndTransferTypes)

    def __init__(self, source: SSAValue, source_indices: Sequence[SSAValue],
                 subscripts: Sequence[Subscript] | None, source_sizes: Sizes,
                 dest: SSAValue, dest_indices: Sequence[SSAValue | int] = (),
                 dest_map: AffineMap | AffineMapAttr | None = None, dest_sizes: Sizes = None,
                 transfer_mode: str | None = None, *,
                 dest_subscripts: Sequence[Subscript] | None = None):
        props: dict[str, Attribute | None] = {}
        buffers: list[SSAValue] = []
        if subscripts is not None:
            kinds, maps, buffers = _subscript_props(subscripts, len(source_indices))
            props |= {"per_dim_subscript_kinds": kinds, "per_dim_subscript_maps": maps}
        s_dyn: list[SSAValue] = []
        if source_sizes is not None:
            s_static, s_dyn = split_dynamic_index_list(source_sizes, DYNAMIC_INDEX)
            props["static_source_sizes"] = DenseArrayBase.from_list(i64, s_static)
        dest_buffers: list[SSAValue] = []
        if dest_subscripts is None:
            d_idx, d_map, d_static, d_dyn = build_side(dest, dest_indices, dest_map,
                                                       dest_sizes)
            props["dest_map"] = d_map
        else:
            d_idx = [cast(SSAValue, i) for i in dest_indices]
            kinds, maps, dest_buffers = _subscript_props(dest_subscripts, len(d_idx))
            props |= {"dest_subscript_kinds": kinds, "dest_subscript_maps": maps}
            _, _, d_static, d_dyn = build_side(dest, [], None, dest_sizes)
        props["static_dest_sizes"] = d_static
        super().__init__(
            operands=[source, buffers, list(source_indices), s_dyn, dest, dest_buffers, d_idx,
                      d_dyn],
            properties=drop_none(props),
            attributes=drop_none({"transfer_mode": mode_attr(transfer_mode)}))

    @property
    def subscripts(self) -> list[Subscript]:
        """Per source dimension: the direct AffineExpr, or `(index buffer, exprs)`; empty
        for a FIFO source."""
        return _subscripts_of(self.per_dim_subscript_kinds, self.per_dim_subscript_maps,
                              self.index_buffers)

    @property
    def dest_subscripts(self) -> list[Subscript] | None:
        """Per destination dimension, as `subscripts`, when the destination is indirect."""
        if self.dest_subscript_kinds is None:
            return None
        return _subscripts_of(self.dest_subscript_kinds, self.dest_subscript_maps,
                              self.dest_index_buffers)

    @property
    def is_scatter(self) -> bool:
        """Whether the destination is addressed through index buffers."""
        return self.dest_subscript_kinds is not None

    @property
    def all_index_buffers(self) -> list[SSAValue]:
        """The index buffers of both sides (what the transfer reads besides its source)."""
        return [*self.index_buffers, *self.dest_index_buffers]

    @property
    def source_is_fifo(self) -> bool:
        return isinstance(self.source.type, FifoSlotType)

    @property
    def mixed_source_sizes(self) -> list[int | SSAValue] | None:
        return mixed_sizes(self.static_source_sizes, self.source_sizes)

    @property
    def source_count(self) -> int | None:
        return side_count(self.source, self.static_source_sizes)

    def memory_effects(self) -> set[EffectInstance]:
        return transfer_effects(self.source, self.destination, self.all_index_buffers)

    def verify_(self) -> None:
        self._verify_source()
        self._verify_dest()
        if not any(not isinstance(s, AffineExpr) for s in
                   [*self.subscripts, *(self.dest_subscripts or ())]):
            raise VerifyException("an indirect transfer needs an ind(...) subscript on its "
                                  "source or its destination (else use ktdf.data_transfer)")
        verify_pair(self, self.source_count, self.dest_count)

    def _verify_source(self) -> None:
        kinds, maps = self.per_dim_subscript_kinds, self.per_dim_subscript_maps
        t = self.source.type
        if not isinstance(t, MemRefType):
            if kinds is not None or maps is not None or self.index_buffers \
                    or self.source_indices:
                raise VerifyException("a FIFO source has no subscripts")
            verify_sizes("source", self.static_source_sizes, self.source_sizes)
            return
        if kinds is None or maps is None:
            raise VerifyException("a memref source needs per_dim_subscript_kinds and "
                                  "per_dim_subscript_maps")
        _verify_subscripts("source", t.get_num_dims(), kinds, maps, self.index_buffers,
                           len(self.source_indices))
        _verify_memref_sizes("source", t, self.static_source_sizes, self.source_sizes)

    def _verify_dest(self) -> None:
        kinds, maps = self.dest_subscript_kinds, self.dest_subscript_maps
        if kinds is None and maps is None:
            if self.dest_index_buffers:
                raise VerifyException("index buffers on a direct destination")
            verify_side("dest", self.destination, self.dest_map, self.dest_indices,
                        self.static_dest_sizes, self.dest_sizes)
            return
        t = self.destination.type
        if kinds is None or maps is None or self.dest_map is not None or not isinstance(
                t, MemRefType):
            raise VerifyException("an indirect destination is a memref with "
                                  "dest_subscript_kinds and dest_subscript_maps, and no "
                                  "dest_map")
        _verify_subscripts("destination", t.get_num_dims(), kinds, maps,
                           self.dest_index_buffers, len(self.dest_indices))
        _verify_memref_sizes("dest", t, self.static_dest_sizes, self.dest_sizes)


__all__ = [
    "DataTransferOp", "FifoAllocateOp", "IndDataTransferOp", "ReadFromFifoOp", "Subscript",
    "WriteToFifoOp", "build_side",
]
