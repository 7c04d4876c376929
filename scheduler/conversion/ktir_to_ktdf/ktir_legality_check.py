"""`ktir-legality-check`: say precisely which op puts a kernel outside what the scheduler
handles, and why. Mutates nothing.

The accepted subset is what the rest of the pipeline lowers end to end (the table in
`scheduler.analysis.compute_ops` is shared with the DataflowIR lowering):
views of static shape over `global` or `ct_local` memory whose coordinate set is their box,
access tiles over boxes in identity order that provably stay inside their view, loads and
stores, element-wise compute (named linalg ops, `linalg.generic` with parallel iterators and
broadcasting maps, `arith` on tensors), index arithmetic, `scf.if` whose condition does not
depend on the compute tile, and `scf.for` with the same bounds on every tile and no carried
values (normalize-tile-loops and unroll-carried-loops run first and leave only the loops they
cannot rewrite: the message says why).
"""

from __future__ import annotations

from typing import NoReturn

from xdsl.context import Context
from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap, AffineSet
from xdsl.passes import ModulePass

from ktir import affine
from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import int_list
from scheduler.analysis.compute_ops import ELEMENTWISE, NAMED_LINALG, supported_list
from scheduler.analysis.index_exprs import IndexExprs
from scheduler.transforms.normalize_tile_loops import tile_trip_counts
from scheduler.transforms.unroll_carried_loops import MAX_TRIPS, trip_range

_NOT_YET = "not supported by the scheduler yet"
_NO_LOWERING = f"no DataflowIR lowering yet (supported element-wise ops: {supported_list()})"

_UNSUPPORTED_KTDP = {
    ktdp.ConstructDistributedMemoryViewOp: "distributed memory views",
    ktdp.ConstructIndirectAccessTileOp: "indirect access tiles",
    ktdp.InterTileProduceOp: "inter-tile communication",
    ktdp.InterTileReduceOp: "inter-tile communication",
    ktdp.InterTileConsumeOp: "inter-tile communication",
    ktdp.RuntimeArgExtractOp: "runtime arguments (dynamic shapes)",
}

_INDEX_ARITH = (arith.ConstantOp, arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivSIOp,
                arith.DivUIOp, arith.RemSIOp, arith.RemUIOp, arith.FloorDivSIOp,
                arith.CeilDivSIOp, arith.MinSIOp, arith.MaxSIOp, arith.MinUIOp,
                arith.MaxUIOp, arith.IndexCastOp, arith.CmpiOp, arith.SelectOp)


def _fail(op: Operation, message: str) -> NoReturn:
    raise op_error(op, message)


def _is_box_of(aset: AffineSet, sizes: list[int]) -> bool:
    return affine.is_box(aset) and affine.dim_bounds(aset) == [(0, s - 1) for s in sizes]


class _KernelChecker:
    def __init__(self, fn: func.FuncOp):
        self.fn = fn
        self.exprs = IndexExprs()

    def run(self) -> None:
        for op in self.fn.body.walk():
            self.check(op)

    def check(self, op: Operation) -> None:
        for cls, what in _UNSUPPORTED_KTDP.items():
            if isinstance(op, cls):
                _fail(op, f"{what}: {_NOT_YET}")
        if isinstance(op, ktdp.ConstructMemoryViewOp):
            self.check_view(op)
        elif isinstance(op, ktdp.ConstructAccessTileOp):
            self.check_tile(op)
        elif isinstance(op, ktdp.LoadOp | ktdp.StoreOp):
            if not isinstance(op.tile.owner, ktdp.ConstructAccessTileOp):
                _fail(op, "the tile must come from ktdp.construct_access_tile")
        elif isinstance(op, scf.ForOp):
            self.check_for(op)
        elif isinstance(op, scf.IfOp):
            if self.exprs.depends_on_tile_id(op.cond):
                _fail(op, f"control flow that depends on the compute tile id: {_NOT_YET}")
            if op.results:
                _fail(op, f"scf.if with results: {_NOT_YET}")
        elif isinstance(op, scf.WhileOp):
            _fail(op, f"scf.while loops: {_NOT_YET}")
        elif isinstance(op, linalg.GenericOp):
            self.check_generic(op)
        elif op.name in NAMED_LINALG or isinstance(op, linalg.YieldOp | linalg.BroadcastOp
                                                   | tensor.EmptyOp):
            pass
        elif op.dialect_name() == "linalg":
            _fail(op, _NO_LOWERING)
        elif isinstance(op, arith.ConstantOp):
            self.check_constant(op)
        elif op.dialect_name() == "arith":
            self.check_arith(op)
        elif op.dialect_name() in ("math", "spyreop"):
            _fail(op, _NO_LOWERING)
        elif op.dialect_name() == "tensor":
            _fail(op, _NOT_YET)
        elif op.dialect_name() in ("ktdp", "scf", "func"):
            pass
        else:
            _fail(op, f"{_NOT_YET} in a kernel")

    def check_for(self, op: scf.ForOp) -> None:
        """What normalize-tile-loops and unroll-carried-loops left: say why they could not."""
        if any(self.exprs.depends_on_tile_id(v) for v in (op.lb, op.ub, op.step)):
            counts = tile_trip_counts(op)
            if counts is None:
                why = ("they depend on more than the tile id and constants (scalar "
                       "arguments can be bound with --arg)")
            else:
                t0 = min(counts)
                t1 = next(t for t in sorted(counts) if counts[t] != counts[t0])
                why = (f"the trip count differs between tiles (tile {t0}: "
                       f"{counts[t0]}, tile {t1}: {counts[t1]}), and the host runs "
                       "loops once for all tiles")
            _fail(op, f"loop bounds that depend on the compute tile id: {why}: {_NOT_YET}")
        if op.iter_args:
            trips = trip_range(op)
            if trips is not None and len(trips) <= MAX_TRIPS:
                _fail(op, "scf.for with loop-carried values (iter_args): run "
                          "unroll-carried-loops before this check (the pipeline does)")
            if trips is None:
                why = ("its trip count is not known at compile time (bind the scalar "
                       "arguments its bounds read with --arg)")
            else:
                why = f"it has {len(trips)} iterations, more than the {MAX_TRIPS} unrolled"
            _fail(op, "scf.for with loop-carried values (iter_args) is unrolled, but "
                      f"{why}: {_NOT_YET}")

    def check_view(self, op: ktdp.ConstructMemoryViewOp) -> None:
        space = op.memory_space
        if isinstance(space, ktdp.SpyreMemorySpaceAttr):
            _fail(op, f"memory space '{space.kind.data}' is not decided; use "
                      "#ktdp.memory_space<global> or <ct_local>")
        assert isinstance(space, ktdp.MemorySpaceAttr)
        if space.ct_id.data >= 0:
            _fail(op, f"views of another tile's scratchpad (ct_id): {_NOT_YET}")
        if op.sizes or op.strides:
            _fail(op, f"views with dynamic sizes or strides: {_NOT_YET}")
        sizes = int_list(op.static_sizes)
        if not _is_box_of(op.coordinate_set.data, sizes):
            _fail(op, f"a coordinate_set other than the box [0, size) of the view: {_NOT_YET} "
                      "(masked accesses)")

    def check_tile(self, op: ktdp.ConstructAccessTileOp) -> None:
        view = op.base.owner
        if not isinstance(view, ktdp.ConstructMemoryViewOp):
            _fail(op, "the tile's base must be a ktdp.construct_memory_view "
                      f"({'a tensor' if isinstance(op.base.type, TensorType) else 'other'} "
                      f"bases: {_NOT_YET})")
        if op.symbol_operands:
            _fail(op, f"access tiles with symbolic extents: {_NOT_YET}")
        aset, order = op.access_tile_set.data, op.access_tile_order.data
        if not affine.is_box(aset):
            _fail(op, f"access tiles over non-box sets (holes): {_NOT_YET}")
        if order != AffineMap.identity(aset.num_dims):
            _fail(op, f"access_tile_order other than the identity: {_NOT_YET}")
        sizes = int_list(view.static_sizes)
        bounds = affine.dim_bounds(aset)
        args = [self.exprs.expr(v) for v in op.indices]
        if any(a is None for a in args):
            _fail(op, "the tile's subscripts are not affine in the tile id and loop indices")
        for d, sub in enumerate(op.base_map.data.results):
            e = sub.replace_dims_and_symbols(args, [])
            lo, hi = self.exprs.range_of(e)
            blo, bhi = bounds[d]
            assert blo is not None
            assert bhi is not None
            if lo is None or hi is None or lo + blo < 0 or hi + bhi > sizes[d] - 1:
                got = f"[{_fmt(lo, blo)}, {_fmt(hi, bhi)}]"
                _fail(op, f"cannot prove that dimension {d} of the tile stays inside the view "
                          f"(reaches {got}, view is [0, {sizes[d] - 1}]): masked accesses are "
                          f"{_NOT_YET}")

    def check_generic(self, op: linalg.GenericOp) -> None:
        for it in op.iterator_types.data:
            if it.data.value != "parallel":
                _fail(op, f"linalg.generic with reduction iterators: {_NOT_YET}")
        for m in op.indexing_maps.data:
            if not m.data.is_projected_permutation(allow_zero_in_results=True):
                _fail(op, "linalg.generic indexing maps must be projected permutations "
                          "(broadcasts allowed)")
        for body_op in op.body.block.ops:
            if isinstance(body_op, linalg.YieldOp | arith.ConstantOp):
                continue
            if body_op.name not in ELEMENTWISE:
                _fail(body_op, _NO_LOWERING)

    def check_constant(self, op: arith.ConstantOp) -> None:
        v = op.value
        if isinstance(v, DenseIntOrFPElementsAttr) and not v.is_splat():
            _fail(op, f"non-splat tensor constants: {_NOT_YET}")

    def check_arith(self, op: Operation) -> None:
        types = [v.type for v in (*op.operands, *op.results)]
        if all(isinstance(t, IndexType | IntegerType) for t in types):
            if not isinstance(op, _INDEX_ARITH):
                _fail(op, f"'{op.name}' on integers: {_NOT_YET}")
            return
        if op.name not in ELEMENTWISE:
            _fail(op, _NO_LOWERING)


def _fmt(x: int | None, off: int) -> str:
    return "?" if x is None else str(x + off)


def check_module(module: ModuleOp) -> None:
    """Raise a located `KtirDiagnostic` at the first op outside the supported subset."""
    for op in module.walk():
        if isinstance(op, func.FuncOp) and not op.is_declaration:
            _KernelChecker(op).run()


class KtirLegalityCheckPass(ModulePass):
    """Reject, at the first offending op, a kernel the scheduler cannot lower.

    Accepts (and leaves untouched) e.g.
        %v = ktdp.construct_memory_view %A, sizes: [96, 64], ... : memref<96x64xf16>
        %t = ktdp.construct_access_tile %v[%row0, %c0] ... -> !ktdp.access_tile<3x64xindex>
        %c = linalg.add ins(%a, %b ...) outs(...)
    and stops with e.g.
        k.mlir:7:5: error: 'ktdp.construct_indirect_access_tile' op indirect access tiles
        is not supported by the scheduler yet

    A module pass, not patterns: it is an analysis that changes nothing and reports the first
    offending op in program order, with what it knows of the whole function (the ranges of
    the tile ids and loop indices an access reaches).
    """

    name = "ktir-legality-check"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_module(op)
