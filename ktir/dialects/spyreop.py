"""The `spyreop` dialect: Spyre device intrinsics usable wherever scalar math may appear,
typically inside `linalg.generic` bodies (shared/spec/ktir.md §7).

Element-wise intrinsics accept `f16`, `!spyreop.df16` and `f32` scalars (or tensors of them,
element-wise). `!spyreop.df16` is IBM's 16-bit float (1 sign, 6 exponent, 9 mantissa bits);
the fused types hold a (mean, mean-of-squares) pair as one value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    AnyFloat,
    ContainerType,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
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
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import OpTrait, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from ktir.dialects.directives import BaseStride, CheckedType, ImpliedType, Keyword, SameType

# ---------------------------------------------------------------------------- types


@irdl_attr_definition
class DF16Type(ParametrizedAttribute, TypeAttribute):
    """`!spyreop.df16`: 1 sign, 6 exponent (bias 31), 9 mantissa bits."""

    name = "spyreop.df16"


@irdl_attr_definition
class DF16FusedType(ParametrizedAttribute, TypeAttribute):
    """`!spyreop.df16_fused`: (mean, mean of squares) in df16."""

    name = "spyreop.df16_fused"


@irdl_attr_definition
class FP16FusedType(ParametrizedAttribute, TypeAttribute):
    """`!spyreop.fp16_fused`: (mean, mean of squares) in f16."""

    name = "spyreop.fp16_fused"


@irdl_attr_definition
class FP32FusedType(ParametrizedAttribute, TypeAttribute):
    """`!spyreop.fp32_fused`: (mean, mean of squares) in f32."""

    name = "spyreop.fp32_fused"


_FUSED_OF = {"f16": FP16FusedType, "spyreop.df16": DF16FusedType, "f32": FP32FusedType}


def element_of(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, ContainerType) else t


def _is_float16ish(t: Attribute) -> bool:
    return isinstance(t, DF16Type) or (isinstance(t, AnyFloat) and t.bitwidth == 16
                                       and t.name == "f16")


def _check_float(t: Attribute, allow_f32: bool, opname: str) -> None:
    e = element_of(t)
    if _is_float16ish(e) or (allow_f32 and isinstance(e, Float32Type)):
        return
    allowed = "f16, !spyreop.df16" + (" or f32" if allow_f32 else "")
    raise VerifyException(f"expects {allowed} operands, got {t}")


@dataclass(frozen=True)
class SameFloatType(OpTrait):
    """Every operand and result has one type (`: T` in the syntax), of f16 or df16 elements,
    or f32 where `allow_f32`: the rule most intrinsics of shared/spec/ktir.md §7 share."""

    allow_f32: bool = True

    def verify(self, op: Operation) -> None:
        values = (*op.operands, *op.results)
        if any(v.type != values[0].type for v in values):
            raise VerifyException("operand and result types must be equal")
        _check_float(values[0].type, self.allow_f32, op.name)


def fused_type_for(t: Attribute) -> type[ParametrizedAttribute] | None:
    e = element_of(t)
    key = "spyreop.df16" if isinstance(e, DF16Type) else getattr(e, "name", "")
    if isinstance(e, AnyFloat):
        key = {16: "f16", 32: "f32"}.get(e.bitwidth, "") if e.name in ("f16", "f32") else ""
    return _FUSED_OF.get(key)


# ---------------------------------------------------------------------------- attributes


class ReductionKind(StrEnum):
    ADD = "add"
    SUB = "sub"
    MAX = "max"
    MIN = "min"
    MUL = "mul"
    ABS_MAX = "abs_max"


class ReductionScope(StrEnum):
    IN_SLICE = "in_slice"
    ACROSS_SLICE = "across_slice"


class CompareKind(StrEnum):
    EQUAL = "equal"
    NOTEQUAL = "notequal"
    GREATERTHAN = "greaterthan"
    GREATEREQUAL = "greaterequal"
    LESSERTHAN = "lesserthan"
    LESSEREQUAL = "lesserequal"


class _BracketedEnum:
    """`#spyreop.name<value>`: EnumAttribute reads a bare identifier; wrap it in `<...>`."""

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)  # type: ignore[misc]

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)  # type: ignore[misc]


@irdl_attr_definition
class ReductionKindAttr(_BracketedEnum, EnumAttribute[ReductionKind]):
    name = "spyreop.reduction_kind"


@irdl_attr_definition
class ReductionScopeAttr(_BracketedEnum, EnumAttribute[ReductionScope]):
    name = "spyreop.reduction_scope"


# ---------------------------------------------------------------------------- ops

# `: T`, the one type of every operand and result (shared/spec/ktir.md §7)
_SAME_TYPE = "`:` custom<SameType>(type(operands), type(results))"


class _UnaryOp(IRDLOperation):
    """`%y = spyreop.<op> %x : T`; T of f16, df16 (and f32 unless noted)."""

    input = operand_def()
    result = result_def()
    traits = traits_def(Pure(), SameFloatType())
    custom_directives = (SameType,)
    assembly_format = "$input attr-dict " + _SAME_TYPE

    def __init__(self, x: SSAValue):
        super().__init__(operands=[x], result_types=[x.type])


@irdl_op_definition
class ExpOp(_UnaryOp):
    """e^x."""

    name = "spyreop.exp"


@irdl_op_definition
class ReciprocalOp(_UnaryOp):
    """1/x."""

    name = "spyreop.reciprocal"


@irdl_op_definition
class SqrtOp(_UnaryOp):
    """sqrt(x)."""

    name = "spyreop.sqrt"


@irdl_op_definition
class RsqrtOp(_UnaryOp):
    """1/sqrt(x)."""

    name = "spyreop.rsqrt"


@irdl_op_definition
class SigmoidOp(_UnaryOp):
    """1/(1+e^-x)."""

    name = "spyreop.sigmoid"


@irdl_op_definition
class SiluOp(_UnaryOp):
    """x * sigmoid(x)."""

    name = "spyreop.silu"


@irdl_op_definition
class GeluOp(_UnaryOp):
    """GELU (erf form); f16 and df16 only."""

    name = "spyreop.gelu"
    traits = traits_def(Pure(), SameFloatType(allow_f32=False))


class _BinaryFloatOp(IRDLOperation):
    """`%r = spyreop.<op> %a, %b : T`."""

    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure(), SameFloatType())
    custom_directives = (SameType,)
    assembly_format = "$lhs `,` $rhs attr-dict " + _SAME_TYPE

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])


@irdl_op_definition
class RealDivOp(_BinaryFloatOp):
    """lhs / rhs."""

    name = "spyreop.realdiv"


@irdl_op_definition
class SoftplusOp(IRDLOperation):
    """`%y = spyreop.softplus %x beta 1.0 threshold 20.0 : T` (PyTorch's softplus)."""

    name = "spyreop.softplus"
    input = operand_def()
    result = result_def()
    beta = prop_def(FloatAttr[Float32Type])
    threshold = prop_def(FloatAttr[Float32Type])
    traits = traits_def(Pure(), SameFloatType(allow_f32=False))
    custom_directives = (SameType,)
    assembly_format = "$input `beta` $beta `threshold` $threshold attr-dict " + _SAME_TYPE

    def verify_(self) -> None:
        if self.beta.value.data == 0.0:
            raise VerifyException("beta must be non-zero")


class _IntBinaryOp(IRDLOperation):
    """`%r = spyreop.<op> %a, %b` on a fixed integer width (no type written)."""

    IMPLIED_TYPE: ClassVar[IntegerType] = i32
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    custom_directives = (ImpliedType,)
    assembly_format = "$lhs `,` $rhs attr-dict custom<ImpliedType>(type(operands), type(results))"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[self.IMPLIED_TYPE])

    def verify_(self) -> None:
        t = self.IMPLIED_TYPE
        if not (self.lhs.type == self.rhs.type == self.result.type == t):
            raise VerifyException(f"operands and result must be {t}")


@irdl_op_definition
class AddI32ToI32Op(_IntBinaryOp):
    """Wrapping 32-bit add."""

    name = "spyreop.addi32toi32"


@irdl_op_definition
class MulI32ToI32Op(_IntBinaryOp):
    """Wrapping 32-bit multiply."""

    name = "spyreop.muli32toi32"


@irdl_op_definition
class AddI64ToI64Op(_IntBinaryOp):
    """Wrapping 64-bit add."""

    name = "spyreop.addi64toi64"
    IMPLIED_TYPE: ClassVar[IntegerType] = i64


@irdl_op_definition
class Idx32ToAddrOp(IRDLOperation):
    """`%a = spyreop.idx32toaddr %i base %b stride %s` = b + s*i (i32). The older form takes
    `base` and `stride` as literals (`base 0xDEADBEEF stride 4`)."""

    name = "spyreop.idx32toaddr"
    index = operand_def(i32)
    params = var_operand_def(i32)
    result = result_def(i32)
    base_value = opt_prop_def(IntegerAttr)
    stride_value = opt_prop_def(IntegerAttr)
    traits = traits_def(Pure())
    custom_directives = (BaseStride,)
    assembly_format = "$index custom<BaseStride>($params, $base_value, $stride_value) attr-dict"

    def verify_(self) -> None:
        has_attrs = self.base_value is not None and self.stride_value is not None
        if (len(self.params) == 2) == has_attrs or len(self.params) not in (0, 2):
            raise VerifyException("expects base and stride either as operands or as literals")


@irdl_op_definition
class LayerNormScaleOp(IRDLOperation):
    """`%s = spyreop.layernormscale %mean squares %meansq : T` (older form: one operand)."""

    name = "spyreop.layernormscale"
    input = operand_def()
    squares = opt_operand_def()
    result = result_def()
    traits = traits_def(Pure(), SameFloatType())
    custom_directives = (SameType,)
    assembly_format = "$input (`squares` $squares^)? attr-dict " + _SAME_TYPE


@irdl_op_definition
class LayerNormNormOp(IRDLOperation):
    """`%y = spyreop.layernormnorm %x squares %sq scale %s weight %w bias %b : T`."""

    name = "spyreop.layernormnorm"
    input = operand_def()
    squares = operand_def()
    scale = operand_def()
    weight = operand_def()
    bias = operand_def()
    result = result_def()
    traits = traits_def(Pure(), SameFloatType())
    custom_directives = (SameType,)
    assembly_format = ("$input `squares` $squares `scale` $scale `weight` $weight `bias` $bias "
                       "attr-dict " + _SAME_TYPE)


@irdl_op_definition
class Exx2Op(IRDLOperation):
    """`%mean, %meansq = spyreop.exx2 %x : T`: E[x] and E[x^2] of the slice."""

    name = "spyreop.exx2"
    input = operand_def()
    mean = result_def()
    mean_sq = result_def()
    traits = traits_def(Pure(), SameFloatType())
    custom_directives = (SameType,)
    assembly_format = "$input attr-dict " + _SAME_TYPE



@irdl_op_definition
class Exx2FusedOp(IRDLOperation):
    """`%f = spyreop.exx2_fused %x : f16 -> !spyreop.fp16_fused`."""

    name = "spyreop.exx2_fused"
    input = operand_def()
    result = result_def(DF16FusedType | FP16FusedType | FP32FusedType)
    traits = traits_def(Pure())
    custom_directives = (CheckedType,)
    assembly_format = "$input attr-dict `:` type($input) `->` custom<CheckedType>(type($result))"

    def verify_(self) -> None:
        _check_float(self.input.type, True, self.name)
        want = fused_type_for(self.input.type)
        if want is None or not isinstance(self.result.type, want):
            raise VerifyException(f"the fused type of {self.input.type} is "
                                  f"{want.name if want else '?'}, got {self.result.type}")


@irdl_op_definition
class LayerNormScaleFusedOp(IRDLOperation):
    """`%s = spyreop.layernormscale_fused %f : !spyreop.fp16_fused -> f16`."""

    name = "spyreop.layernormscale_fused"
    input = operand_def(DF16FusedType | FP16FusedType | FP32FusedType)
    result = result_def()
    traits = traits_def(Pure())
    custom_directives = (CheckedType,)
    assembly_format = "$input attr-dict `:` custom<CheckedType>(type($input)) `->` type($result)"

    def verify_(self) -> None:
        _check_float(self.result.type, True, self.name)
        want = fused_type_for(self.result.type)
        if want is None or not isinstance(self.input.type, want):
            raise VerifyException(f"a {self.result.type} result needs a "
                                  f"{want.name if want else '?'} operand")


@irdl_op_definition
class SliceReductionOp(IRDLOperation):
    """Reduction within one stick (`in_slice`: first element of each slice holds the result)
    or across slices (`across_slice`: first slice holds the element-wise result)."""

    name = "spyreop.slice_reduction"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    reduction_kind = prop_def(ReductionKindAttr)
    reduction_scope = prop_def(ReductionScopeAttr)
    traits = traits_def(Pure(), SameFloatType())
    custom_directives = (CheckedType,)
    assembly_format = ("$input attr-dict `:` custom<CheckedType>(type($input)) "
                       "`->` custom<CheckedType>(type($result))")
    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        if cast(TensorType, self.input.type).get_num_dims() != 1:
            raise VerifyException("slice_reduction works on one stick-wide 1-D tensor")


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`%r = spyreop.select %c, %t, %f : T`: `c != 0 ? t : f` in the float domain."""

    name = "spyreop.select"
    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def(T)
    true_value = operand_def(T)
    false_value = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure(), SameFloatType())
    assembly_format = "$cond `,` $true_value `,` $false_value attr-dict `:` type($result)"



@irdl_op_definition
class CompareOp(IRDLOperation):
    """`%r = spyreop.compare <greaterthan> %a, %b : T`: 1.0 where true, 0.0 elsewhere."""

    name = "spyreop.compare"
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    predicate = prop_def(StringAttr)
    traits = traits_def(Pure(), SameFloatType())
    KEYWORDS: ClassVar[tuple[str, ...]] = tuple(CompareKind)
    KEYWORD_ROLE: ClassVar[str] = "comparison predicate"
    custom_directives = (Keyword, SameType)
    assembly_format = ("` ` `<` custom<Keyword>($predicate) `>` $lhs `,` $rhs attr-dict "
                       + _SAME_TYPE)

    def verify_(self) -> None:
        if self.predicate.data not in tuple(CompareKind):
            raise VerifyException(f"unknown comparison predicate {self.predicate}")


Spyreop = Dialect(
    "spyreop",
    [ExpOp, ReciprocalOp, SqrtOp, RsqrtOp, SigmoidOp, SiluOp, GeluOp, RealDivOp, SoftplusOp,
     AddI32ToI32Op, MulI32ToI32Op, AddI64ToI64Op, Idx32ToAddrOp, LayerNormScaleOp,
     LayerNormNormOp, Exx2Op, Exx2FusedOp, LayerNormScaleFusedOp, SliceReductionOp, SelectOp,
     CompareOp],
    [DF16Type, DF16FusedType, FP16FusedType, FP32FusedType, ReductionKindAttr,
     ReductionScopeAttr],
)
