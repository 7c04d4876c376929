"""`tile-size-selection`: replace each `ktdf.tiling.reserve_size` by a constant that
divides the trip counts it tiles, chosen by a cost model.

`tile-scf-for-loops` leaves every tile size open; this pass, once the schedule around the
nest is final (after `parallelize-loops-across-instances`, upstream's place), decides them:

    %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %n = arith.ceildivui %c12, %ts : index
    scf.for %t = %c0 to %n step %c1 {
      %s = ktdf.tiling.derive_size [%t : %ts], total_size = %c12 : index ...
becomes (size 12)
    %ts = arith.constant 12 : index
    %n = arith.constant 1 : index
    scf.for %t = %c0 to %n step %c1 {
      %s = arith.constant 12 : index ...

The loops a size tiles are found as upstream finds them: `arith.ceildivui %total, %ts`
bounding an `scf.for`. A candidate size is at least the op's `min_value`, a multiple of its
`divisibility` and divides every total (no partial tile: the loop bounds, `ceildivui` and
`derive_size` then fold to constants, which the backend needs). Upstream tries 2, then 1
(its "tile sizes at most 2" limit); here every candidate is weighed:

* capacity: a buffer allocated with a reserved size among its dynamic sizes
  (`memref.alloc(%ts0, %ts1) : memref<?x?x64xf16, "L1">`, upstream's form for a buffer that
  grows with the tile) takes the product of its sizes times the element size; twice that
  (two copies, double buffering) summed over the buffers of a memory must fit half of the
  memory's `size` (stage-coarsening's budget). Sizes tied by a buffer are chosen together.
* timing: a tile pays a handshake (twice the device's `signal_latency`) and the latency of
  the slowest route among the transfers under the tiled loops (the `latency` of the
  datapaths into and out of the stage's unit); the bytes of all tiles over the route's
  narrowest `bytes_per_cycle` are the same for every candidate. Predicted cycles = tiles x
  (handshake + latency) + bytes / bandwidth, so the largest tile that fits wins. FIFO depths
  do not enter: a tile is not in flight at once, its vectors stream through the FIFOs
  whatever their number. On a tie, the larger tile, then the smaller outer sizes (whole
  inner rows).

The tile counts and the tile extents fold to constants. An index rebuilt by
`linearize_index` stays for the transfer subscripts that read it (subsume-linearize-index
folds it into their maps) and becomes `arith.muli` / `arith.addi` for any other reader (the
backend lowers no `linearize_index`).

Checked against the emulator (tests/scheduler/transforms/test_tile_size_selection.py): on
the nests tile-scf-for-loops tiles (stream_device's element-wise kernels) every size gives
the same emulated cycles, the point loops being outside the pipeline (see that pass), so the
chosen size is no worse than any other; the capacity bound is what decides on
upstream-form nests with tile-sized buffers (filecheck/scheduler/transforms/
tile-size-selection). Not an optimisation by itself (it is required once sizes are
reserved: the backend lowers no `reserve_size`), hence not in OPTIMISATIONS.

A size that tiles no loop, or that no candidate satisfies, is a located error. A
RewritePattern on `reserve_size` (the first of the group of sizes a buffer ties together
resolves the group). Idempotent: no `reserve_size` is left.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ktir.diagnostics import op_error
from scheduler.analysis.device import device_of
from scheduler.analysis.index_exprs import index_constant
from scheduler.dialects.ktdf import (
    DataTransferOp,
    FifoSlotType,
    StageOp,
    TilingDeriveSizeOp,
    TilingLinearizeIndexOp,
    TilingReserveSizeOp,
    enclosing_stage,
)
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns, replace_keeping_names
from scheduler.transforms.normalize_scf_for_loops import subscript_positions

MAX_COMBINATIONS = 4096  # joint candidates weighed for one group; beyond it, each size alone


@dataclass
class Reserved:
    """One reserved size: the loops it tiles and the buffers that grow with it."""

    op: TilingReserveSizeOp
    counts: list[arith.CeilDivUIOp] = field(default_factory=list)  # bound a tile loop
    totals: list[int] = field(default_factory=list)
    loops: list[scf.ForOp] = field(default_factory=list)
    allocs: list[memref.AllocOp] = field(default_factory=list)

    @property
    def candidates(self) -> list[int]:
        g = math.gcd(*self.totals)
        return [d for d in range(1, g + 1) if g % d == 0 and d >= self.op.min_value
                and d % self.op.divisibility == 0]


def analyse(r: TilingReserveSizeOp) -> Reserved:
    """The loops `r` tiles (a `ceildivui` of a constant total by it bounding an `scf.for`)
    and the allocs it sizes; located errors for what cannot be resolved."""
    info = Reserved(r)
    for use in r.result.uses:
        op = use.operation
        if isinstance(op, arith.CeilDivUIOp):
            total = const_int(op.lhs)
            if op.rhs is not r.result or total is None:
                raise op_error(r, "tile-size-selection: a reserved tile size must divide a "
                               "constant trip count (arith.ceildivui %total, %size)")
            loops = [u.operation for u in op.result.uses
                     if isinstance(u.operation, scf.ForOp) and u.operation.ub is op.result]
            if loops:
                info.counts.append(op)
                info.totals.append(total)
                info.loops += loops  # type: ignore[arg-type]
        elif isinstance(op, memref.AllocOp):
            info.allocs.append(op)
    if not info.loops:
        raise op_error(r, "tile-size-selection: this reserved tile size bounds no loop "
                       "(expected arith.ceildivui %total, %size as an scf.for upper bound)")
    if not info.candidates:
        raise op_error(r, f"tile-size-selection: no tile size of at least {r.min_value}, "
                       f"a multiple of {r.divisibility}, divides the trip count(s) "
                       f"{', '.join(map(str, info.totals))}")
    return info


def group_of(r: TilingReserveSizeOp) -> list[TilingReserveSizeOp]:
    """`r` and the sizes tied to it through buffers, transitively, in program order."""
    seen = [r]
    for cur in seen:
        for use in cur.result.uses:
            if isinstance(use.operation, memref.AllocOp):
                for v in use.operation.dynamic_sizes:
                    o = v.owner
                    if isinstance(o, TilingReserveSizeOp) and o not in seen:
                        seen.append(o)
    return seen


def _bytes(alloc: memref.AllocOp, sizes: dict[SSAValue, int]) -> int:
    from arch_descriptions.model.device import element_bits

    t = alloc.memref.type
    assert isinstance(t, MemRefType)
    dyn = iter(alloc.dynamic_sizes)
    n = 1
    for d in t.get_shape():
        if d < 0:
            v = next(dyn)
            d = sizes.get(v, const_int(v) or 1)
        n *= d
    return n * max(1, (element_bits(str(t.element_type)) or 16) // 8)


def fits(group: list[Reserved], sizes: dict[SSAValue, int], device) -> bool:
    """The capacity rule of the module docstring."""
    need: dict[str, int] = {}
    allocs = {a for g in group for a in g.allocs}
    for a in allocs:
        space = a.memref.type.memory_space  # type: ignore[union-attr]
        if isinstance(space, StringAttr):
            need[space.data] = need.get(space.data, 0) + 2 * _bytes(a, sizes)
    for kind, nbytes in need.items():
        mem = device.memories.get(kind)
        if mem is not None and mem.size is not None and nbytes > mem.size // 2:
            return False
    return True


def _kind(v: SSAValue) -> str | None:
    t = v.type
    if isinstance(t, MemRefType) and isinstance(t.memory_space, StringAttr):
        return t.memory_space.data
    return None


def route_timing(loops: list[scf.ForOp], device) -> tuple[int, float]:
    """(latency, bytes per cycle) of the slowest route of the transfers under `loops`."""
    latency, bpc = 0, math.inf
    for loop in loops:
        for t in loop.body.walk():
            if not isinstance(t, DataTransferOp):
                continue
            stage = enclosing_stage(t)
            unit = stage.applicable_units[0] if isinstance(stage, StageOp) and \
                stage.applicable_units else None
            if unit is None:
                continue
            ends = []
            for v, into in ((t.source, True), (t.destination, False)):
                ft = v.type
                other = (ft.src.data if into else ft.dst.data) if isinstance(
                    ft, FifoSlotType) else _kind(v)
                if other is not None:
                    ends.append(device.datapath(other, unit) if into else
                                device.datapath(unit, other))
            dps = [dp for dp in ends if dp is not None]
            latency = max(latency, sum(dp.latency for dp in dps))
            bpc = min([bpc, *(dp.bytes_per_cycle for dp in dps)])
    return latency, (bpc if bpc != math.inf else 1.0)


def predicted_cycles(group: list[Reserved], sizes: dict[SSAValue, int], device) -> float:
    """The timing rule of the module docstring for the nests of `group`."""
    loops = [lp for g in group for lp in g.loops]
    latency, bpc = route_timing(loops, device)
    tiles = math.prod(t // sizes[g.op.result] for g in group for t in g.totals[:1])
    total_bytes = sum(_bytes(a, {g.op.result: max(g.totals) for g in group})
                      for a in {a for g in group for a in g.allocs})
    return tiles * (2 * device.signal_latency + latency) + total_bytes / bpc


def choose_sizes(group: list[Reserved], device) -> dict[SSAValue, int]:
    """The fitting candidate sizes of the least predicted cycles (on a tie the largest
    tile, then the first in order: smaller outer sizes); the smallest sizes when nothing
    fits (address-assignment then names the buffers that overflow)."""
    lists = [g.candidates for g in group]
    if math.prod(len(c) for c in lists) > MAX_COMBINATIONS:
        return {k: v for g in group for k, v in choose_sizes([g], device).items()}
    best: tuple[float, int] | None = None
    out = {g.op.result: c[0] for g, c in zip(group, lists)}
    for combo in itertools.product(*lists):
        sizes = {g.op.result: s for g, s in zip(group, combo)}
        if not fits(group, sizes, device):
            continue
        key = (predicted_cycles(group, sizes, device), -math.prod(combo))
        if best is None or key < best:
            best, out = key, sizes
    return out


def _fold_derive(d: TilingDeriveSizeOp) -> int | None:
    """The extent of every tile when all its sizes are constants, each dividing the
    previous one and the first dividing the total; None otherwise."""
    outer = const_int(d.total_size)
    sizes = [const_int(s) for s in d.tile_sizes]
    if outer is None or any(s is None for s in sizes):
        return None
    for s in sizes:
        if outer % s:  # type: ignore[operator]
            return None
        outer = s
    return outer


def resolve(group: list[Reserved], sizes: dict[SSAValue, int],
            rewriter: PatternRewriter) -> None:
    """Each reserved size a constant; its tile counts and tile extents folded."""
    for g in group:
        s = sizes[g.op.result]
        derives = {u.operation for u in g.op.result.uses
                   if isinstance(u.operation, TilingDeriveSizeOp)}
        c = index_constant(s)
        replace_keeping_names(rewriter, g.op, [c])
        for count, total in zip(g.counts, g.totals):
            replace_keeping_names(rewriter, count, [index_constant(total // s)])
        for d in derives:
            assert isinstance(d, TilingDeriveSizeOp)
            if (n := _fold_derive(d)) is not None:
                replace_keeping_names(rewriter, d, [index_constant(n)])
        for lin in {u.operation for u in c.result.uses
                    if isinstance(u.operation, TilingLinearizeIndexOp)}:
            assert isinstance(lin, TilingLinearizeIndexOp)
            _expand_other_uses(lin, rewriter)


def _expand_other_uses(lin: TilingLinearizeIndexOp, rewriter: PatternRewriter) -> None:
    """The index `lin` rebuilds, as `arith` for every reader but a transfer subscript
    (subsume-linearize-index folds those into the maps; the backend lowers no
    `linearize_index`), once its strides are constants; `lin` goes when nothing is left
    reading it."""
    strides = [const_int(v) for v in lin.strides]
    others = [u for u in lin.result.uses if not (isinstance(u.operation, DataTransferOp)
                                                 and u.index in subscript_positions(u.operation))]
    if any(s is None for s in strides) or not others:
        return
    ops: list[Operation] = []
    acc: SSAValue | None = None
    for iv, stride in zip(lin.ivs, lin.strides):
        term = iv
        if const_int(stride) != 1:
            ops.append(mul := arith.MuliOp(iv, stride))
            term = mul.result
        if acc is not None:
            ops.append(add := arith.AddiOp(acc, term))
            term = add.result
        acc = term
    assert acc is not None
    if ops:  # else one pair of stride 1: the index is that iv
        rewriter.insert(ops, InsertPoint.before(lin))
        acc.name_hint = lin.result.name_hint
    for use in others:
        use.operation.operands[use.index] = acc
        rewriter.notify_op_modified(use.operation)
    if not lin.result.uses:
        rewriter.erase(lin)


class SelectTileSize(RewritePattern):
    """A reserved size (with the sizes a buffer ties to it): the cost model's constant."""

    def __init__(self, device):
        self.device = device

    @op_type_rewrite_pattern
    def match_and_rewrite(self, r: TilingReserveSizeOp, rewriter: PatternRewriter) -> None:
        group = [analyse(o) for o in group_of(r)]
        resolve(group, choose_sizes(group, self.device), rewriter)


class TileSizeSelectionPass(ModulePass):
    """Constant tile sizes for the reserved ones (see the module docstring).

    Before:  %ts = ktdf.tiling.reserve_size; %n = arith.ceildivui %c12, %ts; scf.for .. to %n
    After:   %ts = arith.constant 12; %n = arith.constant 1; scf.for .. to %n
    Idempotent: no reserve_size is left.
    """

    name = "tile-size-selection"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [SelectTileSize(device_of(op, self.name))])

