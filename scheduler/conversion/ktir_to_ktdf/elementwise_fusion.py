"""Element-wise fusion of a compute group: what `construct-three-stage-pipeline` builds on.

A group (after `compute-group-extraction`) loads tiles, computes element-wise (named linalg
ops, `linalg.generic` with broadcasting maps, `linalg.broadcast`, `arith` on tensors, splat
constants) and stores tiles. `fuse_group` turns that into one iteration space and one
expression DAG per stored value, whose leaves are loads read through projected-permutation
maps (broadcasts allowed). `build_body` then emits the scalar body of the single fused
`linalg.generic` of the compute stage. Anything outside element-wise compute is reported at
its op (the legality check normally catches it first).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from ktir import affine
from ktir.diagnostics import op_error
from ktir.dialects import ktdp
from scheduler.analysis.compute_ops import ELEMENTWISE


@dataclass(frozen=True)
class Access:
    """A load or store through an access tile over a memory view."""

    op: ktdp.LoadOp | ktdp.StoreOp
    tile: ktdp.ConstructAccessTileOp
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
    value: FloatAttr


@dataclass(frozen=True)
class Apply:
    template: Operation  # a scalar op (e.g. arith.addf) to clone with new operands
    args: tuple[Node, ...]


Node = Leaf | Const | Apply


@dataclass
class FusedGroup:
    space: tuple[int, ...]
    loads: list[Access] = field(default_factory=list)
    outputs: list[tuple[Access, Node]] = field(default_factory=list)

    def leaves(self) -> list[Leaf]:
        """Distinct leaves in first-use order (one compute input each)."""
        seen: list[Leaf] = []

        def walk(n: Node) -> None:
            if isinstance(n, Leaf) and n not in seen:
                seen.append(n)
            elif isinstance(n, Apply):
                for a in n.args:
                    walk(a)

        for _, node in self.outputs:
            walk(node)
        return seen


def access_of(op: ktdp.LoadOp | ktdp.StoreOp) -> Access:
    tile = op.tile.owner
    if not isinstance(tile, ktdp.ConstructAccessTileOp) or not isinstance(
            tile.base.owner, ktdp.ConstructMemoryViewOp):
        raise op_error(op, "the tile must be a ktdp.construct_access_tile over a "
                           "ktdp.construct_memory_view")
    bounds = affine.dim_bounds(tile.access_tile_set.data)
    lower = tuple(lo if lo is not None else 0 for lo, _ in bounds)
    shape = tuple(tile.result.type.get_shape())
    return Access(op, tile, tile.base.owner, shape, lower)


def _compose(node: Node, m: AffineMap) -> Node:
    """Re-index a node defined on a tensor's space through `m` (outer space -> that space)."""
    if isinstance(node, Leaf):
        return Leaf(node.load, node.map.compose(m))
    if isinstance(node, Apply):
        return Apply(node.template, tuple(_compose(a, m) for a in node.args))
    return node


class _Fuser:
    def __init__(self) -> None:
        self.group: FusedGroup | None = None
        self.memo: dict[SSAValue, Node] = {}
        self.load_index: dict[Operation, int] = {}

    def node(self, v: SSAValue, space_rank: int) -> Node:
        if v in self.memo:
            return self.memo[v]
        n = self._node(v, space_rank)
        self.memo[v] = n
        return n

    def _node(self, v: SSAValue, rank: int) -> Node:
        op = v.owner
        assert self.group is not None
        if isinstance(op, ktdp.LoadOp):
            if op not in self.load_index:
                self.load_index[op] = len(self.group.loads)
                self.group.loads.append(access_of(op))
            return Leaf(self.load_index[op], AffineMap.identity(rank))
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, DenseIntOrFPElementsAttr) \
                and op.value.is_splat():
            elt = op.value.get_element_type()
            return Const(FloatAttr(op.value.get_float_values()[0], elt))
        if isinstance(op, linalg.GenericOp):
            return self._generic(op, v, rank)
        if isinstance(op, linalg.BroadcastOp):
            dims = set(op.dimensions.get_values())
            kept = [AffineExpr.dimension(d) for d in range(rank) if d not in dims]
            m = AffineMap(rank, 0, tuple(kept))
            return _compose(self.node(op.input, len(kept)), m)
        if op is not None and op.name in ELEMENTWISE and isinstance(v.type, TensorType):
            return Apply(op, tuple(self.node(a, rank) for a in op.operands))
        if isinstance(op, linalg.NamedOperation) and op.name != "linalg.generic":
            return self._named(op, v, rank)
        raise op_error(op if isinstance(op, Operation) else v.owner.parent_op(),
                       "not an element-wise computation of loaded tiles")

    def _named(self, op: Operation, v: SSAValue, rank: int) -> Node:
        body = op.regions[0].block
        ins = list(op.operands)[: len(body.args) - 1]
        env: dict[SSAValue, Node] = {a: self.node(x, rank) for a, x in zip(body.args, ins)}
        return self._body_node(op, body, env, list(op.results).index(v))

    def _generic(self, op: linalg.GenericOp, v: SSAValue, rank: int) -> Node:
        maps = [m.data for m in op.indexing_maps.data]
        body = op.body.block
        n_in = len(op.inputs)
        env: dict[SSAValue, Node] = {}
        for arg, x, m in zip(body.args, op.inputs, maps):
            env[arg] = _compose(self.node(x, len(m.results)), m)
        for arg in body.args[n_in:]:
            if arg.first_use is not None:
                raise op_error(op, "the body reads its output (accumulation); only element-wise "
                                   "generics are fused")
        out_index = list(op.results).index(v)
        out_map = maps[n_in + out_index]
        if out_map != AffineMap.identity(out_map.num_dims):
            raise op_error(op, "linalg.generic outputs must use identity indexing maps")
        return self._body_node(op, body, env, out_index)

    def _body_node(self, op: Operation, body: Block, env: dict[SSAValue, Node],
                   index: int) -> Node:
        for inner in body.ops:
            if isinstance(inner, linalg.YieldOp):
                return env[inner.operands[index]]
            if isinstance(inner, arith.ConstantOp) and isinstance(inner.value, FloatAttr):
                env[inner.result] = Const(inner.value)
                continue
            if inner.name not in ELEMENTWISE:
                raise op_error(inner, f"'{inner.name}' is not a supported element-wise op")
            env[inner.results[0]] = Apply(inner, tuple(env[a] for a in inner.operands))
        raise op_error(op, "body without linalg.yield")


def fuse_group(stores: list[ktdp.StoreOp]) -> FusedGroup:
    """One iteration space (the stored tile shape) and one DAG per stored value."""
    first = access_of(stores[0])
    fuser = _Fuser()
    fuser.group = FusedGroup(first.shape)
    for st in stores:
        acc = access_of(st)
        if acc.shape != first.shape:
            raise op_error(st, f"stores of one group must have the same shape "
                               f"({'x'.join(map(str, acc.shape))} vs "
                               f"{'x'.join(map(str, first.shape))})")
        fuser.group.outputs.append((acc, fuser.node(st.data, len(acc.shape))))
    return fuser.group


def leaf_dims(leaf: Leaf) -> list[int | None]:
    """For each tile dim of the leaf: the iteration-space dim it follows, or None (broadcast)."""
    out: list[int | None] = []
    for e in leaf.map.results:
        if isinstance(e, AffineDimExpr):
            out.append(e.position)
        elif isinstance(e, AffineConstantExpr) and e.value == 0:
            out.append(None)
        else:
            raise ValueError(f"indexing map result '{e}' is not a dim or 0")
    return out


def build_body(group: FusedGroup, leaves: list[Leaf], element_types: list[Attribute],
               out_types: list[Attribute]) -> Block:
    """The scalar body of the fused generic: one block argument per leaf, then per output."""
    block = Block(arg_types=[*element_types, *out_types])
    values: dict[Node, SSAValue] = {}

    def emit(n: Node) -> SSAValue:
        if n in values:
            return values[n]
        if isinstance(n, Leaf):
            v = block.args[leaves.index(n)]
        elif isinstance(n, Const):
            c = arith.ConstantOp(n.value)
            block.add_op(c)
            v = c.result
        else:
            args = [emit(a) for a in n.args]
            t = n.template  # rebuilt on scalars: tensor-level arith ops become element ops
            new = type(t).create(operands=args, result_types=[args[0].type],
                                 properties=dict(t.properties), attributes=dict(t.attributes))
            block.add_op(new)
            v = new.results[0]
        values[n] = v
        return v

    results = [emit(node) for _, node in group.outputs]
    block.add_op(linalg.YieldOp(*results))
    return block


__all__ = ["Access", "Apply", "Const", "FusedGroup", "Leaf", "access_of", "build_body",
           "fuse_group", "leaf_dims"]
