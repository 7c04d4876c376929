"""The resources of one device definition with their groups resolved: which group each resource
sits in, which groups are cores and corelets, the memory tree, and the instance id of every
resource. Read-only analysis of the IR; `build.py` turns it into a `Device`.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from arch_descriptions.dialects.ktdf_arch import (
    DatapathOp,
    DeviceOp,
    ExecUnitOp,
    GroupOp,
    MemoryOp,
    PatternsOp,
    SwitchOp,
    kind_text,
    resolve_endpoint,
)

Node = MemoryOp | ExecUnitOp | SwitchOp
CORE_KIND = "core"


def kind_name(attr: Attribute | None, default: str) -> str:
    """The kind of a resource as a plain string, `default` when it has none."""
    text = kind_text(attr)
    return default if text is None else text


def kind_of(op: Operation) -> str:
    default = {MemoryOp: "memory", ExecUnitOp: "exec_unit", SwitchOp: "switch",
               GroupOp: "group"}.get(type(op), op.name)
    return kind_name(op.attributes.get("kind"), default)


class Structure:
    """Resources of a device definition in walk order, with group chains and instances."""

    def __init__(self, device: DeviceOp):
        self.device = device
        self.nodes: list[Node] = []
        self.groups: list[GroupOp] = []
        self.datapaths: list[DatapathOp] = []
        self.patterns: list[PatternsOp] = []
        # innermost-first enclosing groups of every resource
        self.chain: dict[Operation, tuple[GroupOp, ...]] = {}
        self.mem_parent: dict[MemoryOp, MemoryOp | None] = {}
        if not device.is_imported:
            self._walk(device.body.block.ops, (), None)
        self.core_groups = [g for g in self.groups if kind_of(g) == CORE_KIND
                            and not any(kind_of(a) == CORE_KIND for a in self.chain[g])]
        self._core_index = {g: i for i, g in enumerate(self.core_groups)}
        self.compute_units = [n for n in self.nodes
                              if isinstance(n, ExecUnitOp) and n.feature("compute") is not None]
        self.corelet_kind, self.corelets_per_core = self._corelets()

    def _walk(self, ops: Iterable[Operation], chain: tuple[GroupOp, ...],
              parent_mem: MemoryOp | None) -> None:
        for op in ops:
            self.chain[op] = chain
            if isinstance(op, GroupOp):
                self.groups.append(op)
                inner = parent_mem
                if op.operands:
                    first = resolve_endpoint(op.operands[0])
                    inner = first if isinstance(first, MemoryOp) else parent_mem
                self._walk(op.body.block.ops, (op, *chain), inner)
            elif isinstance(op, MemoryOp | ExecUnitOp | SwitchOp):
                self.nodes.append(op)
                if isinstance(op, MemoryOp):
                    self.mem_parent[op] = parent_mem
            elif isinstance(op, DatapathOp):
                self.datapaths.append(op)
            elif isinstance(op, PatternsOp):
                self.patterns.append(op)

    # ---- groups ---------------------------------------------------------------------------

    def is_alias(self, group: GroupOp) -> bool:
        """A group that only names its unit(s): every exec unit inside it is yielded."""
        if not group.results:
            return False
        inside = {n for n in self.nodes if isinstance(n, ExecUnitOp) and group in self.chain[n]}
        yielded = {resolve_endpoint(r) for r in group.results}
        return bool(inside) and inside <= yielded

    def scope_of(self, op: Operation) -> Operation:
        """The core group an op lies in, else the device."""
        for g in self.chain.get(op, ()):
            if g in self._core_index:
                return g
        return self.device

    def core_index(self, op: Operation) -> int | None:
        scope = self.scope_of(op)
        if scope is self.device:
            return None if self.core_groups else 0
        return self._core_index[scope]  # type: ignore[index]

    def _top_group(self, op: Operation) -> GroupOp | None:
        """The group right under the op's core scope that contains it (None if none)."""
        scope = self.scope_of(op)
        for g in self.chain.get(op, ()):
            if g.parent_op() is scope:
                return g
        return None

    def _corelets(self) -> tuple[str | None, int]:
        if not self.compute_units:
            return None, 1
        top = self._top_group(self.compute_units[0])
        if top is None or self.is_alias(top):
            return None, 1
        kind = kind_of(top)
        scope = self.core_groups[0] if self.core_groups else self.device
        siblings = [g for g in scope.regions[0].block.ops
                    if isinstance(g, GroupOp) and kind_of(g) == kind and not self.is_alias(g)]
        return kind, len(siblings)

    def is_corelet_group(self, g: GroupOp) -> bool:
        return (self.corelet_kind is not None and kind_of(g) == self.corelet_kind
                and not self.is_alias(g) and g.parent_op() is self.scope_of(g))

    def corelet_index(self, op: Operation) -> int | None:
        if self.corelet_kind is None:
            return None
        top = self._top_group(op)
        if top is None or kind_of(top) != self.corelet_kind or self.is_alias(top):
            return None
        scope = top.parent_op()
        assert scope is not None
        peers = [g for g in scope.regions[0].block.ops
                 if isinstance(g, GroupOp) and kind_of(g) == self.corelet_kind
                 and not self.is_alias(g)]
        return peers.index(top)

    # ---- memory tree ------------------------------------------------------------------------

    def depth(self, mem: MemoryOp) -> int:
        d, cur = 0, self.mem_parent.get(mem)
        while cur is not None and d <= len(self.mem_parent):
            d, cur = d + 1, self.mem_parent.get(cur)
        return d

    # ---- instances --------------------------------------------------------------------------

    def is_shared(self, op: Operation) -> bool:
        """Outside every core: one instance for the whole device (global memory)."""
        if isinstance(op, MemoryOp) and self.depth(op) == 0:
            return True
        return bool(self.core_groups) and self.scope_of(op) is self.device

    def instance_id(self, node: Operation) -> str:
        kind = kind_of(node)
        if self.is_shared(node):
            return kind
        rid = f"C{self.core_index(node)}-{kind}"
        cl = self.corelet_index(node)
        return rid if cl is None else f"{rid}-CL{cl}"

    def endpoint_id(self, value: SSAValue) -> str | None:
        node = resolve_endpoint(value)
        if node is None:
            return None
        rid = self.instance_id(node)
        if isinstance(node, SwitchOp):
            port = value
            while not (isinstance(port, OpResult) and port.op is node):
                port = _step(port)
            rid += f".P{port.index}"
        return rid

    def in_template(self, op: Operation) -> bool:
        """In the first core (or outside the cores): the part a template device replicates."""
        return self.core_index(op) in (None, 0)


def _step(value: SSAValue) -> SSAValue:
    """One step of `resolve_endpoint` (for finding the switch port behind a value)."""
    from xdsl.ir import BlockArgument

    if isinstance(value, BlockArgument):
        return value.block.parent_op().operands[value.index]  # type: ignore[union-attr]
    assert isinstance(value, OpResult)
    return value.op.regions[0].block.last_op.operands[value.index]  # type: ignore[union-attr]
