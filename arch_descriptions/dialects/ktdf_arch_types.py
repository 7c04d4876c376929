"""Types, the `#ktdf_arch.map` attribute, and the custom-syntax pieces the `ktdf_arch` ops
share: `(@id)? ({...} | #alias)?` resource attributes printed the way upstream MLIR prints them
(i64 integers without `: i64`), endpoint operands checked while parsing, and device/group bodies
printed without the `ktdf_arch.` prefix.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    f64,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, Region, SSAValue, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from arch_descriptions.dialects import ktdf_arch_intrinsics as intrinsics

# --------------------------------------------------------------------------------------------
# types and the map attribute
# --------------------------------------------------------------------------------------------


@irdl_attr_definition
class MemoryType(ParametrizedAttribute, TypeAttribute):
    """A node that stores data."""

    name = "ktdf_arch.memory"


@irdl_attr_definition
class ExecUnitType(ParametrizedAttribute, TypeAttribute):
    """A node that processes or moves data."""

    name = "ktdf_arch.exec_unit"


@irdl_attr_definition
class PortType(ParametrizedAttribute, TypeAttribute):
    """One port of a switch."""

    name = "ktdf_arch.port"


SHORT_TYPES: dict[str, type[Attribute]] = {
    "memory": MemoryType, "exec_unit": ExecUnitType, "port": PortType}
ENDPOINT_TYPES = (MemoryType, ExecUnitType, PortType)


def article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def short_type(t: Attribute) -> str:
    return t.name.removeprefix("ktdf_arch.") if isinstance(t, ENDPOINT_TYPES) else str(t)


def parse_short_type(parser: Parser) -> Attribute:
    if (kw := parser.parse_optional_keyword_in(SHORT_TYPES)) is not None:
        return SHORT_TYPES[kw]()
    pos = parser.pos
    t = parser.parse_type()
    if not isinstance(t, ENDPOINT_TYPES):
        parser.raise_error("expected 'memory', 'exec_unit' or 'port'", pos, parser.pos)
    return t


@irdl_attr_definition
class MapAttr(ParametrizedAttribute):
    """`#ktdf_arch.map<k1 = v1, ...>`: ordered pairs of attributes with unique keys."""

    name = "ktdf_arch.map"
    keys: ArrayAttr
    values: ArrayAttr

    def __init__(self, entries: Iterable[tuple[Attribute, Attribute]] | Mapping = ()):
        pairs = list(entries.items() if isinstance(entries, Mapping) else entries)
        super().__init__(ArrayAttr([k for k, _ in pairs]), ArrayAttr([v for _, v in pairs]))

    def items(self) -> list[tuple[Attribute, Attribute]]:
        return list(zip(self.keys.data, self.values.data, strict=True))

    def get(self, key: Attribute) -> Attribute | None:
        for k, v in self.items():
            if k == key:
                return v
        return None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        keys: list[Attribute] = []
        values: list[Attribute] = []
        if parser.parse_optional_punctuation(">") is None:
            while True:
                pos = parser.pos
                key = parser.parse_attribute()
                if key in keys:
                    parser.raise_error(f"multiple entries for key {intrinsics.key_text(key)}",
                                       pos, parser.pos)
                parser.parse_punctuation("=")
                keys.append(key)
                values.append(parser.parse_attribute())
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation(">")
        return (ArrayAttr(keys), ArrayAttr(values))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for i, (k, v) in enumerate(self.items()):
            if i:
                printer.print_string(", ")
            print_value(printer, k)
            printer.print_string(" = ")
            print_value(printer, v)
        printer.print_string(">")

    def verify(self) -> None:
        if len(self.keys.data) != len(self.values.data):
            raise VerifyException("map needs as many values as keys")
        if len(set(self.keys.data)) != len(self.keys.data):
            raise VerifyException("map has multiple entries for one key")


# --------------------------------------------------------------------------------------------
# printing attribute values the way upstream MLIR does (i64 integers without ': i64')
# --------------------------------------------------------------------------------------------

_BARE_NAME = re.compile(r"^[A-Za-z_][\w$.]*$")


def print_value(printer: Printer, attr: Attribute) -> None:
    if isinstance(attr, IntegerAttr) and attr.type == i64:
        printer.print_string(str(attr.value.data))
    elif isinstance(attr, FloatAttr) and isinstance(attr.value.data, float) \
            and attr.type == f64 and abs(attr.value.data) != float("inf") \
            and attr.value.data == attr.value.data:
        text = repr(attr.value.data)
        printer.print_string(text if "." in text else text.replace("e", ".0e"))
    elif isinstance(attr, DictionaryAttr):
        print_dict(printer, attr.data)
    elif isinstance(attr, ArrayAttr):
        printer.print_string("[")
        printer.print_list(attr.data, lambda a: print_value(printer, a))
        printer.print_string("]")
    else:
        printer.print_attribute(attr)


def print_dict(printer: Printer, entries: Mapping[str, Attribute]) -> None:
    printer.print_string("{")
    for i, (name, value) in enumerate(entries.items()):
        if i:
            printer.print_string(", ")
        printer.print_string(name if _BARE_NAME.match(name) else f'"{name}"')
        if not isinstance(value, UnitAttr):
            printer.print_string(" = ")
            print_value(printer, value)
    printer.print_string("}")


# --------------------------------------------------------------------------------------------
# shared parsing / printing pieces
# --------------------------------------------------------------------------------------------


def parse_resource_attrs(parser: Parser) -> dict[str, Attribute]:
    """`(@id)? ({...} | #alias)?` -> the op's attribute dictionary."""
    attrs: dict[str, Attribute] = {}
    if (sym := parser.parse_optional_symbol_name()) is not None:
        attrs["id"] = sym
    if parser._current_token.kind in (MLIRTokenKind.L_BRACE, MLIRTokenKind.HASH_IDENT):
        pos = parser.pos
        d = parser.parse_attribute()
        if not isinstance(d, DictionaryAttr):
            parser.raise_error("expected an attribute dictionary or an alias of one",
                               pos, parser.pos)
        attrs.update(d.data)
    return attrs


def print_resource_attrs(printer: Printer, op: Operation, skip: Iterable[str] = ()) -> None:
    rid = op.attributes.get("id")
    if isinstance(rid, StringAttr):
        printer.print_string(" @")
        printer.print_identifier_or_string_literal(rid.data)
    rest = {k: v for k, v in op.attributes.items() if k != "id" and k not in skip}
    if rest:
        printer.print_string(" ")
        print_dict(printer, rest)


def parse_endpoint(parser: Parser, allowed: tuple[type[Attribute], ...], what: str) -> SSAValue:
    """An SSA operand that must already name a resource of one of the `allowed` types."""
    return check_endpoint(parser, allowed, what)[0]


def check_endpoint(parser: Parser, allowed: tuple[type[Attribute], ...],
                   what: str) -> tuple[SSAValue, UnresolvedOperand]:
    """Parse an operand that must already name a resource of one of the `allowed` types (a
    located error otherwise); the value and the operand as written."""
    operand = parser.parse_unresolved_operand()
    name = operand.operand_name
    values = parser.ssa_values.get(name)
    if values is None or operand.index >= len(values):
        parser.raise_error(
            f"{what} '%{name}' is not a resource defined before this point in this scope "
            "(memories enter a group through share(...), exec units leave it through yield)",
            operand.span.start, operand.span.end)
    value = values[operand.index]
    if not isinstance(value.type, allowed):
        parser.raise_error(f"{what} '%{name}' is {article(short_type(value.type))}, expected "
                           + " or ".join(a.name.removeprefix("ktdf_arch.") for a in allowed),
                           operand.span.start, operand.span.end)
    return value, operand


def print_body(printer: Printer, region: Region) -> None:
    """A device or group body, its ktdf_arch ops without the dialect prefix."""
    printer.print_string("{")
    block = region.blocks.first
    with printer.indented():
        for op in block.ops if block is not None else ():
            if op.name == "ktdf_arch.yield" and not op.operands:
                continue
            printer._print_new_line()
            if printer.print_generic_format or op.dialect_name() != "ktdf_arch":
                printer.print_op(op)
                continue
            printer._print_results(op)
            isolated = op.has_trait(IsolatedFromAbove)
            if isolated:
                printer.enter_scope()
            printer.print_string(op.name.removeprefix("ktdf_arch."))
            op.print(printer)
            if printer.print_debuginfo:
                printer.print_string(" ")
                printer.print_attribute(op.location)
            if isolated:
                printer.exit_scope()
    printer._print_new_line()
    printer.print_string("}")


def parse_sparse_matrix(parser: Parser) -> Attribute:
    """`sparse<[[i, j], ...], true> : tensor<NxNxi1>` as a dense i1 matrix."""
    parser.parse_punctuation("<")
    pairs = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_integer))
    parser.parse_punctuation(",")
    value = parser.parse_boolean()
    parser.parse_punctuation(">")
    parser.parse_punctuation(":")
    pos = parser.pos
    t = parser.parse_type()
    if not (isinstance(t, TensorType) and len(t.get_shape()) == 2 and t.element_type == i1):
        parser.raise_error("sparse connectivity needs a tensor<NxNxi1> type", pos, parser.pos)
    rows, cols = t.get_shape()
    if rows * cols > 1 << 24:
        parser.raise_error(f"sparse connectivity of {rows}x{cols} is too large", pos, parser.pos)
    flat = [not value] * (rows * cols)
    for pair in pairs:
        if len(pair) != 2 or not (0 <= pair[0] < rows and 0 <= pair[1] < cols):
            parser.raise_error(f"sparse index {pair} out of the {rows}x{cols} matrix", pos)
        flat[pair[0] * cols + pair[1]] = value
    return DenseIntOrFPElementsAttr.from_list(t, [int(v) for v in flat])
