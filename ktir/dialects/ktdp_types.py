"""Attributes and types of the `ktdp` dialect (shared/spec/ktir.md §2-3), and kernel helpers.

Kept apart from the ops so that the inter-tile ops (ktdp_intertile.py) and the view/tile ops
(ktdp.py) can both use them; `ktir.dialects.ktdp` re-exports everything and holds the Dialect.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineSetAttr,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.ir.affine import AffineConstraintExpr, AffineConstraintKind, AffineExpr, AffineSet
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def kernel_grid(op: Operation) -> tuple[int, ...] | None:
    """The `grid` written on the kernel enclosing `op`; None when absent or malformed.

    (P) rules that depend on the number of tiles apply only when a grid is written.
    """
    p: Operation | None = op
    while p is not None and not isinstance(p, FuncOp):
        p = p.parent_op()
    func = p
    if func is None:
        return None
    grid = func.attributes.get("grid")
    if grid is None:
        return None
    if not isinstance(grid, ArrayAttr) or not grid.data:
        return None
    out: list[int] = []
    for g in grid.data:
        if not isinstance(g, IntegerAttr) or g.value.data < 1:
            return None
        out.append(g.value.data)
    return tuple(out)


def box_set(sizes: Sequence[int]) -> AffineSet:
    """`[0, size)` per dimension; dynamic sizes become symbols in order. Built the way the
    parser builds `-d0 + s0 - 1 >= 0`, so printing it and parsing it back is stable."""
    cons = []
    nsym = 0
    for d, s in enumerate(sizes):
        x = AffineExpr.dimension(d)
        cons.append(AffineConstraintExpr(AffineConstraintKind.ge, x, AffineExpr.constant(0)))
        if s == DYNAMIC_INDEX:
            upper = -x + AffineExpr.symbol(nsym) - 1
            nsym += 1
        else:
            upper = -x + (s - 1)
        cons.append(AffineConstraintExpr(AffineConstraintKind.ge, upper, AffineExpr.constant(0)))
    return AffineSet(len(sizes), nsym, tuple(cons))


def _drop_unit_dims(t: TensorType) -> tuple[int, ...]:
    return tuple(d for d in t.get_shape() if d != 1)


def compatible_result(partial: TensorType, result: Attribute) -> bool:
    """An inter-tile result type for a partial: equal, or the partial with unit dims dropped
    (accepted with a warning, spec §8)."""
    if result == partial:
        return True
    return (isinstance(result, TensorType)
            and result.get_element_type() == partial.get_element_type()
            and _drop_unit_dims(partial) == _drop_unit_dims(result))


def int_list(attr: DenseArrayBase[IntegerType]) -> list[int]:
    return list(attr.get_values())


def shape_str(shape: Sequence[int]) -> str:
    return "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape)


# --------------------------------------------------------------------------------------------
# attributes
# --------------------------------------------------------------------------------------------


class MemoryKind(StrEnum):
    GLOBAL = "global"
    CT_LOCAL = "ct_local"


@irdl_attr_definition
class MemorySpaceAttr(ParametrizedAttribute):
    """`#ktdp.memory_space<global>`, `<ct_local>`, `<ct_local, ct_id = 3>` (linear tile id)."""

    name = "ktdp.memory_space"
    kind: StringAttr
    ct_id: IntAttr

    def __init__(self, kind: str | MemoryKind, ct_id: int = -1):
        super().__init__(StringAttr(str(kind)), IntAttr(ct_id))

    @property
    def is_global(self) -> bool:
        return self.kind.data == MemoryKind.GLOBAL

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            kind = parser.parse_identifier("memory space kind")
            if kind not in tuple(MemoryKind):
                parser.raise_error(
                    f"unknown memory space '{kind}', expected 'global' or 'ct_local'", pos,
                    parser.pos)
            ct_id = -1
            if parser.parse_optional_punctuation(","):
                parser.parse_keyword("ct_id")
                parser.parse_punctuation("=")
                pos = parser.pos
                ct_id = parser.parse_integer(allow_negative=True, allow_boolean=False)
                if kind != MemoryKind.CT_LOCAL:
                    parser.raise_error("'ct_id' is only valid with 'ct_local'", pos, parser.pos)
                if ct_id < 0:
                    parser.raise_error(f"'ct_id' must be >= 0, got {ct_id}", pos, parser.pos)
        return (StringAttr(kind), IntAttr(ct_id))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.kind.data}")
        if self.ct_id.data >= 0:
            printer.print_string(f", ct_id = {self.ct_id.data}")
        printer.print_string(">")

    def verify(self) -> None:
        if self.kind.data not in tuple(MemoryKind):
            raise VerifyException(f"unknown memory space '{self.kind.data}'")
        if self.ct_id.data >= 0 and self.kind.data != MemoryKind.CT_LOCAL:
            raise VerifyException("'ct_id' is only valid with 'ct_local'")
        if self.ct_id.data < -1:
            raise VerifyException(f"'ct_id' must be >= 0, got {self.ct_id.data}")


_LEGACY_KINDS = ("unspecified", "LX", "HBM", "L0")


@irdl_attr_definition
class SpyreMemorySpaceAttr(ParametrizedAttribute):
    """Legacy `#ktdp.spyre_memory_space<HBM|LX|L0|unspecified, core = N>`.

    `HBM` and `LX` are converted to `#ktdp.memory_space` while parsing (spec §3.2); `L0` and
    `unspecified` have no canonical form and stay legacy.
    """

    name = "ktdp.spyre_memory_space"
    kind: StringAttr
    core: IntAttr

    @classmethod
    def new(cls, params: Sequence[Attribute]) -> ParametrizedAttribute:  # type: ignore[override]
        kind, core = cast(StringAttr, params[0]).data, cast(IntAttr, params[1]).data
        if kind == "HBM" and core < 0:
            return MemorySpaceAttr(MemoryKind.GLOBAL)
        if kind == "LX":
            return MemorySpaceAttr(MemoryKind.CT_LOCAL, core)
        return super().new(params)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            kind = parser.parse_identifier("legacy memory space kind")
            if kind not in _LEGACY_KINDS:
                parser.raise_error(f"unknown legacy memory space '{kind}', expected one of "
                                   + ", ".join(_LEGACY_KINDS), pos, parser.pos)
            core = -1
            if parser.parse_optional_punctuation(","):
                parser.parse_keyword("core")
                parser.parse_punctuation("=")
                cpos = parser.pos
                core = parser.parse_integer(allow_negative=True, allow_boolean=False)
                if core < 0:
                    parser.raise_error(f"core must be >= 0, got {core}", cpos, parser.pos)
                if kind not in ("LX", "L0"):
                    parser.raise_error(
                        "core affinity is only valid for LX or L0 memory spaces, but got "
                        f"memory space '{kind}' with core = {core}", pos, parser.pos)
        return (StringAttr(kind), IntAttr(core))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.kind.data}")
        if self.core.data >= 0:
            printer.print_string(f", core = {self.core.data}")
        printer.print_string(">")


AnyMemorySpace = MemorySpaceAttr | SpyreMemorySpaceAttr


# --------------------------------------------------------------------------------------------
# types
# --------------------------------------------------------------------------------------------


@irdl_attr_definition
class AccessTileType(ParametrizedAttribute, TypeAttribute):
    """`!ktdp.access_tile<4x64xindex>`, `<?x64xindex>`, `<index>` (rank 0)."""

    name = "ktdp.access_tile"
    shape: ArrayAttr[IntAttr]

    def __init__(self, shape: Sequence[int]):
        super().__init__(ArrayAttr([IntAttr(d) for d in shape]))

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    def get_num_dims(self) -> int:
        return len(self.shape.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims = parser.parse_dimension_list()
            if dims:
                parser.parse_shape_delimiter()
            pos = parser.pos
            elt = parser.parse_type()
            if not isinstance(elt, IndexType):
                parser.raise_error("tile element type must be 'index'", pos, parser.pos)
        return (ArrayAttr([IntAttr(d) for d in dims]),)

    def print_parameters(self, printer: Printer) -> None:
        shape = self.get_shape()
        printer.print_string(f"<{shape_str(shape)}x" if shape else "<")
        printer.print_string("index>")

    def verify(self) -> None:
        for d in self.get_shape():
            if d < 0 and d != DYNAMIC_INDEX:
                raise VerifyException(f"access tile dimension must be >= 0 or '?', got {d}")


# After compute-group-extraction a runtime argument is a plain value whose argument attribute
# under this name keeps its former type (granularity, upper bound) for whoever launches it.
RUNTIME_ARG_ATTR = "ktdp.runtime_arg"


@irdl_attr_definition
class RuntimeArgType(ParametrizedAttribute, TypeAttribute):
    """`!ktdp.runtime_arg<index, granularity=32, upperbound=300>` — a value bound at launch."""

    name = "ktdp.runtime_arg"
    value_type: Attribute
    granularity: IntAttr | NoneAttr
    upperbound: IntAttr | NoneAttr

    def __init__(self, value_type: Attribute, granularity: int | None = None,
                 upperbound: int | None = None):
        super().__init__(value_type, NoneAttr() if granularity is None else IntAttr(granularity),
                         NoneAttr() if upperbound is None else IntAttr(upperbound))

    @property
    def granularity_value(self) -> int | None:
        return self.granularity.data if isinstance(self.granularity, IntAttr) else None

    @property
    def upperbound_value(self) -> int | None:
        return self.upperbound.data if isinstance(self.upperbound, IntAttr) else None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            vt = parser.parse_type()
            if not isinstance(vt, IndexType | IntegerType) and not _is_float(vt):
                parser.raise_error("runtime_arg underlying type must be index, an integer or a "
                                   f"float type, got {vt}", pos, parser.pos)
            values: dict[str, int] = {}
            while parser.parse_optional_punctuation(","):
                kpos = parser.pos
                key = parser.parse_keyword_in(("granularity", "upperbound"))
                if key in values:
                    parser.raise_error(f"duplicate '{key}' in runtime_arg", kpos, parser.pos)
                parser.parse_punctuation("=")
                vpos = parser.pos
                v = parser.parse_integer(allow_negative=True, allow_boolean=False)
                if v <= 0:
                    parser.raise_error(f"runtime_arg {key} must be positive", vpos, parser.pos)
                values[key] = v
        return (vt,
                IntAttr(values["granularity"]) if "granularity" in values else NoneAttr(),
                IntAttr(values["upperbound"]) if "upperbound" in values else NoneAttr())

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.value_type)
        if (g := self.granularity_value) is not None:
            printer.print_string(f", granularity={g}")
        if (u := self.upperbound_value) is not None:
            printer.print_string(f", upperbound={u}")
        printer.print_string(">")

    def verify(self) -> None:
        for key in ("granularity", "upperbound"):
            v = getattr(self, f"{key}_value")
            if v is not None and v <= 0:
                raise VerifyException(f"runtime_arg {key} must be positive")


def _is_float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


def _check_groups_set(aset: AffineSet) -> str | None:
    if aset.num_dims != 1 or aset.num_symbols != 0:
        return "tile_future groups must be a 1-D affine set without symbols"
    return None


def runtime_arg_violation(t: RuntimeArgType, value: object) -> str | None:
    """Why `value` cannot be given to a runtime argument of type `t` (ktir.md §2), or None."""
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    g, u = t.granularity_value, t.upperbound_value
    if g is not None and value % g:
        return f"{value} is not a multiple of its granularity {g}"
    if u is not None and value > u:
        return f"{value} exceeds its upper bound {u}"
    return None


@irdl_attr_definition
class TileFutureType(ParametrizedAttribute, TypeAttribute):
    """`!ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (...)>>`.

    Also accepted: `<T, groups = S>` and `<T, #alias>` (spec §8).
    """

    name = "ktdp.tile_future"
    partial_types: ArrayAttr[TensorType]
    groups: AffineSetAttr

    def __init__(self, partial_types: Sequence[TensorType], groups: AffineSet):
        super().__init__(ArrayAttr(partial_types), AffineSetAttr(groups))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            if parser.parse_optional_punctuation("("):
                types = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                          parser.parse_type)
                parser.parse_punctuation(")")
            else:
                types = [parser.parse_type()]
            parser.parse_punctuation(",")
            if parser.parse_optional_keyword("groups"):
                parser.parse_punctuation("=")
            pos = parser.pos
            groups = parser.parse_attribute()
            if not isinstance(groups, AffineSetAttr):
                parser.raise_error("expected an affine_set for tile_future groups", pos,
                                   parser.pos)
            if (msg := _check_groups_set(groups.data)) is not None:
                parser.raise_error(msg, pos, parser.pos)
            for t in types:
                if not isinstance(t, TensorType):
                    parser.raise_error(f"tile_future partial types must be ranked tensors, got {t}",
                                       pos, parser.pos)
        return (ArrayAttr(types), groups)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<(")
        printer.print_list(self.partial_types.data, printer.print_attribute)
        printer.print_string("), groups = ")
        printer.print_attribute(self.groups)
        printer.print_string(">")

    def verify(self) -> None:
        if not self.partial_types.data:
            raise VerifyException("tile_future needs at least one partial type")
        if (msg := _check_groups_set(self.groups.data)) is not None:
            raise VerifyException(msg)


