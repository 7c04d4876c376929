"""The `vectorchain` dialect of DataflowIR (shared/spec/dataflow-ir.md §4, §7 E11): vector
arithmetic on the lanes of `vector<NxT>` / `!dataflow.custom_vector<NxT>` values.

Every op is Pure. Each lane is computed exactly and rounded once to the result element type
(estimates are evaluated exactly by the emulator). Most ops take an optional
`[%mask : vector<Nxi1>]` after their operands, one i1 per result lane. Lane-count and
element-type rules the emulator relies on are checked here; `constant_bitstream` holds lane bit
patterns (`encode_lanes` / `decode_lanes` convert numbers), `shuffle` repeats an index pattern.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import (
    I32,
    AffineMapAttr,
    AffineSetAttr,
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    BoolAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Dialect, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.ir.affine import AffineMap, AffineSet
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from ktir.semantics import DIVISIONS, FLOAT_FUNCTIONS, INT_FUNCTIONS
from spyrecode.dialects.dataflow_types import (
    MXType,
    VectorLike,
    element_bit_width,
    element_type,
    lanes,
)
from spyrecode.dialects.directives import OperandAndResultTypes, OperandGroups
from spyrecode.dialects.syntax import (
    WithDebugName,
    finish,
    is_identity,
    opt,
    props,
    str_attr,
)

# --------------------------------------------------------------------------------------------
# enum attributes
# --------------------------------------------------------------------------------------------


class BinaryOperator(StrEnum):
    """Element-wise operator of `binary` (and the reduction of `scan_with_gap`)."""

    AND0 = "and0"
    OR0 = "or0"
    XNOR = "xnor"
    AND_NOT = "and_not"
    MIN = "min"
    MAX = "max"
    ABS_MIN = "abs_min"
    ABS_MAX = "abs_max"
    ADD = "add"
    MUL = "mul"
    SUB = "sub"
    MUL_DIV2 = "mul_div2"


class CompareOperator(StrEnum):
    EQ = "compare_eq"
    NEQ = "compare_neq"
    LT = "compare_lt"
    LE = "compare_le"
    GT = "compare_gt"
    GE = "compare_ge"


class ExpEstimateVersion(StrEnum):
    A = "a"
    B = "b"


class EstimateVersion(StrEnum):
    SLOPE = "slope"
    OFFSET = "offset"


class EvalOrder(StrEnum):
    LEFT_TO_RIGHT = "left_to_right"
    RIGHT_TO_LEFT = "right_to_left"


@irdl_attr_definition
class BinaryOperatorAttr(EnumAttribute[BinaryOperator], SpacedOpaqueSyntaxAttribute):
    """`#vectorchain<binary_operator add>`."""

    name = "vectorchain.binary_operator"


@irdl_attr_definition
class CompareOperatorAttr(EnumAttribute[CompareOperator], SpacedOpaqueSyntaxAttribute):
    """`#vectorchain<element_wise_compare_operator compare_lt>`."""

    name = "vectorchain.element_wise_compare_operator"


@irdl_attr_definition
class ExpEstimateAttr(EnumAttribute[ExpEstimateVersion], SpacedOpaqueSyntaxAttribute):
    """`#vectorchain<exp_estimate a>`."""

    name = "vectorchain.exp_estimate"


@irdl_attr_definition
class EstimateVersionsAttr(EnumAttribute[EstimateVersion], SpacedOpaqueSyntaxAttribute):
    """`#vectorchain<estimate_versions slope>`."""

    name = "vectorchain.estimate_versions"


@irdl_attr_definition
class EvalOrderAttr(EnumAttribute[EvalOrder], SpacedOpaqueSyntaxAttribute):
    """`#vectorchain<eval_order left_to_right>`."""

    name = "vectorchain.eval_order"


# --------------------------------------------------------------------------------------------
# checks shared by the ops
# --------------------------------------------------------------------------------------------

MaskType = base(VectorType)
_MASK = "(` ` `[` $mask^ `:` type($mask) `]`)?"


def _check_mask(mask: SSAValue | None, result: Attribute) -> None:
    """(P) a mask has one i1 per result lane."""
    if mask is None:
        return
    t = mask.type
    if not isinstance(t, VectorType) or t.get_num_dims() != 1 or t.get_element_type() != i1:
        raise VerifyException(f"the mask must be a 1-D vector of i1, got {t}")
    if lanes(result) is not None and lanes(t) != lanes(result):
        raise VerifyException(f"the mask has {lanes(t)} lanes, the result {lanes(result)}")


def _same_lanes(*values: Attribute) -> None:
    counts = {lanes(t) for t in values} - {None}
    if len(counts) > 1:
        raise VerifyException("operands and result must have the same number of lanes, got "
                              + ", ".join(str(lanes(t)) for t in values))


def _same_elements(*values: Attribute) -> None:
    kinds = {element_type(t) for t in values}
    if len(kinds) > 1:
        raise VerifyException("operands and result must have the same element type, got "
                              + ", ".join(str(element_type(t)) for t in values))


# --------------------------------------------------------------------------------------------
# element-wise ops
# --------------------------------------------------------------------------------------------


class _UnaryOp(WithDebugName):
    """`%r = vectorchain.<op> %x ([%m : vector<Nxi1>])? {attrs} : T, T`: one lane in, one lane
    out. Builder: `<Op>(x, result_type=None, mask=None)` (result type defaults to x's)."""

    input = operand_def(VectorLike)
    mask = opt_operand_def(MaskType)
    result = result_def(VectorLike)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = f"$input {_MASK} attr-dict `:` type($input) `,` type($result)"

    def __init__(self, x: SSAValue, result_type: Attribute | None = None,
                 mask: SSAValue | None = None, dbg_name: str | None = None,
                 **extra: Attribute):
        super().__init__(operands=[x, opt(mask)],
                         result_types=[result_type or x.type],
                         properties=props({"dbgName": str_attr(dbg_name), **extra}))

    def verify_(self) -> None:
        _same_lanes(self.input.type, self.result.type)
        _check_mask(self.mask, self.result.type)


@irdl_op_definition
class FastExpOp(_UnaryOp):
    """`vectorchain.fast_exp`: e^x per lane."""

    name = "vectorchain.fast_exp"


@irdl_op_definition
class FloorOp(_UnaryOp):
    """`vectorchain.floor`: floor(x) per lane."""

    name = "vectorchain.floor"


@irdl_op_definition
class NegOp(_UnaryOp):
    """`vectorchain.neg`: -x per lane."""

    name = "vectorchain.neg"


@irdl_op_definition
class RecEstimateOp(_UnaryOp):
    """`vectorchain.rec_estimate`: 1/x per lane."""

    name = "vectorchain.rec_estimate"


@irdl_op_definition
class LnEstimateOp(_UnaryOp):
    """`vectorchain.ln_estimate`: ln(x) per lane."""

    name = "vectorchain.ln_estimate"


@irdl_op_definition
class RsqrtEstimateOp(_UnaryOp):
    """`vectorchain.rsqrt_estimate`: 1/sqrt(x) per lane."""

    name = "vectorchain.rsqrt_estimate"


@irdl_op_definition
class ExpEstimateOp(_UnaryOp):
    """`vectorchain.exp_estimate %x {version = #vectorchain<exp_estimate a>}`: e^x per lane.
    Builder: `ExpEstimateOp(x, version="a")`."""

    name = "vectorchain.exp_estimate"
    version = prop_def(ExpEstimateAttr)

    def __init__(self, x: SSAValue, version: ExpEstimateVersion | str = "a",
                 result_type: Attribute | None = None, mask: SSAValue | None = None):
        super().__init__(x, result_type, mask,
                         version=ExpEstimateAttr(ExpEstimateVersion(version)))


class _VersionedEstimate(_UnaryOp):
    version = prop_def(EstimateVersionsAttr)

    def __init__(self, x: SSAValue, version: EstimateVersion | str = "slope",
                 result_type: Attribute | None = None, mask: SSAValue | None = None):
        super().__init__(x, result_type, mask,
                         version=EstimateVersionsAttr(EstimateVersion(version)))


@irdl_op_definition
class SigmoidEstimateOp(_VersionedEstimate):
    """`vectorchain.sigmoid_estimate %x {version = #vectorchain<estimate_versions slope>}`:
    1/(1+e^-x) per lane."""

    name = "vectorchain.sigmoid_estimate"


@irdl_op_definition
class TanhEstimateOp(_VersionedEstimate):
    """`vectorchain.tanh_estimate %x {version = ...}`: tanh(x) per lane."""

    name = "vectorchain.tanh_estimate"


@irdl_op_definition
class CastOp(_UnaryOp):
    """`%r = vectorchain.cast %x : vector<64xf16>, vector<64xf32>`: convert each lane to the
    result element type (round to nearest even; integers wrap). Equal lane counts. Builder:
    `CastOp(x, result_type)`."""

    name = "vectorchain.cast"


class _TwoOperands(WithDebugName):
    """`%r = vectorchain.<op> %a, %b ([%m : vector<Nxi1>])? {attrs} : T1, T2, Tr`; subclasses
    define the result `data`."""

    op1 = operand_def(VectorLike)
    op2 = operand_def(VectorLike)
    mask = opt_operand_def(MaskType)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (f"$op1 `,` $op2 {_MASK} attr-dict `:` type($op1) `,` type($op2) `,` "
                       "type($data)")


@irdl_op_definition
class BinaryOp(_TwoOperands):
    """`%r = vectorchain.binary %a, %b {binary_op = #vectorchain<binary_operator add>,
    op_specific_map = affine_map<(d0) -> (d0)>} : T, T, T`: `r[i] = a[i] op b[i]` (the map is
    the identity in all emitted code). Builder: `BinaryOp(lhs, rhs, op, result_type=None,
    mask=None)` with `op` a name such as "add"; accessor `operator -> str`."""

    name = "vectorchain.binary"
    binary_op = prop_def(BinaryOperatorAttr)
    op_specific_map = prop_def(AffineMapAttr)
    data = result_def(VectorLike)

    def __init__(self, lhs: SSAValue, rhs: SSAValue, op: BinaryOperator | str,
                 result_type: Attribute | None = None, mask: SSAValue | None = None,
                 op_specific_map: AffineMap | None = None, dbg_name: str | None = None):
        super().__init__(
            operands=[lhs, rhs, opt(mask)], result_types=[result_type or lhs.type],
            properties=props({"binary_op": BinaryOperatorAttr(BinaryOperator(op)),
                              "op_specific_map": AffineMapAttr(op_specific_map
                                                               or AffineMap.identity(1)),
                              "dbgName": str_attr(dbg_name)}))

    @property
    def operator(self) -> str:
        return self.binary_op.data.value

    def verify_(self) -> None:
        if is_identity(self.op_specific_map.data):
            _same_lanes(self.op1.type, self.op2.type, self.data.type)
        _check_mask(self.mask, self.data.type)


@irdl_op_definition
class ElementWiseCompareOp(_TwoOperands):
    """`%r = vectorchain.element_wise_compare %a, %b {compare_op =
    #vectorchain<element_wise_compare_operator compare_lt>} : T, T, vector<Nxi1>`: one i1 lane
    per compared pair. Builder: `ElementWiseCompareOp(lhs, rhs, op)` with `op` e.g.
    "compare_lt"; accessor `operator -> str`."""

    name = "vectorchain.element_wise_compare"
    compare_op = prop_def(CompareOperatorAttr)
    data = result_def(VectorType)

    def __init__(self, lhs: SSAValue, rhs: SSAValue, op: CompareOperator | str,
                 mask: SSAValue | None = None, dbg_name: str | None = None):
        n = lanes(lhs.type)
        super().__init__(operands=[lhs, rhs, opt(mask)],
                         result_types=[VectorType(i1, [n if n is not None else 1])],
                         properties=props({"compare_op": CompareOperatorAttr(CompareOperator(op)),
                                           "dbgName": str_attr(dbg_name)}))

    @property
    def operator(self) -> str:
        return self.compare_op.data.value

    def verify_(self) -> None:
        _same_lanes(self.op1.type, self.op2.type, self.data.type)
        _same_elements(self.op1.type, self.op2.type)
        if element_type(self.data.type) != i1:
            raise VerifyException("the result lanes must be i1")
        _check_mask(self.mask, self.data.type)


@irdl_op_definition
class ElementWiseSelectionOp(WithDebugName):
    """`%r = vectorchain.element_wise_selection %c ? %a : %b : vector<Nxi1>, T, T, T`:
    `r[i] = c[i] ? a[i] : b[i]`. Builder: `ElementWiseSelectionOp(cond, lhs, rhs)`."""

    name = "vectorchain.element_wise_selection"
    cond = operand_def(VectorType)
    lhs = operand_def(VectorLike)
    rhs = operand_def(VectorLike)
    mask = opt_operand_def(MaskType)
    data = result_def(VectorLike)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (f"$cond `?` $lhs `:` $rhs {_MASK} attr-dict `:` type($cond) `,` "
                       "type($lhs) `,` type($rhs) `,` type($data)")

    def __init__(self, cond: SSAValue, lhs: SSAValue, rhs: SSAValue,
                 result_type: Attribute | None = None, mask: SSAValue | None = None):
        super().__init__(operands=[cond, lhs, rhs, opt(mask)],
                         result_types=[result_type or lhs.type])

    def verify_(self) -> None:
        if element_type(self.cond.type) != i1:
            raise VerifyException("the condition lanes must be i1")
        _same_lanes(self.cond.type, self.lhs.type, self.rhs.type, self.data.type)
        _same_elements(self.lhs.type, self.rhs.type, self.data.type)
        _check_mask(self.mask, self.data.type)


@irdl_op_definition
class MultiplyOp(_TwoOperands):
    """`%r = vectorchain.multiply %a, %b {reduction_map = ...} : T1, T2, Tr`: lane products,
    reduced along `reduction_map` (not emitted by the compiler)."""

    name = "vectorchain.multiply"
    reduction_map = prop_def(AffineMapAttr)
    data = result_def(VectorLike)

    def __init__(self, lhs: SSAValue, rhs: SSAValue, reduction_map: AffineMap,
                 result_type: Attribute, mask: SSAValue | None = None):
        super().__init__(operands=[lhs, rhs, opt(mask)], result_types=[result_type],
                         properties={"reduction_map": AffineMapAttr(reduction_map)})

    def verify_(self) -> None:
        _same_lanes(self.op1.type, self.op2.type)
        _check_mask(self.mask, self.data.type)


@irdl_op_definition
class MultiplyAndAccumulateOp(WithDebugName):
    """`%r = vectorchain.multiply_and_accumulate %a, %b, %c {reduction_map = ...} : T1, T2,
    T3, Tr`: a * b + c with the products reduced along `reduction_map` (not emitted)."""

    name = "vectorchain.multiply_and_accumulate"
    op1 = operand_def(VectorLike)
    op2 = operand_def(VectorLike)
    op3 = operand_def(VectorLike)
    mask = opt_operand_def(MaskType)
    reduction_map = prop_def(AffineMapAttr)
    data = result_def(VectorLike)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (f"$op1 `,` $op2 `,` $op3 {_MASK} attr-dict `:` type($op1) `,` "
                       "type($op2) `,` type($op3) `,` type($data)")

    def __init__(self, a: SSAValue, b: SSAValue, acc: SSAValue, reduction_map: AffineMap,
                 result_type: Attribute, mask: SSAValue | None = None):
        super().__init__(operands=[a, b, acc, opt(mask)],
                         result_types=[result_type],
                         properties={"reduction_map": AffineMapAttr(reduction_map)})

    def verify_(self) -> None:
        _same_lanes(self.op1.type, self.op2.type)
        _check_mask(self.mask, self.data.type)



_SIMPLE_FUNCTIONS = frozenset({"add", "sub", "maximum", "minimum", "maxnum", "minnum",
                               "copysign", "abs", "ceil", "floor", "trunc", "round",
                               "roundeven", "shli", "shrsi", "shrui", "maxui", "minui"})
_DIVIDE_FUNCTIONS = frozenset({"div", "rem", *DIVISIONS})


def function_arity(name: str) -> tuple[tuple[int, ...], int] | None:
    """(allowed operand counts, parameter count) of a lane function, None if unknown."""
    if name in FLOAT_FUNCTIONS:
        _, _, arity, n_params = FLOAT_FUNCTIONS[name]
        return arity, n_params
    if name in INT_FUNCTIONS:
        return (2,), 0
    return None


@irdl_op_definition
class LaneFunctionOp(WithDebugName):
    """`%r = vectorchain.lane_function "sqrt" %x : vector<64xf16> -> vector<64xf16>`
    (project extension, not an upstream op): `r[i] = f(x[i], ...)` for an element-wise function
    vectorchain has no op for (division, remainder, square root, exp2/log2, erf, sin/cos, pow,
    the spyreop intrinsics gelu/silu/softplus/layernormscale/layernormnorm, integer division
    and shifts). `function` names its definition in ktir.semantics (FLOAT_FUNCTIONS,
    INT_FUNCTIONS), which the reference interpreter evaluates for the KTIR op it comes from;
    `parameters` carries softplus's beta and threshold. Operands and result: one element type,
    equal lane counts. Builder: `LaneFunctionOp(name, inputs, parameters=())`."""

    name = "vectorchain.lane_function"
    function = prop_def(StringAttr)
    inputs = var_operand_def(VectorLike)
    mask = opt_operand_def(MaskType)
    parameters = opt_prop_def(ArrayAttr[FloatAttr])
    result = result_def(VectorLike)
    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    assembly_format = (f"$function $inputs {_MASK} attr-dict `:` type($inputs) `->` "
                       "type($result)")

    def __init__(self, function: str, inputs: Sequence[SSAValue],
                 parameters: Sequence[float] = (), result_type: Attribute | None = None,
                 mask: SSAValue | None = None):
        super().__init__(
            operands=[list(inputs), opt(mask)],
            result_types=[result_type or inputs[0].type],
            properties=props({"function": StringAttr(function),
                              "parameters": ArrayAttr([FloatAttr(p, Float32Type())
                                                       for p in parameters])
                              if parameters else None}))

    @property
    def function_name(self) -> str:
        return self.function.data

    @property
    def parameter_values(self) -> list[FloatAttr]:
        return list(self.parameters) if self.parameters is not None else []  # type: ignore

    @property
    def latency_class(self) -> str:
        """The latency class of the function (arch.md §8)."""
        f = self.function_name
        if f in _DIVIDE_FUNCTIONS:
            return "divide"
        if f in _SIMPLE_FUNCTIONS:
            return "simple"
        return {"mul": "mul", "fma": "fma"}.get(f, "transcendental")

    def verify_(self) -> None:
        f = self.function_name
        arity = function_arity(f)
        if arity is None:
            known = ", ".join(sorted({*FLOAT_FUNCTIONS, *INT_FUNCTIONS}))
            raise VerifyException(f"unknown lane function '{f}' (known: {known})")
        counts, n_params = arity
        if len(self.inputs) not in counts:
            want = " or ".join(map(str, counts))
            raise VerifyException(f"'{f}' takes {want} operand(s), got {len(self.inputs)}")
        if len(self.parameter_values) != n_params:
            raise VerifyException(f"'{f}' takes {n_params} parameter(s), got "
                                  f"{len(self.parameter_values)}")
        types = [v.type for v in self.inputs]
        _same_lanes(*types, self.result.type)
        _same_elements(*types, self.result.type)
        is_float = isinstance(element_type(self.result.type), AnyFloat)
        if is_float != (f in FLOAT_FUNCTIONS):
            raise VerifyException(f"'{f}' takes {'float' if f in FLOAT_FUNCTIONS else 'integer'}"
                                  f" lanes, got {element_type(self.result.type)}")
        _check_mask(self.mask, self.result.type)

# --------------------------------------------------------------------------------------------
# constants and lane movement
# --------------------------------------------------------------------------------------------

_U64 = (1 << 64) - 1


def _signed64(v: int) -> int:
    v &= _U64
    return v - (1 << 64) if v >> 63 else v


def encode_lanes(numbers: Sequence[float], elem: Attribute) -> list[int]:
    """Bit patterns of numbers in an element type (f16/bf16/f32/f64, iN two's complement)."""
    if isinstance(elem, IntegerType):
        mask = (1 << elem.width.data) - 1
        return [int(x) & mask for x in numbers]
    if isinstance(elem, BFloat16Type):
        bits = np.asarray(numbers, np.float32).view(np.uint32).astype(np.uint64)
        rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
        nan = np.isnan(np.asarray(numbers, np.float32))
        return [0x7FC0 if n else int(r) for r, n in zip(rounded, nan, strict=True)]
    dtype = {Float16Type: (np.float16, np.uint16), Float32Type: (np.float32, np.uint32),
             Float64Type: (np.float64, np.uint64)}.get(type(elem))
    if dtype is None:
        raise ValueError(f"cannot encode numbers as {elem}")
    return [int(b) for b in np.asarray(numbers, dtype[0]).view(dtype[1])]


def decode_lanes(patterns: Sequence[int], elem: Attribute) -> np.ndarray:
    """Numbers held by lane bit patterns (inverse of `encode_lanes`)."""
    if isinstance(elem, IntegerType):
        w = elem.width.data
        vals = [(p & ((1 << w) - 1)) for p in patterns]
        return np.asarray([v - (1 << w) if w > 1 and v >> (w - 1) else v for v in vals],
                          dtype=np.int64)
    if isinstance(elem, BFloat16Type):
        return (np.asarray(patterns, np.uint32) << 16).view(np.float32)
    dtype = {Float16Type: (np.uint16, np.float16), Float32Type: (np.uint32, np.float32),
             Float64Type: (np.uint64, np.float64)}.get(type(elem))
    if dtype is None:
        raise ValueError(f"cannot decode lanes of {elem}")
    return np.asarray([p & _U64 for p in patterns], dtype[0]).view(dtype[1])


@irdl_op_definition
class ConstantBitstreamOp(IRDLOperation):
    """`%c = vectorchain.constant_bitstream {value = [0x3C00, 0x0]} : vector<2xf16>`: lane i
    holds bit pattern value[i] (stored as signed 64-bit, printed in hex); one value per lane,
    each within the element width.

    Builders: `ConstantBitstreamOp(patterns, result_type)`,
    `ConstantBitstreamOp.from_numbers(numbers, result_type)`; accessor `values -> list[int]`
    (the unsigned bit patterns), `numbers()` (decoded, numpy)."""

    name = "vectorchain.constant_bitstream"
    value = prop_def(ArrayAttr[IntegerAttr])
    result = result_def(VectorLike)
    traits = traits_def(Pure())

    def __init__(self, patterns: Sequence[int], result_type: Attribute):
        # one attribute per distinct pattern (attributes are immutable values): a mask of
        # 1024 zero lanes builds one IntegerAttr, not 1024 (compile time)
        lanes = {p: IntegerAttr(_signed64(p), i64) for p in set(patterns)}
        value = [lanes[p] for p in patterns]
        super().__init__(result_types=[result_type], properties={"value": ArrayAttr(value)})

    @classmethod
    def from_numbers(cls, numbers: Sequence[float], result_type: Attribute
                     ) -> ConstantBitstreamOp:
        return cls(encode_lanes(numbers, element_type(result_type)), result_type)

    @property
    def values(self) -> list[int]:
        return [v.value.data & _U64 for v in self.value]  # type: ignore[union-attr]

    def numbers(self) -> np.ndarray:
        return decode_lanes(self.values, element_type(self.result.type))

    @classmethod
    def parse(cls, parser: Parser) -> ConstantBitstreamOp:
        """Hand-written: `value` sits in the attribute dictionary but prints in hex."""
        # attr-dict prints an integer array as `[15360 : i64]`, and no directive reaches into it
        pos = parser.pos
        attrs = parser.parse_optional_attr_dict()
        value = attrs.get("value")
        if not isinstance(value, ArrayAttr) or not all(
                isinstance(v, IntegerAttr) for v in value):
            parser.raise_error("expected {value = [0x..., ...]}: an array of integer bit "
                               "patterns", pos, parser.pos)
        attrs["value"] = ArrayAttr([IntegerAttr(_signed64(v.value.data), i64)  # type: ignore
                                    for v in value])
        parser.parse_punctuation(":")
        return finish(cls, [], attrs, [parser.parse_type()])

    def print(self, printer: Printer) -> None:
        hexes = ", ".join(f"0x{v:X}" for v in self.values)
        printer.print_string(f" {{value = [{hexes}]")
        others = {**self.properties, **self.attributes}
        others.pop("value")
        for k, v in sorted(others.items()):
            printer.print_string(f", {k} = ")
            printer.print_attribute(v)
        printer.print_string("} : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        t = self.result.type
        e = element_type(t)
        width = element_bit_width(t)
        if not (isinstance(e, IntegerType | AnyFloat | MXType)) or width is None:
            raise VerifyException(f"the result lanes must be integers or floats, got {e}")
        if lanes(t) != len(self.value):
            raise VerifyException(f"{len(self.value)} values for {lanes(t)} lanes")
        for v in self.value:
            assert isinstance(v, IntegerAttr)
            x = v.value.data
            if width < 64 and (x < 0 or x >> width):
                raise VerifyException(f"value 0x{x & _U64:X} does not fit the {width}-bit "
                                      "element type")


def _scalar_ok(t: Attribute) -> bool:
    return isinstance(t, IndexType | IntegerType | AnyFloat)


@irdl_op_definition
class ShuffleOp(WithDebugName):
    """`%r = vectorchain.shuffle input(%x), variable(%a), pad(%p), mask(%m) {indices = [0 :
    i32, -1 : i32], repetition = 32 : i32} : Tx, Ta, Tp, Tm, Tr`: output lane k*n + j (n =
    #indices) is input lane indices[j] when >= 0; -1, -2, ... pick the variable operands, then
    the pad operands; the pattern repeats `repetition` times.

    Builder: `ShuffleOp(input, indices, repetition, result_type, variable=(), pad=(),
    mask=None)`; accessors `pattern -> list[int]`, `repeat -> int`."""

    name = "vectorchain.shuffle"
    input = operand_def(VectorLike)
    variable = var_operand_def()
    pad = var_operand_def()
    mask = opt_operand_def(MaskType)
    indices = prop_def(ArrayAttr[IntegerAttr])
    repetition = prop_def(IntegerAttr[I32])
    output = result_def(VectorLike)
    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    assembly_format = ("`input` `(` $input `)` custom<OperandGroups>($variable, $pad, $mask) "
                       "attr-dict `:` custom<OperandAndResultTypes>(type($input), "
                       "type($variable), type($pad), type($mask), type($output))")
    custom_directives = (OperandGroups, OperandAndResultTypes)

    def __init__(self, input: SSAValue, indices: Sequence[int], repetition: int,
                 result_type: Attribute, variable: Sequence[SSAValue] = (),
                 pad: Sequence[SSAValue] = (), mask: SSAValue | None = None,
                 dbg_name: str | None = None):
        super().__init__(
            operands=[input, variable, pad, opt(mask)], result_types=[result_type],
            properties=props({"indices": ArrayAttr([IntegerAttr(i, i32) for i in indices]),
                              "repetition": IntegerAttr(repetition, i32),
                              "dbgName": str_attr(dbg_name)}))

    @property
    def pattern(self) -> list[int]:
        return [v.value.data for v in self.indices]  # type: ignore[union-attr]

    @property
    def repeat(self) -> int:
        return self.repetition.value.data

    def verify_(self) -> None:
        n_in, n_out = lanes(self.input.type), lanes(self.output.type)
        if self.repeat < 1:
            raise VerifyException("repetition must be >= 1")
        if n_out is not None and n_out != len(self.indices) * self.repeat:
            raise VerifyException(f"{len(self.indices)} indices x {self.repeat} repetitions "
                                  f"do not make the {n_out} result lanes")
        _same_elements(self.input.type, self.output.type)
        for v in (*self.variable, *self.pad):
            if not _scalar_ok(v.type):
                raise VerifyException(f"variable and pad operands must be scalars, got "
                                      f"{v.type}")
        low = -(len(self.variable) + len(self.pad))
        for i in self.pattern:
            if i < low or (n_in is not None and i >= n_in):
                raise VerifyException(f"index {i} is outside [{low}, {(n_in or 0) - 1}]")
        _check_mask(self.mask, self.output.type)


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`%r = vectorchain.select %x {selection_map = ...} : T, Tr`: gather lanes of `%x` by
    `selection_map` (not emitted)."""

    name = "vectorchain.select"
    data = operand_def(VectorLike)
    selection_map = prop_def(AffineMapAttr)
    selected_data = result_def(VectorLike)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$data attr-dict `:` type($data) `,` type($selected_data)"

    def __init__(self, x: SSAValue, selection_map: AffineMap, result_type: Attribute):
        super().__init__(operands=[x], result_types=[result_type],
                         properties={"selection_map": AffineMapAttr(selection_map)})

    def verify_(self) -> None:
        _same_elements(self.data.type, self.selected_data.type)


@irdl_op_definition
class PackOp(_TwoOperands):
    """`%r = vectorchain.pack %a, %b {indices = [...], repetition = 1 : index, sign_extend =
    false} : T1, T2, Tr`: lanes of two vectors packed into one by `indices` (not emitted)."""

    name = "vectorchain.pack"
    indices = prop_def(ArrayAttr[IntegerAttr])
    repetition = prop_def(IntegerAttr[IndexType])
    sign_extend = prop_def(BoolAttr, default_value=BoolAttr(False, i1))
    data = result_def(VectorLike)

    def __init__(self, a: SSAValue, b: SSAValue, indices: Sequence[int], repetition: int,
                 result_type: Attribute, sign_extend: bool = False,
                 mask: SSAValue | None = None):
        super().__init__(operands=[a, b, opt(mask)], result_types=[result_type],
                         properties={"indices": ArrayAttr([IntegerAttr(i, i32) for i in indices]),
                                     "repetition": IntegerAttr(repetition, IndexType()),
                                     "sign_extend": BoolAttr(sign_extend, i1)})

    def verify_(self) -> None:
        if self.repetition.value.data < 1:
            raise VerifyException("repetition must be >= 1")
        _check_mask(self.mask, self.data.type)


@irdl_op_definition
class MergeOp(WithDebugName):
    """`%r = vectorchain.merge %a, %b {iteration_space_CA, access_function_CA,
    access_function_A, iteration_space_CB, access_function_CB, access_function_B} : T1, T2,
    Tr`: C[f_CA(x)] = A[f_A(x)] for x in CA, C[f_CB(y)] = B[f_B(y)] for y in CB (not
    emitted)."""

    name = "vectorchain.merge"
    op1 = operand_def(VectorLike)
    op2 = operand_def(VectorLike)
    iteration_space_ca = prop_def(AffineSetAttr, prop_name="iteration_space_CA")
    access_function_ca = prop_def(AffineMapAttr, prop_name="access_function_CA")
    access_function_a = prop_def(AffineMapAttr, prop_name="access_function_A")
    iteration_space_cb = prop_def(AffineSetAttr, prop_name="iteration_space_CB")
    access_function_cb = prop_def(AffineMapAttr, prop_name="access_function_CB")
    access_function_b = prop_def(AffineMapAttr, prop_name="access_function_B")
    data = result_def(VectorLike)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$op1 `,` $op2 attr-dict `:` type($op1) `,` type($op2) `,` type($data)"

    def __init__(self, a: SSAValue, b: SSAValue, space_a: AffineSet, to_c_a: AffineMap,
                 from_a: AffineMap, space_b: AffineSet, to_c_b: AffineMap,
                 from_b: AffineMap, result_type: Attribute):
        super().__init__(operands=[a, b], result_types=[result_type], properties=props({
            "iteration_space_CA": AffineSetAttr(space_a), "access_function_CA":
            AffineMapAttr(to_c_a), "access_function_A": AffineMapAttr(from_a),
            "iteration_space_CB": AffineSetAttr(space_b), "access_function_CB":
            AffineMapAttr(to_c_b), "access_function_B": AffineMapAttr(from_b)}))

    def verify_(self) -> None:
        for side, space, maps in (
                ("A", self.iteration_space_ca, (self.access_function_ca,
                                                self.access_function_a)),
                ("B", self.iteration_space_cb, (self.access_function_cb,
                                                self.access_function_b))):
            if any(m.data.num_dims != space.data.num_dims for m in maps):
                raise VerifyException(f"the access functions of {side} must take the "
                                      f"{space.data.num_dims} dimensions of its space")


@irdl_op_definition
class RotateOp(WithDebugName):
    """`%r = vectorchain.rotate %x, %pos {right_shift = true} : T, index, T`: rotate the lanes
    (the vector as a circular array) by `%pos` to the right (left when false)."""

    name = "vectorchain.rotate"
    input = operand_def(VectorLike)
    position = operand_def(IndexType)
    right_shift = prop_def(BoolAttr, default_value=BoolAttr(True, i1))
    output = result_def(VectorLike)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("$input `,` $position attr-dict `:` type($input) `,` type($position) "
                       "`,` type($output)")

    def __init__(self, x: SSAValue, position: SSAValue, right_shift: bool = True):
        super().__init__(operands=[x, position], result_types=[x.type],
                         properties={"right_shift": BoolAttr(right_shift, i1)})

    def verify_(self) -> None:
        _same_lanes(self.input.type, self.output.type)
        _same_elements(self.input.type, self.output.type)


@irdl_op_definition
class ScanWithGapOp(WithDebugName):
    """`%r = vectorchain.scan_with_gap %x {eval_order = #vectorchain<eval_order left_to_right>,
    gap = 1 : index, reduction_op = #vectorchain<binary_operator add>} : T, T`: prefix scan
    `r[i] = op over x[i - k*gap], k = 0..floor(i/gap)`. Builder: `ScanWithGapOp(x, op, gap=1,
    eval_order="left_to_right")`."""

    name = "vectorchain.scan_with_gap"
    input = operand_def(VectorLike)
    reduction_op = prop_def(BinaryOperatorAttr)
    gap = prop_def(IntegerAttr[IndexType])
    eval_order = prop_def(EvalOrderAttr)
    output = result_def(VectorLike)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$input attr-dict `:` type($input) `,` type($output)"

    def __init__(self, x: SSAValue, op: BinaryOperator | str, gap: int = 1,
                 eval_order: EvalOrder | str = "left_to_right"):
        super().__init__(operands=[x], result_types=[x.type], properties=props({
            "reduction_op": BinaryOperatorAttr(BinaryOperator(op)),
            "gap": IntegerAttr(gap, IndexType()),
            "eval_order": EvalOrderAttr(EvalOrder(eval_order))}))

    def verify_(self) -> None:
        if self.gap.value.data < 1:
            raise VerifyException("gap must be >= 1")
        _same_lanes(self.input.type, self.output.type)


@irdl_op_definition
class CreateAffineMaskOp(IRDLOperation):
    """`%m = vectorchain.create_affine_mask %p {mask_set = affine_set<(d0)[s0] : (...)>} :
    vector<64xi1>`: lane i is set iff i is in `mask_set` (its one symbol bound to `%p`)."""

    name = "vectorchain.create_affine_mask"
    mask_parameter = opt_operand_def(IndexType)
    mask_set = prop_def(AffineSetAttr)
    data = result_def(VectorType)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "($mask_parameter^)? attr-dict `:` type($data)"

    def __init__(self, mask_set: AffineSet, num_lanes: int,
                 parameter: SSAValue | None = None):
        super().__init__(operands=[opt(parameter)],
                         result_types=[VectorType(i1, [num_lanes])],
                         properties={"mask_set": AffineSetAttr(mask_set)})

    def verify_(self) -> None:
        t = self.data.type
        if t.get_num_dims() != 1 or t.get_element_type() != i1:
            raise VerifyException("the mask must be a 1-D vector of i1")
        s = self.mask_set.data
        if s.num_dims != 1 or s.num_symbols != (1 if self.mask_parameter else 0):
            raise VerifyException("mask_set ranges over the lane index (one dimension), with "
                                  "one symbol exactly when a parameter is given")


VectorChain = Dialect(
    "vectorchain",
    [
        BinaryOp,
        MultiplyOp,
        MultiplyAndAccumulateOp,
        ElementWiseCompareOp,
        ElementWiseSelectionOp,
        FastExpOp,
        FloorOp,
        NegOp,
        RecEstimateOp,
        LnEstimateOp,
        RsqrtEstimateOp,
        ExpEstimateOp,
        SigmoidEstimateOp,
        TanhEstimateOp,
        CastOp,
        LaneFunctionOp,
        ConstantBitstreamOp,
        ShuffleOp,
        SelectOp,
        PackOp,
        MergeOp,
        RotateOp,
        ScanWithGapOp,
        CreateAffineMaskOp,
    ],
    [BinaryOperatorAttr, CompareOperatorAttr, ExpEstimateAttr, EstimateVersionsAttr,
     EvalOrderAttr],
)
