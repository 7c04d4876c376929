"""The `dataflow` dialect of DataflowIR (shared/spec/dataflow-ir.md §2, §7).

Units are opaque `index` handles made by `get_unit`; a `program_unit` is the program every
listed unit runs, with its block argument bound to the executing unit; `send`/`receive` move
vectors over per-pair FIFOs and `sync_send`/`sync_recv` count signals; `get_logical_memory_view`
turns a memory unit into a memref addressed in elements. Channel and signal ops carry read and
write effects so no rewrite drops or merges them.

Types and attributes live in dataflow_types.py, helpers shared with the other DataflowIR
dialects in syntax.py; the Dialect is here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    I32,
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    i1,
    i32,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, BlockArgument, Dialect, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap, AffineSet
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
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
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException

from ktir import affine
from spyrecode.dialects.dataflow_types import (
    CustomVectorType,
    DirectionAttr,
    MXFloatSpellingType,
    MXIntSpellingType,
    MXType,
    RoutingDirection,
    is_vector_like,
)
from spyrecode.dialects.directives import (
    ImplicitBody,
    ProgramUnits,
    Segments,
    SegmentsIfNoDict,
)
from spyrecode.dialects.syntax import (
    WithDebugName,
    ancestor,
    close_body,
    i32_attr,
    props,
    str_attr,
)

# --------------------------------------------------------------------------------------------
# units and programs
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class GetUnitOp(IRDLOperation):
    """`%u = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index`:
    the handle of one hardware unit, identified by `name`; `type` is its kind in the device.

    Builder: `GetUnitOp(name, kind, core=None, corelet=None)`; accessors `unit` (the handle),
    `unit_name`, `kind`, `core`, `corelet` (Python values)."""

    name = "dataflow.get_unit"
    name_attr = prop_def(StringAttr, prop_name="name")
    type_attr = prop_def(StringAttr, prop_name="type")
    core_attr = opt_prop_def(IntegerAttr[I32], prop_name="core")
    corelet_attr = opt_prop_def(IntegerAttr[I32], prop_name="corelet")
    units = var_result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($units)"

    def __init__(self, name: str, kind: str, core: int | None = None,
                 corelet: int | None = None):
        super().__init__(result_types=[[IndexType()]], properties=props({
            "name": StringAttr(name), "type": StringAttr(kind),
            "core": i32_attr(core), "corelet": i32_attr(corelet)}))

    @property
    def unit(self) -> SSAValue:
        return self.units[0]

    @property
    def unit_name(self) -> str:
        return self.name_attr.data

    @property
    def kind(self) -> str:
        return self.type_attr.data

    @property
    def core(self) -> int | None:
        return None if self.core_attr is None else self.core_attr.value.data

    @property
    def corelet(self) -> int | None:
        return None if self.corelet_attr is None else self.corelet_attr.value.data

    def verify_(self) -> None:
        if len(self.units) != 1:
            raise VerifyException(
                f"expects exactly one result, got {len(self.units)} (one handle per program "
                "time step is not supported)")
        if not self.unit_name or not self.kind:
            raise VerifyException("'name' and 'type' must not be empty")
        for what, v in (("core", self.core), ("corelet", self.corelet)):
            if v is not None and v < 0:
                raise VerifyException(f"'{what}' must be >= 0, got {v}")


def unit_of(value: SSAValue) -> GetUnitOp | None:
    """The `get_unit` that defines a handle, if it is one."""
    owner = value.owner
    return owner if isinstance(owner, GetUnitOp) else None


@irdl_op_definition
class GetLocalUnitOp(IRDLOperation):
    """`%u = dataflow.get_local_unit %id {name = "L1-LU"} : index`: a unit local to the
    executing one (not emitted by the compiler)."""

    name = "dataflow.get_local_unit"
    unit_id = operand_def(IndexType)
    name_attr = prop_def(StringAttr, prop_name="name")
    unit = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$unit_id attr-dict `:` type($unit)"

    def __init__(self, unit_id: SSAValue, name: str):
        super().__init__(operands=[unit_id], result_types=[IndexType()],
                         properties={"name": StringAttr(name)})


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`dataflow.return`: the implicit (elided) terminator of a `program_unit` body."""

    name = "dataflow.return"
    traits = lazy_traits_def(lambda: (IsTerminator(), NoMemoryEffect(), HasParent(ProgramUnitOp)))
    assembly_format = "attr-dict"


@irdl_op_definition
class ProgramUnitOp(IRDLOperation):
    """The program each listed unit runs, as one process per unit (§7 E4):

        dataflow.program_unit iter_arg : %u -> (%a, %b) : { ... }
        dataflow.program_unit %a : { ... }

    In the first form the body's block argument `%u` is the executing unit's handle. Every
    unit is a `get_unit` result, listed once; a unit runs at most one program in a function.

    Builder: `ProgramUnitOp(units, body=None, precision=None)`; `body` is a Block or Region
    whose single block takes the iter_arg (a fresh block with one `index` argument when
    omitted); the `dataflow.return` terminator is added. Fill the block before building, or
    insert before its terminator. Accessors: `iter_arg`, `block`, `precision_str`.
    """

    name = "dataflow.program_unit"
    units = var_operand_def(IndexType)
    precision = opt_prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(SingleBlockImplicitTerminator(ReturnOp))
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("custom<ProgramUnits>($units, ref($body)) attr-dict `:` "
                       "custom<ImplicitBody>($body)")
    custom_directives = (ProgramUnits, ImplicitBody)

    def __init__(self, units: Sequence[SSAValue], body: Block | Region | None = None,
                 precision: str | None = None):
        if body is None:
            body = Block(arg_types=[IndexType()])
        region = body if isinstance(body, Region) else Region(body)
        super().__init__(operands=[units], regions=[region],
                         properties=props({"precision": str_attr(precision)}))
        close_body(self)

    @property
    def block(self) -> Block:
        return self.body.block

    @property
    def iter_arg(self) -> BlockArgument | None:
        args = self.body.block.args
        return args[0] if args else None

    @property
    def precision_str(self) -> str | None:
        return None if self.precision is None else self.precision.data

    def unit_ops(self) -> list[GetUnitOp]:
        """The `get_unit` of each listed unit (in order)."""
        return [u for v in self.units if (u := unit_of(v)) is not None]

    def verify_(self) -> None:
        if not self.units:
            raise VerifyException("expects at least one unit")
        args = self.body.block.args
        if len(args) > 1 or (args and not isinstance(args[0].type, IndexType)):
            raise VerifyException("the body takes at most one argument, the executing unit's "
                                  "'index' handle")
        if ancestor(self, ProgramUnitOp) is not None:
            raise VerifyException("must not be nested in another dataflow.program_unit")
        seen: set[str] = set()
        for i, v in enumerate(self.units):
            u = unit_of(v)
            if u is None:
                raise VerifyException(f"unit #{i} must be the result of a dataflow.get_unit")
            key = u.unit_name.lower()
            if key in seen:
                raise VerifyException(f"unit '{u.unit_name}' is listed twice")
            seen.add(key)
        self._verify_units_unique_in_function(seen)

    def _verify_units_unique_in_function(self, mine: set[str]) -> None:
        scope = ancestor(self, (FuncOp, ModuleOp))
        if scope is None:
            return
        for other in _walk_outside_programs(scope):  # programs never nest (see above)
            if other is self:
                return
            if isinstance(other, ProgramUnitOp):
                for u in other.unit_ops():
                    if u.unit_name.lower() in mine:
                        raise VerifyException(
                            f"unit '{u.unit_name}' already runs another dataflow.program_unit "
                            "of this function (a unit runs at most one program)")


def _walk_outside_programs(op: Operation) -> Iterator[Operation]:
    """`op.walk()` without the bodies of `program_unit`s (each program's own check looks
    only at the programs before it: walking their bodies made it quadratic in programs)."""
    yield op
    if isinstance(op, ProgramUnitOp):
        return
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                yield from _walk_outside_programs(child)


def executing_program(op: Operation, what: str) -> ProgramUnitOp:
    """The `program_unit` an op runs in; a verifier error when there is none."""
    prog = ancestor(op, ProgramUnitOp)
    if not isinstance(prog, ProgramUnitOp):
        raise VerifyException(f"{what} must be inside a dataflow.program_unit (it needs an "
                              "executing unit)")
    return prog


def check_peer(op: Operation, peer: SSAValue, what: str) -> None:
    """(P) channel and signal ops run in a program and never target the executing unit."""
    prog = executing_program(op, what)
    only = prog.unit_ops() if len(prog.units) == 1 else []
    target = unit_of(peer)
    if peer is prog.iter_arg or (only and target is not None
                                 and target.unit_name.lower() == only[0].unit_name.lower()):
        raise VerifyException(f"a unit may not {what} itself")


def check_vector(what: str, t: Attribute) -> None:
    """FIFOs carry vectors (builtin or custom), one per message."""
    if not is_vector_like(t):
        raise VerifyException(f"{what} a vector or custom vector, got {t}")


@irdl_op_definition
class CreateGroupOp(IRDLOperation):
    """`%g = dataflow.create_group(%a, %b : index, index) : index`: a group of units (e.g. a
    multicast destination). Builder: `CreateGroupOp(units)`."""

    name = "dataflow.create_group"
    unit_ids = var_operand_def(IndexType)
    group = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "`(` ($unit_ids^ `:` type($unit_ids))? `)` attr-dict `:` type($group)"

    def __init__(self, units: Sequence[SSAValue]):
        super().__init__(operands=[units], result_types=[IndexType()])

    def verify_(self) -> None:
        if not self.unit_ids:
            raise VerifyException("a group needs at least one unit")
        if len(set(self.unit_ids)) != len(self.unit_ids):
            raise VerifyException("a unit is listed twice in the group")


@irdl_op_definition
class CreateMulticastGroupOp(IRDLOperation):
    """`%g = dataflow.create_multicast_group(%p -> (%c1, %c2)) {count = 0 : i32, group_id = 1
    : i32, num_consumers = 2 : i32} : index`: producer, consumers (may be left empty) and the
    initial number of outstanding requests (`count`)."""

    name = "dataflow.create_multicast_group"
    producer = operand_def(IndexType)
    consumers = var_operand_def(IndexType)
    num_consumers = prop_def(IntegerAttr[I32])
    group_id = prop_def(IntegerAttr[I32])
    count = prop_def(IntegerAttr[I32])
    result = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $producer `->` `(` $consumers `)` `)` attr-dict `:` type($result)"

    def __init__(self, producer: SSAValue, consumers: Sequence[SSAValue], group_id: int,
                 num_consumers: int | None = None, count: int = 0):
        n = len(consumers) if num_consumers is None else num_consumers
        super().__init__(operands=[producer, consumers], result_types=[IndexType()],
                         properties=props({"num_consumers": IntegerAttr(n, i32),
                                           "group_id": IntegerAttr(group_id, i32),
                                           "count": IntegerAttr(count, i32)}))

    def verify_(self) -> None:
        n = self.num_consumers.value.data
        if n < 0 or self.count.value.data < 0 or self.group_id.value.data < 0:
            raise VerifyException("'num_consumers', 'group_id' and 'count' must be >= 0")
        if self.consumers and len(self.consumers) != n:
            raise VerifyException(f"{len(self.consumers)} consumers listed but "
                                  f"num_consumers = {n}")


# --------------------------------------------------------------------------------------------
# channels and signals
# --------------------------------------------------------------------------------------------

_CHANNEL_EFFECTS = (MemoryReadEffect(), MemoryWriteEffect())


@irdl_op_definition
class SendOp(WithDebugName):
    """`dataflow.send %to, %v : vector<64xf16>`: push one vector into the FIFO from the
    executing unit to `%to`; blocks while it is full (§7 E7). Builder: `SendOp(to, value,
    dir=None, dbg_name=None)`."""

    name = "dataflow.send"
    to_unit = operand_def(IndexType)
    send_data = operand_def()
    dir = opt_prop_def(DirectionAttr)
    traits = traits_def(*_CHANNEL_EFFECTS)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$to_unit `,` $send_data attr-dict `:` type($send_data)"

    def __init__(self, to: SSAValue, value: SSAValue,
                 dir: RoutingDirection | str | None = None, dbg_name: str | None = None):
        super().__init__(operands=[to, value], properties=props({
            "dir": None if dir is None else DirectionAttr(RoutingDirection(dir)),
            "dbgName": str_attr(dbg_name)}))

    def verify_(self) -> None:
        check_vector("sends", self.send_data.type)
        check_peer(self, self.to_unit, "send to")


@irdl_op_definition
class ReceiveOp(WithDebugName):
    """`%v = dataflow.receive %from : vector<64xf16>`: pop the next vector `%from` sent to
    the executing unit; blocks while the FIFO is empty. Builder: `ReceiveOp(frm, type)`."""

    name = "dataflow.receive"
    from_unit = operand_def(IndexType)
    data = result_def()
    traits = traits_def(*_CHANNEL_EFFECTS)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$from_unit attr-dict `:` type($data)"

    def __init__(self, frm: SSAValue, result_type: Attribute, dbg_name: str | None = None):
        super().__init__(operands=[frm], result_types=[result_type],
                         properties=props({"dbgName": str_attr(dbg_name)}))

    def verify_(self) -> None:
        check_vector("receives", self.data.type)
        check_peer(self, self.from_unit, "receive from")


@irdl_op_definition
class SyncSendOp(WithDebugName):
    """`dataflow.sync_send %to {wait_immediately_for_async_transfers = true} : index`: add one
    to `%to`'s signal counter for this unit (§7 E8). With the flag (absent means true) the unit
    first waits for its outstanding asynchronous transfers (E9).

    Builder: `SyncSendOp(to, wait=True)` (`wait=None` leaves the flag out); accessor
    `waits_for_transfers`."""

    name = "dataflow.sync_send"
    to_unit = operand_def(IndexType)
    wait_attr = opt_prop_def(BoolAttr, prop_name="wait_immediately_for_async_transfers")
    traits = traits_def(*_CHANNEL_EFFECTS)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$to_unit attr-dict `:` type($to_unit)"

    def __init__(self, to: SSAValue, wait: bool | None = True, dbg_name: str | None = None):
        super().__init__(operands=[to], properties=props({
            "wait_immediately_for_async_transfers": None if wait is None else BoolAttr(wait, i1),
            "dbgName": str_attr(dbg_name)}))

    @property
    def waits_for_transfers(self) -> bool:
        return self.wait_attr is None or bool(self.wait_attr.value.data)

    def verify_(self) -> None:
        check_peer(self, self.to_unit, "signal")


@irdl_op_definition
class SyncRecvOp(WithDebugName):
    """`dataflow.sync_recv %from : index`: wait until `%from` has signalled the executing unit,
    then consume one signal. Builder: `SyncRecvOp(frm)`."""

    name = "dataflow.sync_recv"
    from_unit = operand_def(IndexType)
    traits = traits_def(*_CHANNEL_EFFECTS)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$from_unit attr-dict `:` type($from_unit)"

    def __init__(self, frm: SSAValue, dbg_name: str | None = None):
        super().__init__(operands=[frm], properties=props({"dbgName": str_attr(dbg_name)}))

    def verify_(self) -> None:
        check_peer(self, self.from_unit, "wait for a signal from")


@irdl_op_definition
class ImplicitSyncOnStreamingBufferOp(WithDebugName):
    """`dataflow.implicit_sync_on_streaming_buffer %mem, %dst, %n : memref<4xi8>, index,
    index`: synchronise at the boundary of a streaming buffer (not emitted)."""

    name = "dataflow.implicit_sync_on_streaming_buffer"
    memory_unit = operand_def(MemRefType)
    dst_unit = operand_def(IndexType)
    buffer_size = operand_def(IndexType)
    traits = traits_def(*_CHANNEL_EFFECTS)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("$memory_unit `,` $dst_unit `,` $buffer_size attr-dict `:` "
                       "type($memory_unit) `,` type($dst_unit) `,` type($buffer_size)")

    def __init__(self, memory: SSAValue, dst: SSAValue, size: SSAValue):
        super().__init__(operands=[memory, dst, size])


# --------------------------------------------------------------------------------------------
# memory views
# --------------------------------------------------------------------------------------------


def _check_view_type(t: MemRefType, layout: AffineMap) -> None:
    if not isinstance(t.layout, NoneAttr):
        raise VerifyException("the view's memref type must not carry a layout: 'layout_map' "
                              "gives the addressing")
    if layout.num_dims != t.get_num_dims():
        raise VerifyException(f"layout_map must have {t.get_num_dims()} dimension(s), one per "
                              f"view index, got {layout.num_dims}")
    if len(layout.results) != 1 or layout.num_symbols:
        raise VerifyException("layout_map must map the view's indices to one element offset "
                              "(one result, no symbols)")


@irdl_op_definition
class GetLogicalMemoryViewOp(IRDLOperation):
    """`%v = dataflow.get_logical_memory_view %unit, %start {layout_map = affine_map<(d0, d1)
    -> (d0 * 64 + d1)>} : index, index, memref<4x64xf16>`: element `idx` of the view is element
    `start + layout_map(idx)` of memory unit `%unit` (addresses count elements, §7 E5).

    Builder: `GetLogicalMemoryViewOp(unit, start, layout_map, result_type)`; accessor
    `layout` (the AffineMap)."""

    name = "dataflow.get_logical_memory_view"
    from_unit = operand_def(IndexType)
    start_address = operand_def(IndexType)
    layout_map = prop_def(AffineMapAttr)
    data = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("$from_unit `,` $start_address attr-dict `:` type($from_unit) `,` "
                       "type($start_address) `,` type($data)")

    def __init__(self, unit: SSAValue, start: SSAValue, layout_map: AffineMap,
                 result_type: MemRefType):
        super().__init__(operands=[unit, start], result_types=[result_type],
                         properties={"layout_map": AffineMapAttr(layout_map)})

    @property
    def layout(self) -> AffineMap:
        return self.layout_map.data

    def verify_(self) -> None:
        assert isinstance(self.data.type, MemRefType)
        _check_view_type(self.data.type, self.layout)


@irdl_op_definition
class GetPagedLogicalMemoryViewOp(IRDLOperation):
    """A view whose pages live at their own start addresses:

        %v = dataflow.get_paged_logical_memory_view %u, %s {layout_map = #m}
          {segments = page0: (idx_set = #s0, start_addr = %p0), page1: (...)}
          : index, index, memref<...>

    Each `idx_set` is a box of view indices; #idx_sets == #pages; page start addresses come
    from `arith.constant`. Builder: `GetPagedLogicalMemoryViewOp(unit, start, layout_map,
    pages, result_type)` with `pages` a list of (AffineSet, start address value)."""

    name = "dataflow.get_paged_logical_memory_view"
    unit = operand_def(IndexType)
    start_addr = operand_def(IndexType)
    page_start_addrs = var_operand_def(IndexType)
    layout_map = prop_def(AffineMapAttr)
    idx_sets = prop_def(ArrayAttr[AffineSetAttr])
    data = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("$unit `,` $start_addr "
                       "custom<SegmentsIfNoDict>(ref($page_start_addrs), ref($idx_sets)) "
                       "attr-dict custom<Segments>($page_start_addrs, $idx_sets) `:` "
                       "type($unit) `,` type($start_addr) `,` type($data)")
    custom_directives = (SegmentsIfNoDict, Segments)

    def __init__(self, unit: SSAValue, start: SSAValue, layout_map: AffineMap,
                 pages: Sequence[tuple[AffineSet, SSAValue]], result_type: MemRefType):
        super().__init__(
            operands=[unit, start, [a for _, a in pages]], result_types=[result_type],
            properties={"idx_sets": ArrayAttr([AffineSetAttr(s) for s, _ in pages]),
                        "layout_map": AffineMapAttr(layout_map)})

    def verify_(self) -> None:
        assert isinstance(self.data.type, MemRefType)
        _check_view_type(self.data.type, self.layout_map.data)
        if len(self.idx_sets) != len(self.page_start_addrs):
            raise VerifyException(f"{len(self.idx_sets)} idx_sets for "
                                  f"{len(self.page_start_addrs)} page start addresses")
        if not self.idx_sets:
            raise VerifyException("expects at least one page")
        rank = self.data.type.get_num_dims()
        for i, (s, a) in enumerate(zip(self.idx_sets, self.page_start_addrs, strict=True)):
            if not isinstance(a.owner, ConstantOp):
                raise VerifyException(f"the start address of page{i} must be an arith.constant")
            if s.data.num_dims != rank or not affine.is_box(s.data):
                raise VerifyException(f"the idx_set of page{i} must be a box over the "
                                      f"{rank} view indices")


@irdl_op_definition
class OpaqueOp(WithDebugName):
    """`dataflow.opaque {func_name = "reciprocal", read_write_register_dictionary = {...},
    read_only_register_dictionary = {...}, parameter_dictionary = {...}}`: a device routine
    the compiler does not model. Its effects are unknown, so nothing moves or removes it."""

    name = "dataflow.opaque"
    func_name = prop_def(StringAttr)
    read_write_register_dictionary = prop_def(DictionaryAttr)
    read_only_register_dictionary = prop_def(DictionaryAttr)
    parameter_dictionary = prop_def(DictionaryAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, func_name: str, read_write: Mapping[str, Attribute] | None = None,
                 read_only: Mapping[str, Attribute] | None = None,
                 parameters: Mapping[str, Attribute] | None = None):
        super().__init__(properties=props({
            "func_name": StringAttr(func_name),
            "read_write_register_dictionary": DictionaryAttr(dict(read_write or {})),
            "read_only_register_dictionary": DictionaryAttr(dict(read_only or {})),
            "parameter_dictionary": DictionaryAttr(dict(parameters or {}))}))

    @property
    def routine(self) -> str:
        return self.func_name.data

    def verify_(self) -> None:
        if not self.routine:
            raise VerifyException("'func_name' must not be empty")


Dataflow = Dialect(
    "dataflow",
    [
        GetUnitOp,
        GetLocalUnitOp,
        ProgramUnitOp,
        ReturnOp,
        CreateGroupOp,
        CreateMulticastGroupOp,
        SendOp,
        ReceiveOp,
        SyncSendOp,
        SyncRecvOp,
        ImplicitSyncOnStreamingBufferOp,
        GetLogicalMemoryViewOp,
        GetPagedLogicalMemoryViewOp,
        OpaqueOp,
    ],
    [CustomVectorType, MXType, MXFloatSpellingType, MXIntSpellingType, DirectionAttr],
)
