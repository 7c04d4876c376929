"""Types and attributes of the `ktdf` dialect (shared/spec/schedule-ir.md §1-2), and the
helpers its op modules share (single-block bodies, constants, unique ids).

Kept apart from the ops so the structure ops (ktdf.py), the FIFO/transfer ops
(ktdf_transfers.py) and the loop/compute ops (ktdf_compute.py) can share them;
`scheduler.dialects.ktdf` re-exports everything and holds the Dialect.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import IRDLOperation, irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import EffectInstance, MemoryEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xdsl.utils.str_enum import StrEnum

from ktir.dialects.ktdp_types import MemorySpaceAttr, SpyreMemorySpaceAttr

# --------------------------------------------------------------------------------------------
# attributes
# --------------------------------------------------------------------------------------------


class LoopType(StrEnum):
    PARALLEL_LOOP = "parallel_loop"
    REDUCTION_LOOP = "reduction_loop"


@irdl_attr_definition
class LoopTypeAttr(EnumAttribute[LoopType]):
    """`#ktdf.loop_type<parallel_loop>`: set on `scf.for` by the frontend tiling (discardable
    `loop_type`), read by the reduction and parallelisation passes, stripped at lowering."""

    name = "ktdf.loop_type"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> LoopType:
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


class TransferMode(StrEnum):
    """Values of the discardable `transfer_mode` of a transfer (spec §2)."""

    SPLAT = "splat"
    """each source element is repeated n_dst / n_src times consecutively"""
    PAD = "pad"
    """destination elements past the source count are zero"""


# --------------------------------------------------------------------------------------------
# types
# --------------------------------------------------------------------------------------------


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!ktdf.token`: a pure ordering value between stages, no runtime representation."""

    name = "ktdf.token"


def _endpoint_ok(attr: Attribute) -> bool:
    return isinstance(attr, StringAttr | MemorySpaceAttr | SpyreMemorySpaceAttr)


def _as_endpoint(x: str | Attribute) -> Attribute:
    return StringAttr(x) if isinstance(x, str) else x


@irdl_attr_definition
class FifoSlotType(ParametrizedAttribute, TypeAttribute):
    """`!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>`: one slot of a hardware FIFO from unit kind
    SRC to unit kind DST holding N elements (`?` = dynamic) of one element type.

    SRC/DST are unit-kind strings of the device, or a ktdp memory space before mapping
    (`#ktdp.memory_space<global> -> "SFU"`). Build with
    `FifoSlotType("L1LU", "SFU", 64, f16)`; the count may be an int, `None` (dynamic) or a
    shape whose product is taken (`[1, 64]` -> 64; any dynamic dim makes it dynamic).
    """

    name = "ktdf.fifo.slot"
    src: Attribute
    dst: Attribute
    count: IntAttr
    element_type: Attribute

    def __init__(self, src: str | Attribute, dst: str | Attribute,
                 shape: int | Sequence[int] | None, element_type: Attribute):
        super().__init__(_as_endpoint(src), _as_endpoint(dst), IntAttr(_flat_count(shape)),
                         element_type)

    @property
    def num_elements(self) -> int | None:
        """The static element count, None when it is `?`."""
        return None if self.count.data == DYNAMIC_INDEX else self.count.data

    @property
    def is_dynamic(self) -> bool:
        return self.count.data == DYNAMIC_INDEX

    @property
    def src_kind(self) -> str | None:
        """SRC as a unit-kind string; None while it is still a memory-space attribute."""
        return self.src.data if isinstance(self.src, StringAttr) else None

    @property
    def dst_kind(self) -> str | None:
        return self.dst.data if isinstance(self.dst, StringAttr) else None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            src = _parse_endpoint(parser, "source")
            parser.parse_punctuation("->")
            dst = _parse_endpoint(parser, "destination")
            parser.parse_punctuation(",")
            pos = parser.pos
            count = parser.parse_shape_dimension()
            if count == 0:
                parser.raise_error("a FIFO slot holds at least one element", pos, parser.pos)
            x = parser._parse_optional_shape_delimiter()  # pyright: ignore[reportPrivateUsage]
            if x is None:
                parser.raise_error("FIFO slot type needs an element type, as in `64xf16`")
            next_kind = parser._current_token.kind  # pyright: ignore[reportPrivateUsage]
            if next_kind in (MLIRTokenKind.INTEGER_LIT, MLIRTokenKind.QUESTION):
                parser.raise_error("a FIFO slot holds a flat count of elements (`Nxtype`), "
                                   "not a multi-dimensional shape")
            element_type = parser.parse_type()
        return (src, dst, IntAttr(count), element_type)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.src)
            printer.print_string(" -> ")
            printer.print_attribute(self.dst)
            printer.print_string(", ")
            printer.print_string("?" if self.is_dynamic else str(self.count.data))
            printer.print_string("x")
            printer.print_attribute(self.element_type)

    def verify(self) -> None:
        for what, a in (("source", self.src), ("destination", self.dst)):
            if not _endpoint_ok(a):
                raise VerifyException(f"FIFO slot {what} must be a unit-kind string or a ktdp "
                                      f"memory space, got {a}")
        if self.count.data != DYNAMIC_INDEX and self.count.data < 1:
            raise VerifyException(f"a FIFO slot holds at least one element, got "
                                  f"{self.count.data}")
        if not isinstance(self.element_type, TypeAttribute):
            raise VerifyException(f"FIFO slot element type must be a type, got "
                                  f"{self.element_type}")


def _flat_count(shape: int | Sequence[int] | None) -> int:
    if shape is None:
        return DYNAMIC_INDEX
    if isinstance(shape, int):
        return shape
    return DYNAMIC_INDEX if DYNAMIC_INDEX in shape else math.prod(shape)


def _parse_endpoint(parser: AttrParser, what: str) -> Attribute:
    pos = parser.pos
    attr = parser.parse_optional_attribute()
    if attr is None or not _endpoint_ok(attr):
        parser.raise_error(f"expected the FIFO {what} as a unit-kind string (\"L1LU\") or a "
                           "ktdp memory space (#ktdp.memory_space<global>)", pos,
                           max(parser.pos, pos + 1))
    return attr


def element_type_of(t: Attribute) -> Attribute | None:
    """Element type of a FIFO slot or a shaped type."""
    if isinstance(t, FifoSlotType):
        return t.element_type
    get = getattr(t, "get_element_type", None)
    return get() if get is not None else None


def value_element_count(v: SSAValue) -> int | None:
    """Static element count of a shaped value or FIFO slot; None when dynamic."""
    t = v.type
    if isinstance(t, FifoSlotType):
        return t.num_elements
    shape = getattr(t, "get_shape", lambda: None)()
    if shape is None or DYNAMIC_INDEX in shape:
        return None
    return math.prod(shape)


# --------------------------------------------------------------------------------------------
# helpers shared by the ktdf op modules
# --------------------------------------------------------------------------------------------


Body = Region | Block | Sequence[Operation] | None


def as_region(body: Body) -> Region:
    """A single-block region from a Region, a Block, a list of ops or nothing (empty block)."""
    if isinstance(body, Region):
        if not body.blocks:
            body.add_block(Block())
        return body
    if isinstance(body, Block):
        return Region(body)
    return Region(Block(list(body or ())))


def print_body(printer: Printer, region: Region, terminators: bool = True) -> None:
    printer.print_string(" ")
    printer.print_region(region, print_entry_block_args=False, print_empty_block=False,
                         print_block_terminators=terminators)


def is_true(a: Attribute) -> bool:
    """An `i1` true (`BoolAttr`), as the per-dimension subscript kinds are stored."""
    return isinstance(a, IntegerAttr) and a.type == IntegerType(1) and a.value.data != 0


def index_attr(v: int) -> IntegerAttr:
    return IntegerAttr(v, IndexType())


def const_int(v: SSAValue) -> int | None:
    """The value of an integer `arith.constant`, else None."""
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


# --------------------------------------------------------------------------------------------
# unique ids: Pure ops that must never be CSE'd together
# --------------------------------------------------------------------------------------------


class _UniqueIds:
    """Process-wide ids, always above every id seen so far (parsed generic ones included)."""

    last = 0

    @classmethod
    def fresh(cls) -> int:
        cls.last += 1
        return cls.last

    @classmethod
    def seen(cls, n: int) -> None:
        cls.last = max(cls.last, n)


class UniqueOpMixin(IRDLOperation):
    """Gives each new op a fresh `unique_id` property (a parsed generic id is kept); a clone
    gets a new one, so a duplicated token is a different token."""

    def __post_init__(self) -> None:
        super().__post_init__()
        uid = self.properties.get("unique_id")
        if isinstance(uid, IntegerAttr):
            _UniqueIds.seen(uid.value.data)
        else:
            self.properties["unique_id"] = index_attr(_UniqueIds.fresh())

    def clone_without_regions(self, value_mapper=None, block_mapper=None, *,
                              clone_name_hints: bool = True, clone_operands: bool = True):
        op = super().clone_without_regions(value_mapper, block_mapper,
                                           clone_name_hints=clone_name_hints,
                                           clone_operands=clone_operands)
        op.properties["unique_id"] = index_attr(_UniqueIds.fresh())
        return op


def drop_none(attrs: dict[str, Attribute | None]) -> dict[str, Attribute]:
    """Attributes or properties to pass to an op constructor, without the absent ones."""
    return {k: v for k, v in attrs.items() if v is not None}


def units_attr(units: Sequence[str] | None) -> ArrayAttr[StringAttr] | None:
    return None if units is None else ArrayAttr([StringAttr(u) for u in units])


class UnitsMixin(IRDLOperation):
    """`applicable_units` (discardable) as a list of unit-kind strings; assigning None drops
    the attribute. The verifier checks its shape wherever it appears."""

    def verify_(self) -> None:
        a = self.attributes.get("applicable_units")
        if a is not None and not (isinstance(a, ArrayAttr)
                                  and all(isinstance(u, StringAttr) for u in a.data)):
            raise VerifyException(f"applicable_units must be an array of unit-kind strings, "
                                  f"got {a}")

    @property
    def applicable_units(self) -> list[str]:
        a = self.attributes.get("applicable_units")
        if not isinstance(a, ArrayAttr):
            return []
        return [s.data for s in a.data if isinstance(s, StringAttr)]

    @applicable_units.setter
    def applicable_units(self, units: Sequence[str] | None) -> None:
        if units is None:
            self.attributes.pop("applicable_units", None)
        else:
            self.attributes["applicable_units"] = ArrayAttr([StringAttr(u) for u in units])


class OwnEffects(MemoryEffect):
    """Effects the op computes from its operands (`op.memory_effects()`), so analyses see which
    value is read or written; an op with this trait is never Pure."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        return op.memory_effects()  # pyright: ignore[reportAttributeAccessIssue]
