"""`ktir-legality-check`: say precisely which op puts a kernel outside what the scheduler
handles, and why. Mutates nothing.

The accepted subset is what the rest of the pipeline lowers end to end (the table in
`scheduler.analysis.compute_ops` is shared with the DataflowIR lowering):
views over `global` or `ct_local` memory (the executing tile's scratchpad or, with `ct_id`,
a given tile's: path-expansion routes those over the device's inter-core unit) with static
strides whose coordinate set is their
box — or, masked (`scheduler.analysis.masks`), views of dynamic size (`sizes: [%n]`) or with a
box-shaped coordinate set inside their shape —, runtime arguments, access tiles over boxes in
identity order (masked where they cannot be proven inside their view), indirect access
tiles over memory views (gathers and scatters; `check_indirect_tile`), loads and stores, element-wise compute (`compute_ops.unsupported`: the arith/math/spyreop ops of its
table on f16/bf16/f32/i8/i16/i32 tensors, named linalg ops, `linalg.generic` with parallel
iterators and broadcasting maps, and the ops that move elements: fill, broadcast, transpose,
splat, extract, unit-dimension reshapes, static slices), index arithmetic,
`scf.if` whose condition does not depend on the compute tile, and `scf.for` with the same trip
count on every tile and no carried values (normalize-tile-loops and unroll-carried-loops run
first and leave only the loops they cannot rewrite: the message says why).
"""

from __future__ import annotations

from typing import NoReturn

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    IndexType,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from ktir import affine
from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from scheduler.analysis import masks
from scheduler.analysis.compute_ops import SCALAR_OPS, unsupported
from scheduler.analysis.index_exprs import IndexExprs
from scheduler.transforms.normalize_tile_loops import tail_refusal, tile_trip_counts
from scheduler.transforms.unroll_carried_loops import MAX_TRIPS, trip_range

_NOT_YET = "not supported by the scheduler yet"

_UNSUPPORTED_KTDP = {
    ktdp.ConstructDistributedMemoryViewOp: "distributed memory views other than loads of an "
                                           "element-wise store (split-distributed-views "
                                           "splits those per piece)",
    ktdp.InterTileProduceOp: "inter-tile communication left for this check (inter-tile-exchange "
                             "lowers it first)",
    ktdp.InterTileReduceOp: "inter-tile communication left for this check (inter-tile-exchange "
                            "lowers it first)",
    ktdp.InterTileConsumeOp: "inter-tile communication left for this check (inter-tile-exchange "
                             "lowers it first)",
}

_INDEX_ARITH = (arith.ConstantOp, arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivSIOp,
                arith.DivUIOp, arith.RemSIOp, arith.RemUIOp, arith.FloorDivSIOp,
                arith.CeilDivSIOp, arith.MinSIOp, arith.MaxSIOp, arith.MinUIOp,
                arith.MaxUIOp, arith.IndexCastOp, arith.CmpiOp, arith.SelectOp)


def _fail(op: Operation, message: str) -> NoReturn:
    raise op_error(op, message)


class _KernelChecker:
    def __init__(self, fn: func.FuncOp):
        self.fn = fn
        self.exprs = IndexExprs()

    def run(self) -> None:
        for op in self.fn.body.walk():
            self.check(op)

    def check(self, op: Operation) -> None:
        if isinstance(op, ktdp.ConstructDistributedMemoryViewOp) and not op.result.uses:
            return  # a view nothing reads (upstream's basic-runtime-arg): dead code
        for cls, what in _UNSUPPORTED_KTDP.items():
            if isinstance(op, cls):
                _fail(op, f"{what}: {_NOT_YET}")
        if isinstance(op, ktdp.ConstructMemoryViewOp):
            self.check_view(op)
        elif isinstance(op, ktdp.ConstructAccessTileOp):
            self.check_tile(op)
        elif isinstance(op, ktdp.ConstructIndirectAccessTileOp):
            self.check_indirect_tile(op)
        elif isinstance(op, ktdp.LoadOp | ktdp.StoreOp):
            tile = op.tile.owner
            if not isinstance(tile, ktdp.ConstructAccessTileOp
                              | ktdp.ConstructIndirectAccessTileOp):
                _fail(op, "the tile must come from ktdp.construct_access_tile or "
                          "ktdp.construct_indirect_access_tile")
        elif isinstance(op, scf.ForOp):
            self.check_for(op)
        elif isinstance(op, scf.IfOp):
            if self.exprs.depends_on_tile_id(op.cond):
                _fail(op, f"control flow that depends on the compute tile id: {_NOT_YET}")
            if op.results:
                _fail(op, f"scf.if with results: {_NOT_YET}")
        elif isinstance(op, scf.WhileOp):
            _fail(op, f"scf.while loops: {_NOT_YET}")
        elif op.dialect_name() in ("linalg", "tensor", "math", "spyreop"):
            self.check_compute(op)
        elif op.dialect_name() == "arith":
            self.check_arith(op)
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
                t1 = next((t for t in sorted(counts) if counts[t] != counts[t0]), t0)
                differ = (f"the trip count differs between tiles (tile {t0}: "
                          f"{counts[t0]}, tile {t1}: {counts[t1]})" if t1 != t0 else
                          f"the trip count is {counts[t0]} on every tile")
                tail = tail_refusal(op) if t1 != t0 else None
                if tail is None:
                    _fail(op, f"loop bounds that depend on the compute tile id: {differ}; "
                              "run normalize-tile-loops before this check (the pipeline "
                              "does): it runs the largest count on every tile")
                why = (f"{differ}, and the host runs loops once for all tiles: the largest "
                       "count could run on every tile with the extra iterations masked off, "
                       f"but {tail}")
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
        why = masks.view_unsupported(op)
        if why is not None:
            _fail(op, why)

    def check_tile(self, op: ktdp.ConstructAccessTileOp) -> None:
        view = op.base.owner
        if not isinstance(view, ktdp.ConstructMemoryViewOp):
            _fail(op, "the tile's base must be a ktdp.construct_memory_view "
                      f"({'a tensor' if isinstance(op.base.type, TensorType) else 'other'} "
                      f"bases: {_NOT_YET})")
        if any(d < 0 for d in op.result.type.get_shape()):
            _fail(op, f"access tiles of dynamic shape: {_NOT_YET}")
        aset, order = op.access_tile_set.data, op.access_tile_order.data
        if not affine.is_box(aset):
            _fail(op, f"access tiles over non-box sets (holes): {_NOT_YET}")
        if order != AffineMap.identity(aset.num_dims):
            _fail(op, f"access_tile_order other than the identity: {_NOT_YET}")
        # a tile not provably inside its view is masked (construct-three-stage-pipeline)

    def check_indirect_tile(self, op: ktdp.ConstructIndirectAccessTileOp) -> None:
        """Gathers from and scatters into a memory view: the index views are memory views
        too (staged into the scratchpad by path-expansion), the variable space a static box
        in identity order. Whether the indirect subscripts suit the vector is decided with
        the vector, in construct-three-stage-pipeline."""
        for v in (op.base, *op.indirect_memrefs):
            if not isinstance(v.owner, ktdp.ConstructMemoryViewOp):
                _fail(op, "the base and index views of an indirect tile must be "
                          f"ktdp.construct_memory_view results (other views: {_NOT_YET})")
        if op.symbol_operands:
            _fail(op, f"indirect tiles with symbols: {_NOT_YET}")
        if any(d < 0 for d in op.result.type.get_shape()):
            _fail(op, f"indirect access tiles of dynamic shape: {_NOT_YET}")
        aset, order = op.variables_space_set.data, op.variables_space_order.data
        if not affine.is_box(aset):
            _fail(op, f"indirect access tiles over non-box variable spaces: {_NOT_YET}")
        if order != AffineMap.identity(aset.num_dims):
            _fail(op, f"variables_space_order other than the identity: {_NOT_YET}")

    def check_compute(self, op: Operation) -> None:
        """Element-wise compute: the table shared with the lowering decides."""
        why = unsupported(op)
        if why is not None:
            _fail(op, why)

    def check_arith(self, op: Operation) -> None:
        types = [v.type for v in (*op.operands, *op.results)]
        if all(isinstance(t, IndexType | IntegerType) for t in types):
            if not isinstance(op, _INDEX_ARITH) and (op.name not in SCALAR_OPS
                                                     or unsupported(op) is not None):
                _fail(op, f"'{op.name}' on integers: {_NOT_YET}")
            return
        self.check_compute(op)


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
        k.mlir:7:5: error: 'scf.while' op scf.while loops: not supported by the scheduler
        yet

    A module pass, not patterns: it is an analysis that changes nothing and reports the first
    offending op in program order, with what it knows of the whole function (the ranges of
    the tile ids and loop indices an access reaches).
    """

    name = "ktir-legality-check"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_module(op)
