"""What a KTIR kernel must do whatever its schedule (shared/spec/arch.md §8), for the bound
`ktir run` reports: its compulsory traffic (every buffer it reads, read once from the memory
it lives in; every buffer it writes, written once) and its element operations, on the cores
its grid uses.

The buffers and their sizes come from the reference interpreter's argument plan and the
buffers its run wrote; whether a buffer is read is seen in the kernel (a `ktdp.load` reaches
it through its views and tiles); a table read only through indirect tiles is charged the
elements its gathers load, one written only through them the elements its scatters store. Element operations are counted in the kernel: each
arithmetic op on tensors counts its elements, a `linalg` op the points of its iteration space
times the arithmetic ops of its body, a matmul M x N x K; data movement (loads, stores,
copies, broadcasts, fills) counts none (a matmul's MACs, counted in the type they accumulate
in — f32 for f16 and bf16 — are also listed apart, as
`Work.contractions`, for a matrix engine), nor does an op whose result is never used or that
repeats an earlier one of its block (what CSE and dead-code elimination drop). An op runs once per tile and loop iteration that
reaches it: the interpreter's address probe (ktir/interpreter/probe.py) enumerates the
iterations of loops whose bounds depend on the tile, constants and scalar arguments; a loop it
cannot enumerate counts one iteration (which keeps the bound a lower bound), and an `scf.if`
counts its cheaper branch.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, ShapedType, TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr

from arch_descriptions.model import Device, Work
from ktir.interpreter.probe import AddressProbe, NotEvaluable

if TYPE_CHECKING:
    from xdsl.dialects.func import FuncOp

    from ktir.interpreter.arguments import ArgumentSpec

# linalg ops that move data and compute nothing
_MOVES = frozenset({"linalg.fill", "linalg.copy", "linalg.broadcast", "linalg.transpose",
                    "linalg.yield", "linalg.index"})
_MATMULS = frozenset({"linalg.matmul", "linalg.batch_matmul", "linalg.matvec",
                      "linalg.vecmat", "linalg.batch_matvec", "linalg.dot"})
_FREE = frozenset({"arith.constant", "linalg.yield", "linalg.index"})
_COMPUTING = ("linalg.", "arith.", "math.")


def kernel_work(fn: FuncOp, specs: Iterable[ArgumentSpec], written: Iterable[str],
                grid: tuple[int, ...], device: Device) -> Work:
    """The compulsory work of kernel `fn` on `device`, with the argument plan `specs` (the
    reference interpreter's) and the names of the buffers its run wrote."""
    tiles = math.prod(grid) if grid else 1
    written = set(written)
    reads: dict[str, int] = {}
    writes: dict[str, int] = {}
    for spec in specs:
        if spec.kind != "pointer" or spec.elem is None:
            continue
        memory = device.memory_for_space("global" if spec.memory == "global" else "ct_local")
        nbytes = spec.count * spec.elem.itemsize
        if _is_loaded(fn.args[spec.index]):
            gathered = _gathered(fn.args[spec.index])
            if gathered is not None:  # only gathered: what the gathers load, at most all
                nbytes = min(nbytes, gathered * tiles * spec.elem.itemsize)
            reads[memory] = reads.get(memory, 0) + nbytes
        if spec.name in written:
            nbytes = spec.count * spec.elem.itemsize
            scattered = _scattered(fn.args[spec.index])
            if scattered is not None:  # only scattered into: what the scatters store
                nbytes = min(nbytes, scattered * tiles * spec.elem.itemsize)
            writes[memory] = writes.get(memory, 0) + nbytes
    scalars: dict[SSAValue, object] = {fn.args[s.index]: s.value for s in specs
                                       if s.kind == "scalar"}
    pointers = {fn.args[s.index] for s in specs if s.kind == "pointer"}
    counter = _counter(fn, grid, scalars, pointers)
    ops = {t: n for t, n in counter.block(fn.body.block, ()).items() if n}
    macs = tuple((t_in, t_out, n) for (t_in, t_out), n in counter.macs.items() if n)
    return Work(reads, writes, ops, tiles, macs)


def _is_loaded(arg: SSAValue) -> bool:
    """Whether a `ktdp.load` whose data is used reads through `arg` (its views, tiles,
    loop-carried copies), or a scatter reads its indices there."""
    fwd = _forward(arg, stop_at_loads=True)
    reached = set(fwd)
    for op in fwd:
        if op.name == "ktdp.load" and _reaches_a_sink(op.results[0]):
            return True
        tile = op.operands[1].owner if op.name == "ktdp.store" else None
        if isinstance(tile, Operation) and tile.name == "ktdp.construct_indirect_access_tile" \
                and any(v.owner in reached
                        for v in tile.operands[1:1 + _n_index_views(tile)]):
            return True
    return False


def _gathered(arg: SSAValue) -> int | None:
    """When every used `ktdp.load` through `arg` reads it as the base of an indirect access
    tile (a gathered table, not an index view): the elements those loads read per tile. A
    table is then charged its gathered rows, not all of it (rows gathered twice count twice:
    what a schedule without reuse of gathered rows moves). None when no load reads it so
    (read only as a scatter's index view)."""
    return _through_indirect_tiles(arg, "ktdp.load")


def _scattered(arg: SSAValue) -> int | None:
    """When every `ktdp.store` through `arg` writes it as the base of an indirect access
    tile (a scattered table): the elements those stores write per tile (rows scattered to
    twice count twice), which the table is charged instead of all of it."""
    return _through_indirect_tiles(arg, "ktdp.store")


def _through_indirect_tiles(arg: SSAValue, name: str) -> int | None:
    """The elements the `name` ops (loads whose data is used, or stores) through `arg` move
    per tile, when each of them moves through an indirect tile whose base `arg` is."""
    fwd = _forward(arg, stop_at_loads=True)
    reached = set(fwd)
    total, found = 0, False
    for op in fwd:
        if op.name != name or (name == "ktdp.load" and not _reaches_a_sink(op.results[0])):
            continue
        found = True
        tile = op.operands[0 if name == "ktdp.load" else 1].owner
        if not isinstance(tile, Operation) or tile.name != "ktdp.construct_indirect_access_tile":
            return None
        base, *index_views = (v.owner for v in tile.operands[:1 + _n_index_views(tile)])
        if base not in reached or any(v in reached for v in index_views):
            return None
        moved = op.results[0] if name == "ktdp.load" else op.operands[0]
        total += _numel(moved.type)  # type: ignore[arg-type]
    return total if found else None


def _n_index_views(tile: Operation) -> int:
    return len(getattr(tile, "indirect_memrefs", ()))


def _reaches_a_sink(value: SSAValue) -> bool:
    """Whether `value` flows into an op with an effect (a store, or any op without results
    that is not a terminator), not only into dead computations."""
    return any(not op.results and op.name not in _TERMINATORS
               for op in _forward(value, stop_at_loads=False))


def _unused_operand(op: Operation, index: int) -> bool:
    """Whether operand `index` of a `linalg` op with a body is one its body never reads, or
    reads only in ops its yield does not need (the compiler drops such an input, and its load
    with it)."""
    if not op.name.startswith("linalg.") or not op.regions or not op.regions[0].blocks:
        return False
    block = op.regions[0].blocks[0]
    ins = getattr(op, "inputs", ())
    if index >= len(ins) or index >= len(block.args):
        return False
    arg = block.args[index]
    # read only by body ops the yield does not need (dead code the compiler drops)
    readers = {*_needed(op), block.last_op}
    return not any(use.operation in readers for use in arg.uses)


_TERMINATORS = frozenset({"scf.yield", "linalg.yield", "func.return", "affine.yield",
                          "ktdp.region_terminator", "tensor.yield"})


def _forward(value: SSAValue, stop_at_loads: bool) -> list[Operation]:
    """The ops `value` flows into: through results, loop-carried block arguments, and the
    results of the op a yield ends (with `stop_at_loads`, not past a `ktdp.load`: its
    result is data, not the buffer)."""
    seen: set[SSAValue] = set()
    ops: list[Operation] = []
    todo = [value]
    while todo:
        v = todo.pop()
        if v in seen:
            continue
        seen.add(v)
        for use in v.uses:
            op = use.operation
            if _unused_operand(op, use.index):
                continue  # a structured op's input its body never reads
            ops.append(op)
            if stop_at_loads and op.name == "ktdp.load":
                continue
            if isinstance(op, scf.ForOp) and use.index >= 3:  # an iter_arg
                todo.append(op.body.block.args[use.index - 2])
                todo.append(op.results[use.index - 3])
            elif op.name in ("scf.yield", "affine.yield") and op.parent_op() is not None:
                parent = op.parent_op()
                assert parent is not None
                if use.index < len(parent.results):
                    todo.append(parent.results[use.index])
                if isinstance(parent, scf.ForOp):
                    todo.append(parent.body.block.args[1 + use.index])
            todo.extend(op.results)
    return ops


def element_ops(fn: FuncOp, grid: tuple[int, ...] = (1,),
                scalars: dict[SSAValue, object] | None = None,
                pointers: Iterable[SSAValue] = ()) -> dict[str, int]:
    """Element operations per element type ("f16") of one run of `fn` on `grid`, with the
    values of its scalar arguments (`scalars`, for loop bounds) and its buffer arguments."""
    counter = _counter(fn, grid, scalars, pointers)
    return {t: n for t, n in counter.block(fn.body.block, ()).items() if n}


def _counter(fn: FuncOp, grid: tuple[int, ...], scalars: dict[SSAValue, object] | None,
             pointers: Iterable[SSAValue]) -> _Counter:
    return _Counter(AddressProbe(fn, grid, dict(scalars or {}), set(pointers)),
                    math.prod(grid) if grid else 1)


def _add(into: dict[str, int], more: dict[str, int], times: int = 1) -> None:
    for t, n in more.items():
        into[t] = into.get(t, 0) + n * times


class _Counter:
    """Counts element operations of a block run inside a chain of loops."""

    def __init__(self, probe: AddressProbe, tiles: int):
        self.probe = probe
        self.tiles = tiles
        self._runs: dict[tuple[scf.ForOp, ...], int] = {}
        # (input element type, output element type) -> the contractions' MACs (a matrix
        # engine's share of the element ops)
        self.macs: dict[tuple[str, str], int] = {}

    def runs(self, loops: tuple[scf.ForOp, ...]) -> int:
        """How often the body of the innermost of `loops` (nested, outermost first) runs,
        over every tile: the probe's valid iterations, else one per unevaluable loop."""
        got = self._runs.get(loops)
        if got is None:
            got = self._runs[loops] = self._count(loops)
        return got

    def _count(self, loops: tuple[scf.ForOp, ...]) -> int:
        p = self.probe
        shape = [1] * p.ndim
        shape[0] = self.tiles
        valid = np.ones([1] * p.ndim, dtype=bool)
        for lp in loops:
            try:
                iv = p.eval(lp.body.block.args[0])
            except NotEvaluable:
                # an outer loop the tile does not decide: count its body's runs as one
                return self.runs(loops[:-1]) * (_trips(lp) if lp is loops[-1] else 1)
            valid = valid & iv.valid
            axis = p.axis[lp]
            shape[axis] = max(shape[axis], np.shape(iv.value)[axis])
        return int(np.broadcast_to(valid, shape).sum())

    def block(self, block: Block, loops: tuple[scf.ForOp, ...]) -> dict[str, int]:
        out: dict[str, int] = {}
        same = _Numbering()
        computing = [op for op in block.ops if op.name.startswith(_COMPUTING)]
        live = {same.first(op) for op in computing
                if any(_reaches_a_sink(r) for r in op.results)}
        for op in block.ops:
            if isinstance(op, scf.ForOp):
                _add(out, self.block(op.body.block, (*loops, op)))
            elif isinstance(op, scf.IfOp):
                branches = [self.block(r.block, loops) for r in op.regions if r.blocks]
                if len(branches) == 2:
                    _add(out, min(branches, key=lambda c: sum(c.values())))
            elif op.name.startswith(_COMPUTING) and op not in live:
                continue  # a repeat of an earlier op, or never used: no schedule does it
            elif op.name.startswith("linalg."):
                done = _linalg(op)
                _add(out, done, self.runs(loops))
                if op.name in _MATMULS and done:
                    (t_out, n), = done.items()
                    key = (_elem(op.operands[0].type), t_out)  # type: ignore[arg-type]
                    self.macs[key] = self.macs.get(key, 0) + n * self.runs(loops)
            elif op.name.startswith(("arith.", "math.")) and op.name not in _FREE:
                for r in op.results:
                    if isinstance(r.type, TensorType):
                        _add(out, {_elem(r.type): _numel(r.type)}, self.runs(loops))
            else:
                for region in op.regions:
                    for b in region.blocks:
                        _add(out, self.block(b, loops))
        return out


class _Numbering:
    """Value numbering within one block: an op that repeats an earlier one (same name,
    attributes, body and inputs, up to repeats) computes nothing new — the compiler's CSE
    drops it, so the bound must not count it."""

    def __init__(self) -> None:
        self._first: dict[tuple, Operation] = {}
        self._alias: dict[SSAValue, SSAValue] = {}
        self._of: dict[Operation, Operation] = {}

    def first(self, op: Operation) -> Operation:
        """The first op of the block computing what `op` computes (`op` itself if none)."""
        got = self._of.get(op)
        if got is None:
            got = self._of[op] = self._first_of(op)
        return got

    def repeats(self, op: Operation) -> bool:
        return self.first(op) is not op

    def _first_of(self, op: Operation) -> Operation:
        ins = getattr(op, "inputs", None)
        ins = op.operands if ins is None else ins
        body = "".join(str(o) for r in op.regions for b in r.blocks for o in b.ops)
        key = (op.name, tuple(self.canonical(v) for v in ins), str(op.attributes),
               str(op.properties), body, tuple(r.type for r in op.results))
        first = self._first.setdefault(key, op)
        if first is not op:
            for a, b in zip(op.results, first.results, strict=True):
                self._alias[a] = b
        return first

    def canonical(self, v: SSAValue) -> SSAValue:
        return self._alias.get(v, v)


def _trips(op: scf.ForOp) -> int:
    lb, ub, step = (_constant(v) for v in (op.lb, op.ub, op.step))
    if lb is None or ub is None or not step:
        return 1
    return max(0, -(-(ub - lb) // step))


def _constant(v: SSAValue) -> int | None:
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


# A matmul of f16 / bf16 values sums in f32 and rounds once (ktir/interpreter/ops_linalg.py):
# its MACs are f32 operations, at the f32 rate of the lanes. (A f16 product is exact in f32,
# so one fused multiply-add per MAC gives those bits: a MAC is one f32 op, not two.)
_ACCUMULATES_IN = {"f16": "f32", "bf16": "f32"}


def _accumulated(t: str) -> str:
    return _ACCUMULATES_IN.get(t, t)


def _elem(t: ShapedType) -> str:
    return str(t.get_element_type())  # type: ignore[attr-defined]


def _numel(t: ShapedType) -> int:
    return math.prod(d for d in t.get_shape() if d > 0)


def _linalg(op: Operation) -> dict[str, int]:
    if op.name in _MOVES:
        return {}
    tensors = [v.type for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)]
    if not tensors:
        return {}
    if op.name in _MATMULS:  # one multiply-accumulate per output element and step of K,
        out = tensors[-1]   # in the type it accumulates in (narrow floats: f32)
        return {_accumulated(_elem(out)): _numel(out) * max(tensors[0].get_shape()[-1], 1)}
    if not op.regions:  # a named element-wise op (linalg.add, linalg.exp, ...)
        out = tensors[-1]
        return {_elem(out): _numel(out)}
    points = _points(op, tensors)
    counts: dict[str, int] = {}
    for o in _needed(op):
        for r in o.results:
            counts[str(r.type)] = counts.get(str(r.type), 0) + points
    return counts


def _needed(op: Operation) -> list[Operation]:
    """The arithmetic ops of a structured op's body that its yield needs, each computation
    once (value numbering, as CSE leaves them)."""
    same = _Numbering()
    kept = [o for r in op.regions for b in r.blocks for o in b.ops
            if o.name not in _FREE and not same.repeats(o)]
    live: set[Operation] = set()
    todo = [same.canonical(v).owner for r in op.regions for b in r.blocks
            if b.last_op is not None for v in b.last_op.operands]
    while todo:
        o = todo.pop()
        if isinstance(o, Operation) and o not in live:
            live.add(o)
            todo.extend(same.canonical(v).owner for v in o.operands)
    return [o for o in kept if o in live]


def _points(op: Operation, tensors: Iterable[ShapedType]) -> int:
    """The points of a structured op's iteration space: its loop sizes from the operands'
    shapes through `indexing_maps`, else its largest operand."""
    maps = op.attributes.get("indexing_maps") or op.properties.get("indexing_maps")
    shaped = [v.type for v in op.operands if isinstance(v.type, ShapedType)]
    sizes: dict[int, int] = {}
    if maps is not None and len(maps.data) == len(shaped):  # type: ignore[attr-defined]
        for m, t in zip(maps.data, shaped, strict=True):  # type: ignore[attr-defined]
            for e, d in zip(m.data.results, t.get_shape(), strict=False):
                if isinstance(e, AffineDimExpr) and d > 0:
                    sizes[e.position] = d
    if sizes:
        return math.prod(sizes.values())
    return max((_numel(t) for t in tensors), default=0)
