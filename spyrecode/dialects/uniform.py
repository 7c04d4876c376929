"""The `uniform` dialect of DataflowIR (shared/spec/dataflow-ir.md §5): one program text for
many instances.

`def_immutable_mapping` is a constant key -> value table and `query_map` looks a key up; keyed
by a program's `iter_arg` it picks the peer unit, address or core index of the executing
instance (a missing key is a run-time error, and is reported here when the keys are units and
the program's units are known). `uniformize_regions` runs, on each unit, the region whose unit
list holds it; `equalize_pattern` asserts that per-unit regions have the same op sequence.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I32, ArrayAttr, IndexType, IntegerAttr, i32
from xdsl.ir import Attribute, Block, BlockArgument, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.traits import (
    IsTerminator,
    NoMemoryEffect,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException

from spyrecode.dialects.dataflow import CreateGroupOp, GetUnitOp, ProgramUnitOp, unit_of
from spyrecode.dialects.directives import Pairs, ResultTypes, UnitRegions, ValueType
from spyrecode.dialects.symbol import (
    PairsTable,
    QueryMapBase,
    ScalarValue,
    constant_key,
)
from spyrecode.dialects.syntax import close_body


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`uniform.yield (%v : T)?`: ends a region of the uniform ops, yielding its results."""

    name = "uniform.yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator(), NoMemoryEffect())
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


def _value_kind(v: SSAValue) -> str:
    """What makes map values alike: the defining op's name (block arguments form one kind)."""
    owner = v.owner
    return owner.name if isinstance(owner, Operation) else "<block argument>"


def _key_identity(v: SSAValue) -> object:
    """Two keys are the same when they are the same value, unit or constant."""
    if (u := unit_of(v)) is not None:
        return ("unit", u.unit_name.lower())
    if (c := constant_key(v)) is not None:
        return ("constant", c)
    return v


@irdl_op_definition
class DefImmutableMappingOp(PairsTable):
    """`%m = uniform.def_immutable_mapping([%k0 -> %v0], [%k1 -> %v1]):index` (`, T` after
    `index` when the values are not index): a constant table. Keys are all `get_unit`
    results if the first one is; values are all symbols (ScalarValue ops) or all made by the
    same op; no key twice.

    Builder: `DefImmutableMappingOp(pairs)`; accessors `pairs`, `value_type`,
    `lookup(key) -> SSAValue | None`."""

    name = "uniform.def_immutable_mapping"
    keys = var_operand_def(IndexType)
    values = var_operand_def()
    result = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = ("`` custom<Pairs>($keys, $values) attr-dict `` `:` `` type($result) "
                       "custom<ValueType>(type($values))")
    custom_directives = (Pairs, ValueType)

    @property
    def value_type(self) -> Attribute:
        return self.values[0].type if self.values else IndexType()

    def lookup(self, key: SSAValue) -> SSAValue | None:
        """The value of a key (same value, same unit name or same constant)."""
        want = _key_identity(key)
        return next((v for k, v in self.pairs if _key_identity(k) == want), None)

    def verify_(self) -> None:
        if not self.keys or len(self.keys) != len(self.values):
            raise VerifyException("expects one or more [key -> value] pairs")
        if isinstance(self.keys[0].owner, GetUnitOp) and not all(
                isinstance(k.owner, GetUnitOp) for k in self.keys):
            raise VerifyException("the first key is a unit, so every key must be a "
                                  "dataflow.get_unit result")
        if len({v.type for v in self.values}) > 1:
            raise VerifyException("all values must have the same type")
        owners = [v.owner for v in self.values]
        if isinstance(owners[0], Operation) and owners[0].has_trait(ScalarValue):
            if not all(isinstance(o, Operation) and o.has_trait(ScalarValue) for o in owners):
                raise VerifyException("the first value is a symbol, so every value must be one")
        elif len({_value_kind(v) for v in self.values}) > 1:
            raise VerifyException("all values must be made by the same kind of op, got "
                                  + ", ".join(sorted({_value_kind(v) for v in self.values})))
        seen: set[object] = set()
        for k in self.keys:
            ident = _key_identity(k)
            if ident in seen:
                raise VerifyException("a key appears twice")
            seen.add(ident)


def _executing_units(key: SSAValue) -> list[SSAValue] | None:
    """The units a region argument stands for (program_unit or uniform region), if any."""
    if not isinstance(key, BlockArgument):
        return None
    parent = key.block.parent_op()
    if isinstance(parent, ProgramUnitOp) and key is parent.iter_arg:
        return list(parent.units)
    if isinstance(parent, UniformizeRegionsOp | EqualizePatternOp):
        for region, units in zip(parent.regions, parent.unit_lists(), strict=False):
            if region.blocks and key.block is region.block:
                return units
    return None


@irdl_op_definition
class QueryMapOp(QueryMapBase):
    """`%v = uniform.query_map(map:%m, key:%u) : index`: the value of key `%u`. Builder:
    `QueryMapOp(map, key)` (result type taken from the mapping)."""

    name = "uniform.query_map"
    result = result_def()

    def __init__(self, mapping: SSAValue, key: SSAValue, result_type: Attribute | None = None):
        owner = mapping.owner
        if result_type is None:
            result_type = (owner.value_type if isinstance(owner, DefImmutableMappingOp)
                           else IndexType())
        super().__init__(operands=[mapping, key], result_types=[result_type])

    def verify_(self) -> None:
        table = self.mapping.owner
        if not isinstance(table, DefImmutableMappingOp):
            raise VerifyException("the map must be a uniform.def_immutable_mapping result")
        if self.result.type != table.value_type:
            raise VerifyException(f"the result type {self.result.type} differs from the "
                                  f"mapping's value type {table.value_type}")
        units = _executing_units(self.key)
        if units is None or not all(isinstance(k.owner, GetUnitOp) for k in table.keys):
            return
        for u in units:
            if table.lookup(u) is None:
                name = (g.unit_name if (g := unit_of(u)) else "?")
                raise VerifyException(f"the mapping has no key for unit '{name}', which runs "
                                      "this code")


class _UnitRegions(IRDLOperation):
    """Shared by `uniformize_regions` and `equalize_pattern`: regions, each with the list of
    units that run it and a block argument bound to the executing unit:

        { (%a -> %u0, %u1) { ... } (%b -> %u2) { ... } }"""

    units = var_operand_def(IndexType)
    list_sizes = prop_def(ArrayAttr[IntegerAttr[I32]])
    cases = var_region_def("single_block")
    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (ResultTypes, UnitRegions)

    def _init(self, cases: Sequence[tuple[Sequence[SSAValue], Block]],
              result_types: Sequence[Attribute] | None = None) -> None:
        IRDLOperation.__init__(
            self, operands=[[u for us, _ in cases for u in us]],
            result_types=[] if result_types is None else [result_types],
            regions=[[Region(b) for _, b in cases]],
            properties={"list_sizes": ArrayAttr([IntegerAttr(len(us), i32)
                                                 for us, _ in cases])})
        close_body(self)

    def unit_lists(self) -> list[list[SSAValue]]:
        """The units of each region, in region order."""
        out, i = [], 0
        for size in self.list_sizes:
            n = size.value.data
            out.append(list(self.units[i:i + n]))
            i += n
        return out

    def region_for(self, unit: SSAValue) -> Region | None:
        """The region a unit runs (by value or unit name)."""
        want = _key_identity(unit)
        for region, units in zip(self.cases, self.unit_lists(), strict=False):
            if any(_key_identity(u) == want for u in units):
                return region
        return None

    def _verify_cases(self) -> None:
        sizes = [s.value.data for s in self.list_sizes]
        if not self.cases or len(sizes) != len(self.cases):
            raise VerifyException("expects one unit list per region, and at least one region")
        if any(s < 1 for s in sizes) or sum(sizes) != len(self.units):
            raise VerifyException("each region needs at least one unit, and list_sizes must "
                                  "add up to the number of units")
        if len({_key_identity(u) for u in self.units}) != len(self.units):
            raise VerifyException("a unit appears twice")
        for region, units in zip(self.cases, self.unit_lists(), strict=True):
            args = region.block.args
            if len(args) != 1 or not isinstance(args[0].type, IndexType):
                raise VerifyException("each region takes one 'index' argument, the unit")
            allowed = (GetUnitOp, CreateGroupOp) if len(units) == 1 else (GetUnitOp,)
            if not all(isinstance(u.owner, allowed) for u in units):
                raise VerifyException("a unit list holds dataflow.get_unit results (or one "
                                      "dataflow.create_group)")

    def _yields(self) -> list[list[SSAValue]]:
        return [list(r.block.last_op.operands) if isinstance(r.block.last_op, YieldOp)
                else [] for r in self.cases]


@irdl_op_definition
class UniformizeRegionsOp(_UnitRegions):
    """`%r = uniform.uniformize_regions -> index { (%a -> %u0, %u1) { ... uniform.yield %x :
    index } (%b -> %u2) { ... } }`: the executing unit runs the region listing it, with the
    region's argument bound to itself; the op's results are what that region yields.

    Builder: `UniformizeRegionsOp(cases, result_types=())` with `cases` a list of (units,
    block taking the unit); accessors `unit_lists()`, `region_for(unit)`."""

    name = "uniform.uniformize_regions"
    reg_indices = opt_prop_def(ArrayAttr[IntegerAttr[I32]], prop_name="regIndices")
    reg_locales = opt_prop_def(ArrayAttr, prop_name="regLocales")
    outputs = var_result_def()
    traits = traits_def(SingleBlockImplicitTerminator(YieldOp))
    assembly_format = ("custom<ResultTypes>(type($outputs)) "
                       "custom<UnitRegions>($units, $list_sizes, $cases) attr-dict")

    def __init__(self, cases: Sequence[tuple[Sequence[SSAValue], Block]],
                 result_types: Sequence[Attribute] = ()):
        self._init(cases, result_types)

    def verify_(self) -> None:
        self._verify_cases()
        want = [r.type for r in self.outputs]
        for values in self._yields():
            if [v.type for v in values] != want:
                raise VerifyException("every region must yield the op's result types ("
                                      + ", ".join(map(str, want)) + ")")


@irdl_op_definition
class EqualizePatternOp(_UnitRegions):
    """`uniform.equalize_pattern { (%a -> %u0) { ... } (%b -> %u1) { ... } }`: per-unit
    regions (at least two) with the same op sequence; each unit runs its region. Builder:
    `EqualizePatternOp(cases)`."""

    name = "uniform.equalize_pattern"
    traits = traits_def(SingleBlockImplicitTerminator(YieldOp))
    assembly_format = "custom<UnitRegions>($units, $list_sizes, $cases) attr-dict"

    def __init__(self, cases: Sequence[tuple[Sequence[SSAValue], Block]]):
        self._init(cases)

    def verify_(self) -> None:
        self._verify_cases()
        if len(self.cases) < 2:
            raise VerifyException("expects at least two regions to equalize")
        if any(self._yields()):
            raise VerifyException("the regions must not yield values")
        shapes = [[op.name for op in r.block.ops] for r in self.cases]
        if any(s != shapes[0] for s in shapes[1:]):
            raise VerifyException("the regions must hold the same sequence of operations")


Uniform = Dialect(
    "uniform",
    [YieldOp, DefImmutableMappingOp, QueryMapOp, UniformizeRegionsOp, EqualizePatternOp],
    [],
)
