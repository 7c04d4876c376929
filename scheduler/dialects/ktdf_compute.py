"""`ktdf` ops around the compute: tiling placeholders, `parallel` instances, double-buffering
(`buffer_phase`, `select_memref`) and `opaque` device code (shared/spec/schedule-ir.md §3.3-3.5).

The Dialect and the re-exports are in ktdf.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import ImplicitBuilder
from xdsl.dialects.builtin import (
    I64,
    AnyTensorTypeConstr,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    SameVariadicOperandSize,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.printer import Printer
from xdsl.traits import (
    ConditionallySpeculatable,
    EffectInstance,
    HasCanonicalizationPatternsTrait,
    HasFolder,
    HasParent,
    IsTerminator,
    MemoryEffectKind,
    Pure,
    ReturnLike,
)
from xdsl.utils.exceptions import VerifyException

from ktir.diagnostics import ssa_name
from scheduler.dialects.directives import (
    BracketPairList,
    CheckedType,
    Hidden,
    LeadingPairs,
    SameTypes,
    TypedOperands,
)
from scheduler.dialects.ktdf_types import (
    OwnEffects,
    UniqueOpMixin,
    const_int,
    index_attr,
    print_body,
)

# --------------------------------------------------------------------------------------------
# tiling placeholders
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class TilingReserveSizeOp(UniqueOpMixin):
    """`%ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} :
    index`: a tile size chosen later by `tile-size-selection`. Pure but unique (never CSE'd).

    (P) `min_value >= 1` and `divisibility >= 1`.
    """

    name = "ktdf.tiling.reserve_size"
    # any integer parses (`{min_value = 8}` as before); __post_init__ makes it an index
    min_value_attr = prop_def(IntegerAttr, prop_name="min_value")
    divisibility_attr = prop_def(IntegerAttr, prop_name="divisibility")
    unique_id = prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` custom<CheckedType>(type($result)) custom<Hidden>($unique_id)"
    custom_directives = (CheckedType, Hidden)

    def __init__(self, min_value: int = 1, divisibility: int = 1):
        super().__init__(result_types=[IndexType()],
                         properties={"min_value": index_attr(min_value),
                                     "divisibility": index_attr(divisibility)})

    def __post_init__(self) -> None:
        super().__post_init__()
        for key in ("min_value", "divisibility"):
            a = self.properties.get(key)
            if isinstance(a, IntegerAttr) and not isinstance(a.type, IndexType):
                self.properties[key] = index_attr(a.value.data)
        # MLIR prints an attribute dictionary sorted by name; keep the properties so.
        self.properties = dict(sorted(self.properties.items()))

    @property
    def min_value(self) -> int:
        return self.min_value_attr.value.data

    @property
    def divisibility(self) -> int:
        return self.divisibility_attr.value.data

    def verify_(self) -> None:
        for key, v in (("min_value", self.min_value), ("divisibility", self.divisibility)):
            if v < 1:
                raise VerifyException(f"{key} must be >= 1, got {v}")


def _check_pairs(first: Sequence[SSAValue], second: Sequence[SSAValue], what: str) -> None:
    if len(first) != len(second):
        raise VerifyException(f"number of ivs must equal number of {what}s")
    if not first:
        raise VerifyException(f"must have at least one [iv : {what}] pair")


class _DeriveSizeFolder(HasFolder):
    @classmethod
    def fold(cls, op: Operation) -> Sequence[SSAValue | Attribute] | None:
        assert isinstance(op, TilingDeriveSizeOp)
        if len(op.ivs) != 1:
            return None
        iv, ts, total = const_int(op.ivs[0]), const_int(op.tile_sizes[0]), const_int(
            op.total_size)
        if iv != 0 or ts is None or total is None:
            return None
        return (index_attr(min(ts, total)),)


@irdl_op_definition
class TilingDeriveSizeOp(IRDLOperation):
    """`%n = ktdf.tiling.derive_size [%t0 : %ts0], [%t1 : %ts1], total_size = %N : index`: the
    trip count of the innermost tile loop (the last tile size in steady state, else the
    remainder, 0 once exhausted). Folds (one level, constant operands, iv == 0) to
    `min(ts, N)`."""

    name = "ktdf.tiling.derive_size"
    ivs = var_operand_def(IndexType)
    tile_sizes = var_operand_def(IndexType)
    total_size = operand_def(IndexType)
    result = result_def(IndexType)
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(Pure(), _DeriveSizeFolder())
    assembly_format = ("custom<LeadingPairs>($ivs, $tile_sizes) `total_size` `=` $total_size "
                       "attr-dict `:` custom<CheckedType>(type($result))")
    custom_directives = (LeadingPairs, CheckedType)

    def __init__(self, ivs: Sequence[SSAValue], tile_sizes: Sequence[SSAValue],
                 total_size: SSAValue):
        super().__init__(operands=[ivs, tile_sizes, total_size], result_types=[IndexType()])

    def verify_(self) -> None:
        _check_pairs(self.ivs, self.tile_sizes, "tile_size")


@irdl_op_definition
class TilingLinearizeIndexOp(IRDLOperation):
    """`%x = ktdf.tiling.linearize_index [%t : %c64], [%p : %c1] : index` = Σ iv_k · stride_k,
    the original index rebuilt from tile and point indices (outermost pair first)."""

    name = "ktdf.tiling.linearize_index"
    ivs = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    result = result_def(IndexType)
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(Pure())
    assembly_format = ("custom<BracketPairList>($ivs, $strides) attr-dict `:` "
                       "custom<CheckedType>(type($result))")
    custom_directives = (BracketPairList, CheckedType)

    def __init__(self, ivs: Sequence[SSAValue], strides: Sequence[SSAValue]):
        super().__init__(operands=[ivs, strides], result_types=[IndexType()])

    def verify_(self) -> None:
        _check_pairs(self.ivs, self.strides, "stride")


# --------------------------------------------------------------------------------------------
# parallel instances
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class ParallelYieldOp(IRDLOperation):
    """`ktdf.parallel_yield`: terminator of `ktdf.parallel` (no values)."""

    name = "ktdf.parallel_yield"
    traits = lazy_traits_def(lambda: (Pure(), IsTerminator(), ReturnLike(),
                                      HasParent(ParallelOp)))
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


def _parse_bounds(parser: Parser, n: int, what: str) -> list[UnresolvedOperand]:
    pos = parser.pos
    vals = parser.parse_comma_separated_list(Parser.Delimiter.PAREN,
                                             parser.parse_unresolved_operand)
    if len(vals) != n:
        parser.raise_error(f"expected {n} {what} (one per induction variable), got {len(vals)}",
                           pos, parser.pos)
    return vals


@irdl_op_definition
class ParallelOp(IRDLOperation):
    """`ktdf.parallel (%m, %n, %inst) = (%c0, %c0) to (%c32, %c1) step (%c1, %c1)
    distribute(num_instances = 2) { ...; ktdf.parallel_yield }`.

    The lexicographic iteration space is split into `num_instances` contiguous chunks of
    ceil(T/N) iterations (the last holds the leftover); instance i runs chunk i with `%inst`
    = i. Implicit barrier at the end, no results. `ParallelOp(lbs, ubs, steps, 2)` builds an
    empty body (N+1 index arguments and the yield); insert before `body.block.last_op`.
    """

    name = "ktdf.parallel"
    lower_bounds = var_operand_def(IndexType)
    upper_bounds = var_operand_def(IndexType)
    steps = var_operand_def(IndexType)
    num_instances_attr = prop_def(IntegerAttr[I64], prop_name="num_instances")
    body = region_def("single_block")
    irdl_options = (SameVariadicOperandSize(),)

    def __init__(self, lower_bounds: Sequence[SSAValue], upper_bounds: Sequence[SSAValue],
                 steps: Sequence[SSAValue], num_instances: int,
                 body: Region | Block | None = None):
        if body is None:
            body = Block(arg_types=[IndexType()] * (len(lower_bounds) + 1))
            with ImplicitBuilder(body):  # also correct inside a caller's ImplicitBuilder
                ParallelYieldOp()
        super().__init__(operands=[lower_bounds, upper_bounds, steps],
                         properties={"num_instances": IntegerAttr(num_instances, i64)},
                         regions=[body if isinstance(body, Region) else Region(body)])

    @property
    def num_instances(self) -> int:
        return self.num_instances_attr.value.data

    @property
    def num_loops(self) -> int:
        return len(self.lower_bounds)

    @property
    def induction_vars(self) -> tuple[SSAValue, ...]:
        return tuple(self.body.block.args[:-1])

    @property
    def instance_id(self) -> SSAValue:
        return self.body.block.args[-1]

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        """The header names the block arguments before the bounds; formats bind them in-region."""
        pos = parser.pos
        args = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False))
        if len(args) < 2:
            parser.raise_error("expected at least one induction variable plus an instance id "
                               f"(got {len(args)} block arguments)", pos, parser.pos)
        n = len(args) - 1
        parser.parse_punctuation("=")
        lbs = _parse_bounds(parser, n, "lower bounds")
        parser.parse_keyword("to")
        ubs = _parse_bounds(parser, n, "upper bounds")
        parser.parse_keyword("step")
        steps = _parse_bounds(parser, n, "steps")
        parser.parse_keyword("distribute")
        parser.parse_punctuation("(")
        parser.parse_keyword("num_instances")
        parser.parse_punctuation("=")
        num = parser.parse_integer(allow_negative=True, allow_boolean=False)
        parser.parse_punctuation(")")
        idx = IndexType()
        lbs_v, ubs_v, steps_v = ([parser.resolve_operand(v, idx) for v in vs]
                                 for vs in (lbs, ubs, steps))
        region = parser.parse_region([a.resolve(idx) for a in args])
        op = cls(lbs_v, ubs_v, steps_v, num, region)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        def group(values: Sequence[SSAValue]) -> str:
            return "(" + ", ".join(ssa_name(printer, v) for v in values) + ")"

        printer.print_string(" (")
        printer.print_list(self.body.block.args, printer.print_ssa_value)
        printer.print_string(f") = {group(self.lower_bounds)} to {group(self.upper_bounds)} "
                             f"step {group(self.steps)} "
                             f"distribute(num_instances = {self.num_instances})")
        print_body(printer, self.body)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        n = self.num_loops
        if n < 1:
            raise VerifyException("expected at least one induction variable")
        if self.num_instances < 1:
            raise VerifyException(f"expected num_instances >= 1, got {self.num_instances}")
        args = self.body.block.args
        if len(args) != n + 1:
            raise VerifyException(f"expected {n + 1} block arguments (one per induction "
                                  f"variable plus the instance id), got {len(args)}")
        if any(not isinstance(a.type, IndexType) for a in args):
            raise VerifyException("all block arguments (induction variables and instance id) "
                                  "must be of type index")
        if not isinstance(self.body.block.last_op, ParallelYieldOp):
            raise VerifyException("region must be terminated by a ktdf.parallel_yield "
                                  "operation")


# --------------------------------------------------------------------------------------------
# double buffering
# --------------------------------------------------------------------------------------------


class _BufferPhaseFolder(HasFolder):
    @classmethod
    def fold(cls, op: Operation) -> Sequence[SSAValue | Attribute] | None:
        assert isinstance(op, BufferPhaseOp)
        if op.ivs and all(const_int(v) is not None for v in op.ivs):
            return (index_attr(0),)
        return None


class _DropConstantPhaseOperands(RewritePattern):
    """A constant operand (a folded single-trip loop) no longer moves the phase: drop it."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, BufferPhaseOp):
            return
        kept = [v for v in op.ivs if const_int(v) is None]
        if not kept or len(kept) == len(op.ivs):
            return
        new = BufferPhaseOp(kept, op.num_phases)
        new.attributes |= op.attributes
        rewriter.replace(op, new)


class _BufferPhaseCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (_DropConstantPhaseOperands(),)


@irdl_op_definition
class BufferPhaseOp(IRDLOperation):
    """`%ph = ktdf.buffer_phase(%i, %j) {num_phases = 2 : i64} : index`: the linearised
    pipeline iteration count modulo `num_phases` (operands are meant to be `scf.for` IVs).
    Constant operands fold away; all constant -> 0."""

    name = "ktdf.buffer_phase"
    ivs = var_operand_def(IndexType)
    num_phases_attr = prop_def(IntegerAttr, prop_name="num_phases")  # i64 after __post_init__
    result = result_def(IndexType)
    traits = traits_def(Pure(), _BufferPhaseFolder(), _BufferPhaseCanonicalization())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $ivs `)` attr-dict `:` custom<CheckedType>(type($result))"
    custom_directives = (CheckedType,)

    def __init__(self, ivs: Sequence[SSAValue], num_phases: int = 2):
        super().__init__(operands=[ivs], result_types=[IndexType()],
                         properties={"num_phases": IntegerAttr(num_phases, i64)})

    def __post_init__(self) -> None:
        super().__post_init__()
        n = self.properties.get("num_phases")  # any integer parses, as before
        if isinstance(n, IntegerAttr) and n.type != i64:
            self.properties["num_phases"] = IntegerAttr(n.value.data, i64)

    @property
    def num_phases(self) -> int:
        return self.num_phases_attr.value.data

    def verify_(self) -> None:
        if not self.ivs:
            raise VerifyException("requires at least one induction variable operand")
        if self.num_phases < 2:
            raise VerifyException(f"num_phases must be >= 2, got {self.num_phases}")


class _SelectMemrefFolder(HasFolder):
    @classmethod
    def fold(cls, op: Operation) -> Sequence[SSAValue | Attribute] | None:
        assert isinstance(op, SelectMemrefOp)
        phase = const_int(op.phase)
        if phase is None or not 0 <= phase < len(op.candidates):
            return None
        return (op.candidates[phase],)


@irdl_op_definition
class SelectMemrefOp(IRDLOperation):
    """`%b = ktdf.select_memref %ph[%x0, %x1] : memref<64xf16, "L1">`: candidate number
    `phase`; all candidates have the result type. A constant phase folds."""

    name = "ktdf.select_memref"
    phase = operand_def(IndexType)
    candidates = var_operand_def(MemRefType)
    result = result_def(MemRefType)
    traits = traits_def(Pure(), _SelectMemrefFolder())
    assembly_format = ("$phase `[` $candidates `]` attr-dict `:` type($result) "
                       "custom<SameTypes>(type($candidates), ref(type($result)))")
    custom_directives = (SameTypes,)

    def __init__(self, phase: SSAValue, candidates: Sequence[SSAValue],
                 result_type: Attribute | None = None):
        super().__init__(operands=[phase, candidates],
                         result_types=[result_type or candidates[0].type])

    def verify_(self) -> None:
        n = len(self.candidates)
        if n < 2:
            raise VerifyException(f"requires at least 2 candidate memrefs, got {n}")
        for i, c in enumerate(self.candidates):
            if c.type != self.result.type:
                raise VerifyException(f"candidate #{i} has type {c.type}, expected the result "
                                      f"type {self.result.type}")
        owner = self.phase.owner
        if isinstance(owner, BufferPhaseOp) and owner.num_phases != n:
            raise VerifyException(f"phase op num_phases ({owner.num_phases}) must equal "
                                  f"candidate count ({n})")


# --------------------------------------------------------------------------------------------
# opaque device code
# --------------------------------------------------------------------------------------------


class _OpaqueSpeculatable(ConditionallySpeculatable):
    @classmethod
    def is_speculatable(cls, op: Operation) -> bool:
        return not any(isinstance(v.type, MemRefType) for v in op.operands)


@irdl_op_definition
class OpaqueOp(IRDLOperation):
    """`%0 = ktdf.opaque "ADD" -> tensor<64xf16> ins(%a, %b : T, T) outs(%o : T)`: device code
    the scheduler does not model (a checkpoint pattern's target), destination style with
    `linalg.generic` access semantics. Results are named after the template.

    `OpaqueOp("ADD", ins, outs)` returns one tensor per tensor `outs` operand.
    """

    name = "ktdf.opaque"
    template_name = prop_def(StringAttr)
    inputs = var_operand_def()
    outputs = var_operand_def(TensorType | MemRefType)
    res = var_result_def(AnyTensorTypeConstr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(OwnEffects(), _OpaqueSpeculatable())
    assembly_format = ("$template_name attr-dict (`->` type($res)^)? "
                       "`ins` `(` custom<TypedOperands>($inputs, type($inputs)) `)` "
                       "`outs` `(` custom<TypedOperands>($outputs, type($outputs)) `)`")
    custom_directives = (TypedOperands,)

    def __init__(self, template_name: str, inputs: Sequence[SSAValue],
                 outputs: Sequence[SSAValue], result_types: Sequence[Attribute] | None = None):
        if result_types is None:
            result_types = [o.type for o in outputs if isinstance(o.type, TensorType)]
        super().__init__(operands=[inputs, outputs], result_types=[result_types],
                         properties={"template_name": StringAttr(template_name)})

    def __post_init__(self) -> None:
        super().__post_init__()
        name = self.properties.get("template_name")  # results are named after the template
        if isinstance(name, StringAttr) and SSAValue.is_valid_name(name.data):
            for r in self.res:
                r.name_hint = r.name_hint or name.data

    def memory_effects(self) -> set[EffectInstance]:
        """Read on memref ins, read + write on memref outs; none with tensor semantics."""
        effects: set[EffectInstance] = set()
        for v in self.inputs:
            if isinstance(v.type, MemRefType):
                effects.add(EffectInstance(MemoryEffectKind.READ, v))
        for v in self.outputs:
            if isinstance(v.type, MemRefType):
                effects.add(EffectInstance(MemoryEffectKind.READ, v))
                effects.add(EffectInstance(MemoryEffectKind.WRITE, v))
        return effects

    def verify_(self) -> None:
        if not self.template_name.data:
            raise VerifyException("needs a non-empty template name")
        tensor_outs = [o for o in self.outputs if isinstance(o.type, TensorType)]
        if len(tensor_outs) != len(self.res):
            raise VerifyException(f"expected the number of tensor results ({len(self.res)}) to "
                                  "be equal to the number of output tensors "
                                  f"({len(tensor_outs)})")
        for i, (o, r) in enumerate(zip(tensor_outs, self.res)):
            if o.type != r.type:
                raise VerifyException(f"result #{i} has type {r.type}, expected the type of "
                                      f"its output tensor {o.type}")
