"""Types and attributes of the `dataflow` dialect (shared/spec/dataflow-ir.md §2), and the
vector-like type helpers every DataflowIR dialect uses.

`!dataflow.custom_vector<NxT>` is a 1-D vector whose element may be a non-builtin type; MX
element types print `!dataflow.custom<mxfp4>` and also parse from `!dataflow.mxfp<4>`; the
routing direction `#dataflow<direction ...>` is shared with `agen`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    VectorType,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    TypeAttribute,
)
from xdsl.irdl import base, irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum


@irdl_attr_definition
class CustomVectorType(ParametrizedAttribute, TypeAttribute):
    """`!dataflow.custom_vector<64xT>`: a 1-D vector whose element may be a non-builtin type
    such as `!dataflow.custom<mxfp4>`."""

    name = "dataflow.custom_vector"
    element_type: Attribute
    num_elements: IntAttr

    def __init__(self, element_type: Attribute, num_elements: int):
        super().__init__(element_type, IntAttr(num_elements))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            dims, elem = parser.parse_ranked_shape()
            if len(dims) != 1 or dims[0] < 1:
                parser.raise_error("a custom vector has one positive dimension, e.g. <64xf16>",
                                   pos, parser.pos)
        return (elem, IntAttr(dims[0]))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.num_elements.data}x")
        printer.print_attribute(self.element_type)
        printer.print_string(">")


# a builtin vector or a custom vector: the value types of FIFOs and vector ops
VectorLike = base(VectorType) | base(CustomVectorType)

MX_FORMATS = ("mxfp4", "mxfp8", "mxint4")


@irdl_attr_definition
class MXType(ParametrizedAttribute, TypeAttribute):
    """An MX (microscaling) element type, printed `!dataflow.custom<mxfp4>`; the spellings
    `!dataflow.mxfp<4>` and `!dataflow.mxint<4>` parse to the same type. Build with
    `MXType("mxfp", 4)`."""

    name = "dataflow.custom"
    family: StringAttr
    width: IntAttr

    def __init__(self, family: str, width: int):
        super().__init__(StringAttr(family), IntAttr(width))

    @property
    def mnemonic(self) -> str:
        return f"{self.family.data}{self.width.data}"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            word = parser.parse_optional_identifier()
            if word not in MX_FORMATS:
                parser.raise_error(f"expected one of {', '.join(MX_FORMATS)}, got "
                                   f"'{word or parser._current_token.text}'",  # pyright: ignore
                                   pos, parser.pos)
        family = word.rstrip("0123456789")
        return (StringAttr(family), IntAttr(int(word[len(family):])))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.mnemonic}>")

    def verify(self) -> None:
        if self.mnemonic not in MX_FORMATS:
            raise VerifyException(f"unsupported MX type '{self.mnemonic}', expected one of "
                                  f"{', '.join(MX_FORMATS)}")


class _MXSpelling(ParametrizedAttribute, TypeAttribute):
    """The `!dataflow.mxfp<W>` / `!dataflow.mxint<W>` spellings: parsing yields an `MXType`."""

    FAMILY: ClassVar[str]
    width: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            w = parser.parse_integer(allow_negative=False, allow_boolean=False)
            if f"{cls.FAMILY}{w}" not in MX_FORMATS:
                parser.raise_error(f"unsupported MX type '{cls.FAMILY}{w}', expected one of "
                                   f"{', '.join(MX_FORMATS)}", pos, parser.pos)
        return (IntAttr(w),)

    @classmethod
    def new(cls, params: Sequence[Attribute]) -> MXType:  # type: ignore[override]
        (width,) = params
        assert isinstance(width, IntAttr)
        return MXType(cls.FAMILY, width.data)


@irdl_attr_definition
class MXFloatSpellingType(_MXSpelling):
    name = "dataflow.mxfp"
    FAMILY = "mxfp"


@irdl_attr_definition
class MXIntSpellingType(_MXSpelling):
    name = "dataflow.mxint"
    FAMILY = "mxint"


class RoutingDirection(StrEnum):
    """Routing direction of a transfer on a ring (`dir` of send and agen transfers)."""

    PSEUDO_RANDOM = "PseudoRandom"
    COUNTER_CLOCKWISE = "CounterClockwise"
    CLOCKWISE = "Clockwise"
    BOTH_WAYS = "BothWays"


@irdl_attr_definition
class DirectionAttr(EnumAttribute[RoutingDirection], SpacedOpaqueSyntaxAttribute):
    """`#dataflow<direction Clockwise>`."""

    name = "dataflow.direction"


# --------------------------------------------------------------------------------------------
# vector-like values
# --------------------------------------------------------------------------------------------


def lanes(t: Attribute) -> int | None:
    """Number of elements of a vector or custom vector (None for dynamic/unknown shapes)."""
    if isinstance(t, CustomVectorType):
        return t.num_elements.data
    if isinstance(t, VectorType):
        n = 1
        for d in t.get_shape():
            if d < 0:
                return None
            n *= d
        return n
    return None


def element_type(t: Attribute) -> Attribute:
    """Element type of a vector, custom vector or memref (the type itself for scalars)."""
    if isinstance(t, CustomVectorType):
        return t.element_type
    if isinstance(t, VectorType | MemRefType):
        return t.get_element_type()
    return t


def element_bit_width(t: Attribute) -> int | None:
    """Bit width of an element type (of a vector-like type's element); None if it has none."""
    e = element_type(t)
    if isinstance(e, IntegerType):
        return e.width.data
    if isinstance(e, IndexType):
        return 64
    if isinstance(e, MXType):
        return e.width.data
    if isinstance(e, AnyFloat):
        return e.bitwidth
    return None


def is_vector_like(t: Attribute) -> bool:
    return isinstance(t, VectorType | CustomVectorType)
