"""`share-invariant-loads`: a tensor every tile loads alike is read from device memory once.

Every tile of a layer norm reads the whole weight and bias rows (the same bytes for all 32
tiles): 32 device-memory reads of each, where one is compulsory. On a device whose
scratchpads are linked (spyre's ring), the tensor is loaded once into one tile's scratchpad
and every tile reads it from there, over the ring instead of from device memory:

    %Wv = ktdp.construct_memory_view %W, sizes: [%N] ... <global>    (%N bound to 2048)
    ... ktdp.load (ktdp.construct_access_tile %Wv[%j] ...)           (in each tile's loops)
becomes
    %Wv = ...                                                         (unchanged)
    %Wc = ktdp.construct_memory_view %W, sizes: [2048] ... <global>  (static: no mask)
    %w = ktdp.load (ktdp.construct_access_tile %Wc[0] {0 <= d0 < 2048})
    %Ws = ktdp.construct_memory_view %c<slot> ... <ct_local, ct_id = k> : memref<2048xf16>
    ktdp.store %w, (ktdp.construct_access_tile %Ws[0] ...)
    ... ktdp.load (ktdp.construct_access_tile %Ws[%j] ...)

The copy reads no tile id, so it is a compute group of its own that `tile-invariant-groups`
runs once, on core 0, before the groups that read it (a group boundary is a barrier). The
loads keep their subscripts: the shared copy has the view's shape, row-major. With the
loads now in a scratchpad, `broadcast-promotion` hoists each tile's copy out of its loops.
Shared tensors go to the scratchpads of tiles spread over the ring (`k` = i x tiles / n for
the i-th of n), so that no one ring link carries them all. Their slots follow every
constant-address scratchpad range the kernel names (scheduler/analysis/slots.py), so
address-assignment places the groups' buffers after them.

A view qualifies when it is of global memory, defined in the kernel's entry block from a
kernel argument no store writes through (every view of that argument is only loaded), with
sizes and strides known at compile time and a coordinate set that is its whole box; each of
its access tiles is only loaded and reads no tile id; it takes at most 1/16 of a
scratchpad (all shared tensors together at most 1/4); and it is worth it: the copy is a
launch of its own, so the reads it saves (tiles - 1 times its bytes, over the device
memory's shared bandwidth) must take longer than two round trips of the device (spyre: 440
cycles, 56,320 B; layer norm's W saves 31 x 4,096 B, a bias row of 64 elements does not).
Kernels of one tile, devices whose cores share only device memory (sample_device: no
scratchpad link) and devices whose device memory is not shared (no `bytes_per_cycle`: a
second read costs no time) are left unchanged.
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, ModuleOp, TensorType
from xdsl.ir import BlockArgument, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir import affine
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import (
    MemoryKind,
    MemorySpaceAttr,
    box_set,
    int_list,
    kernel_grid,
)
from scheduler.analysis.index_exprs import IndexExprs, index_constant
from scheduler.analysis.placement import inter_core_unit
from scheduler.analysis.slots import Slots, reserved_end, row_major, tensor_bytes
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns


def _spread(i: int, tiles: int) -> int:
    """The tile of the i-th shared tensor: 0, tiles/2, tiles/4, 3 tiles/4, ... (the bits
    of i reversed), so that any first n of them lie spread over the ring."""
    bits = max(1, (tiles - 1).bit_length())
    return int(format(i % (1 << bits), f"0{bits}b")[::-1], 2) * tiles >> bits


def _shape(view: ktdp.ConstructMemoryViewOp) -> list[int] | None:
    """The view's sizes, its dynamic ones constant-folded; None if one is not a constant."""
    dyn = iter(view.sizes)
    out = []
    for s in int_list(view.static_sizes):
        if s == DYNAMIC_INDEX:
            s = const_int(next(dyn))
            if s is None:
                return None
        out.append(s)
    return out


def _whole_box(view: ktdp.ConstructMemoryViewOp, shape: list[int]) -> bool:
    """Whether the view's coordinate set is every coordinate of its shape (symbols: the
    dynamic sizes)."""
    aset = view.coordinate_set.data
    syms = [const_int(s) for s in view.sizes]
    return affine.is_box(aset) and affine.dim_bounds(aset, syms) == [
        (0, n - 1) for n in shape]


def _loaded_tiles(view: ktdp.ConstructMemoryViewOp) -> list[ktdp.ConstructAccessTileOp] | None:
    """The view's access tiles if it has some and each is only loaded; None otherwise."""
    tiles = []
    for use in view.result.uses:
        t = use.operation
        if not isinstance(t, ktdp.ConstructAccessTileOp) or use.index != 0 or not all(
                isinstance(u.operation, ktdp.LoadOp) for u in t.result.uses):
            return None
        tiles.append(t)
    return tiles or None


def _read_only(arg: SSAValue) -> bool:
    """Whether memory at kernel argument `arg` is only loaded through views."""
    return all(isinstance(u.operation, ktdp.ConstructMemoryViewOp) and u.index == 0
               and _loaded_tiles(u.operation) is not None for u in arg.uses)


class _Kernel:
    """Per kernel: its tile count, where shared tensors go, what they may take."""

    def __init__(self, tiles: int, slots: Slots, budget: int, each: int, worth: int):
        self.tiles, self.slots, self.budget, self.each = tiles, slots, budget, each
        self.worth = worth  # the fewest device-memory bytes a shared copy must save
        self.shared: list[ktdp.ConstructMemoryViewOp] = []


class ShareInvariantLoad(RewritePattern):
    """Copy one qualifying view into a scratchpad slot and point its loads at the copy."""

    def __init__(self, kernels: dict[func.FuncOp, _Kernel]):
        self.kernels = kernels
        self.exprs = IndexExprs()

    def _qualifies(self, v: ktdp.ConstructMemoryViewOp, k: _Kernel,
                   fn: func.FuncOp) -> tuple[list[int], list[ktdp.ConstructAccessTileOp]] | None:
        space = v.memory_space
        if not isinstance(space, MemorySpaceAttr) or space.kind.data != MemoryKind.GLOBAL \
                or v.parent_block() is not fn.body.block or v.strides:
            return None
        if not isinstance(v.offset, BlockArgument) or v.offset.block is not fn.body.block \
                or not _read_only(v.offset):
            return None
        shape = _shape(v)
        if shape is None or not _whole_box(v, shape):
            return None
        size = tensor_bytes(TensorType(v.result.type.element_type, shape))
        if size > k.each or size > k.budget or (k.tiles - 1) * size < k.worth:
            return None
        tiles = _loaded_tiles(v)
        if tiles is None or any(self.exprs.depends_on_tile_id(x)
                                for t in tiles for x in (*t.indices, *t.symbol_operands)):
            return None
        return shape, tiles

    @op_type_rewrite_pattern
    def match_and_rewrite(self, v: ktdp.ConstructMemoryViewOp, rewriter: PatternRewriter) -> None:
        fn = v.parent_op()
        k = self.kernels.get(fn) if isinstance(fn, func.FuncOp) else None
        if k is None or v in k.shared or (got := self._qualifies(v, k, fn)) is None:
            return
        shape, tiles = got
        elem = v.result.type.element_type
        space = v.memory_space
        t = TensorType(elem, shape)
        addr, _ = k.slots.take(t)
        k.budget -= tensor_bytes(t)
        ct = _spread(len(k.shared), k.tiles)
        k.shared.append(v)
        at = InsertPoint.after(v)
        zero = AffineMap(0, 0, tuple(AffineExpr.constant(0) for _ in shape))
        ident = AffineMap.identity(len(shape))

        def tile_of(view: SSAValue) -> SSAValue:
            op = ktdp.ConstructAccessTileOp(view, [], zero, box_set(shape), ident,
                                            ktdp.AccessTileType(shape))
            op.location = v.location
            rewriter.insert(op, at)
            return op.result

        static = ktdp.ConstructMemoryViewOp(v.offset, shape, int_list(v.static_strides),
                                            MemRefType(elem, shape), space)
        static.location = v.location
        rewriter.insert(static, at)  # unmasked: the copy moves in blocks
        whole = ktdp.LoadOp(tile_of(static.result), t)
        rewriter.insert(whole, at)
        off = index_constant(addr)
        copy = ktdp.ConstructMemoryViewOp(off.result, shape, row_major(shape),
                                          MemRefType(elem, shape),
                                          MemorySpaceAttr(MemoryKind.CT_LOCAL, ct))
        copy.result.name_hint = f"{v.result.name_hint or 'shared'}_shared"
        for op in (off, copy):
            op.location = v.location
            rewriter.insert(op, at)
        store = ktdp.StoreOp(whole.results[0], tile_of(copy.result))
        store.location = v.location
        rewriter.insert(store, at)
        for tile in tiles:
            tile.operands[0] = copy.result


class ShareInvariantLoadsPass(ModulePass):
    """Read tensors every tile loads alike once into a scratchpad (see the module docstring);
    unchanged on devices without linked scratchpads and for kernels of one tile."""

    name = "share-invariant-loads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from arch_descriptions.model import device_from_module

        device = device_from_module(op)
        if device is None:
            return
        pad = device.scratchpad_kind()
        if pad is None or inter_core_unit(device, pad) is None:
            return
        capacity = device.memories[pad].size
        if capacity is None:  # a scratchpad of no stated size: no budget to share within
            return
        bandwidth = device.memories[device.global_memory_kind].bytes_per_cycle
        if bandwidth is None:  # each core has its own path: a second read costs no time
            return
        # the copy is a launch of its own (about a round trip); the reads it saves must take
        # the shared device memory longer than two of them
        worth = 2 * device.round_trip()[0] * bandwidth
        kernels: dict[func.FuncOp, _Kernel] = {}
        for fn in op.walk():
            if not isinstance(fn, func.FuncOp) or fn.is_declaration:
                continue
            grid = kernel_grid(fn.body.block.first_op) if fn.body.block.first_op else None
            tiles = math.prod(grid) if grid else 1
            if tiles > 1:
                kernels[fn] = _Kernel(tiles, Slots(reserved_end(op)), capacity // 4,
                                      capacity // 16, worth)
        if kernels:
            apply_patterns(op, [ShareInvariantLoad(kernels)])
