"""The `custom<...>` directives of the ktir dialects' declarative assembly formats.

Each class is one piece of KTIR syntax (shared/spec/ktir.md) that xDSL 0.74's format language
cannot spell by itself: one type written for every operand and result, ktdp types in their
short `<...>` form, affine subscripts of SSA values, bare keywords for enum-like properties,
properties the attribute dictionary must supply, and the heads of the indirect tile, of
`idx32toaddr` and of the inter-tile ops. Bad input is reported at its position in the text
(`file:line:col`), as the hand-written parsers these replace did.

A directive that only checks or completes what `attr-dict` parsed (`Required`, `BoxIfMissing`)
reads and prints no text; it comes after `attr-dict` and takes the properties as `ref(...)`, so
that `ParsePropInAttrDict` still parses them from the dictionary. `ImpliedType` likewise reads
nothing. Directives that need something of the op read it from the op class (`KEYWORDS`,
`IMPLIED_TYPE`, `DEFAULT_BLOCK_ARGS`, its implicit-terminator trait), never from globals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    BoolAttr,
    Builtin,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    StringAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, ParametrizedAttribute, Region, TypeAttribute
from xdsl.ir.affine import AffineBinaryOpExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import IRDLOperation, VerificationContext
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    OperandDirective,
    OperandVariable,
    ParsingState,
    PrintingState,
    RegionVariable,
    TypeDirective,
    VariableDirective,
    VariadicOperandVariable,
    VariadicVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from ktir.diagnostics import ssa_name, warn_at
from ktir.dialects.ktdp_types import box_set, compatible_result
from ktir.dialects.subscripts import (
    SubscriptParser,
    format_affine_expr,
    parse_ssa_subscripts,
    print_ssa_subscripts,
)

# ---------------------------------------------------------------------------- helpers


def _first_operand_pos(parser: Parser, state: ParsingState) -> int:
    """Where the op's first written operand starts (the anchor of whole-op diagnostics)."""
    starts = [o.span.start for group in state.operands if group for o in group]
    return min(starts) if starts else parser.pos


def _constraint(op_type: type[IRDLOperation], ty: TypeDirective):
    """The per-element constraint of the operand or result that `type(...)` names."""
    var = ty.inner
    assert isinstance(var, VariableDirective)
    op_def = op_type.get_irdl_definition()
    defs = op_def.operands if isinstance(var, OperandDirective) else op_def.results
    constr = defs[var.index][1].constr
    while not hasattr(constr, "get_bases"):  # unwrap SingleOf / RangeOf
        constr = getattr(constr, "constraint", None) or constr.constr
    return constr


def _type_name(base: type[Attribute]) -> str:
    builtin = base in Builtin.attributes
    return base.name if builtin or not issubclass(base, TypeAttribute) else f"!{base.name}"


def _check_type(parser: Parser, state: ParsingState, ty: TypeDirective, t: Attribute,
                start: int) -> None:
    """A located error when `t` breaks the constraint of what `ty` names (the format itself
    would only find it after the op, with an unlocated exception)."""
    constr = _constraint(state.op_type, ty)
    try:
        constr.verify(t, VerificationContext())
    except VerifyException as e:
        bases = constr.get_bases()
        what = " or ".join(sorted(_type_name(b) for b in bases)) if bases else None
        var = cast(VariableDirective, ty.inner)
        op = state.op_type.name
        if what is None:
            msg = f"{op} '{var.name}': {e}"
        elif isinstance(var, OperandDirective):
            msg = f"{op} expects a {what} for '{var.name}', got {t}"
        else:
            msg = f"{op} must produce a {what}, got {t}"
        parser.raise_error(msg, start, parser.pos)


def _parse_one_type(parser: Parser, state: ParsingState, ty: TypeDirective,
                    optional: bool = False) -> Attribute | None:
    """A type, or when the constraint names one dialect type, also its short `<...>` form
    (spec §2); checked against the constraint."""
    bases = _constraint(state.op_type, ty).get_bases()
    base = next(iter(bases)) if bases is not None and len(bases) == 1 else None
    pos = parser.pos
    t = parser.parse_optional_type()
    if t is None and base is not None and base not in Builtin.attributes \
            and issubclass(base, ParametrizedAttribute) \
            and parser._current_token.text == "<":  # pyright: ignore[reportPrivateUsage]
        t = base.new(base.parse_parameters(parser))
    if t is None:
        if optional:
            return None
        t = parser.parse_type()  # the usual "type expected" error
    _check_type(parser, state, ty, t, pos)
    return t


def _parse_types(parser: Parser, state: ParsingState, ty: TypeDirective) -> list[Attribute]:
    """One type, or for a variadic operand or result a (possibly empty) comma list."""
    if not isinstance(ty.inner, VariadicVariable):
        return [cast(Attribute, _parse_one_type(parser, state, ty))]
    first = _parse_one_type(parser, state, ty, optional=True)
    if first is None:
        return []
    types = [first]
    while parser.parse_optional_punctuation(","):
        types.append(cast(Attribute, _parse_one_type(parser, state, ty)))
    return types


def _set_every_type(operands: TypeDirective, results: TypeDirective, state: ParsingState,
                    t: Attribute) -> None:
    operands.set(state, [t] * sum(len(g) for g in state.operands if g))
    results.set(state, [t] * len(state.result_types))


# ---------------------------------------------------------------------------- types


@irdl_custom_directive
class SameType(CustomDirective):
    """`custom<SameType>(type(operands), type(results))`: `T`, the one type of every operand
    and result (`spyreop.exp %x : f16`, `spyreop.exx2 %x : f16` with two results)."""

    operands: TypeDirective
    results: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        _set_every_type(self.operands, self.results, state, parser.parse_type())

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_attribute(op.result_types[0])


@irdl_custom_directive
class ImpliedType(CustomDirective):
    """`custom<ImpliedType>(type(operands), type(results))`: no text; every operand and result
    has the op's `IMPLIED_TYPE` (`spyreop.addi32toi32 %a, %b` is all i32). Unlike an `eq`
    constraint, a wrong type in the generic form still reaches the op's own verifier message."""

    operands: TypeDirective
    results: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        implied = cast(Attribute, getattr(state.op_type, "IMPLIED_TYPE"))
        _set_every_type(self.operands, self.results, state, implied)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        return


@irdl_custom_directive
class CheckedType(CustomDirective):
    """`custom<CheckedType>(type($x))`: the full type (a comma list for a variadic), also read
    in the short `<...>` form of a ktdp type (spec §2); a type the constraint rejects is a
    located error (`... must produce a memref, got tensor<4xf16>`), not an exception after
    the op."""

    ty: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.ty.set(state, _parse_types(parser, state, self.ty))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        if types := self.ty.get(op):
            state.print_whitespace(printer)
            printer.print_list(types, printer.print_attribute)


@irdl_custom_directive
class TileType(CustomDirective):
    """`custom<TileType>(type($result), ref($set), ref($order))`: the access tile's type, as
    `CheckedType`; a type smaller than the set's extents (or static over a symbolic extent)
    wins over the set, with a located warning (leniency.py, spec §4 decision)."""

    ty: TypeDirective
    aset: AttributeVariable
    order: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        from ktir.dialects.leniency import fit_tile_set

        pos = parser.pos
        types = _parse_types(parser, state, self.ty)
        self.ty.set(state, types)
        aset = state.properties.get(self.aset.name)
        order = state.properties.get(self.order.name)
        shape = getattr(types[0], "get_shape", None)
        if not isinstance(aset, AffineSetAttr) or not isinstance(order, AffineMapAttr) \
                or shape is None:
            return
        fitted = fit_tile_set(aset.data, order.data, shape())
        if fitted is not None:
            warn_at(parser, pos, fitted[1])
            state.properties[self.aset.name] = AffineSetAttr(fitted[0])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_attribute(self.ty.get(op)[0])


@irdl_custom_directive
class ShortType(CustomDirective):
    """`custom<ShortType>(type($x))`: as `CheckedType`, but printed short: `<32x64xindex>` for
    `!ktdp.access_tile<32x64xindex>` (what the upstream printer emits after `ktdp.load ... :`)."""

    ty: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.ty.set(state, _parse_types(parser, state, self.ty))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        cast(ParametrizedAttribute, self.ty.get(op)[0]).print_parameters(printer)


@irdl_custom_directive
class TypedValues(CustomDirective):
    """`custom<TypedValues>($xs, type($xs))`: `%a, %b : T1, T2`, as many types as values (a
    located error otherwise), each checked as by `CheckedType`."""

    values: VariadicOperandVariable
    types: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        values = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand) or []
        parser.parse_punctuation(":")
        pos = parser.pos
        types = _parse_types(parser, state, self.types)
        if len(values) != len(types):
            parser.raise_error(f"{len(values)} values for '{self.values.name}' but "
                               f"{len(types)} types", pos, parser.pos)
        self.values.set(state, values)
        self.types.set(state, types)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        values = self.values.get(op)
        printer.print_list(values, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list(values.types, printer.print_attribute)


# ---------------------------------------------------------------------------- subscripts


@irdl_custom_directive
class SsaSubscripts(CustomDirective):
    """`custom<SsaSubscripts>($indices, $map)`: `[%row0 + %i, %c0]`, affine expressions of SSA
    values stored as a map with one dim per distinct value (first-use order) and the values
    as operands. Write `` $view `` custom<SsaSubscripts>(...) `` for `%v[...]`."""

    operands: VariadicOperandVariable
    map: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        amap, operands = parse_ssa_subscripts(parser)
        self.operands.set(state, operands)
        self.map.set(state, AffineMapAttr(amap))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        amap = self.map.get(op)
        if isinstance(amap, AffineMapAttr):  # else invalid: the verifier says so
            print_ssa_subscripts(printer, amap.data, self.operands.get(op))

    def set_empty(self, state: ParsingState) -> None:  # in an optional group left out
        self.operands.set(state, ())


# ---------------------------------------------------------------------------- keywords


@irdl_custom_directive
class Keyword(CustomDirective):
    """`custom<Keyword>($p)`: a bare keyword, one of the op's `KEYWORDS`, stored as a string
    (`spyreop.compare <greaterthan> ...`); anything else is a located error naming the op's
    `KEYWORD_ROLE`."""

    attr: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        keywords: Sequence[str] = getattr(state.op_type, "KEYWORDS")
        role: str = getattr(state.op_type, "KEYWORD_ROLE")
        self.attr.set(state, self.to_attr(keywords, parser.parse_keyword_in(keywords,
                                                                             f" as the {role}")))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_string(self.to_keyword(getattr(op, "KEYWORDS"),
                                             cast(Attribute, self.attr.get(op))))

    @staticmethod
    def to_attr(keywords: Sequence[str], keyword: str) -> Attribute:
        return StringAttr(keyword)

    @staticmethod
    def to_keyword(keywords: Sequence[str], attr: Attribute) -> str:
        return cast(str, getattr(attr, "data"))


@irdl_custom_directive
class KeywordIndex(Keyword):
    """`custom<KeywordIndex>($p)`: as `Keyword`, stored as the keyword's position in the op's
    `KEYWORDS`, an i32 (`ktdp.runtime_arg_extract value from ...`, like the upstream enum)."""

    attr: AttributeVariable

    @staticmethod
    def to_attr(keywords: Sequence[str], keyword: str) -> Attribute:
        return IntegerAttr(list(keywords).index(keyword), i32)

    @staticmethod
    def to_keyword(keywords: Sequence[str], attr: Attribute) -> str:
        k = cast(IntegerAttr, attr).value.data
        return keywords[k] if 0 <= k < len(keywords) else str(k)  # the verifier rejects it


# ---------------------------------------------------------------------------- attr-dict


def _move_to_end(state: ParsingState, name: str) -> None:
    """Properties print in insertion order; these directives fix it, whatever the input."""
    state.properties[name] = state.properties.pop(name)


@irdl_custom_directive
class Required(CustomDirective):
    """`attr-dict custom<Required>(ref($p))`: property `p`, parsed from the attribute
    dictionary, must be there (a located error at the op's first operand otherwise). The
    dictionary prints such properties in the order of their `Required` directives."""

    prop: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        name = self.prop.name
        if name not in state.properties:
            parser.raise_error(f"{state.op_type.name} needs a '{name}' attribute",
                               _first_operand_pos(parser, state), parser.pos)
        _move_to_end(state, name)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        return


@irdl_custom_directive
class BoxIfMissing(CustomDirective):
    """`attr-dict custom<BoxIfMissing>(ref($coordinate_set), ref($static_sizes))`: a view
    without `coordinate_set` (ktir-cpu writes them) gets the box `[0, size)` of its sizes,
    with a located warning (spec §4.2)."""

    cset: AttributeVariable
    sizes: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        name = self.cset.name
        if name not in state.properties:
            warn_at(parser, _first_operand_pos(parser, state),
                    f"{state.op_type.name} has no '{name}'; using the box [0, size) of its "
                    "sizes")
            sizes = cast(DenseArrayBase, state.properties[self.sizes.name])
            state.properties[name] = AffineSetAttr(box_set(list(sizes.get_values())))
        _move_to_end(state, name)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        return


# ---------------------------------------------------------------------------- spyreop


@irdl_custom_directive
class BaseStride(CustomDirective):
    """`custom<BaseStride>($params, $base, $stride)`: `base %b stride %s` (operands) or the
    older `base 0xDEADBEEF stride 4` (i64 literals, the base printed in hex); not mixed."""

    params: VariadicOperandVariable
    base: AttributeVariable
    stride: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        operands: list[UnresolvedOperand] = []
        for key, attr in (("base", self.base), ("stride", self.stride)):
            parser.parse_keyword(key)
            if (u := parser.parse_optional_unresolved_operand()) is not None:
                operands.append(u)
            else:
                attr.set(state, IntegerAttr(
                    parser.parse_integer(allow_negative=True, allow_boolean=False), i64))
        if len(operands) == 1:
            parser.raise_error("give both base and stride as operands, or both as literals")
        self.params.set(state, operands)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        params = self.params.get(op)
        if params:
            printer.print_string("base ")
            printer.print_ssa_value(params[0])
            printer.print_string(" stride ")
            printer.print_ssa_value(params[-1])
            return
        base, stride = (cast(IntegerAttr | None, a.get(op)) for a in (self.base, self.stride))
        printer.print_string(f"base 0x{base.value.data if base else 0:X} "
                             f"stride {stride.value.data if stride else 0}")


# ---------------------------------------------------------------------------- indirect tiles


def _renumber(e: AffineExpr, ncap: int) -> AffineExpr:
    """Dims >= 1000 were intermediate variables during parsing; move them after the captured."""
    if isinstance(e, AffineDimExpr) and e.position >= 1000:
        return AffineExpr.dimension(ncap + e.position - 1000)
    if isinstance(e, AffineBinaryOpExpr):
        return AffineExpr.binary(e.kind, _renumber(e.lhs, ncap), _renumber(e.rhs, ncap))
    return e


def _implicit_terminator(op_type: type[IRDLOperation]) -> IRDLOperation | None:
    trait = op_type.get_trait(SingleBlockImplicitTerminator)
    return None if trait is None else cast(IRDLOperation, trait.op_type.create())


@irdl_custom_directive
class IndirectSubscripts(CustomDirective):
    """`(%b, %t) %X[ind(%Idx[%b, %t floordiv 64]), (%t mod 64)]` of
    `construct_indirect_access_tile` (spec §4.5): the intermediate variables become the
    arguments of the hidden region, every other SSA name in a subscript a captured operand
    (first-use order); each subscript's map runs over (captured..., intermediate...)."""

    body: RegionVariable
    base: OperandVariable
    views: VariadicOperandVariable
    captured: VariadicOperandVariable
    kinds: AttributeVariable
    maps: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        inter = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False))
        inter_names = [a.name.text for a in inter]
        self.base.set(state, parser.parse_unresolved_operand())
        captured: dict[str, UnresolvedOperand] = {}

        def on_ssa(name: str, span) -> AffineExpr:
            if name in inter_names:
                return AffineExpr.dimension(1000 + inter_names.index(name))
            if name not in captured:
                captured[name] = UnresolvedOperand(span, 0)
            return AffineExpr.dimension(list(captured).index(name))

        kinds, raw_maps, views = SubscriptParser(parser, on_ssa).parse_indirect_bracket()
        ncap = len(captured)
        ndims = ncap + len(inter)
        self.views.set(state, views)
        self.captured.set(state, list(captured.values()))
        self.kinds.set(state, ArrayAttr([BoolAttr.from_bool(k) for k in kinds]))
        self.maps.set(state, ArrayAttr([
            AffineMapAttr(AffineMap(ndims, 0, tuple(_renumber(e, ncap) for e in exprs)))
            for exprs in raw_maps]))
        block = Block(arg_types=[IndexType()] * len(inter))
        for arg, name in zip(block.args, inter_names):
            if arg.is_valid_name(name[1:]):  # `%0` is a valid SSA name but no valid hint
                arg.name_hint = name[1:]
        if (term := _implicit_terminator(state.op_type)) is not None:
            block.add_op(term)
        self.body.set(state, Region(block))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        inter = self.body.get(op).block.args
        printer.print_string("(")
        printer.print_list(inter, printer.print_ssa_value)
        printer.print_string(") ")
        printer.print_ssa_value(self.base.get(op))
        names = [ssa_name(printer, v) for v in (*self.captured.get(op), *inter)]
        views = iter(self.views.get(op))
        parts: list[str] = []
        kinds = cast(ArrayAttr, self.kinds.get(op)).data
        maps = cast(ArrayAttr[AffineMapAttr], self.maps.get(op)).data
        for kind, m in zip(kinds, maps):
            exprs = [format_affine_expr(e, names) for e in m.data.results]
            if isinstance(kind, IntegerAttr) and kind.value.data:
                parts.append(f"ind({ssa_name(printer, next(views))}[{', '.join(exprs)}])")
            else:
                parts.append(f"({exprs[0]})")
        printer.print_string("[" + ", ".join(parts) + "]")


@irdl_custom_directive
class IndirectTypes(CustomDirective):
    """`T, T_idx...` of `construct_indirect_access_tile`: the base's type, then one per index
    view read by an `ind(...)` subscript."""

    base: TypeDirective
    views: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        types = [cast(Attribute, _parse_one_type(parser, state, self.base))]
        while parser.parse_optional_punctuation(","):
            types.append(cast(Attribute, _parse_one_type(parser, state, self.views)))
        inner = cast(VariableDirective, self.views.inner)
        n_views = len(state.operands[inner.index] or ())
        if len(types) != 1 + n_views:
            parser.raise_error(f"expected {1 + n_views} types (the base, then one per index "
                               f"view), got {len(types)}", pos, parser.pos)
        self.base.set(state, types[:1])
        self.views.set(state, types[1:])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_list((*self.base.get(op), *self.views.get(op)), printer.print_attribute)


# ---------------------------------------------------------------------------- inter-tile


@irdl_custom_directive
class FutureSignature(CustomDirective):
    """`(: T_p...)? -> !ktdp.tile_future<...>` of `inter_tile_produce`: ktir-cpu writes the
    partial types before `->` (checked against the future's); the future may be short."""

    ty: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        declared: list[Attribute] = []
        if parser.parse_optional_punctuation(":"):
            declared = parser.parse_comma_separated_list(Parser.Delimiter.NONE,
                                                         parser.parse_type)
        parser.parse_punctuation("->")
        pos = parser.pos
        future = cast(Attribute, _parse_one_type(parser, state, self.ty))
        if declared and declared != list(getattr(future, "partial_types").data):
            parser.raise_error("the partial types before '->' differ from the future's",
                               pos, parser.pos)
        self.ty.set(state, (future,))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_string("-> ")
        printer.print_attribute(self.ty.get(op)[0])


@irdl_custom_directive
class ReducedResults(CustomDirective):
    """`custom<ReducedResults>(type($results), ref(type($future)))`: the result types of
    `inter_tile_reduce`; one that drops the unit dims of its partial (ktir-cpu) is accepted
    with a located warning (spec §8)."""

    results: TypeDirective
    future: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        types = _parse_types(parser, state, self.results)
        inner = cast(VariableDirective, self.future.inner)
        (future,) = state.operand_types[inner.index] or (None,)
        for p, r in zip(getattr(future, "partial_types").data, types):
            if r != p and compatible_result(cast(TensorType, p), r):
                warn_at(parser, pos, f"{state.op_type.name.split('.')[-1]} result {r} drops "
                        f"the unit dimensions of the partial {p}; the canonical form keeps them")
        self.results.set(state, types)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_list(self.results.get(op), printer.print_attribute)


@irdl_custom_directive
class Body(CustomDirective):
    """`custom<Body>($region)`: a region whose implicit terminator
    (`SingleBlockImplicitTerminator`) may be left out, and whose entry block gets the op's
    `DEFAULT_BLOCK_ARGS` when the text declares none (the parser inserts neither itself)."""

    region: RegionVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        block = region.block
        if not block.args:
            for t in getattr(state.op_type, "DEFAULT_BLOCK_ARGS", ()):
                block.insert_arg(t, len(block.args))
        last = block.last_op
        if last is None or not last.has_trait(IsTerminator, value_if_unregistered=False):
            if (term := _implicit_terminator(state.op_type)) is not None:
                block.add_op(term)
        self.region.set(state, region)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_region(self.region.get(op))

