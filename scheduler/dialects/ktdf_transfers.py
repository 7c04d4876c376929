"""FIFO and transfer ops of `ktdf` (shared/spec/schedule-ir.md §3.2).

Data moves explicitly: `fifo.allocate` makes slots of a conceptually infinite FIFO,
`read_from_fifo` / `write_to_fifo` consume / produce one slot, `data_transfer` moves a box
between memrefs and FIFO slots, and `ind_data_transfer` (project extension) gathers through an
index buffer. Each side of a transfer is `%v ([subscripts])? (size [sizes])?`: subscripts are
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
    get_dynamic_index_list,
    split_dynamic_index_list,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.printer import Printer
from xdsl.traits import EffectInstance, HasCanonicalizationPatternsTrait, MemoryEffectKind
from xdsl.utils.exceptions import VerifyException

from ktir.diagnostics import ssa_name
from ktir.dialects.subscripts import (
    SubscriptParser,
    format_affine_expr,
)
from scheduler.dialects.effects import AllocatesResults
from scheduler.dialects.ktdf_sides import (
    ParsedSide,
    Sizes,
    TransferMixin,
    build_side,
    flatten,
    mixed_sizes,
    mode_attr,
    parse_side,
    parse_sizes,
    print_side,
    print_sizes,
    segments,
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
    parse_fifo_or_type,
)

_READ, _WRITE = MemoryEffectKind.READ, MemoryEffectKind.WRITE
_DATA, _DATA_WHAT = (TensorType, MemRefType), "a ranked tensor or memref type"
_SIDE, _SIDE_WHAT = (MemRefType, FifoSlotType), "a memref or FIFO slot type"

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

    def __init__(self, slot: SSAValue, result_type: Attribute):
        super().__init__(operands=[slot], result_types=[result_type])

    def memory_effects(self) -> set[EffectInstance]:
        return {EffectInstance(_READ, self.fifo_slot), EffectInstance(_WRITE, self.fifo_slot)}

    @classmethod
    def parse(cls, parser: Parser) -> ReadFromFifoOp:
        slot = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        st = parse_fifo_or_type(parser, (FifoSlotType,), "a FIFO slot type")
        parser.parse_punctuation("->")
        op = cls(parser.resolve_operand(slot, st), parse_fifo_or_type(parser, _DATA, _DATA_WHAT))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.fifo_slot)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        _print_slot_type(printer, self.fifo_slot.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        _check_fifo_data(self.fifo_slot.type, self.result.type)


def _print_slot_type(printer: Printer, t: Attribute) -> None:
    if isinstance(t, FifoSlotType):
        t.print_parameters(printer)  # upstream's unqualified `<"A" -> "B", 64xf16>`
    else:
        printer.print_attribute(t)


@irdl_op_definition
class WriteToFifoOp(IRDLOperation):
    """`ktdf.write_to_fifo %d, %s : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>`: produce one
    slot (same rules as `read_from_fifo`)."""

    name = "ktdf.write_to_fifo"
    data = operand_def(TensorType | MemRefType)
    fifo_slot = operand_def(FifoSlotType)
    traits = traits_def(OwnEffects())

    def __init__(self, value: SSAValue, slot: SSAValue):
        super().__init__(operands=[value, slot])

    def memory_effects(self) -> set[EffectInstance]:
        effects = {EffectInstance(_WRITE, self.fifo_slot)}
        if isinstance(self.data.type, MemRefType):
            effects.add(EffectInstance(_READ, self.data))
        return effects

    @classmethod
    def parse(cls, parser: Parser) -> WriteToFifoOp:
        data = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        slot = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        dt = parse_fifo_or_type(parser, _DATA, _DATA_WHAT)
        parser.parse_punctuation(",")
        st = parse_fifo_or_type(parser, (FifoSlotType,), "a FIFO slot type")
        op = cls(parser.resolve_operand(data, dt), parser.resolve_operand(slot, st))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.data, self.fifo_slot), printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.data.type)
        printer.print_string(", ")
        _print_slot_type(printer, self.fifo_slot.type)

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
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(OwnEffects())

    def __init__(self, source: SSAValue, source_indices: Sequence[SSAValue | int],
                 source_map: AffineMap | AffineMapAttr | None, source_sizes: Sizes,
                 dest: SSAValue, dest_indices: Sequence[SSAValue | int],
                 dest_map: AffineMap | AffineMapAttr | None, dest_sizes: Sizes,
                 transfer_mode: str | None = None):
        s_idx, s_map, s_static, s_dyn = build_side(source, source_indices, source_map,
                                                   source_sizes)
        d_idx, d_map, d_static, d_dyn = build_side(dest, dest_indices, dest_map, dest_sizes)
        super().__init__(
            operands=[source, s_idx, s_dyn, dest, d_idx, d_dyn],
            properties={"static_source_sizes": s_static, "static_dest_sizes": d_static,
                        "source_map": s_map, "dest_map": d_map},
            attributes=drop_none({"transfer_mode": mode_attr(transfer_mode)}))

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

    @classmethod
    def parse(cls, parser: Parser) -> DataTransferOp:
        parser.parse_keyword("from")
        src = parse_side(parser)
        parser.parse_keyword("to")
        dst = parse_side(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        st = parse_fifo_or_type(parser, _SIDE, _SIDE_WHAT)
        parser.parse_punctuation(",")
        dt = parse_fifo_or_type(parser, _SIDE, _SIDE_WHAT)
        idx = IndexType()

        def resolve(side: ParsedSide, t: Attribute) -> list:
            return [parser.resolve_operand(side.value, t),
                    [parser.resolve_operand(v, idx) for v in side.indices],
                    [parser.resolve_operand(v, idx) for v in side.dynamic]]

        def static(side: ParsedSide) -> DenseArrayBase | None:
            return None if side.static is None else DenseArrayBase.from_list(i64, side.static)

        return cls.create(
            operands=flatten([*resolve(src, st), *resolve(dst, dt)]),
            properties=drop_none({
                "static_source_sizes": static(src), "static_dest_sizes": static(dst),
                "source_map": None if src.amap is None else AffineMapAttr(src.amap),
                "dest_map": None if dst.amap is None else AffineMapAttr(dst.amap),
                "operandSegmentSizes": segments(
                    [1, len(src.indices), len(src.dynamic), 1, len(dst.indices),
                     len(dst.dynamic)])}),
            attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" from ")
        print_side(printer, self.source, self.source_map, self.source_indices,
                    self.static_source_sizes, self.source_sizes)
        printer.print_string(" to ")
        print_side(printer, self.destination, self.dest_map, self.dest_indices,
                    self.static_dest_sizes, self.dest_sizes)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list((self.source.type, self.destination.type), printer.print_attribute)

    def verify_(self) -> None:
        verify_side("source", self.source, self.source_map, self.source_indices,
                     self.static_source_sizes, self.source_sizes)
        verify_side("dest", self.destination, self.dest_map, self.dest_indices,
                     self.static_dest_sizes, self.dest_sizes)
        verify_pair(self, self.source_count, self.dest_count)


# --------------------------------------------------------------------------------------------
# indirect transfer (project extension)
# --------------------------------------------------------------------------------------------

Subscript = AffineExpr | tuple[SSAValue, Sequence[AffineExpr]]


def _is_true(a: Attribute) -> bool:
    return isinstance(a, IntegerAttr) and a.type == IntegerType(1) and a.value.data != 0


@irdl_op_definition
class IndDataTransferOp(TransferMixin):
    """`ktdf.ind_data_transfer from %X[ind(%idx[%b]), (%h), (%c0)] size [1, 1, 128] to
    %l1[%c0, %c0, %c0] size [1, 1, 128] : memref<1000x8x128xf16, "DDR">, memref<16xi32, "L1">,
    memref<1x1x128xf16, "L1">` (project extension, lowered to the agen indirect ops).

    One subscript per source dimension over the SSA operands `source_indices` (first-use
    order): `ind(%buf[exprs])` reads the coordinate from an index buffer resident in a memory
    the transfer unit reads, `(expr)` is direct. The source box starts at that coordinate;
    along an indirect dimension offset k reads the index at the buffer position whose last
    subscript is advanced by k (a gather of consecutive indices; size 1 = one index). The
    destination side is as in `data_transfer`.

    Build with `IndDataTransferOp(src, [b, h], [(idx, [d0]), d1, AffineExpr.constant(0)],
    [1, 1, 128], dst, [0, 0, 0], None, [1, 1, 128])`: a subscript is an AffineExpr over dims
    indexing `source_indices` (direct) or `(buffer, exprs)` (indirect).
    """

    name = "ktdf.ind_data_transfer"
    source = operand_def(MemRefType)
    index_buffers = var_operand_def(MemRefType)
    source_indices = var_operand_def(IndexType)
    source_sizes = var_operand_def(IndexType)
    destination = operand_def(MemRefType | FifoSlotType)
    dest_indices = var_operand_def(IndexType)
    dest_sizes = var_operand_def(IndexType)
    per_dim_subscript_kinds = prop_def(ArrayAttr)
    per_dim_subscript_maps = prop_def(ArrayAttr[AffineMapAttr])
    static_source_sizes = prop_def(DenseArrayBase.constr(i64))
    static_dest_sizes = opt_prop_def(DenseArrayBase.constr(i64))
    dest_map = opt_prop_def(AffineMapAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(OwnEffects())

    def __init__(self, source: SSAValue, source_indices: Sequence[SSAValue],
                 subscripts: Sequence[Subscript], source_sizes: Sequence[int | SSAValue],
                 dest: SSAValue, dest_indices: Sequence[SSAValue | int] = (),
                 dest_map: AffineMap | AffineMapAttr | None = None, dest_sizes: Sizes = None,
                 transfer_mode: str | None = None):
        n = len(source_indices)
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
        s_static, s_dyn = split_dynamic_index_list(source_sizes, DYNAMIC_INDEX)
        d_idx, d_map, d_static, d_dyn = build_side(dest, dest_indices, dest_map, dest_sizes)
        super().__init__(
            operands=[source, buffers, source_indices, s_dyn, dest, d_idx, d_dyn],
            properties={"per_dim_subscript_kinds": ArrayAttr(kinds),
                        "per_dim_subscript_maps": ArrayAttr(maps),
                        "static_source_sizes": DenseArrayBase.from_list(i64, s_static),
                        "static_dest_sizes": d_static, "dest_map": d_map},
            attributes=drop_none({"transfer_mode": mode_attr(transfer_mode)}))

    @property
    def subscripts(self) -> list[Subscript]:
        """Per source dimension: the direct AffineExpr, or `(index buffer, exprs)`."""
        out: list[Subscript] = []
        buffers = iter(self.index_buffers)
        for k, m in zip(self.per_dim_subscript_kinds.data, self.per_dim_subscript_maps.data):
            results = m.data.results
            out.append((next(buffers), results) if _is_true(k) else results[0])
        return out

    @property
    def mixed_source_sizes(self) -> list[int | SSAValue]:
        return get_dynamic_index_list(self.static_source_sizes.get_values(), self.source_sizes,
                                      DYNAMIC_INDEX)

    @property
    def source_count(self) -> int | None:
        return side_count(self.source, self.static_source_sizes)

    def memory_effects(self) -> set[EffectInstance]:
        return transfer_effects(self.source, self.destination, self.index_buffers)

    @classmethod
    def parse(cls, parser: Parser) -> IndDataTransferOp:
        start = parser.pos
        parser.parse_keyword("from")
        src = parser.parse_unresolved_operand()
        names: dict[str, UnresolvedOperand] = {}

        def on_ssa(name: str, span) -> AffineExpr:
            if name not in names:
                names[name] = UnresolvedOperand(span, 0)
            return AffineExpr.dimension(list(names).index(name))

        kinds, raw, buffers = SubscriptParser(parser, on_ssa).parse_indirect_bracket()
        s_static, s_dyn = parse_sizes(parser)
        if s_static is None:
            parser.raise_error("the source of ktdf.ind_data_transfer needs `size [...]`",
                               start, parser.pos)
        parser.parse_keyword("to")
        dst = parse_side(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        tpos = parser.pos
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE,
                                                  lambda: parse_fifo_or_type(parser, _SIDE,
                                                                             _SIDE_WHAT))
        if len(types) != len(buffers) + 2:
            parser.raise_error(f"expected {len(buffers) + 2} types (the source, one per index "
                               f"buffer, the destination), got {len(types)}", tpos, parser.pos)
        idx = IndexType()
        maps = [AffineMapAttr(AffineMap(len(names), 0, tuple(r))) for r in raw]
        return cls.create(
            operands=flatten([
                parser.resolve_operand(src, types[0]),
                [parser.resolve_operand(b, t) for b, t in zip(buffers, types[1:-1])],
                [parser.resolve_operand(v, idx) for v in names.values()],
                [parser.resolve_operand(v, idx) for v in s_dyn],
                parser.resolve_operand(dst.value, types[-1]),
                [parser.resolve_operand(v, idx) for v in dst.indices],
                [parser.resolve_operand(v, idx) for v in dst.dynamic]]),
            properties=drop_none({
                "per_dim_subscript_kinds": ArrayAttr([BoolAttr.from_bool(k) for k in kinds]),
                "per_dim_subscript_maps": ArrayAttr(maps),
                "static_source_sizes": DenseArrayBase.from_list(i64, s_static),
                "static_dest_sizes": None if dst.static is None else DenseArrayBase.from_list(
                    i64, dst.static),
                "dest_map": None if dst.amap is None else AffineMapAttr(dst.amap),
                "operandSegmentSizes": segments(
                    [1, len(buffers), len(names), len(s_dyn), 1, len(dst.indices),
                     len(dst.dynamic)])}),
            attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" from ")
        printer.print_ssa_value(self.source)
        names = [ssa_name(printer, v) for v in self.source_indices]
        parts: list[str] = []
        for sub in self.subscripts:
            if isinstance(sub, AffineExpr):
                parts.append(f"({format_affine_expr(sub, names)})")
            else:
                exprs = ", ".join(format_affine_expr(e, names) for e in sub[1])
                parts.append(f"ind({ssa_name(printer, sub[0])}[{exprs}])")
        printer.print_string("[" + ", ".join(parts) + "]")
        print_sizes(printer, self.static_source_sizes, self.source_sizes)
        printer.print_string(" to ")
        print_side(printer, self.destination, self.dest_map, self.dest_indices,
                    self.static_dest_sizes, self.dest_sizes)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([self.source.type, *(b.type for b in self.index_buffers),
                            self.destination.type], printer.print_attribute)

    def verify_(self) -> None:
        rank = cast(MemRefType, self.source.type).get_num_dims()
        kinds, maps = self.per_dim_subscript_kinds.data, self.per_dim_subscript_maps.data
        if len(kinds) != rank or len(maps) != rank:
            raise VerifyException(f"expects one subscript per source dimension ({rank}), got "
                                  f"{len(kinds)} kinds and {len(maps)} maps")
        if not all(isinstance(k, IntegerAttr) and k.type == IntegerType(1) for k in kinds):
            raise VerifyException("per_dim_subscript_kinds must be booleans")
        n_ind = sum(1 for k in kinds if _is_true(k))
        if n_ind != len(self.index_buffers):
            raise VerifyException(f"{n_ind} indirect subscripts but {len(self.index_buffers)} "
                                  "index buffers")
        self._verify_subscripts()
        n_sizes = len(self.static_source_sizes.get_values())
        if n_sizes != rank:
            raise VerifyException(f"source size count ({n_sizes}) must match memref rank "
                                  f"({rank})")
        verify_sizes("source", self.static_source_sizes, self.source_sizes)
        verify_side("dest", self.destination, self.dest_map, self.dest_indices,
                     self.static_dest_sizes, self.dest_sizes)
        verify_pair(self, self.source_count, self.dest_count)

    def _verify_subscripts(self) -> None:
        n = len(self.source_indices)
        buffers = iter(self.index_buffers)
        for d, (k, m) in enumerate(zip(self.per_dim_subscript_kinds.data,
                                       self.per_dim_subscript_maps.data)):
            amap = m.data
            if amap.num_dims != n or amap.num_symbols:
                raise VerifyException(f"subscript map {d} has {amap.num_dims} dims and "
                                      f"{amap.num_symbols} symbols, expected {n} dims (the "
                                      "subscript operands) and no symbols")
            if not _is_true(k):
                if len(amap.results) != 1:
                    raise VerifyException(f"direct subscript {d} must be a single expression")
                continue
            bt = cast(MemRefType, next(buffers).type)
            if len(amap.results) != bt.get_num_dims():
                raise VerifyException(f"indirect subscript {d} has {len(amap.results)} indices "
                                      f"for an index buffer of rank {bt.get_num_dims()}")
            if not isinstance(bt.get_element_type(), IntegerType | IndexType):
                raise VerifyException(f"index buffer of subscript {d} must hold integers or "
                                      f"index, not {bt.get_element_type()}")


__all__ = [
    "DataTransferOp", "FifoAllocateOp", "IndDataTransferOp", "ReadFromFifoOp", "Subscript",
    "WriteToFifoOp", "build_side",
]
