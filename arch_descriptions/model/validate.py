"""Checks that need the whole machine (the dialect verifier checks each op on its own).

Every failure is a located `KtirDiagnostic` naming the resource: duplicate instance ids,
endpoints that are not resources, kinds used inconsistently, groups of one kind that are not
copies of each other, memories no unit can reach, a compute unit cut off from global memory,
no or several compute units, several global memories without a mapping. `warnings` lists what
is legal but will stop the scheduler (compute links without ordered queues).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.ir import Operation

from arch_descriptions.dialects.ktdf_arch import (
    DatapathOp,
    ExecUnitOp,
    GroupOp,
    MemoryOp,
    describe,
    resolve_endpoint,
)
from arch_descriptions.model.structure import Structure, kind_of
from ktir.diagnostics import op_error, op_location


def _where(op: Operation) -> str:
    loc = op_location(op)
    return f"line {loc[1]}" if loc else "elsewhere"


@dataclass
class Checked:
    """What validation derives on the way: kind-level graph and the global memory."""

    edges: dict[str, list[str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def check_structure(s: Structure) -> Checked:
    out = Checked()
    _check_endpoints(s)
    _check_kinds(s)
    _check_groups(s)
    _check_instance_ids(s)
    for dp in s.datapaths:
        a, b = (kind_of(resolve_endpoint(v)) for v in dp.operands)  # type: ignore[arg-type]
        if a != b and b not in out.edges.setdefault(a, []):
            out.edges[a].append(b)
    _check_reachable(s, out.edges)
    return out


def _check_endpoints(s: Structure) -> None:
    for dp in s.datapaths:
        for role, value in (("source", dp.source), ("target", dp.target)):
            if resolve_endpoint(value) is None:
                raise op_error(dp, f"{describe(dp)}: the {role} is not a resource of the "
                                   "device (an endpoint is a memory, an exec unit, a switch "
                                   "port, a memory captured with share(...) or an exec unit "
                                   "a group yields)")


def _check_kinds(s: Structure) -> None:
    """One kind, one meaning: identical attributes and the same place in the memory tree."""
    first: dict[str, Operation] = {}
    for node in s.nodes:
        kind = kind_of(node)
        prev = first.setdefault(kind, node)
        if prev is node:
            continue
        if type(prev) is not type(node):
            raise op_error(node, f"{describe(node)}: kind \"{kind}\" already names a "
                                 f"{prev.name.removeprefix('ktdf_arch.')} ({_where(prev)}); "
                                 "memories, exec units and switches need distinct kinds")
        mine = {k: v for k, v in node.attributes.items() if k != "id"}
        theirs = {k: v for k, v in prev.attributes.items() if k != "id"}
        if mine != theirs or len(node.results) != len(prev.results):
            diff = sorted(k for k in mine.keys() | theirs.keys()
                          if mine.get(k) != theirs.get(k))
            raise op_error(node, f"{describe(node)} differs from the first resource of kind "
                                 f"\"{kind}\" ({_where(prev)}) in: " + ", ".join(diff or
                                                                         ["ports"])
                                 + "; resources of one kind must be identical (give this one "
                                 "its own kind)")
        if isinstance(node, MemoryOp) and s.depth(node) != s.depth(prev):  # type: ignore[arg-type]
            raise op_error(node, f"{describe(node)} sits at depth {s.depth(node)} of the memory "
                                 f"tree, but the first memory of kind \"{kind}\" ({_where(prev)})"
                                 f" sits at depth {s.depth(prev)}")  # type: ignore[arg-type]


def _signature(op: Operation, s: Structure) -> tuple:
    if isinstance(op, GroupOp):
        return ("group", kind_of(op), len(op.operands), len(op.results),
                tuple(_signature(c, s) for c in op.body.block.ops))
    if isinstance(op, DatapathOp):
        return ("datapath", *(kind_of(resolve_endpoint(v)) for v in op.operands))  # type: ignore[arg-type]
    return (op.name, kind_of(op))


def _check_groups(s: Structure) -> None:
    """Groups of one kind (kindless groups: siblings) are copies of each other."""
    first: dict[tuple, GroupOp] = {}
    for g in s.groups:
        key = (kind_of(g),) if "kind" in g.attributes else ("", g.parent_op())
        prev = first.setdefault(key, g)
        if prev is not g and _signature(g, s) != _signature(prev, s):
            raise op_error(g, f"{describe(g)} is not a copy of the first group of its kind "
                              f"({_where(prev)}): groups of one kind must hold the same "
                              "resources in the same order (give it its own kind)")


def _check_instance_ids(s: Structure) -> None:
    seen: dict[str, Operation] = {}
    for node in s.nodes:
        rid = s.instance_id(node)
        if (prev := seen.setdefault(rid, node)) is not node:
            raise op_error(node, f"{describe(node)}: duplicate resource id {rid} (also "
                                 f"{_where(prev)}); two resources of one kind in the same "
                                 "core or corelet need distinct kinds or sibling groups")


def _check_reachable(s: Structure, edges: dict[str, list[str]]) -> None:
    units = {kind_of(n) for n in s.nodes if isinstance(n, ExecUnitOp)}
    back: dict[str, list[str]] = {}
    for a, bs in edges.items():
        for b in bs:
            back.setdefault(b, []).append(a)
    seen_mem: set[str] = set()
    for node in s.nodes:
        kind = kind_of(node)
        if not isinstance(node, MemoryOp) or kind in seen_mem:
            continue
        seen_mem.add(kind)
        group = node.parent_op()
        local = group is not s.device and any(
            isinstance(o, ExecUnitOp) for o in group.regions[0].block.ops)  # type: ignore[union-attr]
        if not (local or _reaches(kind, edges, units.__contains__)
                or _reaches(kind, back, units.__contains__)):
            raise op_error(node, f"{describe(node)} is not connected to any execution unit: "
                                 "no datapath path leads from it to a unit or from a unit to "
                                 "it, and no unit sits next to it in its group (its local "
                                 "memory), so nothing can read or write it")


def _reaches(start: str, edges: dict[str, list[str]], goal: Callable[[str], bool]) -> bool:
    seen, todo = {start}, [start]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if goal(nxt):
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def check_compute(s: Structure, global_kind: str, edges: dict[str, list[str]],
                  warnings: list[str]) -> str:
    """The unique compute kind, reachable from and back to global memory."""
    kinds: dict[str, ExecUnitOp] = {}
    for unit in s.compute_units:
        kinds.setdefault(kind_of(unit), unit)
    if not kinds:
        raise op_error(s.device, f"device @{s.device.sym_name.data} has no compute unit: mark "
                                 "one exec_unit with ktdf_arch.features = "
                                 "{ktdf_arch.feature.compute}")
    if len(kinds) > 1:
        (k0, u0), (k1, u1) = list(kinds.items())[:2]
        raise op_error(u1, f"found second compute unit kind \"{k1}\" (the first is \"{k0}\", "
                           f"{_where(u0)}); the scheduler needs exactly one kind with "
                           "ktdf_arch.feature.compute")
    kind, unit = next(iter(kinds.items()))
    for other in s.nodes:
        if isinstance(other, ExecUnitOp) and other.feature("matrix") is not None \
                and other.feature("compute") is None:
            raise op_error(other, f"{describe(other)}: ktdf_arch.feature.matrix on a unit "
                                  "without ktdf_arch.feature.compute (the matrix engine is "
                                  f"part of the compute unit, here \"{kind}\")")
    back: dict[str, list[str]] = {}
    for a, bs in edges.items():
        for b in bs:
            back.setdefault(b, []).append(a)
    if not _reaches(global_kind, edges, kind.__eq__):
        raise op_error(unit, f"{describe(unit)}: compute unit has no route from global memory "
                             f"\"{global_kind}\" (no chain of datapaths {global_kind} -> ... -> "
                             f"{kind})")
    if not _reaches(global_kind, back, kind.__eq__):
        raise op_error(unit, f"{describe(unit)}: compute unit has no route to global memory "
                             f"\"{global_kind}\" (no chain of datapaths {kind} -> ... -> "
                             f"{global_kind})")
    for dp in s.datapaths:
        ends = [kind_of(resolve_endpoint(v)) for v in dp.operands]  # type: ignore[arg-type]
        queue = dp.feature("queue")
        ordered = queue is not None and "ordered" in getattr(queue, "data", {})
        if kind in ends and ends[0] != ends[1] and not ordered:
            warnings.append(f"{describe(dp)} ({_where(dp)}) touches the compute unit but has no "
                            "ordered queue (ktdf_arch.feature.queue = {ordered}); "
                            "construct-three-stage-pipeline needs one")
    return kind
