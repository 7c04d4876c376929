"""The pieces of DataflowIR syntax that the dialects' `assembly_format`s share, as xDSL custom
directives (shared/spec/dataflow-ir.md): affine subscripts of SSA values, region arguments
named before their region, the region itself with its implicit terminator, key/value pair
lists, per-unit region lists, keyword operand groups and type lists that follow the operands
actually present. Each directive prints what it parses; parse errors are located.

Two things need a pair of directives. Region arguments written before the region
(`load_iv(%x:T)`, `iter_arg : %u`): the format parses the attribute dictionary in between, so
the directive that reads the arguments leaves them in the parsing state for the one that reads
the region. An optional dictionary right before a `{`-opened construct: attr-dict would take
the construct for a dictionary, so a directive placed before attr-dict looks ahead and, when
no dictionary is written, reads the construct early (`RegionIfNoDict`, `SegmentsIfNoDict`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    AffineSetAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    i32,
)
from xdsl.ir import Attribute, Block, BlockArgument, Region
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    OperandDirective,
    OptionalOperandVariable,
    ParsingState,
    PrintingState,
    RegionVariable,
    TypeDirective,
    VariadicOperandVariable,
    VariadicRegionVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, SingleBlockImplicitTerminator
from xdsl.utils.mlir_lexer import MLIRToken, MLIRTokenKind

# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def _entry_args(state: ParsingState) -> dict[int, list[Parser.Argument]]:
    """Region index -> the entry-block arguments declared before that region."""
    return state.__dict__.setdefault("entry_args", {})


def with_terminator(region: Region, op_type: type[IRDLOperation]) -> Region:
    """The region with the op's implicit terminator appended where a block lacks one (and a
    block in an empty region), as `ensure_terminator` does once the op exists."""
    trait = op_type.get_trait(SingleBlockImplicitTerminator)
    if trait is None:
        return region
    if not region.blocks:
        region.add_block(Block())
    for block in region.blocks:
        last = block.last_op
        if last is None or not last.has_trait(IsTerminator, value_if_unregistered=False):
            block.add_op(trait.op_type.create())
    return region


def _peek(parser: Parser, n: int) -> list[MLIRToken]:
    """The next n tokens (fewer at the end of the input), left unread; xDSL's parser has no
    public look-ahead."""
    state = parser._parser_state  # pyright: ignore[reportPrivateUsage]
    lexer = state.lexer
    pos, tok = lexer.pos, state.current_token
    t = [tok]
    try:
        while len(t) < n and t[-1].kind != MLIRTokenKind.EOF:
            t.append(lexer.lex())
    finally:
        lexer.pos, state.current_token = pos, tok
    return t


def _next_brace(parser: Parser) -> str | None:
    """What the next token opens: "dictionary" (`{ name = ...`, or `{}` followed by `{`),
    "region" (any other `{`) or None."""
    t = _peek(parser, 3)
    if t[0].kind != MLIRTokenKind.L_BRACE:
        return None
    kinds = [x.kind for x in t[1:]]
    if kinds in ([MLIRTokenKind.R_BRACE, MLIRTokenKind.L_BRACE],
                 [MLIRTokenKind.BARE_IDENT, MLIRTokenKind.EQUAL],
                 [MLIRTokenKind.STRING_LIT, MLIRTokenKind.EQUAL]):
        return "dictionary"
    return "region"


def _read_region(parser: Parser, state: ParsingState, var: RegionVariable) -> None:
    """Parse a region with the entry arguments an earlier directive named, if any, and the
    op's implicit terminator."""
    args = _entry_args(state).pop(var.index, None)
    var.set(state, with_terminator(parser.parse_region(args), state.op_type))


def _region_read(state: ParsingState, var: RegionVariable) -> bool:
    """Whether `RegionIfNoDict` already read the region."""
    return state.regions[var.index] is not None


def _operand_count(state: ParsingState, var: OperandDirective) -> int:
    """How many operands an already parsed operand variable holds."""
    parsed = state.operands[var.index]  # type: ignore[attr-defined]
    return 0 if parsed is None else len(parsed)


def _inner_count(state: ParsingState, ty: TypeDirective) -> int:
    """How many operands the variable of a `type(...)` parameter holds once parsed."""
    return _operand_count(state, ty.inner)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# accesses
# --------------------------------------------------------------------------------------------


@irdl_custom_directive
class PresentTypes(CustomDirective):
    """`T1, T2`: the types of two operands, each written only when its operand is (an optional
    one may be absent), e.g. `(T_indirect,)? T_direct` of one side of an indirect op."""

    first: TypeDirective
    second: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        written = 0
        for t in (self.first, self.second):
            if not _inner_count(state, t):
                t.set(state, ())
                continue
            if written:
                parser.parse_punctuation(",")
            t.set(state, (parser.parse_type(),))
            written += 1

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_list((*self.first.get(op), *self.second.get(op)), printer.print_attribute)


# --------------------------------------------------------------------------------------------
# regions
# --------------------------------------------------------------------------------------------


@irdl_custom_directive
class EntryArg(CustomDirective):
    """`%x:vector<64xf16>`: the single argument of a region that the format reads later."""

    body: RegionVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        _entry_args(state)[self.body.index] = [parser.parse_argument()]

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)

        def arg(a: BlockArgument) -> None:
            printer.print_ssa_value(a)
            printer.print_string(":")
            printer.print_attribute(a.type)

        # exactly one in a valid op; print what there is (the verifier reports the rest)
        printer.print_list(self.body.get(op).block.args, arg)


@irdl_custom_directive
class ProgramUnits(CustomDirective):
    """`iter_arg : %u -> (%a, %b)` or `%a, %b`: the units that run a program, and in the first
    form the name of the region argument bound to the executing unit (an `index`)."""

    units: VariadicOperandVariable
    body: RegionVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_keyword("iter_arg") is not None:
            parser.parse_punctuation(":")
            arg = parser.parse_argument(expect_type=False)
            parser.parse_punctuation("->")
            names = parser.parse_comma_separated_list(Parser.Delimiter.PAREN,
                                                      parser.parse_unresolved_operand)
            _entry_args(state)[self.body.index] = [arg.resolve(IndexType())]
        else:
            names = parser.parse_comma_separated_list(Parser.Delimiter.NONE,
                                                      parser.parse_unresolved_operand)
            _entry_args(state)[self.body.index] = []  # no argument, and no `^bb0(...)` either
        self.units.set(state, names)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        units, args = self.units.get(op), self.body.get(op).block.args
        if args:
            printer.print_string("iter_arg : ")
            printer.print_ssa_value(args[0])
            printer.print_string(" -> (")
            printer.print_list(units, printer.print_ssa_value)
            printer.print_string(")")
        else:
            printer.print_list(units, printer.print_ssa_value)


@irdl_custom_directive
class RegionIfNoDict(CustomDirective):
    """Right before an `attr-dict` that a region follows (both open with `{`): reads the
    region here when no dictionary is written, so that attr-dict does not take it for one;
    the region's own directive then has nothing left to read. Prints `{}` for an op with no
    attributes or properties at all, as the dialect always has."""

    body: RegionVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if _next_brace(parser) == "region":
            _read_region(parser, state, self.body)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        if not op.attributes and not op.properties:
            printer.print_string(" {}")


@irdl_custom_directive
class Body(CustomDirective):
    """`{ ... }`: a single-block region whose arguments, if any, an earlier directive named;
    the op's implicit terminator is added when missing. Terminators are printed."""

    body: RegionVariable

    PRINT_TERMINATORS: ClassVar[bool] = True

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if not _region_read(state, self.body):
            _read_region(parser, state, self.body)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_region(self.body.get(op), print_entry_block_args=False,
                             print_block_terminators=self.PRINT_TERMINATORS)


class ImplicitBody(Body):
    """`Body`, with the implicit terminator elided when printed."""

    PRINT_TERMINATORS: ClassVar[bool] = False


@irdl_custom_directive
class BodyUnless(CustomDirective):
    """`{ ... }` written only when the optional operand `other` is absent (the two are
    alternatives); missing, it is an empty region with its terminator. Anchors an optional
    group: ``(`\\n` `` custom<BodyUnless>($body, ref($other))^)?``."""

    body: RegionVariable
    other: OptionalOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if not _region_read(state, self.body):
            _read_region(parser, state, self.body)
        self._check(parser, state)

    def parse_optional(self, parser: Parser, state: ParsingState) -> None:
        if _region_read(state, self.body) or _next_brace(parser) is not None:
            self.parse(parser, state)
        else:
            self.set_empty(state)

    def _check(self, parser: Parser, state: ParsingState) -> None:
        if _operand_count(state, self.other):
            kind = state.op_type.name.split(".", 1)[-1]
            parser.raise_error(f"a {kind} has either {self.other.name} or a region")

    def set_empty(self, state: ParsingState) -> None:
        self.body.set(state, with_terminator(Region(Block()), state.op_type))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_region(self.body.get(op), print_entry_block_args=False,
                             print_block_terminators=True)

    def is_present(self, op: IRDLOperation) -> bool:
        return self.other.get(op) is None

    def is_anchorable(self) -> bool:
        return True

    def is_optional_like(self) -> bool:
        return True


@irdl_custom_directive
class UnitRegions(CustomDirective):
    """`{ (%a -> %u0, %u1) { ... } (%b -> %u2) { ... } }`: regions, each with the units that
    run it (`sizes` counts them) and its argument, bound to the executing unit; implicit
    terminators are added and printed."""

    units: VariadicOperandVariable
    sizes: AttributeVariable
    regions: VariadicRegionVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        parser.parse_punctuation("{")
        units: list[UnresolvedOperand] = []
        sizes: list[int] = []
        regions: list[Region] = []
        while parser.parse_optional_punctuation("(") is not None:
            arg = parser.parse_argument(expect_type=False)
            parser.parse_punctuation("->")
            names = parser.parse_comma_separated_list(Parser.Delimiter.NONE,
                                                      parser.parse_unresolved_operand)
            parser.parse_punctuation(")")
            units += names
            sizes.append(len(names))
            regions.append(with_terminator(parser.parse_region([arg.resolve(IndexType())]),
                                           state.op_type))
        parser.parse_punctuation("}")
        self.units.set(state, units)
        self.sizes.set(state, ArrayAttr([IntegerAttr(s, i32) for s in sizes]))
        self.regions.set(state, regions)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        units = list(self.units.get(op))
        sizes = self.sizes.get(op)
        counts = [s.value.data for s in sizes if isinstance(s, IntegerAttr)] \
            if isinstance(sizes, ArrayAttr) else []  # none, or a bad list: the verifier says so
        printer.print_string("{")
        with printer.indented():
            start = 0
            for region, count in zip(self.regions.get(op), counts, strict=False):
                end = start + count
                printer.print_string("\n(")
                printer.print_list(region.block.args, printer.print_ssa_value)  # one if valid
                printer.print_string(" -> ")
                printer.print_list(units[start:end], printer.print_ssa_value)
                printer.print_string(") ")
                printer.print_region(region, print_entry_block_args=False,
                                     print_block_terminators=True)
                start = end
        printer.print_string("\n}")


# --------------------------------------------------------------------------------------------
# operand lists
# --------------------------------------------------------------------------------------------


@irdl_custom_directive
class Pairs(CustomDirective):
    """`([%k0 -> %v0], [%k1 -> %v1])`: keys and values, paired by position."""

    keys: VariadicOperandVariable
    values: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        keys: list[UnresolvedOperand] = []
        values: list[UnresolvedOperand] = []

        def pair() -> None:
            parser.parse_punctuation("[")
            keys.append(parser.parse_unresolved_operand())
            parser.parse_punctuation("->")
            values.append(parser.parse_unresolved_operand())
            parser.parse_punctuation("]")

        parser.parse_comma_separated_list(Parser.Delimiter.PAREN, pair)
        self.keys.set(state, keys)
        self.values.set(state, values)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)

        def pair(kv: tuple) -> None:
            printer.print_string("[")
            printer.print_ssa_value(kv[0])
            printer.print_string(" -> ")
            printer.print_ssa_value(kv[1])
            printer.print_string("]")

        with printer.in_parens():
            printer.print_list(zip(self.keys.get(op), self.values.get(op), strict=False), pair)


@irdl_custom_directive
class ValueType(CustomDirective):
    """`(, T)?`: the one type of all the values, written only when it is not `index`."""

    values: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        t = parser.parse_type() if parser.parse_optional_punctuation(",") else IndexType()
        self.values.set(state, [t] * _inner_count(state, self.values))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        types = self.values.get(op)
        if types and types[0] != IndexType():
            printer.print_string(", ")
            printer.print_attribute(types[0])


@irdl_custom_directive
class OperandGroups(CustomDirective):
    """`(, name(%a, ...))*`: optional operand groups introduced by their variable's name, each
    at most once and in the order given; an optional operand's group holds one value."""

    first: OperandDirective
    second: OperandDirective
    third: OperandDirective

    def _groups(self) -> list[OperandDirective]:
        return [self.first, self.second, self.third]

    def parse(self, parser: Parser, state: ParsingState) -> None:
        groups = self._groups()
        names = [g.name for g in groups]  # type: ignore[attr-defined]
        found: dict[int, list[UnresolvedOperand]] = {}
        last = 0
        while parser.parse_optional_punctuation(",") is not None:
            pos = parser.pos
            word = parser.parse_optional_identifier()
            if word not in names or names.index(word) < last:
                parser.raise_error("expected " + ", ".join(f"'{n}'" for n in names[:-1])
                                   + f" or '{names[-1]}' (each once, in this order)", pos,
                                   parser.pos)
            i = names.index(word)
            last = i + 1
            found[i] = parser.parse_comma_separated_list(Parser.Delimiter.PAREN,
                                                         parser.parse_unresolved_operand)
            if isinstance(groups[i], OptionalOperandVariable) and len(found[i]) != 1:
                parser.raise_error(f"{word} takes one operand", pos, parser.pos)
        for i, g in enumerate(groups):
            values = found.get(i, [])
            if isinstance(g, OptionalOperandVariable):
                g.set(state, values[0] if values else None)
            else:
                g.set(state, values)  # type: ignore[attr-defined]

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        for g in self._groups():
            v = g.get(op)  # type: ignore[attr-defined]
            values = [] if v is None else [v] if isinstance(g, OptionalOperandVariable) else v
            if values:
                printer.print_string(f", {g.name}(")  # type: ignore[attr-defined]
                printer.print_list(values, printer.print_ssa_value)
                printer.print_string(")")


@irdl_custom_directive
class OperandAndResultTypes(CustomDirective):
    """`T, ..., Tr`: one type per operand present (in operand order), then the result's."""

    first: TypeDirective
    second: TypeDirective
    third: TypeDirective
    fourth: TypeDirective
    result: TypeDirective

    def _operands(self) -> list[TypeDirective]:
        return [self.first, self.second, self.third, self.fourth]

    def parse(self, parser: Parser, state: ParsingState) -> None:
        counts = [_inner_count(state, t) for t in self._operands()]
        pos = parser.pos
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        if len(types) != sum(counts) + 1:
            parser.raise_error(f"expected {sum(counts) + 1} types (one per operand, then the "
                               "result)", pos, parser.pos)
        it = iter(types)
        for t, n in zip(self._operands(), counts, strict=True):
            t.set(state, [next(it) for _ in range(n)])
        self.result.set(state, [next(it)])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_list([t for d in (*self._operands(), self.result) for t in d.get(op)],
                           printer.print_attribute)


@irdl_custom_directive
class ResultTypes(CustomDirective):
    """`(-> T | -> (T, ...))?`: the result types, parenthesised unless there is one."""

    results: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        types: Sequence[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            listed = parser.parse_optional_comma_separated_list(Parser.Delimiter.PAREN,
                                                                parser.parse_type)
            if listed is not None:
                types = listed
            else:
                types = [parser.parse_type()]
        self.results.set(state, types)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        types = self.results.get(op)
        if not types:
            return
        state.print_whitespace(printer)
        printer.print_string("-> ")
        if len(types) == 1:
            printer.print_attribute(types[0])
        else:
            with printer.in_parens():
                printer.print_list(types, printer.print_attribute)


# --------------------------------------------------------------------------------------------
# memory views
# --------------------------------------------------------------------------------------------


@irdl_custom_directive
class Segments(CustomDirective):
    """`{segments = page0: (idx_set = #s, start_addr = %a), ...}` on lines of their own: the
    pages of a paged view, each index set with the operand holding its start address."""

    addrs: VariadicOperandVariable
    sets: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if self.sets.name in state.properties:  # read by SegmentsIfNoDict
            return
        parser.parse_punctuation("{")
        parser.parse_keyword("segments")
        parser.parse_punctuation("=")
        sets: list[AffineSetAttr] = []
        addrs: list[UnresolvedOperand] = []
        while parser.parse_optional_keyword(f"page{len(sets)}") is not None:
            parser.parse_punctuation(":")
            parser.parse_punctuation("(")
            parser.parse_keyword("idx_set")
            parser.parse_punctuation("=")
            pos = parser.pos
            s = parser.parse_attribute()
            if not isinstance(s, AffineSetAttr):
                parser.raise_error("idx_set must be an affine_set", pos, parser.pos)
            sets.append(s)
            parser.parse_punctuation(",")
            parser.parse_keyword("start_addr")
            parser.parse_punctuation("=")
            addrs.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(")")
            if parser.parse_optional_punctuation(",") is None:
                break
        parser.parse_punctuation("}")
        self.addrs.set(state, addrs)
        self.sets.set(state, ArrayAttr(sets))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        sets = self.sets.get(op)
        sets = sets if isinstance(sets, ArrayAttr) else ()  # none: the verifier says so
        with printer.indented():
            printer.print_string("\n{segments =")
            with printer.indented():
                for i, (s, a) in enumerate(zip(sets, self.addrs.get(op), strict=False)):
                    printer.print_string(("," if i else "") + f"\npage{i}: (idx_set = ")
                    printer.print_attribute(s)
                    printer.print_string(", start_addr = ")
                    printer.print_ssa_value(a)
                    printer.print_string(")")
            printer.print_string("}")


class SegmentsIfNoDict(Segments):
    """`Segments` read right before an attr-dict that they follow, when no dictionary comes
    first (attr-dict would take `{segments = ...` for one); prints nothing."""

    def parse(self, parser: Parser, state: ParsingState) -> None:
        t = _peek(parser, 2)
        if t[0].kind == MLIRTokenKind.L_BRACE and len(t) > 1 and t[1].text == "segments":
            super().parse(parser, state)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        pass
