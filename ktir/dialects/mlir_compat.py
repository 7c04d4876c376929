"""Upstream MLIR syntax that KTIR kernels use and xDSL 0.74 lacks.

Kernels from Inductor/Triton (and ktir-cpu's example corpus) use a few spellings of the upstream
dialects that xDSL 0.74 does not parse: `scf.for ... iter_args(...) -> T` without parentheses,
the `linalg.reduce { arith.addf } ins(...) outs(...) dimensions = [..]` short form, a
`linalg.generic` of several results (`-> (T1, T2)`),
`arith.select` on a tensor of conditions, `arith.cmpf`/`cmpi` on tensors (a tensor of i1), the integer casts on tensors, the
effects of `arith.extsi` and `arith.remui`, and the ops
`linalg.div`, `linalg.batch_matmul`, `arith.index_castui`, `arith.remf`, and the custom forms of
`memref.memory_space_cast`, `memref.cast` and `memref.copy`. `install()` adds them
to xDSL's own dialect objects (so every tool, `xdsl-opt` included, sees them) before anything
is parsed. It is idempotent and called when ktir's parser or registry is imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    AnyFloatConstr,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    MemRefType,
    StringAttr,
    TensorType,
    UnitAttr,
    container_of,
    i64,
)
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation, NamedOperation
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    IRDLOperation,
    OperandDef,
    ResultDef,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect, Pure, SingleBlockImplicitTerminator, ensure_terminator
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class LinalgDivOp(ElementwiseOperation):
    """`linalg.div ins(%a, %b : T, T) outs(%o : T) -> T`: element-wise a / b."""

    name = "linalg.div"

    def __init__(self, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue] = (),
                 res: Sequence[Attribute] | None = None):
        super().__init__(ins=inputs, outs=outputs,
                         result_types=res if res is not None else [o.type for o in outputs],
                         hidden_region=self.get_hidden_region(inputs, outputs))

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue],
                          outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        div = arith.DivfOp if isinstance(arg_types[-1], AnyFloat) else arith.DivSIOp

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            linalg.YieldOp(div(args[0], args[1]))

        return hidden_region


@irdl_op_definition
class LinalgBatchMatmulOp(NamedOperation):
    """`linalg.batch_matmul ins(%a, %b : BxMxK, BxKxN) outs(%c : BxMxN)`: C[b] += A[b] B[b]."""

    name = "linalg.batch_matmul"
    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    indexing_maps = prop_def(
        ArrayAttr[AffineMapAttr],
        default_value=ArrayAttr([
            AffineMapAttr(AffineMap.from_callable(lambda b, i, _, k: (b, i, k))),
            AffineMapAttr(AffineMap.from_callable(lambda b, _, j, k: (b, k, j))),
            AffineMapAttr(AffineMap.from_callable(lambda b, i, j, _: (b, i, j))),
        ]),
    )

    def __init__(self, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue] = (),
                 res: Sequence[Attribute] | None = None):
        super().__init__(ins=inputs, outs=outputs,
                         result_types=res if res is not None else
                         [o.type for o in outputs if isinstance(o.type, TensorType)],
                         hidden_region=self.get_hidden_region(inputs, outputs))

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue],
                          outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        add, mul = ((arith.AddfOp, arith.MulfOp) if isinstance(arg_types[-1], AnyFloat)
                    else (arith.AddiOp, arith.MuliOp))

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            linalg.YieldOp(add(mul(args[0], args[1]), args[2]))

        return hidden_region

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps.data)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        p, r = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
        return ArrayAttr([p, p, p, r])


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """`arith.index_castui %x : index to i32` (zero-extending/truncating, unsigned)."""

    name = "arith.index_castui"
    input = operand_def(base(IntegerType) | base(IndexType))
    result = result_def(base(IntegerType) | base(IndexType))
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def verify_(self) -> None:
        if not isinstance(self.input.type, IndexType) ^ isinstance(self.result.type, IndexType):
            raise VerifyException("exactly one of operand and result must be 'index'")


@irdl_op_definition
class RemFOp(arith.FloatingPointLikeBinaryOperation):
    """`arith.remf %a, %b : f32`: the remainder with the sign of the dividend (C fmod)."""

    name = "arith.remf"
    traits = traits_def(Pure())


def _verify_select(op: arith.SelectOp) -> None:
    """arith.select: an `i1` condition, or a tensor of `i1` of the values' shape."""
    c, t = op.cond.type, op.result.type
    if (c.get_element_type() if isinstance(c, TensorType) else c) != IntegerType(1):
        raise VerifyException(f"the condition must be i1 or a tensor of i1, got {c}")
    if isinstance(c, TensorType) and (not isinstance(t, TensorType)
                                      or c.get_shape() != t.get_shape()):
        raise VerifyException(f"a condition of type {c} needs values of its shape, got {t}")


def _parse_select(cls: type[arith.SelectOp], parser: Parser) -> arith.SelectOp:
    """`arith.select %c, %a, %b : T`, or `: tensor<..xi1>, T` (MLIR's form for a tensor of
    conditions, picking element by element)."""
    pos = parser.pos
    ops = parser.parse_comma_separated_list(Parser.Delimiter.NONE,
                                            parser.parse_unresolved_operand)
    if len(ops) != 3:
        parser.raise_error("expected three operands: condition, true and false value", pos,
                           parser.pos)
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    cond_t, t = (IntegerType(1), types[0]) if len(types) == 1 else types[:2]
    cond, a, b = parser.resolve_operands(ops, [cond_t, t, t], pos)
    op = cls(cond, a, b)
    op.attributes |= attrs
    return op


def _print_select(op: arith.SelectOp, printer: Printer) -> None:
    printer.print_string(" ")
    printer.print_list(op.operands, printer.print_operand)
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    if op.cond.type != IntegerType(1):
        printer.print_attribute(op.cond.type)
        printer.print_string(", ")
    printer.print_attribute(op.result.type)


_ORIGINAL_COMPARE_PARSE = {op: op.parse.__func__ for op in (arith.CmpfOp, arith.CmpiOp)}  # type: ignore


def _parse_compare(cls: type[arith.CmpfOp | arith.CmpiOp], parser: Parser) -> Operation:
    """arith.cmpf / cmpi on shaped operands give a tensor of `i1` of their shape (MLIR's
    rule; xDSL's always give `i1`)."""
    op = _ORIGINAL_COMPARE_PARSE[cls](cls, parser)
    t = op.lhs.type
    if not isinstance(t, TensorType):
        return op
    shaped = cls.create(operands=list(op.operands),
                        result_types=[TensorType(IntegerType(1), t.get_shape())],
                        properties=dict(op.properties), attributes=dict(op.attributes))
    op.erase()
    return shaped


_INT = base(IntegerType)
_INT_OR_INDEX = base(IntegerType) | base(IndexType)
# casts xDSL defines on scalars only; MLIR applies them element by element to tensors
_CASTS = {
    arith.SIToFPOp: (_INT, AnyFloatConstr), arith.UIToFPOp: (_INT, AnyFloatConstr),
    arith.FPToSIOp: (AnyFloatConstr, _INT), arith.FPToUIOp: (AnyFloatConstr, _INT),
    arith.ExtSIOp: (_INT, _INT), arith.ExtUIOp: (_INT, _INT), arith.TruncIOp: (_INT, _INT),
    arith.IndexCastOp: (_INT_OR_INDEX, _INT_OR_INDEX),
}


def _element(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, TensorType) else t


def _verify_cast(op: Operation) -> None:
    """A cast of scalars or of tensors of one shape; the width rules on the elements."""
    src, dst = op.operands[0].type, op.results[0].type
    if isinstance(src, TensorType) != isinstance(dst, TensorType) or (
            isinstance(src, TensorType) and src.get_shape() != dst.get_shape()):  # type: ignore
        raise VerifyException(f"casts between types of one shape, got {src} and "
                              f"{dst}")
    a, b = _element(src), _element(dst)
    if op.name == "arith.index_cast":
        if isinstance(a, IndexType) == isinstance(b, IndexType):
            raise VerifyException(f"'arith.index_cast' op operand type '{src}' and result "
                                  f"type '{dst}' are cast incompatible")
    elif op.name in ("arith.extsi", "arith.extui", "arith.trunci"):
        wa, wb = a.width.data, b.width.data  # type: ignore[attr-defined]
        if (wb > wa) != (op.name != "arith.trunci"):
            what = "smaller" if op.name == "arith.trunci" else "larger"
            raise VerifyException(f"Destination bit-width must be {what} than the input "
                                  "bit-width")


def _parse_for(cls: type[scf.ForOp], parser: Parser) -> scf.ForOp:
    """scf.for, also accepting `-> T` (unparenthesised) after iter_args, as MLIR does."""
    iv = parser.parse_argument(expect_type=False)
    parser.parse_punctuation("=")
    lb = parser.parse_unresolved_operand()
    parser.parse_keyword("to")
    ub = parser.parse_unresolved_operand()
    parser.parse_keyword("step")
    step = parser.parse_unresolved_operand()
    pos = parser.pos
    carried: list[Parser.UnresolvedArgument] = []
    inits: list[UnresolvedOperand] = []
    types: list[Attribute] = []
    if parser.parse_optional_keyword("iter_args"):

        def assignment() -> None:
            carried.append(parser.parse_argument(expect_type=False))
            parser.parse_punctuation("=")
            inits.append(parser.parse_unresolved_operand())

        parser.parse_comma_separated_list(Parser.Delimiter.PAREN, assignment)
        parser.parse_punctuation("->")
        if parser.parse_optional_punctuation("("):
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
        else:
            types = [parser.parse_type()]
    init_values = parser.resolve_operands(inits, types, pos)
    iv_type = parser.parse_type() if parser.parse_optional_punctuation(":") else IndexType()
    body = parser.parse_region((iv.resolve(iv_type),
                                *(a.resolve(t) for a, t in zip(carried, types))))
    attrs = parser.parse_optional_attr_dict()
    op = cls(parser.resolve_operand(lb, iv_type), parser.resolve_operand(ub, iv_type),
             parser.resolve_operand(step, iv_type), init_values, body)
    op.attributes |= attrs
    if not carried:
        for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
            ensure_terminator(op, trait)
    return op


_ORIGINAL_REDUCE_PARSE = linalg.ReduceOp.parse.__func__  # type: ignore[attr-defined]


def _parse_reduce(cls: type[linalg.ReduceOp], parser: Parser) -> linalg.ReduceOp:
    """linalg.reduce, also in the short form `linalg.reduce { arith.addf } ins(..) outs(..)
    dimensions = [..]` whose combiner is a single binary op."""
    if parser.parse_optional_punctuation("{") is None:
        return _ORIGINAL_REDUCE_PARSE(cls, parser)
    pos = parser.pos
    op_name = parser.parse_identifier("combiner op name")
    parser.parse_punctuation("}")
    op_type = parser.ctx.get_optional_op(op_name)
    if op_type is None:
        parser.raise_error(f"unknown combiner op '{op_name}'", pos, parser.pos)
    parser.parse_keyword("ins")
    parser.parse_punctuation("(")
    x = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    x_type = parser.parse_type()
    parser.parse_punctuation(")")
    parser.parse_keyword("outs")
    parser.parse_punctuation("(")
    init = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    init_type = parser.parse_type()
    parser.parse_punctuation(")")
    parser.parse_keyword("dimensions")
    parser.parse_punctuation("=")
    dims = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer)
    elt = init_type.get_element_type()  # type: ignore[attr-defined]
    block = Block(arg_types=[elt, elt])
    combine = op_type.create(operands=list(block.args), result_types=[elt])
    block.add_ops([combine, linalg.YieldOp(combine.results[0])])
    return cls(parser.resolve_operand(x, x_type), parser.resolve_operand(init, init_type),
               DenseArrayBase.from_list(i64, dims), Region(block))


def _parse_operands(parser: Parser, keyword: str) -> Sequence[SSAValue]:
    """`keyword(%a, %b : T, U)`, or nothing."""
    pos = parser.pos
    if not parser.parse_optional_characters(keyword):
        return ()
    parser.parse_punctuation("(")
    names = parser.parse_comma_separated_list(Parser.Delimiter.NONE,
                                              parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return parser.resolve_operands(names, types, pos)


def _parse_generic(cls: type[linalg.GenericOp], parser: Parser) -> linalg.GenericOp:
    """linalg.generic with its results in parentheses too, as MLIR spells several (`-> (T1,
    T2)`): xDSL 0.74 prints that but reads only `-> T1, T2`, taking `(` for a function type,
    so a multi-result generic (an all-reduce's, a softmax's fused outputs) did not read back.
    Written out whole because the results come last, after the region."""
    pos = parser.pos
    attrs = dict(parser.parse_optional_attr_dict())
    for key in ("indexing_maps", "iterator_types"):
        if key not in attrs:
            parser.raise_error(f"Expected {key} for linalg.generic", pos, parser.pos)
    maps = attrs.pop("indexing_maps")
    iterators = []
    for it in attrs.pop("iterator_types"):  # type: ignore[attr-defined]
        if isinstance(it, StringAttr) and it.data in tuple(IteratorType):
            it = IteratorTypeAttr(IteratorType(it.data))
        if not isinstance(it, IteratorTypeAttr):
            parser.raise_error(f"Unknown iterator type {it}", pos, parser.pos)
        iterators.append(it)
    doc, library_call = attrs.pop("doc", None), attrs.pop("library_call", None)
    ins, outs = _parse_operands(parser, "ins"), _parse_operands(parser, "outs")
    extra = {}
    if parser.parse_optional_keyword("attrs"):
        parser.parse_punctuation("=")
        extra = parser.expect(parser.parse_optional_attr_dict, "expect extra attributes")
    body = parser.parse_region()
    results: Sequence[Attribute] = ()
    if parser.parse_optional_punctuation("->"):
        parens = parser.parse_optional_punctuation("(") is not None
        results = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        if parens:
            parser.parse_punctuation(")")
    op = cls(ins, outs, body, maps, iterators, results, doc, library_call)  # type: ignore[arg-type]
    op.attributes |= extra
    return op


def _parse_to(cls: type, parser: Parser, copy: bool = False):
    """`%y = <op> %x {attrs} : T to T2` (memref.memory_space_cast, memref.cast), or with `copy`
    `memref.copy %src, %dst {attrs} : T to T2`."""
    names = [parser.parse_unresolved_operand()]
    if copy:
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    types = [parser.parse_type()]
    parser.parse_keyword("to")
    types.append(parser.parse_type())
    op = cls.create(operands=[parser.resolve_operand(x, t) for x, t in zip(names, types)],
                    result_types=[] if copy else types[1:])
    op.attributes |= attrs
    return op


def _print_to(op, printer) -> None:
    """The form `_parse_to` reads; T2 is the result's type (casts) or the target's (copy)."""
    to = op.results[0] if op.results else op.operands[1]
    printer.print_string(" ")
    printer.print_list(op.operands, printer.print_ssa_value)
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(op.operands[0].type)
    printer.print_string(" to ")
    printer.print_attribute(to.type)


_DECLARATION = "ktir.declaration"  # a memref.global written without an initializer


def _parse_global(cls: type, parser: Parser):
    """`memref.global ("private")? (constant)? @name : memref<...> (= dense<...> |
    = uninitialized)? {attrs}`; the initializer's type comes from the memref, as in MLIR."""
    visibility = parser.parse_optional_str_literal() or "public"
    constant = parser.parse_optional_keyword("constant") is not None
    name = parser.parse_symbol_name()
    parser.parse_punctuation(":")
    t = parser.parse_type()
    attrs: dict[str, Attribute] = {}
    init: Attribute = UnitAttr()
    if parser.parse_optional_punctuation("=") is not None:
        if parser.parse_optional_keyword("uninitialized") is None:
            if not isinstance(t, MemRefType):
                parser.raise_error("memref.global needs a memref type")
            if parser.parse_optional_keyword("dense") is not None:
                init = parser.parse_dense_int_or_fp_elements_attr(
                    TensorType(t.element_type, t.get_shape()))
            else:
                init = parser.parse_attribute()
    else:
        attrs[_DECLARATION] = UnitAttr()
    attrs |= parser.parse_optional_attr_dict()
    props: dict[str, Attribute] = {"sym_name": name, "sym_visibility": StringAttr(visibility),
                                   "type": t, "initial_value": init}
    if constant:
        props["constant"] = UnitAttr()
    if "alignment" in attrs:  # a property, written in the attribute dictionary
        props["alignment"] = attrs.pop("alignment")
    return cls.create(properties=props, attributes=attrs)


def _print_global(op, printer) -> None:
    if op.sym_visibility.data != "public":
        printer.print_string(" ")
        printer.print_string_literal(op.sym_visibility.data)
    if op.constant is not None:
        printer.print_string(" constant")
    printer.print_string(f" @{op.sym_name.data} : ")
    printer.print_attribute(op.type)
    if _DECLARATION not in op.attributes:
        printer.print_string(" = ")
        if isinstance(op.initial_value, UnitAttr):
            printer.print_string("uninitialized")
        elif isinstance(op.initial_value, DenseIntOrFPElementsAttr):
            text = str(op.initial_value)  # `dense<v> : tensor<..>`: the type is the memref's
            printer.print_string(text.rsplit(" : ", 1)[0])
        else:
            printer.print_attribute(op.initial_value)
    rest = {k: v for k, v in op.attributes.items() if k != _DECLARATION}
    if op.alignment is not None:
        rest = {"alignment": op.alignment, **rest}
    printer.print_op_attributes(rest)


_INSTALLED = False


def install() -> None:
    """Add the missing ops to xDSL's dialects and the missing spellings to their parsers."""
    global _INSTALLED
    if _INSTALLED:
        return
    _INSTALLED = True
    for dialect, ops in ((Linalg, (LinalgDivOp, LinalgBatchMatmulOp)),
                         (arith.Arith, (IndexCastUIOp, RemFOp))):
        present = {o.name for o in dialect.operations}
        for op in ops:
            if op.name not in present:
                dialect._operations.append(op)  # pyright: ignore[reportPrivateUsage]
    scf.ForOp.parse = classmethod(_parse_for)  # type: ignore[method-assign]
    for to_op in (memref.MemorySpaceCastOp, memref.CastOp, memref.CopyOp):
        to_op.parse = classmethod(  # type: ignore[method-assign]
            partial(_parse_to, copy=to_op is memref.CopyOp))
        to_op.print = _print_to  # type: ignore[method-assign]
    memref.GlobalOp.parse = classmethod(_parse_global)  # type: ignore[method-assign]
    memref.GlobalOp.print = _print_global  # type: ignore[method-assign]
    linalg.ReduceOp.parse = classmethod(_parse_reduce)  # type: ignore[method-assign]
    linalg.GenericOp.parse = classmethod(_parse_generic)  # type: ignore[method-assign]
    select = arith.SelectOp.get_irdl_definition()
    select.operands[0] = ("cond", OperandDef(base(IntegerType) | base(TensorType)))
    arith.SelectOp.verify_ = _verify_select  # type: ignore[method-assign]
    arith.SelectOp.parse = classmethod(_parse_select)  # type: ignore[method-assign]
    arith.SelectOp.print = _print_select  # type: ignore[method-assign]
    for cast, (src, dst) in _CASTS.items():
        d = cast.get_irdl_definition()
        d.operands[0] = (d.operands[0][0], OperandDef(container_of(src)))
        d.results[0] = (d.results[0][0], ResultDef(container_of(dst)))
        cast.verify_ = _verify_cast  # type: ignore[method-assign]
    # MLIR's traits that xDSL 0.74 leaves off (so dead code of them stays)
    arith.ExtSIOp.traits.add_trait(Pure())
    arith.RemUIOp.traits.add_trait(NoMemoryEffect())
    for compare in (arith.CmpfOp, arith.CmpiOp):
        compare.get_irdl_definition().results[0] = (
            "result", ResultDef(base(IntegerType) | base(TensorType)))
        compare.parse = classmethod(_parse_compare)  # type: ignore[method-assign]
