"""Custom assembly-format directives of the `ktdf_arch` ops.

Each is an `@irdl_custom_directive` used as `custom<Name>(...)` in an op's `assembly_format`
(xDSL's own model is `SwitchOpCases` in xdsl/dialects/cf.py): endpoint operands checked
against the resources in scope while parsing (so a typo is reported at the operand), an
optional list of group names, and a region whose `{}` still holds its block.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Block
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    RegionVariable,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind

from arch_descriptions.dialects.ktdf_arch_types import SHORT_TYPES, check_endpoint


@irdl_custom_directive
class Endpoints(CustomDirective):
    """`%e0, %e1` (or nothing): operands that must name resources already defined in scope,
    of the kinds the operand's constraint admits; anything else is a located error."""

    values: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        constr = state.op_type.get_irdl_definition().operands[self.values.index][1].constr
        allowed = tuple(t for t in SHORT_TYPES.values() if constr.verifies((t(),)))
        operands = []
        if parser._current_token.kind == MLIRTokenKind.PERCENT_IDENT:  # pyright: ignore[reportPrivateUsage]
            what = state.op_type.name.removeprefix("ktdf_arch.") + " operand"
            operands = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, lambda: check_endpoint(parser, allowed, what)[1])
        self.values.set(state, operands)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        values = self.values.get(op)
        if values:
            state.print_whitespace(printer)
            printer.print_list(values, printer.print_ssa_value)


@irdl_custom_directive
class GroupNames(CustomDirective):
    """`["pre_scheduling", ...]`, omitted when empty (upstream's `($groups^)?`, which xDSL
    0.74 rejects for a property with a default value)."""

    names: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        names: list[str] = []
        if parser._current_token.kind == MLIRTokenKind.L_SQUARE:  # pyright: ignore[reportPrivateUsage]
            names = parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                      parser.parse_str_literal)
        self.names.set(state, ArrayAttr([StringAttr(n) for n in names]))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        names = self.names.get(op)
        if isinstance(names, ArrayAttr) and names.data:
            state.print_whitespace(printer)
            printer.print_attribute(names)


@irdl_custom_directive
class Body(CustomDirective):
    """`{ ops }`: `{}` gets its (empty) block, which prints as `{}` again rather than with
    xDSL's `^bb0:` label."""

    body: RegionVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        self.body.set(state, region)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_region(self.body.get(op), print_empty_block=False)
