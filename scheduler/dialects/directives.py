"""Custom assembly-format directives shared by the `ktdf` and `ktdf_lowering` ops.

Each is an `@irdl_custom_directive` used as `custom<Name>(...)` in an op's `assembly_format`
(xDSL's own model is `SwitchOpCases` in xdsl/dialects/cf.py). They cover what a plain format
cannot say: single-block bodies printed without an empty entry label or an implicit
terminator, properties the pretty form never shows, types checked (and located) while
parsing, FIFO slot types written without `!ktdf.fifo.slot`, `[%iv : %n]` pair lists, and the
`%v[subscripts] size [sizes]` sides of the transfers.
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
    MemRefType,
    TensorType,
    i64,
)
from xdsl.dialects.utils.dynamic_index_list import (
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import (
    AnyOf,
    AttrConstraint,
    BaseAttr,
    IRDLOperation,
    RangeLengthConstraint,
    RangeOf,
    VerificationContext,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    OperandVariable,
    ParsingState,
    PrintingState,
    RegionVariable,
    ResultVariable,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, SingleBlockImplicitTerminator
from xdsl.utils.mlir_lexer import MLIRTokenKind

from ktir.diagnostics import ssa_name
from ktir.dialects.subscripts import (
    SubscriptParser,
    format_affine_expr,
    parse_ssa_subscripts,
    print_ssa_subscripts,
)
from scheduler.dialects.ktdf_types import FifoSlotType, is_true

# --------------------------------------------------------------------------------------------
# bodies and hidden properties
# --------------------------------------------------------------------------------------------


def _implicit_terminator(op_type: type[IRDLOperation]) -> type[IRDLOperation] | None:
    trait = op_type.get_trait(SingleBlockImplicitTerminator)
    return None if trait is None else cast(type[IRDLOperation], trait.op_type)


@irdl_custom_directive
class BlockBody(CustomDirective):
    """`{ ops }`: a single-block region. `{}` gets its empty block; an implicit terminator is
    inserted when missing and elided when it carries nothing (xDSL's `$body` does neither
    and prints an empty block as `^bb0:`)."""

    body: RegionVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        term, block = _implicit_terminator(state.op_type), region.blocks.first
        if term is not None and block is not None and block is region.blocks.last and (
                block.last_op is None
                or not block.last_op.has_trait(IsTerminator, value_if_unregistered=False)):
            block.add_op(term.create())  # what ensure_terminator does for a built op
        self.body.set(state, region)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        region: Region = self.body.get(op)
        term = _implicit_terminator(type(op))
        last = region.blocks.first.last_op if region.blocks.first is not None else None
        elide = term is not None and isinstance(last, term) and not last.operands \
            and not last.attributes and not last.properties
        printer.print_region(region, print_empty_block=False,
                             print_block_terminators=not elide)


@irdl_custom_directive
class Hidden(CustomDirective):
    """A property the pretty form never shows (`unique_id`): nothing is parsed or printed;
    the op fills it itself, and the generic form keeps it."""

    prop: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        return

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        return


# --------------------------------------------------------------------------------------------
# types
# --------------------------------------------------------------------------------------------


_WORDS: dict[type[Attribute], str] = {
    TensorType: "ranked tensor", MemRefType: "memref", FifoSlotType: "FIFO slot"}


def _constraint(op_type: type[IRDLOperation], ty: TypeDirective) -> AttrConstraint:
    """The attribute constraint of the operand or result that `type(...)` names."""
    inner = ty.inner
    op_def = op_type.get_irdl_definition()
    defs = op_def.results if isinstance(inner, ResultVariable) else op_def.operands
    constr = defs[inner.index][1].constr  # pyright: ignore[reportAttributeAccessIssue]
    while isinstance(constr, RangeLengthConstraint | RangeOf):
        constr = constr.constraint if isinstance(constr, RangeLengthConstraint) else constr.constr
    return cast(AttrConstraint, constr)


def _bases(constr: AttrConstraint) -> list[type[Attribute]]:
    """The base classes a constraint admits, in declaration order."""
    if isinstance(constr, BaseAttr):
        return [constr.attr]
    if isinstance(constr, AnyOf):
        return [b for c in constr.attr_constrs for b in _bases(c)]
    return sorted(constr.get_bases() or (), key=lambda b: b.name)


def _parse_type(parser: Parser, fifo_unqualified: bool) -> Attribute:
    """A type; with `fifo_unqualified` a FIFO slot may omit `!ktdf.fifo.slot`."""
    if fifo_unqualified and parser._current_token.text == "<":  # pyright: ignore[reportPrivateUsage]
        return FifoSlotType.new(FifoSlotType.parse_parameters(parser))
    return parser.parse_type()


def _check_type(parser: Parser, op_type: type[IRDLOperation], ty: TypeDirective,
                t: Attribute, pos: int, end: int) -> None:
    """A located error unless `t` has one of the base classes `ty`'s constraint admits."""
    constr = _constraint(op_type, ty)
    if constr.verifies(t):
        return
    bases = _bases(constr)
    if constr.can_infer(set()):
        expected = constr.infer(VerificationContext())
        message = f"{op_type.name} produces {expected}, not {t}" if isinstance(
            ty.inner, ResultVariable) else f"expected {expected}, got {t}"
    else:
        words = " or ".join(_WORDS.get(b, b.name) for b in bases)
        message = f"expected {'an' if words[0] in 'aeiou' else 'a'} {words} type, got {t}"
    parser.raise_error(message, pos, end)


def _parse_checked_type(parser: Parser, state: ParsingState, ty: TypeDirective) -> None:
    pos = parser.pos
    t = _parse_type(parser, FifoSlotType in _bases(_constraint(state.op_type, ty)))
    _check_type(parser, state.op_type, ty, t, pos, parser.pos)
    ty.set(state, (t,))


@irdl_custom_directive
class CheckedType(CustomDirective):
    """`type($x)` whose constraint is checked while parsing, so a wrong type is reported at
    its position; a FIFO slot also parses unqualified, and prints qualified."""

    ty: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        _parse_checked_type(parser, state, self.ty)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_attribute(self.ty.get(op)[0])


@irdl_custom_directive
class StrippedType(CustomDirective):
    """As `CheckedType`, but a FIFO slot prints unqualified (`<"A" -> "B", 64xf16>`), the
    way upstream's `read_from_fifo` / `write_to_fifo` print it."""

    ty: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        _parse_checked_type(parser, state, self.ty)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        t = self.ty.get(op)[0]
        if isinstance(t, FifoSlotType):
            t.print_parameters(printer)
        else:
            printer.print_attribute(t)


def _state_types(state: ParsingState, ty: TypeDirective) -> Sequence[Attribute] | None:
    inner = ty.inner
    slots = state.result_types if isinstance(inner, ResultVariable) else state.operand_types
    return slots[inner.index]  # pyright: ignore[reportAttributeAccessIssue]


@irdl_custom_directive
class SameTypes(CustomDirective):
    """`custom<SameTypes>(type($xs), ref(type($r)))`: every `$xs` has the type of `$r`
    (upstream's TypesMatchWith); prints nothing. The op's verifier reports a mismatch."""

    many: TypeDirective
    like: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        n = len(state.operands[self.many.inner.index] or ())  # pyright: ignore[reportAttributeAccessIssue]
        like = _state_types(state, self.like) or ()
        self.many.set(state, tuple(like) * n)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        return


@irdl_custom_directive
class TypedOperands(CustomDirective):
    """`%a, %b : T, T` (or nothing), as in `ins(...)`; a count mismatch is reported at the
    list itself rather than after the op."""

    operands: VariadicOperandVariable
    types: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        values = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand) or []
        types: list[Attribute] = []
        if values:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
            if len(types) != len(values):
                parser.raise_error(f"{len(values)} operands but {len(types)} types", pos,
                                   parser.pos)
        self.operands.set(state, values)
        self.types.set(state, types)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        values = self.operands.get(op)
        if values:
            state.print_whitespace(printer)
            printer.print_list(values, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list([v.type for v in values], printer.print_attribute)


# --------------------------------------------------------------------------------------------
# [%iv : %n] pairs
# --------------------------------------------------------------------------------------------


def _parse_pair(parser: Parser) -> tuple[UnresolvedOperand, UnresolvedOperand]:
    parser.parse_punctuation("[")
    a = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    b = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    return a, b


def _print_pairs(printer: Printer, first: Sequence[SSAValue], second: Sequence[SSAValue]) -> None:
    for i, (a, b) in enumerate(zip(first, second)):
        printer.print_string(", [" if i else "[")
        printer.print_ssa_value(a)
        printer.print_string(" : ")
        printer.print_ssa_value(b)
        printer.print_string("]")


@irdl_custom_directive
class BracketPairList(CustomDirective):
    """`[%iv : %stride], [%iv2 : %stride2]` (upstream's BracketPairList), possibly empty; the
    commas between pairs may be left out, as the earlier hand-written parser allowed."""

    first: VariadicOperandVariable
    second: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pairs: list[tuple[UnresolvedOperand, UnresolvedOperand]] = []
        while parser._current_token.kind == MLIRTokenKind.L_SQUARE:  # pyright: ignore[reportPrivateUsage]
            pairs.append(_parse_pair(parser))
            parser.parse_optional_punctuation(",")
        self.first.set(state, [a for a, _ in pairs])
        self.second.set(state, [b for _, b in pairs])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        if self.first.get(op):
            state.print_whitespace(printer)
            _print_pairs(printer, self.first.get(op), self.second.get(op))


@irdl_custom_directive
class LeadingPairs(BracketPairList):
    """The pairs before more operands (`derive_size`): printed with a comma after the last."""

    first: VariadicOperandVariable
    second: VariadicOperandVariable

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        if self.first.get(op):
            state.print_whitespace(printer)
            _print_pairs(printer, self.first.get(op), self.second.get(op))
            printer.print_string(",")


# --------------------------------------------------------------------------------------------
# transfer sides
# --------------------------------------------------------------------------------------------


def _parse_sizes(parser: Parser, dynamic: VariadicOperandVariable, static: AttributeVariable,
                 state: ParsingState) -> bool:
    """`(size [1, %n])?`; False when absent."""
    if not parser.parse_optional_keyword("size"):
        dynamic.set(state, [])
        return False
    dyn, values = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
    dynamic.set(state, list(dyn))
    static.set(state, DenseArrayBase.from_list(i64, values))
    return True


def _print_sizes(printer: Printer, op: IRDLOperation, dynamic: VariadicOperandVariable,
                 static: AttributeVariable) -> None:
    values = static.get(op)
    if isinstance(values, DenseArrayBase):
        printer.print_string(" size ")
        print_dynamic_index_list(printer, DYNAMIC_INDEX, dynamic.get(op), values.get_values())


@irdl_custom_directive
class CellOrSlot(CustomDirective):
    """One side of a transfer, upstream's CellOrSlot: `%v ([subscripts])? (size [sizes])?`.

    Subscripts are affine expressions of SSA ids (`%i * 2 + 1`) kept as a dims-only map over
    the index operands; sizes mix integers and SSA values (static array with holes plus
    operands). The subscripts print only for a memref whose map has one dim per operand."""

    value: OperandVariable
    indices: VariadicOperandVariable
    map: AttributeVariable
    sizes: VariadicOperandVariable
    static_sizes: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.value.set(state, parser.parse_unresolved_operand())
        indices: list[UnresolvedOperand] = []
        if parser._current_token.kind == MLIRTokenKind.L_SQUARE:  # pyright: ignore[reportPrivateUsage]
            amap, indices = parse_ssa_subscripts(parser)
            self.map.set(state, AffineMapAttr(amap))
        self.indices.set(state, indices)
        _parse_sizes(parser, self.sizes, self.static_sizes, state)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        value, indices, amap = self.value.get(op), self.indices.get(op), self.map.get(op)
        printer.print_ssa_value(value)
        if isinstance(value.type, MemRefType) and isinstance(amap, AffineMapAttr) and \
                amap.data.num_dims == len(indices) and amap.data.num_symbols == 0:
            print_ssa_subscripts(printer, amap.data, indices)
        _print_sizes(printer, op, self.sizes, self.static_sizes)


def _parse_indirect_subscripts(parser: Parser) -> tuple[list[bool], list[list[AffineExpr]],
                                                         list, list[UnresolvedOperand]]:
    """`[ind(%buf[exprs]), (expr), expr, ...]`: kinds, expressions per subscript, the index
    buffers and the SSA ids of all subscripts (the dims of the maps, in first-use order)."""
    names: dict[str, UnresolvedOperand] = {}

    def on_ssa(name: str, span) -> AffineExpr:
        if name not in names:
            names[name] = UnresolvedOperand(span, 0)
        return AffineExpr.dimension(list(names).index(name))

    kinds, raw, buffers = SubscriptParser(parser, on_ssa).parse_indirect_bracket()
    return kinds, raw, buffers, list(names.values())


def _print_indirect_subscripts(printer: Printer, indices: Sequence[SSAValue],
                               buffers: Sequence[SSAValue], kinds: ArrayAttr,
                               maps: ArrayAttr) -> None:
    """The bracket of a side held per dimension; beside an `ind(...)`, direct subscripts
    in parentheses."""
    names = [ssa_name(printer, v) for v in indices]
    bufs = iter(buffers)
    parts: list[str] = []
    indirect = any(is_true(k) for k in kinds.data)
    for k, m in zip(kinds.data, maps.data):
        results = cast(AffineMapAttr, m).data.results
        if is_true(k):
            exprs = ", ".join(format_affine_expr(e, names) for e in results)
            parts.append(f"ind({ssa_name(printer, next(bufs))}[{exprs}])")
        else:
            e = format_affine_expr(results[0], names)
            parts.append(f"({e})" if indirect else e)
    printer.print_string("[" + ", ".join(parts) + "]")


def _kinds_and_maps(kinds: list[bool], raw: list[list[AffineExpr]], n: int
                    ) -> tuple[ArrayAttr, ArrayAttr]:
    return (ArrayAttr([BoolAttr.from_bool(k) for k in kinds]),
            ArrayAttr([AffineMapAttr(AffineMap(n, 0, tuple(r))) for r in raw]))


@irdl_custom_directive
class IndirectCell(CustomDirective):
    """The source of `ind_data_transfer`: `%X[ind(%buf[exprs]), (expr), ...] size [sizes]`,
    or a FIFO slot `%s (size [n])?`.

    One subscript per dimension; the SSA ids of all subscripts become the index operands (in
    first-use order) and the dims of one map per subscript; `ind(...)` reads the coordinate
    from an index buffer. A memref source needs its sizes."""

    value: OperandVariable
    buffers: VariadicOperandVariable
    indices: VariadicOperandVariable
    kinds: AttributeVariable
    maps: AttributeVariable
    sizes: VariadicOperandVariable
    static_sizes: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        start = parser.pos
        self.value.set(state, parser.parse_unresolved_operand())
        if parser._current_token.kind != MLIRTokenKind.L_SQUARE:  # pyright: ignore[reportPrivateUsage]
            self.buffers.set(state, [])
            self.indices.set(state, [])
            _parse_sizes(parser, self.sizes, self.static_sizes, state)
            return
        kinds, raw, buffers, names = _parse_indirect_subscripts(parser)
        if not _parse_sizes(parser, self.sizes, self.static_sizes, state):
            parser.raise_error(f"the source of {state.op_type.name} needs `size [...]`",
                               start, parser.pos)
        self.buffers.set(state, buffers)
        self.indices.set(state, names)
        k, m = _kinds_and_maps(kinds, raw, len(names))
        self.kinds.set(state, k)
        self.maps.set(state, m)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_ssa_value(self.value.get(op))
        kinds, maps = self.kinds.get(op), self.maps.get(op)
        if isinstance(kinds, ArrayAttr) and isinstance(maps, ArrayAttr):
            _print_indirect_subscripts(printer, self.indices.get(op), self.buffers.get(op),
                                       kinds, maps)
        _print_sizes(printer, op, self.sizes, self.static_sizes)


@irdl_custom_directive
class IndirectOrCell(CustomDirective):
    """The destination of `ind_data_transfer`: as `CellOrSlot` (`%v ([subscripts])? (size
    [sizes])?`, the map in `map`), or, when a subscript is `ind(%buf[exprs])`, an indirect
    side as the source's (kinds and one map per subscript, the index buffers)."""

    value: OperandVariable
    buffers: VariadicOperandVariable
    indices: VariadicOperandVariable
    kinds: AttributeVariable
    maps: AttributeVariable
    map: AttributeVariable
    sizes: VariadicOperandVariable
    static_sizes: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.value.set(state, parser.parse_unresolved_operand())
        self.buffers.set(state, [])
        self.indices.set(state, [])
        if parser._current_token.kind == MLIRTokenKind.L_SQUARE:  # pyright: ignore[reportPrivateUsage]
            kinds, raw, buffers, names = _parse_indirect_subscripts(parser)
            self.indices.set(state, names)
            if any(kinds):
                self.buffers.set(state, buffers)
                k, m = _kinds_and_maps(kinds, raw, len(names))
                self.kinds.set(state, k)
                self.maps.set(state, m)
            else:
                self.map.set(state, AffineMapAttr(AffineMap(len(names), 0,
                                                            tuple(r[0] for r in raw))))
        _parse_sizes(parser, self.sizes, self.static_sizes, state)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        value, indices = self.value.get(op), self.indices.get(op)
        printer.print_ssa_value(value)
        kinds, maps, amap = self.kinds.get(op), self.maps.get(op), self.map.get(op)
        if isinstance(kinds, ArrayAttr) and isinstance(maps, ArrayAttr):
            _print_indirect_subscripts(printer, indices, self.buffers.get(op), kinds, maps)
        elif isinstance(value.type, MemRefType) and isinstance(amap, AffineMapAttr) and \
                amap.data.num_dims == len(indices) and amap.data.num_symbols == 0:
            print_ssa_subscripts(printer, amap.data, indices)
        _print_sizes(printer, op, self.sizes, self.static_sizes)


@irdl_custom_directive
class IndTransferTypes(CustomDirective):
    """`T_source, T_buffer..., T_destination` of `ind_data_transfer` (upstream's name): one
    index-buffer type per `ind(...)` subscript, the source's then the destination's; the
    count and each type are checked (located) while parsing, and a FIFO slot may be written
    unqualified."""

    source: TypeDirective
    buffers: TypeDirective
    dest_buffers: TypeDirective
    dest: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        def count(ty: TypeDirective) -> int:
            return len(state.operands[ty.inner.index] or ())  # pyright: ignore[reportAttributeAccessIssue]

        n, m = count(self.buffers), count(self.dest_buffers)
        pos = parser.pos
        parsed: list[tuple[Attribute, int, int]] = []

        def one() -> None:
            start = parser.pos
            parsed.append((_parse_type(parser, True), start, parser.pos))

        parser.parse_comma_separated_list(Parser.Delimiter.NONE, one)
        if len(parsed) != n + m + 2:
            parser.raise_error(f"expected {n + m + 2} types (the source, one per index "
                               f"buffer, the destination), got {len(parsed)}", pos, parser.pos)
        roles = [self.source, *[self.buffers] * n, *[self.dest_buffers] * m, self.dest]
        for ty, (t, start, end) in zip(roles, parsed):
            _check_type(parser, state.op_type, ty, t, start, end)
        types = [t for t, _, _ in parsed]
        self.source.set(state, types[:1])
        self.buffers.set(state, types[1:1 + n])
        self.dest_buffers.set(state, types[1 + n:-1])
        self.dest.set(state, types[-1:])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_list([*self.source.get(op), *self.buffers.get(op),
                            *self.dest_buffers.get(op), *self.dest.get(op)],
                           printer.print_attribute)
