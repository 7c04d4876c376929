"""The `symbol` dialect of DataflowIR (shared/spec/dataflow-ir.md §6, §7 E2): run-time symbols.

A program's kernel arguments (and addresses computed from them) become numbered symbols:
`symbol.create_id` binds a value to symbol k when the kernel is launched, `symbol.create_symbol`
reads symbol k inside the program, and `symbol_immutable_mapping` / `query_map` pick one symbol
per constant key (e.g. per grid element). Ids are kernel-wide: kernel input p is symbol -(p+1)
in every program function, derived values take fresh ids. `create_id` has a write effect so it is never removed as dead.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, scf
from xdsl.dialects.builtin import (
    I64,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, BlockArgument, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import ConstantLike, MemoryWriteEffect, NoMemoryEffect, OpTrait
from xdsl.utils.exceptions import VerifyException

from spyrecode.dialects.directives import Pairs
from spyrecode.dialects.syntax import ancestor

SI64 = IntegerType(64, Signedness.SIGNED)
_LOOPS = (scf.ForOp, scf.WhileOp, scf.ParallelOp, affine.ForOp, affine.ParallelOp)


class ScalarValue(OpTrait):
    """The op's result is a scalar fixed at launch (a symbol): `uniform` maps may mix such
    values freely."""


@irdl_op_definition
class CreateIdOp(IRDLOperation):
    """`symbol.create_id %v {symbol_id = -1 : si64} : index`: at launch, symbol `symbol_id`
    takes the value of `%v`. Ids are kernel-wide: kernel input p is symbol -(p+1) whichever
    program function receives it, derived values take fresh ids; within a function an id
    names one value.

    Builder: `CreateIdOp(value, id)`; accessor `id -> int`."""

    name = "symbol.create_id"
    input = operand_def()
    symbol_id = prop_def(IntegerAttr)
    traits = traits_def(MemoryWriteEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$input attr-dict `:` type($input)"

    def __init__(self, value: SSAValue, id: int):
        super().__init__(operands=[value], properties={"symbol_id": IntegerAttr(id, SI64)})

    @property
    def id(self) -> int:
        return self.symbol_id.value.data

    def verify_(self) -> None:
        if self.symbol_id.type != SI64:
            raise VerifyException(f"symbol_id must be an si64 integer, got "
                                  f"{self.symbol_id.type}")
        if not isinstance(self.input.type, IndexType | IntegerType):
            raise VerifyException(f"a symbol holds an index or integer, got {self.input.type}")
        func = ancestor(self, FuncOp)
        if func is None:
            return
        for other in func.walk():
            if other is self:
                break
            if isinstance(other, CreateIdOp) and other.id == self.id and other.input != self.input:
                raise VerifyException(f"symbol {self.id} is already bound to another value")


@irdl_op_definition
class CreateSymbolOp(IRDLOperation):
    """`%s = symbol.create_symbol {SymbolId = -1 : i64} : index`: the value of symbol
    `SymbolId` (reading a symbol nothing binds is a launch error). Builder:
    `CreateSymbolOp(id)`; accessor `id -> int | None`."""

    name = "symbol.create_symbol"
    symbol_id = opt_prop_def(IntegerAttr[I64], prop_name="SymbolId")
    result = result_def(IndexType)
    traits = traits_def(NoMemoryEffect(), ScalarValue())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, id: int):
        super().__init__(result_types=[IndexType()],
                         properties={"SymbolId": IntegerAttr(id, i64)})

    @property
    def id(self) -> int | None:
        return None if self.symbol_id is None else self.symbol_id.value.data


class QueryMapBase(IRDLOperation):
    """`(map:%m, key:%k) : T`: the lookup syntax `symbol.query_map` and `uniform.query_map`
    share; subclasses define `result`."""

    mapping = operand_def(IndexType)
    key = operand_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    assembly_format = ("`(` `map` `` `:` `` $mapping `,` `key` `` `:` `` $key `)` attr-dict "
                       "`:` type($result)")


def constant_key(v: SSAValue) -> Attribute | None:
    """The constant a key value holds, if its op is constant-like."""
    op = v.owner
    if isinstance(op, IRDLOperation) and op.has_trait(ConstantLike):
        value = op.properties.get("value")
        return value if value is not None else op.attributes.get("value")
    return None


class PairsTable(IRDLOperation):
    """A constant `[key -> value]` table (`keys` and `values` paired by position); subclasses
    define the `keys` / `values` operands and the `index` result."""

    def __init__(self, pairs: Sequence[tuple[SSAValue, SSAValue]]):
        super().__init__(operands=[[k for k, _ in pairs], [v for _, v in pairs]],
                         result_types=[IndexType()])

    @property
    def pairs(self) -> list[tuple[SSAValue, SSAValue]]:
        return list(zip(self.keys, self.values, strict=True))  # type: ignore[attr-defined]


@irdl_op_definition
class SymbolImmutableMappingOp(PairsTable):
    """`%m = symbol.symbol_immutable_mapping ([%c0 -> %s0], [%c1 -> %s1]) : index`: constant
    keys to symbols. Builder: `SymbolImmutableMappingOp(pairs)`; accessor `pairs`."""

    name = "symbol.symbol_immutable_mapping"
    keys = var_operand_def(IndexType)
    values = var_operand_def(IndexType)
    result = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (SameVariadicOperandSize(),)
    assembly_format = "custom<Pairs>($keys, $values) attr-dict `:` type($result)"
    custom_directives = (Pairs,)

    def verify_(self) -> None:
        if len(self.keys) != len(self.values) or not self.keys:
            raise VerifyException("expects one or more [key -> value] pairs")
        seen: list[Attribute] = []
        for k in self.keys:
            c = constant_key(k)
            if c is None:
                raise VerifyException("every key must be a constant")
            if c in seen:
                raise VerifyException(f"key {c} appears twice")
            seen.append(c)
        for v in self.values:
            if not isinstance(v.owner, CreateSymbolOp):
                raise VerifyException("every value must be a symbol.create_symbol result")


@irdl_op_definition
class SymbolQueryMapOp(QueryMapBase):
    """`%r = symbol.query_map(map:%m, key:%i) : index`: the symbol of key `%i` (a key the
    mapping lacks is a run-time error). A block-argument key must be a loop's induction
    variable. Builder: `SymbolQueryMapOp(map, key)`."""

    name = "symbol.query_map"
    result = result_def(IndexType)

    def __init__(self, mapping: SSAValue, key: SSAValue):
        super().__init__(operands=[mapping, key], result_types=[IndexType()])

    def verify_(self) -> None:
        if not isinstance(self.mapping.owner, SymbolImmutableMappingOp):
            raise VerifyException("the map must be a symbol.symbol_immutable_mapping result")
        k = self.key
        if isinstance(k, BlockArgument) and not isinstance(k.block.parent_op(), _LOOPS):
            raise VerifyException("a block-argument key must be a loop induction variable")


Symbol = Dialect(
    "symbol",
    [CreateIdOp, CreateSymbolOp, SymbolImmutableMappingOp, SymbolQueryMapOp],
    [],
)
