"""`fuse-compute-groups`: two consecutive compute groups on the same tiles run as one launch.

Each compute group (`module @local_schedule_N`) is one launch, and launches follow each other
in time: the next group's first DMA waits until the last unit of the one before has ended.
On a kernel of several phases (ffn_swiglu: gate and up, then down) that idles device memory
for the whole drain of each phase, the last block's compute and store (ffn_swiglu_4core on
spyre: ~900 cycles at each boundary). Put in one function, the two groups' pipelines are
ordered by what they share, not by the launch: `ktdf-to-ktdflowering` signals from a stage
that writes a scratchpad buffer to the later stages that read it (after the writer's last
instance, before the reader's first), and every unit runs its parts in program order, so
the second group's DMA of its own operands streams while the first group drains.

The host's call of group B goes into the call of the group A just before it: B's body moves
to the end of A's function (its arguments become A's, shared kernel arguments once), B's
views of scratchpad addresses that A names too become A's (so the lowering sees one buffer
written and read), and B's module and declaration go. Only when nothing else can order them:

- same grid and active tiles, and no view of another core's scratchpad (`ct_id`: a cross-core
  exchange is ordered by its launch);
- no stage on a corelet instance (`parallelize-loops-across-instances`: the last instance of
  a distributed loop is not a loop's last iteration);
- device memory written by neither, or touched by only one (kernel arguments may alias);
- no scratchpad byte that B writes and A reads or writes (only a reader is signalled), and
  every scratchpad view at a known address (`view_bytes`);
- both groups' buffers fit their memories together (`address-assignment` places one
  function's buffers side by side).

Runs after scheduling, so every pass before it sees the groups one by one, and before
`address-assignment`. On spyre: ffn_swiglu_4core 15,869 -> 14,429 cycles (gate/up and down
fuse, and so do the all-reduce and the final add on core 0; device memory now streams without
a gap until the last block), allreduce 1,080 (was 1,128), ring_reduce 405 (423),
ring_reduce_multi_group 1,872 (1,926), sdpa_pv_ksplit 19,861 (19,872); the other
examples unchanged. A pattern on the host's `func.call`, applied by the walker; a chain of
groups fuses one pair at a time, the fused call offered again.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import kernel_grid
from scheduler.analysis.device import device_of
from scheduler.analysis.placement import bytes_overlap, owner_core, view_bytes, view_of
from scheduler.dialects.ktdf import (
    INSTANCE,
    DataTransferOp,
    IndDataTransferOp,
    PrivateOp,
    SelectMemrefOp,
    StageOp,
)
from scheduler.dialects.ktdf_types import const_int
from scheduler.conversion.ktdf_to_dfir.ktdf_to_ktdflowering import memory_kind
from scheduler.rewriting import apply_patterns
from scheduler.transforms.address_assignment import bump, reserved_bytes
from scheduler.transforms.tile_invariant_groups import ACTIVE_TILES


def _view_key(v: SSAValue) -> tuple | None:
    """What names a scratchpad range independently of SSA values: a cast of a view at a
    constant address (its address, shape, strides and types)."""
    view = view_of(v)
    if not isinstance(v.owner, memref.MemorySpaceCastOp) or view is None or view.sizes \
            or view.strides or (offset := const_int(view.offset)) is None:
        return None
    return (offset, str(view.properties), str(view.attributes), str(view.result.type),
            str(v.type))


class _Footprint:
    """What a group's transfers read and write: device memory (whether at all), and the
    bytes of the kernel's scratchpad views (`view_bytes`). Its own buffers (allocs) no
    other group names."""

    def __init__(self, fn: func.FuncOp, global_kind: str, single: bool):
        self.single = single  # the group runs on core 0 alone: its own scratchpad is core 0's
        self.global_reads = self.global_writes = False
        self.reads: list[tuple[tuple[str, object], int, int]] = []
        self.writes: list[tuple[tuple[str, object], int, int]] = []
        self.unplaced = False  # a scratchpad view at an address not known here
        for t in fn.walk():
            if not isinstance(t, DataTransferOp | IndDataTransferOp):
                continue
            sources = [] if t.source_is_fifo else [t.source]
            if isinstance(t, IndDataTransferOp):
                sources += list(t.all_index_buffers)
            for v in sources:
                self._add(v, global_kind, write=False)
            if not t.dest_is_fifo:
                self._add(t.destination, global_kind, write=True)

    def _add(self, v: SSAValue, global_kind: str, write: bool) -> None:
        kind = memory_kind(v.type)
        if kind is None:
            return
        if kind == global_kind:
            if write:
                self.global_writes = True
            else:
                self.global_reads = True
            return
        if all(isinstance(o.owner, memref.AllocOp) for o in _origins(v)):
            return
        where = view_bytes(v, self.single)
        if where is None:
            self.unplaced = True
            return
        (self.writes if write else self.reads).append(where)

    @property
    def touches_global(self) -> bool:
        return self.global_reads or self.global_writes


def _origins(v: SSAValue) -> list[SSAValue]:
    """The buffers a value may be: through a pipeline's private (what it yields) and the
    copies a double-buffered phase selects among."""
    owner = v.owner
    if isinstance(owner, PrivateOp):
        return _origins(owner.yield_op.values[owner.res.index(v)])
    if isinstance(owner, SelectMemrefOp):
        return [o for c in owner.candidates for o in _origins(c)]
    return [v]


def _ordered_by_buffers(fa: _Footprint, fb: _Footprint) -> bool:
    """B writes no scratchpad byte A reads or writes (a later writer is not signalled; what
    B reads of A's writes is: `ktdf-to-ktdflowering` signals from A's writer to B's reader)."""
    if fa.unplaced or fb.unplaced:
        return False
    return not any(bytes_overlap(w, x) for w in fb.writes for x in fa.reads + fa.writes)


def _bodies(module: ModuleOp) -> dict[str, func.FuncOp]:
    """The group functions by name: the definitions in the named child modules
    (`module @local_schedule_N`, beside the host's module)."""
    return {fn.sym_name.data: fn for inner in module.ops
            if isinstance(inner, ModuleOp) and inner.sym_name is not None
            for fn in inner.ops if isinstance(fn, func.FuncOp) and not fn.is_declaration}


def _fusable(a: func.FuncOp, b: func.FuncOp, device, reserved: dict[str, int]) -> bool:
    if kernel_grid(a) != kernel_grid(b):
        return False
    active = [t.value.data if isinstance(t := f.attributes.get(ACTIVE_TILES), IntegerAttr)
              else None for f in (a, b)]
    if active[0] != active[1]:
        return False
    # on one tile (core 0), another core's scratchpad is read and written by that tile's
    # units only, which the signals order
    single = active[0] == 1
    for fn in (a, b):
        for op in fn.walk():
            if isinstance(op, StageOp) and INSTANCE in op.attributes:
                return False
            if isinstance(op, memref.MemorySpaceCastOp) and owner_core(op.dest) is not None \
                    and not single:
                return False
    fa, fb = (_Footprint(f, device.global_memory_kind, single) for f in (a, b))
    if (fa.global_writes and fb.touches_global) or (fb.global_writes and fa.touches_global):
        return False
    if not _ordered_by_buffers(fa, fb):
        return False
    used = dict(reserved)
    for fn in (a, b):
        for alloc in fn.walk():
            if isinstance(alloc, memref.AllocOp) and not alloc.dynamic_sizes \
                    and isinstance(alloc.memref.type.memory_space, StringAttr):
                bump(used, alloc.memref.type)
    return all(device.memories[k].size is None or n <= device.memories[k].size
               for k, n in used.items() if k in device.memories)


def _merge(a: func.FuncOp, b: func.FuncOp, call_a: func.CallOp, call_b: func.CallOp,
           rewriter: PatternRewriter) -> list[SSAValue]:
    """Move B's body to the end of A's; the host values of the fused call's arguments."""
    host_args = list(call_a.arguments)
    block_a, block_b = a.body.block, b.body.block
    for arg, host in zip(block_b.args, call_b.arguments, strict=True):
        if host in host_args:
            rewriter.replace_all_uses_with(arg, block_a.args[host_args.index(host)])
        else:
            host_args.append(host)
            rewriter.replace_all_uses_with(arg, block_a.insert_arg(arg.type, len(block_a.args)))
    views = {k: op.dest for op in block_a.ops
             if isinstance(op, memref.MemorySpaceCastOp) and (k := _view_key(op.dest))}
    tile_a = next((op for op in block_a.ops if isinstance(op, ktdp.GetComputeTileIdOp)), None)
    ret = block_a.last_op
    assert ret is not None
    for op in list(block_b.ops):
        if isinstance(op, func.ReturnOp):
            continue
        op.detach()
        rewriter.insert(op, InsertPoint.before(ret))
        if isinstance(op, memref.MemorySpaceCastOp) and (k := _view_key(op.dest)) in views:
            rewriter.replace_all_uses_with(op.dest, views[k])
            view = op.source.owner
            rewriter.erase(op)
            if isinstance(view, Operation) and not view.results[0].uses:
                rewriter.erase(view)
        elif tile_a is not None and isinstance(op, ktdp.GetComputeTileIdOp):
            for old, new in zip(op.results, tile_a.results, strict=True):
                rewriter.replace_all_uses_with(old, new)
    a.function_type = func.FunctionType.from_lists([v.type for v in host_args], [])
    return host_args


class FuseCalls(RewritePattern):
    """A call of a compute group followed by the call of one it can fuse with (see the
    module docstring): one call of the fused group."""

    def __init__(self, module: ModuleOp):
        self.device = device_of(module, FuseComputeGroupsPass.name)
        self.reserved = reserved_bytes(module, self.device)
        self.bodies = _bodies(module)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, call: func.CallOp, rewriter: PatternRewriter) -> None:
        while isinstance(nxt := call.next_op, func.CallOp):
            a = self.bodies.get(call.callee.root_reference.data)
            b = self.bodies.get(nxt.callee.root_reference.data)
            if a is None or b is None or a is b or not _fusable(a, b, self.device,
                                                                self.reserved):
                return
            args = _merge(a, b, call, nxt, rewriter)
            fused = func.CallOp(call.callee, args, [])
            rewriter.replace(call, fused)
            rewriter.erase(nxt)
            self._redeclare(fused, a, b, rewriter)
            call = fused

    def _redeclare(self, call: func.CallOp, a: func.FuncOp, b: func.FuncOp,
                   rewriter: PatternRewriter) -> None:
        """A's declaration (beside the host function) takes A's new type; B's declaration
        and module go."""
        host = call.parent_op()
        while host is not None and not isinstance(host, ModuleOp):
            host = host.parent_op()
        assert host is not None
        for op in list(host.ops):
            if isinstance(op, func.FuncOp) and op.is_declaration:
                if op.sym_name.data == a.sym_name.data:
                    op.function_type = a.function_type
                elif op.sym_name.data == b.sym_name.data:
                    rewriter.erase(op)
        del self.bodies[b.sym_name.data]
        module_b = b.parent_op()
        assert isinstance(module_b, ModuleOp)
        rewriter.erase(module_b)


class FuseComputeGroupsPass(ModulePass):
    """Fuse consecutive compute groups that only scratchpad buffers order (see the module
    docstring).

    Before:  func.call @local_schedule_0(%x) ; func.call @local_schedule_1(%w)
             module @local_schedule_0 {...}  module @local_schedule_1 {...}
    After:   func.call @local_schedule_0(%x, %w)
             module @local_schedule_0 { <group 0's ops> <group 1's ops> }
    Idempotent once no two consecutive groups can fuse."""

    name = "fuse-compute-groups"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not any(isinstance(o, func.CallOp) for o in op.walk()):
            return
        apply_patterns(op, [FuseCalls(op)])

