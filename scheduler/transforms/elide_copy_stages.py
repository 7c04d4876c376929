"""`elide-copy-stages`: a pipeline that only copies does not stream through the compute unit.

A KTIR copy (`ktdp.store (ktdp.load ...)`, as share-invariant-loads and the RFC copy kernels
write) becomes a pipeline whose compute stage forwards each vector unchanged, an identity
`linalg.generic`. After path-expansion and stage-coarsening its stages are

    DMA_IN    from %view[...] to %in[0]                   (a block into the scratchpad)
    LX_LOAD   scf.for %p { from %in[%p * 64] to %fifo_a }
    PE        scf.for %p { read %fifo_a; identity generic; write %fifo_b }
    LX_STORE  scf.for %p { from %fifo_b to %out[%p * 64] }
    RING      from %out[0] to %slot[...]                  (or DMA_OUT to device memory)

and the middle three only move %in to %out element by element. They go, and the last
stage reads %in: `RING from %in[0] to %slot[...]`, behind the first stage's token. On spyre
layer norm's copy of W and B into scratchpad slots takes 612 -> 413 cycles.

A chain is elided when the load, compute and store stages hold nothing but such chains
(their loops and constants), each chain's three loops have the same trip counts, the load
reads %in at the subscripts the store writes %out at (as functions of the loop indices),
the FIFOs are used by the chain alone, and %in and %out are private buffers of one type;
the pipeline runs L -> C -> S in a line. A RewritePattern on `ktdf.pipeline`; the emptied
private results (FIFOs, %out, the inner tokens) are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from scheduler.analysis.index_exprs import trip_count
from scheduler.dialects.ktdf import DataTransferOp, PipelineOp, PrivateOp, StageOp
from scheduler.dialects.ktdf_transfers import ReadFromFifoOp, WriteToFifoOp
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns, rebuild_private

_FRAME = (scf.ForOp, scf.YieldOp, arith.ConstantOp)


@dataclass
class _Chain:
    load: DataTransferOp    # %in[...] -> fifo_a
    store: DataTransferOp   # fifo_b -> %out[...]
    ops: list[Operation]    # read, empty, generic, write


def _loops(op: Operation, stage: StageOp) -> list[scf.ForOp]:
    out = []
    cur = op.parent_op()
    while cur is not None and cur is not stage:
        if not isinstance(cur, scf.ForOp):
            return []
        out.append(cur)
        cur = cur.parent_op()
    return out[::-1]


def _subscripts(t: DataTransferOp, side: str, loops: list[scf.ForOp]) -> list[AffineExpr] | None:
    """The side's subscripts over the loop indices (dims, outermost first), or None."""
    idx = list(t.source_indices if side == "source" else t.dest_indices)
    amap = t.source_map if side == "source" else t.dest_map
    ivs = [lp.body.block.args[0] for lp in loops]
    args: list[AffineExpr] = []
    for v in idx:
        if v in ivs:
            args.append(AffineExpr.dimension(ivs.index(v)))  # type: ignore[arg-type]
        elif (c := const_int(v)) is not None:
            args.append(AffineExpr.constant(c))
        else:
            return None
    exprs = list(amap.data.results) if amap is not None else [
        AffineExpr.dimension(k) for k in range(len(idx))]
    return [e.replace_dims_and_symbols(args, []) for e in exprs]


def _identity(g: Operation) -> bool:
    """A generic that yields its inputs, in order, through identity maps."""
    if not isinstance(g, linalg.GenericOp) or len(g.inputs) != len(g.outputs):
        return False
    y = g.body.block.last_op
    n = len(g.inputs)
    return (isinstance(y, linalg.YieldOp) and list(y.operands) == list(g.body.block.args[:n])
            and all(m.data == AffineMap.identity(m.data.num_dims)  # type: ignore[union-attr]
                    for m in g.indexing_maps))


def _chains(g: linalg.GenericOp, stages: tuple[StageOp, StageOp, StageOp]) -> list[_Chain] | None:
    """A chain per operand of the identity generic `g`, or None if one is not."""
    out = []
    for k, (x, e) in enumerate(zip(g.inputs, g.outputs)):
        c = _chain(x, e, g.results[k], g, stages)
        if c is None:
            return None
        out.append(c)
    return out


def _chain(x: SSAValue, e: SSAValue, res: SSAValue, g: Operation,
           stages: tuple[StageOp, StageOp, StageOp]) -> _Chain | None:
    L, C, S = stages
    r, empty = x.owner, e.owner
    if not isinstance(r, ReadFromFifoOp) or r.result.uses.get_length() != 1 \
            or not isinstance(empty, tensor.EmptyOp):
        return None
    wusers = [u.operation for u in res.uses]
    if len(wusers) != 1 or not isinstance(w := wusers[0], WriteToFifoOp):
        return None
    fa, fb = r.fifo_slot, w.fifo_slot
    la = [u.operation for u in fa.uses if u.operation is not r]
    sb = [u.operation for u in fb.uses if u.operation is not w]
    if len(la) != 1 or len(sb) != 1 or not isinstance(load := la[0], DataTransferOp) \
            or not isinstance(store := sb[0], DataTransferOp) or load.destination is not fa \
            or store.source is not fb or not load.source_is_memref or store.dest_is_fifo:
        return None
    if load.mask is not None or store.mask is not None or "transfer_mode" in load.attributes \
            or "transfer_mode" in store.attributes:
        return None
    lloops, cloops, sloops = _loops(load, L), _loops(r, C), _loops(store, S)
    trips = [[trip_count(lp) for lp in ls] for ls in (lloops, cloops, sloops)]
    if None in trips[0] or not (trips[0] == trips[1] == trips[2]) \
            or load.parent_op() is not (lloops[-1] if lloops else L) \
            or store.parent_op() is not (sloops[-1] if sloops else S):
        return None
    src, dst = _subscripts(load, "source", lloops), _subscripts(store, "dest", sloops)
    if src is None or src != dst or load.static_source_sizes != store.static_dest_sizes \
            or load.source_sizes or store.dest_sizes \
            or load.source.type != store.destination.type:
        return None
    return _Chain(load, store, [r, empty, g, w])


def _private_buffer(v: SSAValue, p: PipelineOp) -> bool:
    return p.private_op is not None and v.owner is p.private_op


class ElideCopyStages(RewritePattern):
    """Drop the load / identity / store stages of a copy pipeline (see the module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, p: PipelineOp, rewriter: PatternRewriter) -> None:
        stages = p.stages
        for k in range(len(stages) - 3):
            L, C, S, D = stages[k:k + 4]
            if list(L.depends_out) != list(C.depends_in) or list(C.depends_out) != list(
                    S.depends_in) or list(S.depends_out) != list(D.depends_in):
                continue
            generics = [op for op in C.body.block.walk() if isinstance(op, linalg.GenericOp)]
            found = [_chains(g, (L, C, S)) if _identity(g) else None for g in generics]
            if not found or any(f is None for f in found):
                continue
            chains = [c for f in found for c in f]  # type: ignore[union-attr]
            inside = {op for c in chains for op in (c.load, c.store, *c.ops)}
            if any(op not in inside and not isinstance(op, _FRAME)
                   and op.parent_op() not in inside  # the generics' yields
                   for st in (L, C, S) for op in st.body.block.walk() if op is not st):
                continue
            pairs = [(c.load.source, c.store.destination) for c in chains]
            if not all(_private_buffer(a, p) and _private_buffer(b, p)
                       and all(u.operation is c.store or u.index == 0 for u in b.uses)
                       for (a, b), c in zip(pairs, chains)):
                continue
            self._elide(p, (L, C, S, D), chains, rewriter)
            return

    @staticmethod
    def _elide(p: PipelineOp, stages: tuple[StageOp, ...], chains: list[_Chain],
               rewriter: PatternRewriter) -> None:
        L, C, S, D = stages
        for c in chains:
            out = c.store.destination
            rewriter.erase(c.store)
            rewriter.replace_all_uses_with(out, c.load.source)
        body = D.body
        D.detach_region(body)
        last = StageOp(list(L.depends_in), list(D.depends_out), body)
        last.attributes.update(D.attributes)
        rewriter.replace(D, last)
        for st in (S, C, L):
            rewriter.erase(st, safe_erase=False)
        priv = p.private_op
        assert isinstance(priv, PrivateOp)
        keep = [i for i, r in enumerate(priv.res) if r.uses]
        values = [priv.yield_op.values[i] for i in keep]
        new = rebuild_private(priv, values, [], rewriter, keep_uses=lambda i: False)
        for j, i in enumerate(keep):
            rewriter.replace_all_uses_with(priv.res[i], new.res[j])
        rewriter.erase(priv)
        y = new.yield_op
        for op in list(new.body.block.ops)[::-1]:
            if op is not y and not any(r.uses for r in op.results) and not op.regions:
                rewriter.erase(op)


class ElideCopyStagesPass(ModulePass):
    """Copy pipelines skip the compute unit (see the module docstring)."""

    name = "elide-copy-stages"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [ElideCopyStages()])
