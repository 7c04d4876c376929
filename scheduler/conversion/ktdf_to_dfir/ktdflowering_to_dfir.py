"""`ktdflowering-to-dfir`: one `dataflow.program_unit` per unit type, in DataflowIR.

The function body of a compute group (after `ktdf-to-ktdflowering`) is split in two:

* the **prelude** — `dataflow.get_unit`, constants, `uniform` tables — stays at the top and
  runs once;
* everything else is cloned into one `dataflow.program_unit iter_arg : %u -> (all units of
  kind K)` per kind K, filtered to K's work. Inside, the tile id is the executing unit's
  (`uniform.query_map` of a new unit -> tile table keyed by `%u`) and every other handle is
  queried by it.

In a program of kind K: `execute_on` bodies bound to K are inlined and the others dropped;
transfers become `agen` ops — memory to memory is an asynchronous DMA
(`agen.composite_load_and_store` whose region only yields), memory to FIFO is
`agen.vector_load` + `dataflow.send` to the FIFO's consumer, FIFO to memory is
`dataflow.receive` + `agen.vector_store`; FIFO reads/writes of the compute stage become
`dataflow.receive`/`send`; the fused `linalg.generic` becomes `vectorchain` ops (the table in
`scheduler.analysis.compute_ops`); `ktdf_lowering.signal` becomes `dataflow.sync_send` to
every peer then `dataflow.sync_recv` from every peer; views become
`dataflow.get_logical_memory_view` (element addresses, ktir.md D1) and kernel arguments
`symbol.create_symbol` (kernel argument p is symbol -(p+1)).
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf, tensor
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    MemRefType,
    ModuleOp,
    TensorType,
    UnrealizedConversionCastOp,
    VectorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineExpr,
    AffineMap,
    AffineSet,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import int_list
from scheduler.analysis.compute_ops import ELEMENTWISE
from scheduler.analysis.symbols import symbol_ids
from scheduler.dialects.ktdf import (
    CreateTokenOp,
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    ReadFromFifoOp,
    WriteToFifoOp,
)
from scheduler.dialects.ktdf_lowering import ExecuteOnOp, SignalOp
from spyrecode.dialects import agen, vectorchain
from spyrecode.dialects.agen_access import Access, TimeLoop
from spyrecode.dialects.dataflow import (
    GetLogicalMemoryViewOp,
    GetUnitOp,
    ProgramUnitOp,
    ReceiveOp,
    SendOp,
    SyncRecvOp,
    SyncSendOp,
)
from spyrecode.dialects.symbol import CreateSymbolOp
from spyrecode.dialects.uniform import DefImmutableMappingOp, QueryMapOp

# ------------------------------------------------------------------------------- helpers


_ONE_STEP = AffineSet(1, 0, (AffineConstraintExpr(AffineConstraintKind.eq,
                                                  AffineExpr.dimension(0),
                                                  AffineExpr.constant(0)),))


def row_major(shape: tuple[int, ...] | list[int]) -> AffineMap:
    e = AffineExpr.constant(0)
    stride = 1
    for k in reversed(range(len(shape))):
        e = AffineExpr.dimension(k) * stride + e if stride != 1 else AffineExpr.dimension(k) + e
        stride *= shape[k]
    return AffineMap(len(shape), 0, (e,))


def strided(strides: list[int]) -> AffineMap:
    e = AffineExpr.constant(0)
    for k, s in enumerate(strides):
        e = e + AffineExpr.dimension(k) * s
    return AffineMap(len(strides), 0, (e,))


def table_kind(table: SSAValue) -> str | None:
    owner = table.owner
    if isinstance(owner, DefImmutableMappingOp) and owner.values:
        unit = owner.values[0].owner
        if isinstance(unit, GetUnitOp):
            return unit.kind
    return None


def _is_prelude(op: Operation) -> bool:
    if isinstance(op, GetUnitOp | DefImmutableMappingOp):
        return True
    return isinstance(op, arith.ConstantOp) and isinstance(op.result.type, IndexType)


# ------------------------------------------------------------------------------- one program


class _Program:
    """Clone of a group function's body, filtered and lowered for one unit kind."""

    def __init__(self, kind: str, fn: func.FuncOp, tile: SSAValue, symbol_of: dict):
        self.kind = kind
        self.fn = fn
        self.map: dict[SSAValue, SSAValue] = {}
        self.handle: dict[str, SSAValue] = {}  # unit/memory kind -> handle in this program
        self.tile = tile
        self.symbol_of = symbol_of  # function argument -> symbol id

    def value(self, v: SSAValue) -> SSAValue:
        return self.map.get(v, v)

    def lower_block(self, src: Block, dst: Block) -> None:
        for op in src.ops:
            self.lower(op, dst)

    def emit(self, dst: Block, *ops: Operation) -> None:
        dst.add_ops(ops)

    def lower(self, op: Operation, dst: Block) -> None:
        if (_is_prelude(op) and op.parent is self.fn.body.block) or isinstance(
                op, FifoAllocateOp | CreateTokenOp | tensor.EmptyOp):
            return
        if isinstance(op, ktdp.GetComputeTileIdOp):
            self.map[op.ids[0]] = self.tile
            return
        if isinstance(op, QueryMapOp):
            q = QueryMapOp(self.value(op.mapping), self.value(op.key))
            self.emit(dst, q)
            self.map[op.result] = q.result
            if (k := table_kind(op.mapping)) is not None:
                self.handle[k] = q.result
            return
        if isinstance(op, ExecuteOnOp):
            units = op.applicable_units
            if len(units) != 1 or units[0] == self.kind:
                self.lower_block(op.body.block, dst)
            return
        if isinstance(op, SignalOp):
            self.signal(op, dst)
            return
        if isinstance(op, ktdp.ConstructMemoryViewOp):
            return  # lowered at its memory_space_cast
        if isinstance(op, memref.MemorySpaceCastOp):
            self.view(op, dst)
            return
        if isinstance(op, UnrealizedConversionCastOp):
            self.buffer(op, dst)
            return
        if isinstance(op, DataTransferOp):
            self.transfer(op, dst)
            return
        if isinstance(op, ReadFromFifoOp):
            slot = op.fifo_slot.type
            assert isinstance(slot, FifoSlotType)
            r = ReceiveOp(self.peer(op, slot.src_kind), self.vector(slot))
            self.emit(dst, r)
            self.map[op.results[0]] = r.results[0]
            return
        if isinstance(op, WriteToFifoOp):
            slot = op.fifo_slot.type
            assert isinstance(slot, FifoSlotType)
            self.emit(dst, SendOp(self.peer(op, slot.dst_kind), self.value(op.operands[0])))
            return
        if isinstance(op, linalg.GenericOp):
            self.generic(op, dst)
            return
        if isinstance(op, scf.ForOp | scf.IfOp):
            self.control(op, dst)
            return
        if isinstance(op, scf.YieldOp | func.ReturnOp):
            return
        if op.dialect_name() in ("arith", "math", "affine") and not op.regions:
            new = op.clone(self.map)
            self.emit(dst, new)
            return
        raise op_error(op, f"'{op.name}' has no DataflowIR lowering")

    # ---- pieces --------------------------------------------------------------------------

    def control(self, op: scf.ForOp | scf.IfOp, dst: Block) -> None:
        new = op.clone_without_regions(self.map)
        new.attributes.pop("loop_type", None)  # a ScheduleIR mark, stripped at lowering
        for old_r, new_r in zip(op.regions, new.regions):
            for old_b in old_r.blocks:
                nb = Block(arg_types=[a.type for a in old_b.args])
                for a, b in zip(old_b.args, nb.args):
                    self.map[a] = b
                    b.name_hint = a.name_hint
                self.lower_block(old_b, nb)
                nb.add_op(scf.YieldOp())
                new_r.add_block(nb)
        self.emit(dst, new)

    def signal(self, op: SignalOp, dst: Block) -> None:
        units = op.applicable_units
        if units and units[0] != self.kind:
            return
        peers = [self.value(u) for u in op.units if self.kind_of(u) != self.kind]
        self.emit(dst, *[SyncSendOp(p, True) for p in peers])
        self.emit(dst, *[SyncRecvOp(p) for p in peers])

    def kind_of(self, handle: SSAValue) -> str | None:
        owner = handle.owner
        if isinstance(owner, QueryMapOp):
            return table_kind(owner.mapping)
        if isinstance(owner, GetUnitOp):
            return owner.kind
        return None

    def peer(self, op: Operation, kind: str | None) -> SSAValue:
        if kind is None or kind not in self.handle:
            raise op_error(op, f"no unit of kind '{kind}' is materialised for this FIFO")
        return self.handle[kind]

    def memory_handle(self, op: Operation, kind: str) -> SSAValue:
        if kind in self.handle:
            return self.handle[kind]
        for o in self.fn.body.block.ops:  # a memory outside the cores: its get_unit
            if isinstance(o, GetUnitOp) and o.kind == kind:
                self.handle[kind] = o.unit
                return o.unit
        raise op_error(op, f"no unit of memory kind '{kind}' is materialised")

    def start_address(self, v: SSAValue, dst: Block) -> SSAValue:
        if isinstance(v, BlockArgument) and v in self.symbol_of:
            if v not in self.map:
                s = CreateSymbolOp(self.symbol_of[v])
                s.result.name_hint = v.name_hint
                self.emit(dst, s)
                self.map[v] = s.result
        return self.value(v)

    def view(self, op: memref.MemorySpaceCastOp, dst: Block) -> None:
        view = op.source.owner
        if not isinstance(view, ktdp.ConstructMemoryViewOp):
            raise op_error(op, "only views built by ktdp.construct_memory_view are lowered")
        kind = op.dest.type.memory_space.data  # type: ignore[union-attr]
        start = self.start_address(view.offset, dst)
        t = view.result.type
        g = GetLogicalMemoryViewOp(self.memory_handle(op, kind), start,
                                   strided(int_list(view.static_strides)),
                                   MemRefType(t.element_type, t.get_shape()))
        g.data.name_hint = op.dest.name_hint
        self.emit(dst, g)
        self.map[op.dest] = g.data

    def buffer(self, op: UnrealizedConversionCastOp, dst: Block) -> None:
        t = op.results[0].type
        if not isinstance(t, MemRefType) or not isinstance(op.inputs[0].type, IndexType):
            raise op_error(op, "unexpected unrealized_conversion_cast")
        kind = t.memory_space.data  # type: ignore[union-attr]
        shape = list(t.get_shape())
        g = GetLogicalMemoryViewOp(self.memory_handle(op, kind), self.value(op.inputs[0]),
                                   row_major(shape), MemRefType(t.element_type, shape))
        g.data.name_hint = op.results[0].name_hint
        self.emit(dst, g)
        self.map[op.results[0]] = g.data

    def vector(self, slot: FifoSlotType) -> VectorType:
        return VectorType(slot.element_type, [slot.num_elements])

    def side(self, value: SSAValue, indices, amap) -> Access:
        m = amap.data if amap is not None else AffineMap.identity(len(indices))
        return Access(self.value(value), [self.value(i) for i in indices], m)

    def transfer(self, t: DataTransferOp, dst: Block) -> None:
        if t.source_is_fifo:
            slot = t.source.type
            assert isinstance(slot, FifoSlotType)
            sizes = self._sizes(t, "dest")
            r = ReceiveOp(self.peer(t, slot.src_kind), self.vector(slot))
            d = self.side(t.destination, t.dest_indices, t.dest_map)
            st = agen.VectorStoreOp(r.results[0], d.memref, d.indices, d.map, ktdp.box_set(sizes),
                                    AffineMap.identity(len(sizes)))
            self.emit(dst, r, st)
            return
        sizes = self._sizes(t, "source")
        elt = t.source.type.element_type  # type: ignore[union-attr]
        vt = VectorType(elt, [math.prod(sizes)])
        s = self.side(t.source, t.source_indices, t.source_map)
        if t.dest_is_fifo:
            slot = t.destination.type
            assert isinstance(slot, FifoSlotType)
            ld = agen.VectorLoadOp(s.memref, s.indices, s.map, ktdp.box_set(sizes),
                                   AffineMap.identity(len(sizes)), vt)
            self.emit(dst, ld, SendOp(self.peer(t, slot.dst_kind), ld.result))
            return
        dsizes = self._sizes(t, "dest")
        d = self.side(t.destination, t.dest_indices, t.dest_map)
        zero_s = AffineMap(1, 0, tuple(AffineExpr.constant(0) for _ in sizes))
        zero_d = AffineMap(1, 0, tuple(AffineExpr.constant(0) for _ in dsizes))
        dma = agen.CompositeLoadAndStoreOp(
            s, d, ktdp.box_set(sizes), AffineMap.identity(len(sizes)), ktdp.box_set(dsizes),
            AffineMap.identity(len(dsizes)), TimeLoop(_ONE_STEP, AffineMap.identity(1)),
            zero_s, zero_d, vt)
        self.emit(dst, dma)

    def _sizes(self, t: DataTransferOp, side: str) -> list[int]:
        sizes = t.mixed_source_sizes if side == "source" else t.mixed_dest_sizes
        if sizes is None or not all(isinstance(s, int) for s in sizes):
            raise op_error(t, f"the {side} of a transfer needs static sizes to be lowered")
        return list(sizes)  # type: ignore[arg-type]

    def generic(self, op: linalg.GenericOp, dst: Block) -> None:
        body = op.body.block
        env: dict[SSAValue, SSAValue] = {}
        for arg, x in zip(body.args, op.inputs):
            env[arg] = self.value(x)
        vtype = None
        for v in env.values():
            vtype = v.type
        if vtype is None:  # no inputs: the vector shape of the output
            t = op.outputs[0].type
            assert isinstance(t, TensorType)
            vtype = VectorType(t.element_type, [math.prod(t.get_shape())])
        for inner in body.ops:
            if isinstance(inner, linalg.YieldOp):
                for r, v in zip(op.results, inner.operands):
                    self.map[r] = env[v]
                return
            if isinstance(inner, arith.ConstantOp) and isinstance(inner.value, FloatAttr):
                lanes = vtype.get_shape()[0]  # type: ignore[union-attr]
                c = vectorchain.ConstantBitstreamOp.from_numbers(
                    [inner.value.value.data] * lanes, vtype)
                self.emit(dst, c)
                env[inner.result] = c.result
                continue
            vop = ELEMENTWISE.get(inner.name)
            if vop is None:
                raise op_error(inner, f"'{inner.name}' has no vectorchain lowering")
            args = [env[a] for a in inner.operands]
            if vop.kind == "binary":
                new = vectorchain.BinaryOp(args[0], args[1], vop.operator)
            elif vop.kind == "neg":
                new = vectorchain.NegOp(args[0])
            else:
                raise op_error(inner, f"'{inner.name}' has no vectorchain lowering")
            self.emit(dst, new)
            env[inner.results[0]] = new.results[0]


def lower_function(fn: func.FuncOp, module: ModuleOp) -> None:
    block = fn.body.block
    execs = [o for o in fn.walk() if isinstance(o, ExecuteOnOp)]
    kinds: list[str] = []
    for e in execs:
        units = e.applicable_units
        if len(units) == 1 and units[0] not in kinds:
            kinds.append(units[0])
    if not kinds:
        return
    symbol_of = symbol_ids(fn, module)
    gets = {k: [o for o in block.ops if isinstance(o, GetUnitOp) and o.kind == k] for k in kinds}
    new_ops: list[Operation] = []
    programs: list[Operation] = []
    for kind in kinds:
        units = gets[kind]
        if not units:
            raise op_error(fn, f"no units of kind '{kind}' are materialised")
        keys = [arith.ConstantOp.from_int_and_width(u.core or 0, IndexType()) for u in units]
        table = DefImmutableMappingOp([(u.unit, k.result) for u, k in zip(units, keys)])
        table.result.name_hint = f"tile_of_{kind.lower()}"
        new_ops += [*keys, table]
        body = Block(arg_types=[IndexType()])
        body.args[0].name_hint = kind.lower()
        tile = QueryMapOp(table.result, body.args[0])
        tile.result.name_hint = "tile"
        body.add_op(tile)
        prog = _Program(kind, fn, tile.result, symbol_of)
        prog.handle[kind] = body.args[0]
        prog.lower_block(block, body)
        pu = ProgramUnitOp([u.unit for u in units], body)
        programs.append(pu)
    old = [o for o in block.ops if not _is_prelude(o) and not isinstance(o, func.ReturnOp)]
    Rewriter.insert_op(new_ops + programs, InsertPoint.before(block.last_op))
    for o in reversed(old):
        o.detach()
    for o in reversed(old):
        o.erase(safe_erase=False)
    for pu in programs:
        region_dce(pu.body)


class KtdfloweringToDfirPass(ModulePass):
    """Lower each compute group to one `dataflow.program_unit` per unit type (see the module
    docstring). Kernel arguments become `symbol.create_symbol` reads inside the programs.

    Before:  ktdf_lowering.execute_on %mnilu { ktdf.data_transfer from %A[...] to %buf[0, 0] ... }
    After:   dataflow.program_unit iter_arg : %u -> (%mnilu_0, ..., %mnilu_31) : {
               %tile = uniform.query_map(map:%tile_of_mnilu, key:%u) : index
               ... agen.composite_load_and_store src:%A[...] dst:%buf[0, 0] ... { agen.yield } }
    """

    name = "ktdflowering-to-dfir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in list(op.walk()):
            if isinstance(fn, func.FuncOp) and not fn.is_declaration:
                lower_function(fn, op)

