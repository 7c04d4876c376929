"""The `ktdf` dialect: ScheduleIR (shared/spec/schedule-ir.md).

A kernel becomes pipelines of stages that run concurrently on different engines, ordered by
tokens; data moves by explicit transfers between memories and FIFO slots. This module holds the
structure ops (pipeline, stage, private, tokens) and the Dialect, and re-exports the rest:
types and attributes (ktdf_types.py), FIFO and transfer ops (ktdf_transfers.py, with the
transfer sides in ktdf_sides.py), tiling placeholders, `parallel`, double buffering and
`opaque` (ktdf_compute.py).

Builders take Python values (`PipelineOp(body, modulo=2)`, `StageOp([t0], [t1], body,
applicable_units=["SFU"])`) and accessors return them (`stage.applicable_units -> list[str]`,
`pipeline.modulo -> int | None`). Side-effecting structure ops carry no effect trait, so
xDSL's greedy rewriter never erases them as dead.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.arith import ArithConstantMaterializationInterface
from xdsl.dialects.builtin import (
    I64,
    IndexType,
    IntegerAttr,
    UnregisteredOp,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import (
    HasParent,
    IsTerminator,
    NoTerminator,
    Pure,
    ReturnLike,
    SingleBlockImplicitTerminator,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException

from scheduler.dialects.directives import BlockBody, CheckedType, Hidden
from scheduler.dialects.ktdf_compute import (
    BufferPhaseOp,
    OpaqueOp,
    ParallelOp,
    ParallelYieldOp,
    SelectMemrefOp,
    TilingDeriveSizeOp,
    TilingLinearizeIndexOp,
    TilingReserveSizeOp,
)
from scheduler.dialects.ktdf_transfers import (
    DataTransferOp,
    FifoAllocateOp,
    IndDataTransferOp,
    ReadFromFifoOp,
    WriteToFifoOp,
)
from scheduler.dialects.ktdf_types import (
    Body,
    FifoSlotType,
    LoopType,
    LoopTypeAttr,
    TokenType,
    TransferMode,
    UniqueOpMixin,
    UnitsMixin,
    as_region,
    drop_none,
    units_attr,
)

__all__ = [
    "INSTANCE",
    "BufferPhaseOp",
    "CreateTokenOp",
    "DataTransferOp",
    "FifoAllocateOp",
    "FifoSlotType",
    "IndDataTransferOp",
    "Ktdf",
    "LoopType",
    "LoopTypeAttr",
    "OpaqueOp",
    "ParallelOp",
    "ParallelYieldOp",
    "PipelineOp",
    "PrivateOp",
    "PrivateYieldOp",
    "ReadFromFifoOp",
    "SelectMemrefOp",
    "StageOp",
    "TilingDeriveSizeOp",
    "TilingLinearizeIndexOp",
    "TilingReserveSizeOp",
    "TokenType",
    "TransferMode",
    "UnitsMixin",
    "WriteToFifoOp",
    "enclosing_stage",
]


# --------------------------------------------------------------------------------------------
# pipeline, stage, private, tokens
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class CreateTokenOp(UniqueOpMixin):
    """`%t = ktdf.create_token : !ktdf.token`. Pure but unique: `unique_id` (shown only in the
    generic form) keeps two tokens apart under CSE."""

    name = "ktdf.create_token"
    result = result_def(TokenType)
    unique_id = prop_def(IntegerAttr[IndexType])
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` custom<CheckedType>(type($result)) custom<Hidden>($unique_id)"
    custom_directives = (CheckedType, Hidden)

    def __init__(self):
        super().__init__(result_types=[TokenType()])


@irdl_op_definition
class PrivateYieldOp(IRDLOperation):
    """`ktdf.private_yield %a, %t : T, !ktdf.token`: the resources a `ktdf.private` yields."""

    name = "ktdf.private_yield"
    values = var_operand_def()
    traits = lazy_traits_def(lambda: (Pure(), IsTerminator(), ReturnLike(), HasParent(PrivateOp)))
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


@irdl_op_definition
class PipelineOp(IRDLOperation):
    """`ktdf.pipeline (modulo(size : N))? { stages } attr-dict`: a DAG of stages overlapping
    across dynamic instances; `modulo` rotates through N copies of its resources.

    Children are `ktdf.stage` and at most one `ktdf.private`; (P) the token edges between its
    stages form no cycle (a cycle would deadlock every instance).
    """

    name = "ktdf.pipeline"
    modulo_attr = opt_prop_def(IntegerAttr[I64], prop_name="modulo")
    body = region_def("single_block")
    traits = traits_def(NoTerminator())
    assembly_format = "(`modulo` `(` `size` `:` $modulo^ `)`)? custom<BlockBody>($body) attr-dict"
    custom_directives = (BlockBody,)

    def __init__(self, body: Body = None, modulo: int | None = None):
        size = None if modulo is None else IntegerAttr(modulo, i64)
        super().__init__(regions=[as_region(body)], properties=drop_none({"modulo": size}))

    @property
    def modulo(self) -> int | None:
        """N of `modulo(size : N)`; None without modulo (one copy of the resources)."""
        return None if self.modulo_attr is None else self.modulo_attr.value.data

    @modulo.setter
    def modulo(self, n: int | None) -> None:
        if n is None:
            self.properties.pop("modulo", None)
        else:
            self.properties["modulo"] = IntegerAttr(n, i64)

    @property
    def stages(self) -> list[StageOp]:
        return [op for op in self.body.block.ops if isinstance(op, StageOp)]

    @property
    def private_op(self) -> PrivateOp | None:
        return next((op for op in self.body.block.ops if isinstance(op, PrivateOp)), None)

    def verify_(self) -> None:
        if self.modulo is not None and self.modulo < 1:
            raise VerifyException(f"modulo size must be >= 1, got {self.modulo}")
        private = None
        for op in self.body.block.ops:
            if isinstance(op, PrivateOp):
                if private is not None:
                    raise VerifyException("at most one immediate 'ktdf.private' child is "
                                          "allowed")
                private = op
            elif not isinstance(op, StageOp):
                name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
                raise VerifyException("immediate children must be 'ktdf.stage' or "
                                      f"'ktdf.private' ops, found '{name}'")
        _check_acyclic(self.stages)


def _check_acyclic(stages: Sequence[StageOp]) -> None:
    producers: dict[SSAValue, list[int]] = {}
    for i, s in enumerate(stages):
        for t in s.depends_out:
            producers.setdefault(t, []).append(i)
    # successors of producer p: every stage whose depends_in names a token p produces
    out: list[set[int]] = [set() for _ in stages]
    for consumer, s in enumerate(stages):
        for t in s.depends_in:
            for p in producers.get(t, ()):
                out[p].add(consumer)
    state = [0] * len(stages)  # 0 unseen, 1 on the stack, 2 done
    for root in range(len(stages)):
        if state[root]:
            continue
        stack = [(root, iter(sorted(out[root])))]
        state[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state[nxt] == 1:
                raise VerifyException(f"the token dependencies of its stages form a cycle "
                                      f"(through stages #{nxt} and #{node})")
            elif state[nxt] == 0:
                state[nxt] = 1
                stack.append((nxt, iter(sorted(out[nxt]))))


def _is_token_source(v: SSAValue) -> bool:
    owner = v.owner
    if isinstance(owner, CreateTokenOp):
        return True
    if isinstance(owner, PrivateOp):
        last = owner.body.block.last_op if owner.body.blocks else None
        idx = owner.results.index(v)
        return isinstance(last, PrivateYieldOp) and idx < len(last.values) and \
            isinstance(last.values[idx].owner, CreateTokenOp)
    return False


INSTANCE = "instance"
"""Attribute of a `ktdf.stage` (an i64): which instance of its corelet-level unit kind runs it
(`parallelize-loops-across-instances`; absent: the first)."""


@irdl_op_definition
class StageOp(UnitsMixin):
    """`ktdf.stage depends_in(%t0 | none) depends_out(%t1 | none) { ... } {applicable_units =
    ["SFU"]}`: one step of a pipeline bound to one unit kind. It starts when the producers of
    its `depends_in` tokens finished and signals its `depends_out` tokens when done.

    Every token is a `ktdf.create_token` result or a `ktdf.private` result yielding one.
    """

    name = "ktdf.stage"
    depends_in = var_operand_def(TokenType)
    depends_out = var_operand_def(TokenType)
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(NoTerminator(), HasParent(PipelineOp))
    assembly_format = ("`depends_in` `(` ($depends_in^) : (`none`)? `)` "
                       "`depends_out` `(` ($depends_out^) : (`none`)? `)` "
                       "custom<BlockBody>($body) attr-dict")
    custom_directives = (BlockBody,)

    def __init__(self, depends_in: Sequence[SSAValue] = (), depends_out: Sequence[SSAValue] = (),
                 body: Body = None, applicable_units: Sequence[str] | None = None):
        super().__init__(operands=[depends_in, depends_out], regions=[as_region(body)],
                         attributes=drop_none({"applicable_units": units_attr(applicable_units)}))

    def verify_(self) -> None:
        super().verify_()
        for what, tokens in (("depends_in", self.depends_in), ("depends_out", self.depends_out)):
            for t in tokens:
                if not _is_token_source(t):
                    raise VerifyException(
                        f"{what} operand must originate from ktdf.create_token or ktdf.private "
                        "operation yielding a token created by ktdf.create_token")
        inst = self.attributes.get(INSTANCE)
        if inst is not None and not (isinstance(inst, IntegerAttr) and inst.value.data >= 0):
            raise VerifyException(f"'{INSTANCE}' must be a non-negative integer, got {inst}")


def enclosing_stage(op: Operation) -> StageOp | None:
    """`op` when it is a `ktdf.stage`, else the nearest stage around it (None outside any)."""
    cur: Operation | None = op
    while cur is not None and not isinstance(cur, StageOp):
        cur = cur.parent_op()
    return cur


@irdl_op_definition
class PrivateOp(IRDLOperation):
    """`%r:2 = ktdf.private -> (memref<...>, !ktdf.token) { ...; ktdf.private_yield ... }`:
    resources private to the enclosing pipeline, one set per dynamic instance (per modulo
    copy). The yield is implicit when it yields nothing."""

    name = "ktdf.private"
    res = var_result_def()
    body = region_def("single_block")
    traits = traits_def(SingleBlockImplicitTerminator(PrivateYieldOp), HasParent(PipelineOp))
    assembly_format = ("(`->` `(` type($res)^ `)`)? custom<BlockBody>($body) "
                       "attr-dict-with-keyword")
    custom_directives = (BlockBody,)

    def __init__(self, result_types: Sequence[Attribute] = (), body: Body = None):
        super().__init__(result_types=[result_types], regions=[as_region(body)])
        ensure_terminator(self, SingleBlockImplicitTerminator(PrivateYieldOp))

    @property
    def yield_op(self) -> PrivateYieldOp:
        last = self.body.block.last_op
        assert isinstance(last, PrivateYieldOp)
        return last

    def verify_(self) -> None:
        last = self.body.block.last_op
        if not isinstance(last, PrivateYieldOp):
            return  # reported by SingleBlockImplicitTerminator
        if len(last.values) != len(self.res):
            raise VerifyException(f"yield operands count ({len(last.values)}) must match "
                                  f"results count ({len(self.res)})")
        for v, r in zip(last.values, self.res):
            if v.type != r.type:
                raise VerifyException(f"yield operand type {v.type} must match result type "
                                      f"{r.type}")


Ktdf = Dialect(
    "ktdf",
    [
        PipelineOp,
        StageOp,
        PrivateOp,
        PrivateYieldOp,
        CreateTokenOp,
        FifoAllocateOp,
        ReadFromFifoOp,
        WriteToFifoOp,
        DataTransferOp,
        IndDataTransferOp,
        TilingReserveSizeOp,
        TilingDeriveSizeOp,
        TilingLinearizeIndexOp,
        ParallelOp,
        ParallelYieldOp,
        BufferPhaseOp,
        SelectMemrefOp,
        OpaqueOp,
    ],
    [TokenType, FifoSlotType, LoopTypeAttr],
    [ArithConstantMaterializationInterface()],
)
