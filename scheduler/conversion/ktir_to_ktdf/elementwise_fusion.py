"""Element-wise fusion of a compute group: what `construct-three-stage-pipeline` builds on.

A group (after `compute-group-extraction`) loads tiles, computes element-wise and stores
tiles. `fuse_group` turns that into one iteration space (the stored tile shape) and one
expression DAG per stored value. Its leaves are loads read through affine maps from the
iteration space to the tile (`Leaf`; each map result is a space dimension times a stride
plus an offset, or a constant), constants (`Const`) and scalars defined outside the group
(`Captured`: kernel arguments, index arithmetic); its inner nodes are the scalar ops of
`scheduler.analysis.compute_ops` (`Apply`).

The fusion generalises, as pipeline.md's step 3 says: named linalg ops (through their bodies),
`linalg.generic` (through its indexing maps), `arith`/`math`/`spyreop` on tensors or scalars,
and the ops that only move elements: `linalg.broadcast`, `linalg.fill`, `linalg.transpose`,
`tensor.splat`, `tensor.from_elements` (one element), `tensor.extract` (constant indices), `tensor.collapse_shape` /
`tensor.expand_shape` (unit dimensions only), `tensor.extract_slice` (static), `tensor.empty`
(zeros, as the reference interpreter reads it) and splat constants. `build_body` then emits
the scalar body of the single fused `linalg.generic` of the compute stage. Anything else is
reported at its op (the legality check normally catches it first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from ktir import affine
from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from scheduler.analysis.compute_ops import (
    NAMED_ELEMENTWISE,
    SCALAR_OPS,
    Combiner,
    element_of,
    reassociation,
    reduction_combiners,
    scalar_reason,
    structural_reason,
)
from scheduler.dialects.ktdf_types import const_int


@dataclass(frozen=True)
class Access:
    """A load or store through an access tile over a memory view (or through an indirect
    tile: its dimensions are the tile's intermediate variables)."""

    op: ktdp.LoadOp | ktdp.StoreOp
    tile: ktdp.ConstructAccessTileOp | ktdp.ConstructIndirectAccessTileOp
    view: ktdp.ConstructMemoryViewOp
    shape: tuple[int, ...]
    lower: tuple[int, ...]

    @property
    def element_type(self) -> Attribute:
        return self.view.result.type.get_element_type()


@dataclass(frozen=True)
class Leaf:
    load: int  # index into FusedGroup.loads
    map: AffineMap  # iteration-space dims -> tile dims


@dataclass(frozen=True)
class Const:
    value: FloatAttr | IntegerAttr


@dataclass(frozen=True)
class Captured:
    """A scalar computed outside the group, splat over the vector."""

    value: SSAValue


@dataclass(frozen=True)
class Apply:
    template: Operation  # a scalar op (e.g. arith.addf) to clone with new operands
    args: tuple[Node, ...]
    result: int = 0  # which result of the template

    def rebuild(self, operands: list[SSAValue], shape: list[int] | None = None) -> Operation:
        """The template on `operands`: on scalars (tensor-level ops become element ops), or
        on whole tensors of `shape`."""
        t = self.template
        elems = [element_of(r.type) for r in t.results]
        return type(t).create(operands=operands,
                              result_types=elems if shape is None else
                              [TensorType(e, shape) for e in elems],
                              properties=dict(t.properties), attributes=dict(t.attributes))


@dataclass(frozen=True)
class Reduce:
    """Output `output` of a reduction (`linalg.reduce`, or a `linalg.generic` with reduction
    iterators) over the group's iteration space: `args` are the nodes of its body's inputs on
    that space, `init` the node of its init (on the reduced space), `dims` the reduced
    dimensions, folded into the accumulator by `combiner`; seen from a consumer through `map` (consumer space -> group-space
    coordinates, 0 in the reduced dimensions)."""

    template: Operation
    output: int
    args: tuple[Node, ...]  # (the contribution,)
    combiner: Combiner
    init: Node
    dims: tuple[int, ...]
    extents: tuple[int, ...]
    map: AffineMap

    @property
    def element_type(self) -> Attribute:
        return element_of(self.template.results[self.output].type)

    def at(self, m: AffineMap) -> Reduce:
        return Reduce(self.template, self.output, self.args, self.combiner, self.init,
                      self.dims, self.extents, self.map.compose(m))

    def same(self, other: Reduce) -> bool:
        """The same reduction (seen through any map)."""
        return (self.template, self.output, self.args, self.init) == (
            other.template, other.output, other.args, other.init)


Node = Leaf | Const | Captured | Apply | Reduce


@dataclass
class FusedGroup:
    space: tuple[int, ...]
    loads: list[Access] = field(default_factory=list)
    outputs: list[tuple[Access, Node]] = field(default_factory=list)

    def nodes(self) -> list[Node]:
        """Every node once, operands before users."""
        seen: dict[Node, None] = {}

        def walk(n: Node) -> None:
            if n in seen:
                return
            if isinstance(n, Apply):
                for a in n.args:
                    walk(a)
            if isinstance(n, Reduce):
                for a in (*n.args, n.init):
                    walk(a)
            seen[n] = None

        for _, node in self.outputs:
            walk(node)
        return list(seen)

    def leaves(self) -> list[Leaf]:
        """Distinct leaves in first-use order (one compute input each)."""
        return [n for n in self.nodes() if isinstance(n, Leaf)]

    def element_type(self, n: Node) -> Attribute:
        if isinstance(n, Leaf):
            return self.loads[n.load].element_type
        if isinstance(n, Const):
            return n.value.type
        if isinstance(n, Captured):
            return n.value.type
        if isinstance(n, Reduce):
            return n.element_type
        return element_of(n.template.results[n.result].type)

    def reductions(self) -> list[Reduce]:
        """Distinct reductions (whatever map they are seen through), operands first."""
        out: list[Reduce] = []
        for n in self.nodes():
            if isinstance(n, Reduce) and not any(n.same(r) for r in out):
                out.append(n)
        return out


def access_of(op: ktdp.LoadOp | ktdp.StoreOp) -> Access:
    tile = op.tile.owner
    if isinstance(tile, ktdp.ConstructIndirectAccessTileOp):
        aset = tile.variables_space_set.data
    elif isinstance(tile, ktdp.ConstructAccessTileOp):
        aset = tile.access_tile_set.data
    else:
        aset = None
    if aset is None or not isinstance(tile.base.owner, ktdp.ConstructMemoryViewOp):
        raise op_error(op, "the tile must be a ktdp.construct_access_tile or "
                           "ktdp.construct_indirect_access_tile over a "
                           "ktdp.construct_memory_view")
    bounds = affine.dim_bounds(aset)
    lower = tuple(lo if lo is not None else 0 for lo, _ in bounds)
    shape = tuple(tile.result.type.get_shape())
    return Access(op, tile, tile.base.owner, shape, lower)


def _compose(node: Node, m: AffineMap) -> Node:
    """Re-index a node defined on a tensor's space through `m` (outer space -> that space)."""
    if isinstance(node, Leaf):
        return Leaf(node.load, node.map.compose(m))
    if isinstance(node, Apply):
        return Apply(node.template, tuple(_compose(a, m) for a in node.args), node.result)
    if isinstance(node, Reduce):
        return node.at(m)
    return node


def _rank(v: SSAValue) -> int:
    return len(v.type.get_shape()) if isinstance(v.type, ShapedType) else 0


def _broadcast(rank: int) -> AffineMap:
    """A rank-0 (scalar) node seen from a space of `rank` dimensions."""
    return AffineMap(rank, 0, ())


def _zero() -> AffineExpr:
    return AffineExpr.constant(0)


class _Fuser:
    def __init__(self) -> None:
        self.group: FusedGroup | None = None
        self.memo: dict[SSAValue, Node] = {}
        self.load_index: dict[Operation, int] = {}

    def node(self, v: SSAValue) -> Node:
        """The node of `v` on its own space (its tensor's dimensions; none for a scalar)."""
        if v in self.memo:
            return self.memo[v]
        n = self._node(v)
        self.memo[v] = n
        return n

    def at(self, v: SSAValue, rank: int) -> Node:
        """The node of `v` on a space of `rank` dims: its own, or a scalar broadcast."""
        n = self.node(v)
        own = _rank(v)
        if own == rank:
            return n
        if own == 0:
            return _compose(n, _broadcast(rank))
        raise op_error(v.owner if isinstance(v.owner, Operation) else None,  # type: ignore
                       f"an operand of rank {own} in a computation of rank {rank}")

    def _node(self, v: SSAValue) -> Node:
        op = v.owner
        rank = _rank(v)
        assert self.group is not None
        if not isinstance(op, Operation):  # a block argument: a scalar from outside
            return self._captured(v)
        if isinstance(op, ktdp.LoadOp):
            if op not in self.load_index:
                self.load_index[op] = len(self.group.loads)
                self.group.loads.append(access_of(op))
            return Leaf(self.load_index[op], AffineMap.identity(rank))
        if op.name in ("arith.constant", "linalg.generic", "tensor.extract_slice",
                       "tensor.from_elements",
                       "tensor.collapse_shape", "tensor.expand_shape", "tensor.extract"):
            why = structural_reason(op)
            if why is not None:
                raise op_error(op, why)
        if isinstance(op, arith.ConstantOp):
            return self._constant(op)
        if isinstance(op, tensor.EmptyOp):  # the reference interpreter's zeros
            e = element_of(v.type)
            return Const(FloatAttr(0.0, e) if _is_float(e) else IntegerAttr(0, e))
        if isinstance(op, tensor.SplatOp):
            return _compose(self.node(op.input), _broadcast(rank))
        if isinstance(op, tensor.FromElementsOp):  # one element (structural_reason)
            return _compose(self.node(op.elements[0]), _broadcast(rank))
        if isinstance(op, linalg.FillOp):
            return _compose(self.node(op.inputs[0]), _broadcast(rank))
        if isinstance(op, tensor.ExtractOp):
            idx = tuple(AffineExpr.constant(const_int(i) or 0) for i in op.indices)
            return _compose(self.node(op.tensor), AffineMap(0, 0, idx))
        if isinstance(op, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
            return self._reshape(op, rank)
        if isinstance(op, tensor.ExtractSliceOp):
            return self._slice(op, rank)
        if isinstance(op, linalg.TransposeOp):
            perm = [int(p) for p in op.permutation.get_values()]
            inverse = {p: i for i, p in enumerate(perm)}
            m = AffineMap(rank, 0, tuple(AffineExpr.dimension(inverse[d])
                                          for d in range(rank)))
            return _compose(self.node(op.inputs[0]), m)
        if isinstance(op, linalg.ReduceOp):
            return self._reduce(op)
        if isinstance(op, linalg.GenericOp):
            if any(it.data.value != "parallel" for it in op.iterator_types.data):
                return self._reducing_generic(op, v)
            return self._generic(op, v, rank)
        if isinstance(op, linalg.BroadcastOp):
            dims = set(op.dimensions.get_values())
            kept = [AffineExpr.dimension(d) for d in range(rank) if d not in dims]
            return _compose(self.node(op.input), AffineMap(rank, 0, tuple(kept)))
        if op.name in NAMED_ELEMENTWISE:
            return self._named(op, v, rank)
        if op.name in SCALAR_OPS:
            why = scalar_reason(op)
            if why is not None:
                raise op_error(op, why)
            return Apply(op, tuple(self.at(a, rank) for a in op.operands),
                         list(op.results).index(v))
        if not isinstance(v.type, ShapedType):
            return self._captured(v)
        raise op_error(op, "not an element-wise computation of loaded tiles")

    def _captured(self, v: SSAValue) -> Node:
        if isinstance(v.type, ShapedType):
            raise op_error(v.owner.parent_op() if not isinstance(v.owner, Operation)  # type: ignore
                           else v.owner, "a tensor computed outside the group")
        return Captured(v)

    def _constant(self, op: arith.ConstantOp) -> Node:
        value = op.value
        if isinstance(value, DenseIntOrFPElementsAttr):
            elt = value.get_element_type()
            if _is_float(elt):
                return Const(FloatAttr(float(value.get_values()[0]), elt))
            return Const(IntegerAttr(int(value.get_values()[0]), elt))
        if isinstance(value, FloatAttr | IntegerAttr):
            return Const(value)
        raise op_error(op, f"constant {value} in compute")

    def _reshape(self, op: tensor.CollapseShapeOp | tensor.ExpandShapeOp, rank: int) -> Node:
        src = op.src
        groups = reassociation(op)
        if isinstance(op, tensor.CollapseShapeOp):  # result dim k = source dims groups[k]
            shape = src.type.get_shape()  # type: ignore[attr-defined]
            results = [_zero() for _ in shape]
            for k, g in enumerate(groups):
                big = [d for d in g if shape[d] != 1]
                if big:
                    results[big[0]] = AffineExpr.dimension(k)
        else:  # source dim j = result dims groups[j]
            shape = op.result.type.get_shape()  # type: ignore[attr-defined]
            results = []
            for g in groups:
                big = [d for d in g if shape[d] != 1]
                results.append(AffineExpr.dimension(big[0]) if big else _zero())
        return _compose(self.node(src), AffineMap(rank, 0, tuple(results)))

    def _slice(self, op: tensor.ExtractSliceOp, rank: int) -> Node:
        offs = [int(x) for x in op.static_offsets.get_values()]
        sizes = [int(x) for x in op.static_sizes.get_values()]
        strides = [int(x) for x in op.static_strides.get_values()]
        out = list(op.result.type.get_shape())
        results: list[AffineExpr] = []
        k = 0
        for j, size in enumerate(sizes):
            if k < len(out) and size == out[k]:  # a kept dimension (rank reduction drops 1s)
                results.append(AffineExpr.dimension(k) * strides[j] + offs[j])
                k += 1
            else:
                results.append(AffineExpr.constant(offs[j]))
        return _compose(self.node(op.source), AffineMap(rank, 0, tuple(results)))

    def _named(self, op: Operation, v: SSAValue, rank: int) -> Node:
        body = op.regions[0].block
        ins = list(op.operands)[: len(body.args) - 1]
        env: dict[SSAValue, Node] = {a: self.at(x, rank) for a, x in zip(body.args, ins)}
        return self._body_node(op, body, env, list(op.results).index(v), rank)

    def _generic(self, op: linalg.GenericOp, v: SSAValue, rank: int) -> Node:
        maps = [m.data for m in op.indexing_maps.data]
        body = op.body.block
        n_in = len(op.inputs)
        env: dict[SSAValue, Node] = {}
        for arg, x, m in zip(body.args, op.inputs, maps):
            env[arg] = _compose(self.node(x), m)
        for arg in body.args[n_in:]:
            if arg.first_use is not None:
                raise op_error(op, "the body reads its output (accumulation); only element-wise "
                                   "generics are fused")
        out_index = list(op.results).index(v)
        out_map = maps[n_in + out_index]
        if out_map != AffineMap.identity(out_map.num_dims):
            raise op_error(op, "linalg.generic outputs must use identity indexing maps")
        return self._body_node(op, body, env, out_index, rank)

    def _reduce(self, op: linalg.ReduceOp) -> Node:
        why = structural_reason(op)
        if why is not None:
            raise op_error(op, why)
        x = op.input
        shape = tuple(x.type.get_shape())  # type: ignore[attr-defined]
        dims = tuple(sorted(int(d) for d in op.dimensions.get_values()))
        env: dict[SSAValue, Node] = {op.region.block.args[0]: self.node(x)}
        return self._reduction(op, 0, env, op.init, dims, shape)

    def _reducing_generic(self, op: linalg.GenericOp, v: SSAValue) -> Node:
        why = structural_reason(op)
        if why is not None:
            raise op_error(op, why)
        maps = [m.data for m in op.indexing_maps.data]
        iters = [it.data.value for it in op.iterator_types.data]
        dims = tuple(d for d, it in enumerate(iters) if it != "parallel")
        shape: list[int | None] = [None] * len(iters)
        for x, m in zip((*op.inputs, *op.outputs), maps):
            for e, n in zip(m.results, x.type.get_shape()):  # type: ignore[attr-defined]
                if isinstance(e, AffineDimExpr):
                    shape[e.position] = n
        if any(n is None for n in shape):
            raise op_error(op, "a loop of the reduction has an extent no operand gives")
        env = {a: _compose(self.node(x), m)
               for a, x, m in zip(op.body.block.args, op.inputs, maps)}
        index = list(op.results).index(v)
        return self._reduction(op, index, env, op.outputs[index], dims,
                               tuple(shape))  # type: ignore[arg-type]

    def _reduction(self, op: Operation, index: int, env: dict[SSAValue, Node],
                   init: SSAValue, dims: tuple[int, ...], shape: tuple[int, ...]) -> Node:
        """The node of a reduction result on its own space: the kept dims in order."""
        combiners = reduction_combiners(op)
        assert not isinstance(combiners, str)  # structural_reason said so
        comb = combiners[index]
        contrib = self._body_value(op, op.regions[0].block, env, comb.contribution,
                                   len(shape), set(comb.ops))
        init_node = self.node(init)
        if not isinstance(init_node, Const | Captured):
            raise op_error(op, "the init of a reduction must be one value on every element "
                               "(a splat, a fill or a constant): not supported by the "
                               "scheduler yet")
        kept = [d for d in range(len(shape)) if d not in dims]
        own = AffineMap(len(kept), 0, tuple(
            _zero() if d in dims else AffineExpr.dimension(kept.index(d))
            for d in range(len(shape))))
        return Reduce(op, index, (contrib,), comb, init_node, dims, shape, own)

    def _body_value(self, op: Operation, body: Block, env: dict[SSAValue, Node],
                    target: SSAValue, rank: int, skip: set[Operation]) -> Node:
        """The node of `target`, a value of the body (ops in `skip` are not walked)."""
        def arg(a: SSAValue) -> Node:
            return env[a] if a in env else self.at(a, rank)

        for inner in body.ops:
            if target in env or inner in skip:
                continue
            if isinstance(inner, linalg.YieldOp):
                break
            if isinstance(inner, arith.ConstantOp):
                env[inner.result] = self._constant(inner)
                continue
            why = scalar_reason(inner)
            if why is not None:
                raise op_error(inner, why)
            args = tuple(arg(a) for a in inner.operands)
            for k, r in enumerate(inner.results):
                env[r] = Apply(inner, args, k)
        return arg(target)

    def _body_node(self, op: Operation, body: Block, env: dict[SSAValue, Node],
                   index: int, rank: int) -> Node:
        """The node of the body's `index`-th yielded value."""
        y = body.last_op
        if not isinstance(y, linalg.YieldOp):
            raise op_error(op, "body without linalg.yield")
        return self._body_value(op, body, env, y.operands[index], rank, set())


def _is_float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


def fuse_group(stores: list[ktdp.StoreOp]) -> FusedGroup:
    """One iteration space and one DAG per stored value. The space is the stored tile
    shape, or, in a group that reduces, the space of its reductions; a store then holds
    either that whole space or the reductions' results (the space less the reduced dims)."""
    first = access_of(stores[0])
    fuser = _Fuser()
    fuser.group = FusedGroup(first.shape)
    for st in stores:
        acc = access_of(st)
        fuser.group.outputs.append((acc, fuser.at(st.data, len(acc.shape))))
    reds = fuser.group.reductions()
    space = reds[0].extents if reds else first.shape
    kept = (tuple(n for d, n in enumerate(space) if d not in reds[0].dims) if reds
            else space)
    for acc, _ in fuser.group.outputs:
        if acc.shape not in (space, kept):
            want = "x".join(map(str, space)) + (f" or {'x'.join(map(str, kept))}"
                                                if kept != space else "")
            raise op_error(acc.op, f"stores of one group must have the same shape "
                                   f"({'x'.join(map(str, acc.shape))} vs {want})")
    fuser.group.space = space
    return fuser.group


def direct_reads(v: SSAValue) -> list[Reduce]:
    """The reductions `v` is computed from without another reduction between, each seen from
    `v`'s own space (`Reduce.map`: v's dims -> the reduction's space, 0 in its reduced dims).
    Raises the fusion's diagnostic where `v` is not fusable."""
    fuser = _Fuser()
    fuser.group = FusedGroup(())
    out: list[Reduce] = []
    seen: set[Node] = set()
    stack = [fuser.node(v)]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        if isinstance(n, Reduce):
            out.append(n)
        elif isinstance(n, Apply):
            stack.extend(n.args)
    return out


class Follow(NamedTuple):
    """How one tile dimension of a leaf follows the iteration space: `dim * stride + offset`,
    or the constant `offset` when `dim` is None (a broadcast)."""

    dim: int | None
    stride: int
    offset: int


def leaf_dims(leaf: Leaf) -> list[Follow]:
    """For each tile dim of the leaf: the iteration-space dim it follows (with stride and
    offset), or a constant (broadcast)."""
    out: list[Follow] = []
    for e in leaf.map.results:
        f = _follow(e)
        if f is None:
            raise ValueError(f"indexing map result '{e}' is not 'dim * stride + offset'")
        out.append(f)
    return out


def _follow(e: AffineExpr) -> Follow | None:
    if isinstance(e, AffineConstantExpr):
        return Follow(None, 0, e.value)
    if isinstance(e, AffineDimExpr):
        return Follow(e.position, 1, 0)
    if isinstance(e, AffineBinaryOpExpr):
        if e.kind is AffineBinaryOpKind.Add and isinstance(e.rhs, AffineConstantExpr):
            f = _follow(e.lhs)
            return None if f is None else Follow(f.dim, f.stride, f.offset + e.rhs.value)
        if e.kind is AffineBinaryOpKind.Mul and isinstance(e.rhs, AffineConstantExpr):
            f = _follow(e.lhs)
            return None if f is None else Follow(f.dim, f.stride * e.rhs.value,
                                                 f.offset * e.rhs.value)
    return None


def build_body(group: FusedGroup, leaves: list[Leaf], element_types: list[Attribute],
               out_types: list[Attribute]) -> Block:
    """The scalar body of the fused generic: one block argument per leaf, then per output.
    Captured scalars are used where they are defined (the body reads them from outside)."""
    block = Block(arg_types=[*element_types, *out_types])
    values: dict[Node, SSAValue] = {}
    emitted: dict[tuple[Operation, tuple[Node, ...]], Operation] = {}

    def emit(n: Node) -> SSAValue:
        if n in values:
            return values[n]
        if isinstance(n, Leaf):
            v = block.args[leaves.index(n)]
        elif isinstance(n, Const):
            c = arith.ConstantOp(n.value)
            block.add_op(c)
            v = c.result
        elif isinstance(n, Captured):
            v = n.value
        else:
            key = (n.template, n.args)
            new = emitted.get(key)
            if new is None:
                new = n.rebuild([emit(a) for a in n.args])
                block.add_op(new)
                emitted[key] = new
            v = new.results[n.result]
        values[n] = v
        return v

    results = [emit(node) for _, node in group.outputs]
    block.add_op(linalg.YieldOp(*results))
    return block


__all__ = ["Access", "Apply", "Captured", "Const", "Follow", "FusedGroup", "Leaf", "Reduce",
           "access_of", "build_body", "direct_reads", "fuse_group", "leaf_dims"]
