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

Output-stationary, the k steps streamed: when the stored value is one recurrence over the
steps (`_chain`: D_s = H(D_{s-1}, p_{s-1}), the kernel's accumulator, stored as P(D_n)) and
step s reads A and B kc * s further along k than step 0 (`_strided`), one pipeline instance
per output block Mt x Nb walks K in steps of kc: its load stage moves one step's A block
(Mt x kc) and B block (kc x Nb) into one slot each per step, its compute stage runs one block
product per step (`linalg.matmul` of the f16 blocks into an f32 zero block, lowered to
`matrixchain.matmul`) and H on whole blocks, the accumulator carried by its loop (the
kernel's own rounding: matmul_fwd_ktir rounds each step to f16, so the result is the
interpreter's bit for bit wherever the f32 block sums agree), then P; the store stage writes
the block once. Nb is the widest divisor of the tile's columns, a multiple of the engine's
columns, whose one step's blocks, twice, and output fit half the scratchpad (else the whole
of it, when wider): the tile's width on every shipped kernel, so A is read once per tile.

    scf.for %n0 = 0 to N step Nb {                                  // loop_type = parallel_loop
      ktdf.pipeline {
        ktdf.stage { scf.for %k = 0 to K step kc {                  // loop_type = reduction_loop
                       ktdf.data_transfer from %A[%m0, %k] size [Mt, kc] to %a ...
                       ktdf.data_transfer from %B[%k, %n0] size [kc, Nb] to %b ... } }
        ktdf.stage { %acc = scf.for %k = 0 to K step kc iter_args(%d = D_0) {
                       %x = ktdf.read_from_fifo %a ... %p = linalg.matmul ins(%x, %y)
                         outs(%zero : tensor<MtxNbxf32>) ... scf.yield H(%d, %p) }
                     ktdf.write_to_fifo P(%acc), %c } {applicable_units = ["PE"]}
        ktdf.stage { ktdf.data_transfer from %c to %C[%m0, %n0] size [Mt, Nb] } } }

path-expansion routes each hop of the load loop in a loop of its own (the DMA lands a step in
the scratchpad, the load unit feeds the FIFO from there), ktdf-to-ktdflowering handshakes
those buffers every step, and the FIFOs into the PE (depth 16) let the DMA of step k+1 run
while step k is multiplied; double-buffering gives the step buffers two copies where that
pays (not on spyre's 32 tiles, whose DDR is shared). From here on the IR no longer grows
with the k steps (the frontend still unrolls the K loop to see the group whole).
On spyre: matmul_fwd_ktir (64x2048 . 2048x8192, 32 tiles, 16 steps) 638,077 -> 570,271
cycles (ktir-cpu's estimate 634,880; each tile reads its 2 MiB of B and 128 KiB of A once:
565,248 cycles of DDR), matmul_1024 265,453 -> 217,311, matmul_512 59,877 -> 55,391; the
matmul example (K = 256, two steps) 82,401 -> 82,783, matmul_small 629 -> 639. Compile time
(bench/compile.py --only matmul --devices spyre, parse + pipeline, load ~2) 1.79 -> 0.16 s
(matmul, K = 256: the masked DMA's zero padding and the block constants were spelled lane by
lane), 0.32 -> 0.14 s (matmul_512), 0.84 -> 0.19 s (matmul_1024).

Other contractions (one step, or steps that are no recurrence) keep every step resident: the
load stage brings each step's A and B block into slots of their own, the compute stage runs
one block product per step and the stored function on whole blocks (`_TensorTail`), with the
Nb of the least predicted cycles per tile among those whose operands fit the scratchpad
(contraction_width.py: several n blocks a tile let double-buffering overlap a block's DMA
with the previous block's stream and product; ffn_swiglu_4core 26,735 -> 16,517).

No generic is left in the compute stage, so `reduction-loop-exposure` (which cuts generics
into SIMD vectors) leaves the pipeline alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IndexType, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ktir.dialects import ktdp
from scheduler.analysis.index_exprs import fold_constants, index_constant
from scheduler.conversion.ktir_to_ktdf.construct_three_stage_pipeline import (
    Builder,
    transfer_mask,
)
from scheduler.conversion.ktir_to_ktdf.contraction_width import (
    Compute,
    Operand,
    choose_width,
    tail_ops,
    tile_cycles,
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
    LoopType,
    LoopTypeAttr,
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
class Chain:
    """The unrolled K loop as a recurrence on nodes: D_s = H(D_{s-1}, p_{s-1}) for the k
    steps s = 1..n (D_s reads the contractions of steps 0..s-1 only), D_0 reads none, and
    the stored value is P(D_n). H is `last` with `prev` (D_{n-1}) and step n-1's contraction
    as its holes; P is the stored node with `last` (D_n) as its hole."""

    init: Node
    prev: Node
    last: Node


@dataclass
class Plan:
    steps: list[Step]
    block: tuple[int, int, int]      # (Mt, kc, Nb): one instance's block of (m, k, n)
    chain: Chain | None = None       # the k steps stream through the instance (one slot each)


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


def _template(n: Node, hole: list[int] | None, p: Reduce | None) -> object:
    """A structural key of `n` with the node at path `hole` (argument indices from `n`) and
    the contraction `p` as placeholders; None when `n` reads another contraction or a
    loaded value outside the hole."""
    if hole is not None and not hole:
        return ("hole",)
    if isinstance(n, Reduce):
        return ("p",) if p is not None and n.same(p) else None
    if isinstance(n, Const):
        return ("const", str(n.value))
    if not isinstance(n, Apply):
        return None
    args = tuple(_template(a, hole[1:] if hole is not None and hole[0] == i else None, p)
                 for i, a in enumerate(n.args))
    if any(a is None for a in args) or (hole is not None and hole[0] >= len(n.args)):
        return None
    t = n.template
    return (t.name, str(t.properties), str(t.attributes), n.result, args)


def _chain(node: Node, reds: list[Reduce]) -> Chain | None:
    """The k steps' accumulator chain of the stored node (`Chain`), or None when the stored
    value is not one recurrence repeated over the steps (then every step keeps its slot)."""
    n = len(reds)
    memo: dict[int, frozenset[int]] = {}

    def steps_in(x: Node) -> frozenset[int]:
        if id(x) not in memo:
            if isinstance(x, Reduce):
                memo[id(x)] = frozenset(i for i, r in enumerate(reds) if r.same(x))
            elif isinstance(x, Apply):
                memo[id(x)] = frozenset().union(*(steps_in(a) for a in x.args))
            else:
                memo[id(x)] = frozenset()
        return memo[id(x)]

    def reading(root: Node, k: int) -> list[tuple[Node, list[int]]]:
        """The nodes under `root` reading exactly steps 0..k-1, with their paths."""
        out, want, todo = [], frozenset(range(k)), [(root, [])]
        while todo:
            x, path = todo.pop()
            if steps_in(x) == want:
                out.append((x, path))
            if isinstance(x, Apply):
                todo += [(a, [*path, i]) for i, a in enumerate(x.args) if steps_in(a) >= want]
        return out

    def follow(x: Node, path: list[int]) -> Node | None:
        for i in path:
            if not isinstance(x, Apply):
                return None
            x = x.args[i]
        return x

    if n < 2:
        return None
    for last, top in reading(node, n):
        if _template(node, top, None) is None:
            continue
        for prev, path in reading(last, n - 1):
            key = _template(last, path, reds[n - 1])
            cur: Node | None = last
            for s in range(n, 0, -1):  # cur is D_s
                below = follow(cur, path) if cur is not None else None
                if below is None or steps_in(below) != frozenset(range(s - 1)) \
                        or _template(cur, path, reds[s - 1]) != key:
                    cur = None
                    break
                cur = below
            if key is not None and cur is not None:
                return Chain(cur, prev, last)
    return None


def _subscripts(acc) -> tuple[list[SSAValue], AffineMap]:
    """A load's subscripts into its view: the tile's non-constant indices and the map of
    them (constants folded in), as `Builder.side` writes them before the instance's ivs."""
    operands, replace = fold_constants(acc.tile.indices)
    results = [base.replace_dims_and_symbols(replace, []) + acc.lower[t]
               for t, base in enumerate(acc.tile.base_map.data.results)]
    return operands, AffineMap(len(operands), 0, tuple(results))


def _strided(group: FusedGroup, steps: list[Step], kc: int) -> bool:
    """Step s reads A and B where step 0 does, kc * s further along k (what a K loop
    unrolled by `unroll-carried-loops` leaves), through the same views."""
    for lf0, k_dim, pick in ((steps[0].a, 1, lambda s: s.a), (steps[0].b, 0, lambda s: s.b)):
        a0 = group.loads[lf0.load]
        ops0, map0 = _subscripts(a0)
        points = [[0] * len(ops0)] + [[7 * i + 3 * j + 1 for j in range(len(ops0))]
                                      for i in range(3)]
        for s, st in enumerate(steps):
            a = group.loads[pick(st).load]
            ops, amap = _subscripts(a)
            if a.view is not a0.view or ops != ops0 or a.shape != a0.shape \
                    or a.tile.symbol_operands:  # a mask of its own (masks.mask_of)
                return False
            for x in points:
                want = list(map0.eval(x, []))
                want[k_dim] += s * kc
                if list(amap.eval(x, [])) != want:
                    return False
    return True


def matrix_plan(group: FusedGroup, device, tiles: int = 1) -> Plan | None:
    """How to run `group` on the device's matrix engine (None: not a contraction group the
    engine takes, or no engine: the SIMD path); `tiles` run it (they share device
    memory)."""
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

    whole = device.scratchpad_bytes or 0
    chain = _chain(node, reds) if _strided(group, steps, kc) else None  # type: ignore[arg-type]
    if chain is not None:
        # one step's A and B blocks at a time, two copies of each (the next step lands while
        # this one is multiplied), and the output block: within half the scratchpad (room
        # for two instances), else the whole of it when that is wider
        def streamed(nb: int) -> int:
            return 2 * (mt * kc * size(s0.a) + kc * nb * size(s0.b)) + mt * nb * out_bytes

        def widest_streamed(room: int) -> int:
            return next((nb for nb in range(n, 0, -1) if n % nb == 0 and streamed(nb) <= room
                         and (nb % engine.cols == 0 or nb == n)), 0)

        nb = widest_streamed(whole // 2)
        if nb < n:
            nb = max(nb, widest_streamed(whole))
        if nb:
            return Plan([s for s in steps if s is not None], (mt, kc, nb), chain)
    # every step resident: the width of the least predicted cycles (contraction_width.py),
    # double-buffered where two instances fit the scratchpad
    cands = [nb for nb in range(n, 0, -1) if n % nb == 0 and footprint(nb) <= whole
             and (nb % engine.cols == 0 or nb == n)]
    if not cands:
        return None
    done = [s for s in steps if s is not None]
    ops = _operands(group, device, done, acc, mt, kc)
    work = Compute(len(done), mt, kc, tail_ops(node, lambda x: isinstance(x, Reduce), Apply))
    nb = choose_width(cands, lambda nb: tile_cycles(
        device, tiles, n, nb, ops, work, 2 if footprint(nb) <= whole // 2 else 1))
    return Plan(done, (mt, kc, nb))


def _operands(group: FusedGroup, device, steps: list[Step], acc, mt: int, kc: int
              ) -> list[Operand]:
    """The blocks one instance moves (contraction_width.py): each step's A and B, the
    result."""
    def kind(a) -> str:
        return device.memory_for_space(a.view.memory_space.kind.data)

    def nbytes(lf: Leaf) -> int:
        return group.loads[lf.load].element_type.bitwidth // 8  # type: ignore[attr-defined]

    out: list[Operand] = []
    for s in steps:
        ea, eb = nbytes(s.a), nbytes(s.b)
        out.append(Operand(kind(group.loads[s.a.load]), s.a.load,
                           lambda nb, ea=ea: mt * kc * ea))
        out.append(Operand(kind(group.loads[s.b.load]), s.b.load,
                           lambda nb, eb=eb: kc * nb * eb))
    eo = max(1, acc.element_type.bitwidth // 8)
    out.append(Operand(kind(acc), "result", lambda nb: mt * nb * eo, into=False))
    return out


class ContractionBuilder(Builder):
    def __init__(self, fn, device, group: FusedGroup, rewriter, plan: Plan):
        super().__init__(fn, device, group, rewriter)
        self.plan = plan

    def build(self) -> None:
        if self.plan.chain is not None:
            self.build_streamed()
            return
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
        private, slots, slot_out, toks = self.private(in_types, out_type)

        loads: list[Operation] = []
        for (lf, dims, _), slot in zip(ins, slots):
            a = group.loads[lf.load]
            idx, amap, sizes = self.side(a, dims, ivs, plan.block)
            loads.append(DataTransferOp(self.cast(a), idx, amap, sizes, slot, [], None,
                                        [math.prod(sizes)],
                                        **transfer_mask(a, "source", self.exprs)))
        body = self.compute_body_blocks(ins, slots, slot_out, node)
        self.finish(private, toks, loads, body, slot_out, ivs, at)

    def private(self, in_types: list[FifoSlotType], out_type: FifoSlotType
                ) -> tuple[PrivateOp, list[SSAValue], SSAValue, list[SSAValue]]:
        allocs = [FifoAllocateOp([t]) for t in [*in_types, out_type]]
        tokens = [CreateTokenOp() for _ in range(3)]
        priv = Block()
        priv.add_ops([*allocs, *tokens])
        priv.add_op(PrivateYieldOp(*[a.slots[0] for a in allocs], *[t.result for t in tokens]))
        private = PrivateOp([*in_types, out_type, *[TokenType()] * 3], Region(priv))
        res = list(private.res)
        n = len(in_types)
        return private, res[:n], res[n], res[n + 1:]

    def build_streamed(self) -> None:
        """The k steps streamed through one instance (module docstring): a load stage and a
        compute stage that each walk K in steps of kc, the accumulator carried by the
        compute stage's loop, one A and one B slot."""
        group, plan = self.group, self.plan
        chain = plan.chain
        assert chain is not None
        (acc, node), = group.outputs
        self.check_ordered_links(group.loads[0].op)
        mt, kc, nb = plan.block
        ivs, at = self.parallel_loops(plan.block, [acc.op])
        compute = self.device.compute_kind
        s0 = plan.steps[0]
        ins = [(s0.a, _A_DIMS, [mt, kc], [s.a for s in plan.steps]),
               (s0.b, _B_DIMS, [kc, nb], [s.b for s in plan.steps])]
        in_types = [FifoSlotType(self.memory_kind(group.loads[lf.load]), compute,
                                 math.prod(shape), group.loads[lf.load].element_type)
                    for lf, _, shape, _ in ins]
        out_type = FifoSlotType(compute, self.memory_kind(acc), mt * nb, acc.element_type)
        private, slots, slot_out, toks = self.private(in_types, out_type)

        bounds, load_loop, k = _k_loop(len(plan.steps) * kc, kc, [])
        for (lf, dims, _, leaves), slot in zip(ins, slots):
            a = group.loads[lf.load]
            idx, amap, sizes = self.side(a, dims, [ivs[0], k, ivs[2]], plan.block)
            # one mask for every step: the view's (the first step that needs one)
            mask = next((m for x in leaves if (m := transfer_mask(
                group.loads[x.load], "source", self.exprs))), {})
            load_loop.body.block.add_op(DataTransferOp(
                self.cast(a), idx, amap, sizes, slot, [], None, [math.prod(sizes)], **mask))
        load_loop.body.block.add_op(scf.YieldOp())

        body: list[Operation] = []
        acc_t = s0.reduce.element_type
        t = TensorType(acc_t, [mt, nb])
        zero = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [0.0]))
        body.append(zero)
        outside = _Blocks([mt, nb], body)
        init = outside.emit(chain.init)
        cbounds, loop, _ = _k_loop(len(plan.steps) * kc, kc, [init])
        body += cbounds
        inner: list[Operation] = []
        reads = [ReadFromFifoOp(slot, TensorType(group.loads[lf.load].element_type, shape))
                 for (lf, _, shape, _), slot in zip(ins, slots)]
        wide = [arith.ExtFOp(r.results[0], TensorType(acc_t, r.results[0].type.get_shape()))
                for r in reads]
        mm = linalg.MatmulOp([w.result for w in wide], [zero.result], [t])
        inner += [*reads, *wide, mm]
        carried = loop.body.block.args[1]
        hoisted: list[Operation] = []
        outside.ops = hoisted
        step = _Blocks([mt, nb], inner, {chain.prev: carried}, mm.results[0],
                       outside).emit(chain.last)
        loop.body.block.add_ops([*inner, scf.YieldOp(step)])
        body += [*hoisted, loop]
        value = _Blocks([mt, nb], body, {chain.last: loop.results[0]}).emit(node)
        body.append(WriteToFifoOp(value, slot_out))

        self.finish(private, toks, [*bounds, load_loop], body, slot_out, ivs, at)

    def finish(self, private: PrivateOp, toks: list[SSAValue], loads: list[Operation],
               body: list[Operation], slot_out: SSAValue, ivs, at) -> None:
        """The pipeline of the load stage `loads`, the compute stage `body` and the store of
        the Mt x Nb block, in place of the group's store."""
        acc = self.group.outputs[0][0]
        mt, _, nb = self.plan.block
        idx, amap, sizes = self.side(acc, [Follow(0, 1, 0), Follow(1, 1, 0)],
                                     [ivs[0], ivs[2]], (mt, nb))
        store = DataTransferOp(slot_out, [], None, [mt * nb], self.cast(acc), idx, amap, sizes,
                               **transfer_mask(acc, "dest", self.exprs))
        compute = self.device.compute_kind
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
        if isinstance(n, Reduce):
            v = self.products[k[1]][1]  # type: ignore[index]
        else:
            v = block_op(n, self.emit, self.shape, self.ops)
        self.values[k] = v
        return v


def _k_loop(extent: int, step: int, carried: list[SSAValue]
            ) -> tuple[list[Operation], scf.ForOp, SSAValue]:
    """`scf.for %k = 0 to extent step step` over the k steps (`reduction_loop`), carrying
    `carried`, its body left open; its bound constants and its induction value."""
    bounds = [index_constant(0), index_constant(extent), index_constant(step)]
    body = Block(arg_types=[IndexType(), *[c.type for c in carried]])
    body.args[0].name_hint = "k"
    loop = scf.ForOp(*(b.result for b in bounds), carried, Region(body))
    loop.attributes["loop_type"] = LoopTypeAttr(LoopType.REDUCTION_LOOP)
    return bounds, loop, body.args[0]


class _Blocks:
    """Nodes of the stored function as arith ops on whole blocks, appended to `ops`: `env`
    gives the value of some nodes (the carried accumulator), `product` that of the one
    contraction a step reads."""

    def __init__(self, shape: list[int], ops: list[Operation],
                 env: dict[Node, SSAValue] | None = None, product: SSAValue | None = None,
                 hoist: _Blocks | None = None):
        self.shape = shape
        self.ops = ops
        self.values: dict[Node, SSAValue] = dict(env or {})
        self.env = set(self.values)
        self.product = product
        self.hoist = hoist  # where what reads neither `env` nor the product goes (before
        # the k loop: the kernel's zero block and its widening, once)

    def varies(self, n: Node) -> bool:
        if n in self.env or isinstance(n, Reduce):
            return True
        return isinstance(n, Apply) and any(self.varies(a) for a in n.args)

    def emit(self, n: Node) -> SSAValue:
        if n in self.values:
            return self.values[n]
        if self.hoist is not None and not self.varies(n):  # invariant: before the loop
            self.values[n] = self.hoist.emit(n)
            return self.values[n]
        if isinstance(n, Reduce):
            assert self.product is not None
            v = self.product
        else:
            v = block_op(n, self.emit, self.shape, self.ops)
        self.values[n] = v
        return v


def block_op(n: Node, emit, shape: list[int], ops: list[Operation]) -> SSAValue:
    """A `Const` as a block constant, or an `Apply` rebuilt on whole blocks (its operands
    from `emit`), appended to `ops`: what both block emitters do outside the products."""
    if isinstance(n, Const):
        t = TensorType(n.value.type, shape)
        c = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [n.value.value.data]))
        ops.append(c)
        return c.result
    assert isinstance(n, Apply)
    new = n.rebuild([emit(a) for a in n.args], shape)
    ops.append(new)
    return new.results[n.result]
