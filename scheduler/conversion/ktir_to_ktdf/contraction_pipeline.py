"""The Load -> Compute -> Store pipeline of a contraction group on a matrix engine.

`construct-three-stage-pipeline` hands a fused group with reductions here first when the
device's compute unit has a matrix engine (`ktdf_arch.feature.matrix`). The group qualifies
when every reduction is a contraction as `generalize-contractions` writes a matmul (iteration
space (m, k, n), A[m, k] and B[k, n] loaded, their product summed from 0 over k, of input types
the engine takes) and what is stored is an element-wise function of the contractions' results
(the kernel's rounding to f16 and its accumulator chain: the K loop of matmul_fwd_ktir,
unrolled by `unroll-carried-loops`, is one contraction per k step). Anything else goes to the
SIMD `ReductionBuilder` unchanged.

The builder works on the generic rather than on `linalg.matmul` because that is where the
K loop is visible: after unrolling, the k steps, their loads and the accumulator chain are
one fused group, which is what an output-stationary schedule needs to see whole.

Output-stationary: one pipeline instance per output block Mt x Nb (Mt the stored tile's
rows, Nb the widest divisor of its columns that is a multiple of the engine's columns and
whose operands, for every k step, fit half the scratchpad, so double-buffering can rotate
two instances; when that block is narrower than the tile, so that every instance reads the
tile's rows of A again, the widest block that fits the whole scratchpad instead if it is
wider: fewer A reads for one buffer, which pays where device memory binds — matmul_fwd_ktir's
32 tiles read 75.5 MB instead of 83.9 MB, 682,813 -> 638,077 cycles — since the 32 cores'
loads keep the shared memory busy whatever one core overlaps). Each instance's load stage brings the A block (Mt x kc) and the B block
(kc x Nb) of every k step once, into their own slots (B crosses the device memory once per
core and k step, not once per row as on the SIMD path); the compute stage runs one block
product per k step, `linalg.matmul` of the f16 blocks into an f32 block from 0 (lowered to
`matrixchain.matmul`), then the stored function on whole blocks, as tensor arith
(the kernel's rounding of each step to f16 and its f16 accumulator: the schedule keeps the
kernel's own rounding, so the result is the interpreter's bit for bit wherever the f32 block
sums agree); the store stage writes the Mt x Nb block once:

    scf.for %n0 = 0 to N step Nb {                                  // loop_type = parallel_loop
      ktdf.pipeline {
        ktdf.stage { ktdf.data_transfer from %A[%m0, k_s] size [Mt, kc] to %a_s ...
                     ktdf.data_transfer from %B[k_s, %n0] size [kc, Nb] to %b_s ... }  // per s
        ktdf.stage { %x = ktdf.read_from_fifo %a_s ... %p_s = linalg.matmul ins(%x, %y)
                       outs(%zero : tensor<MtxNbxf32>) ... %r = arith.addf ... truncf ...
                     ktdf.write_to_fifo %r, %c } {applicable_units = ["PE"]}
        ktdf.stage { ktdf.data_transfer from %c to %C[%m0, %n0] size [Mt, Nb] } } }

No generic is left in the compute stage, so `reduction-loop-exposure` (which cuts generics
into SIMD vectors) leaves the pipeline alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ktir.dialects import ktdp
from scheduler.conversion.ktir_to_ktdf.construct_three_stage_pipeline import (
    Builder,
    transfer_mask,
)
from scheduler.conversion.ktir_to_ktdf.elementwise_fusion import (
    Apply,
    Const,
    Follow,
    FusedGroup,
    Leaf,
    Node,
    Reduce,
    leaf_dims,
)
from scheduler.dialects.ktdf import (
    CreateTokenOp,
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    PipelineOp,
    PrivateOp,
    PrivateYieldOp,
    ReadFromFifoOp,
    StageOp,
    TokenType,
    WriteToFifoOp,
)
from scheduler.rewriting import dead_code

_A_DIMS = [Follow(0, 1, 0), Follow(1, 1, 0)]     # A[m, k]
_B_DIMS = [Follow(1, 1, 0), Follow(2, 1, 0)]     # B[k, n]
_USE = AffineMap(2, 0, (AffineExpr.dimension(0), AffineExpr.constant(0),
                        AffineExpr.dimension(1)))  # a contraction result read at (m, n)


@dataclass
class Step:
    """One contraction (a k step): its reduction and the leaves of A and B."""

    reduce: Reduce
    a: Leaf
    b: Leaf


@dataclass
class Plan:
    steps: list[Step]
    block: tuple[int, int, int]      # (Mt, kc, Nb): one instance's block of (m, k, n)


def _operand(n: Node) -> Leaf | None:
    """A leaf of an input type the engine takes, directly or through `arith.extf`."""
    if isinstance(n, Apply) and isinstance(n.template, arith.ExtFOp) and len(n.args) == 1:
        n = n.args[0]
    return n if isinstance(n, Leaf) else None


def _is_zero(n: Node) -> bool:
    return isinstance(n, Const) and isinstance(n.value, FloatAttr) and n.value.value.data == 0


def _step(r: Reduce, group: FusedGroup, engine) -> Step | None:
    """The contraction `r` as a block product on `engine`, or None."""
    if r.dims != (1,) or r.extents != group.space or r.combiner.kind != "add" \
            or not _is_zero(r.init) or str(r.element_type) != engine.accumulator:
        return None
    (contrib,) = r.args
    if not (isinstance(contrib, Apply) and isinstance(contrib.template, arith.MulfOp)):
        return None
    a, b = (_operand(x) for x in contrib.args)
    if a is None or b is None or leaf_dims(a) != _A_DIMS or leaf_dims(b) != _B_DIMS:
        return None
    ta, tb = (str(group.loads[x.load].element_type) for x in (a, b))
    if ta != tb or not engine.accepts(ta):
        return None
    return Step(r, a, b)


def _tail_ok(n: Node, reds: list[Reduce], seen: set[int]) -> bool:
    """The stored value: element-wise ops of constants and contraction results only."""
    if id(n) in seen:
        return True
    seen.add(id(n))
    if isinstance(n, Const):
        return True
    if isinstance(n, Reduce):
        return n.map == _USE and any(n.same(r) for r in reds)
    if isinstance(n, Apply):
        return all(_tail_ok(a, reds, seen) for a in n.args)
    return False


def matrix_plan(group: FusedGroup, device) -> Plan | None:
    """How to run `group` on the device's matrix engine (None: not a contraction group the
    engine takes, or no engine: the SIMD path)."""
    engine = device.matrix_engine
    if engine is None or len(group.space) != 3 or len(group.outputs) != 1:
        return None
    acc, node = group.outputs[0]
    if any(isinstance(x.tile, ktdp.ConstructIndirectAccessTileOp)
           for x in [*group.loads, acc]) or len(acc.shape) != 2:
        return None
    reds = group.reductions()
    steps = [_step(r, group, engine) for r in reds]
    if not steps or any(s is None for s in steps) or not _tail_ok(node, reds, set()):
        return None
    mt, kc, n = group.space
    size = lambda x: group.loads[x.load].element_type.bitwidth // 8  # noqa: E731
    out_bytes = max(1, acc.element_type.bitwidth // 8)  # type: ignore[attr-defined]
    s0 = steps[0]
    assert s0 is not None

    def footprint(nb: int) -> int:
        return len(steps) * (mt * kc * size(s0.a) + kc * nb * size(s0.b)) + mt * nb * out_bytes

    def widest(room: int) -> int | None:
        return next((nb for nb in range(n, 0, -1) if n % nb == 0 and footprint(nb) <= room
                     and (nb % engine.cols == 0 or nb == n)), None)

    whole = device.scratchpad_bytes or 0
    nb = widest(whole // 2)  # double-buffered
    if nb is None or nb < n:  # A read once per instance: a wider single buffer reads less
        nb = max(nb or 0, widest(whole) or 0) or None
    if nb is None:
        return None
    return Plan([s for s in steps if s is not None], (mt, kc, nb))


class ContractionBuilder(Builder):
    def __init__(self, fn, device, group: FusedGroup, rewriter, plan: Plan):
        super().__init__(fn, device, group, rewriter)
        self.plan = plan

    def build(self) -> None:
        group, plan = self.group, self.plan
        (acc, node), = group.outputs
        stores = [acc.op]
        self.check_ordered_links(group.loads[0].op)
        mt, kc, nb = plan.block
        ivs, at = self.parallel_loops(plan.block, stores)
        compute = self.device.compute_kind
        ins: list[tuple[Leaf, list[Follow], list[int]]] = []
        for s in plan.steps:
            ins += [(s.a, _A_DIMS, [mt, kc]), (s.b, _B_DIMS, [kc, nb])]
        in_types = [FifoSlotType(self.memory_kind(group.loads[lf.load]), compute,
                                 math.prod(shape), group.loads[lf.load].element_type)
                    for lf, _, shape in ins]
        out_type = FifoSlotType(compute, self.memory_kind(acc), mt * nb, acc.element_type)
        allocs = [FifoAllocateOp([t]) for t in [*in_types, out_type]]
        tokens = [CreateTokenOp() for _ in range(3)]
        priv = Block()
        priv.add_ops([*allocs, *tokens])
        priv.add_op(PrivateYieldOp(*[a.slots[0] for a in allocs], *[t.result for t in tokens]))
        private = PrivateOp([*in_types, out_type, *[TokenType()] * 3], Region(priv))
        res = list(private.res)
        slots, slot_out, toks = res[:len(ins)], res[len(ins)], res[len(ins) + 1:]

        loads: list[Operation] = []
        for (lf, dims, _), slot in zip(ins, slots):
            a = group.loads[lf.load]
            idx, amap, sizes = self.side(a, dims, ivs, plan.block)
            loads.append(DataTransferOp(self.cast(a), idx, amap, sizes, slot, [], None,
                                        [math.prod(sizes)],
                                        **transfer_mask(a, "source", self.exprs)))
        body = self.compute_body_blocks(ins, slots, slot_out, node)
        idx, amap, sizes = self.side(acc, [Follow(0, 1, 0), Follow(1, 1, 0)],
                                     [ivs[0], ivs[2]], (mt, nb))
        store = DataTransferOp(slot_out, [], None, [mt * nb], self.cast(acc), idx, amap, sizes,
                               **transfer_mask(acc, "dest", self.exprs))
        pipeline = PipelineOp([private, StageOp([], [toks[0]], loads),
                               StageOp(toks[:1], [toks[1]], body, applicable_units=[compute]),
                               StageOp([toks[1]], [toks[2]], [store])])
        pipeline.location = acc.op.location
        self.rewriter.insert(pipeline, at)
        self.rewriter.erase(acc.op)
        dead_code(self.fn.body, self.rewriter)

    def compute_body_blocks(self, ins, slots, slot_out, node: Node) -> list[Operation]:
        """Read every block, one `linalg.matmul` per k step into f32 from 0, the stored
        function on whole blocks, the write."""
        group, plan = self.group, self.plan
        mt, _, nb = plan.block
        ops: list[Operation] = []
        reads: dict[Leaf, SSAValue] = {}
        for (lf, _, shape), slot in zip(ins, slots):
            rd = ReadFromFifoOp(slot, TensorType(group.loads[lf.load].element_type, shape))
            ops.append(rd)
            reads[lf] = rd.results[0]
        out_shape = [mt, nb]
        products: list[tuple[Reduce, SSAValue]] = []
        acc_t = plan.steps[0].reduce.element_type  # every step sums from one f32 zero block
        t = TensorType(acc_t, out_shape)
        empty = tensor.EmptyOp([], t)
        zero = arith.ConstantOp(FloatAttr(0.0, acc_t))
        fill = linalg.FillOp([zero.result], [empty.tensor], [t])
        ops += [empty, zero, fill]
        for s in plan.steps:
            # the operands widened first (exact): a matmul of one element type, whose body
            # is plain mulf/addf; the lowering folds the casts into the engine's operands
            wide = [arith.ExtFOp(reads[x], TensorType(acc_t, reads[x].type.get_shape()))
                    for x in (s.a, s.b)]
            mm = linalg.MatmulOp([w.result for w in wide], [fill.results[0]], [t])
            ops += [*wide, mm]
            products.append((s.reduce, mm.results[0]))
        value = _TensorTail(out_shape, products, ops).emit(node)

        ops.append(WriteToFifoOp(value, slot_out))
        return ops


class _TensorTail:
    """The stored function of the contraction results as arith ops on whole blocks; an op
    repeated across k steps (the same op on the same operands, a cast of the zero init) is
    emitted once."""

    def __init__(self, shape: list[int], products: list[tuple[Reduce, SSAValue]],
                 ops: list[Operation]):
        self.shape = shape
        self.products = products
        self.ops = ops
        self.values: dict[object, SSAValue] = {}

    def key(self, n: Node) -> object:
        if isinstance(n, Const):
            return ("const", str(n.value))
        if isinstance(n, Reduce):
            return ("reduce", next(i for i, (r, _) in enumerate(self.products) if r.same(n)))
        assert isinstance(n, Apply)
        t = n.template
        return (t.name, str(t.properties), str(t.attributes), n.result,
                tuple(self.key(a) for a in n.args))

    def emit(self, n: Node) -> SSAValue:
        k = self.key(n)
        if k in self.values:
            return self.values[k]
        if isinstance(n, Const):
            t = TensorType(n.value.type, self.shape)
            c = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [n.value.value.data]))
            self.ops.append(c)
            v: SSAValue = c.result
        elif isinstance(n, Reduce):
            v = self.products[k[1]][1]  # type: ignore[index]
        else:
            assert isinstance(n, Apply)
            new = n.rebuild([self.emit(a) for a in n.args], self.shape)
            self.ops.append(new)
            v = new.results[n.result]
        self.values[k] = v
        return v
