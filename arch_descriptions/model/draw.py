"""Graphviz DOT of a device as written: groups are clusters, memories and units are nodes,
datapaths are edges labelled with their timing. Plain text, no graphviz package needed."""

from __future__ import annotations

from xdsl.ir import Operation

from arch_descriptions.dialects.ktdf_arch import (
    ExecUnitOp,
    GroupOp,
    MemoryOp,
    SwitchOp,
    resolve_endpoint,
)
from arch_descriptions.model.device import Device
from arch_descriptions.model.structure import Structure, kind_of

_SHAPES = {MemoryOp: "cylinder", ExecUnitOp: "box", SwitchOp: "diamond"}


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_size(n: int | None) -> str:
    """`2 MiB`, `100 B`; "" for no size."""
    if n is None:
        return ""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n} B"


def _group_label(s: Structure, group: GroupOp) -> str:
    if group in s.core_groups:
        label = f"core C{s.core_groups.index(group)}"
    elif s.is_corelet_group(group):
        label = f"corelet CL{s.corelet_index(group.body.block.first_op)}" if \
            group.body.block.first_op is not None else "corelet"
        if "kind" in group.attributes:
            label += f" ({kind_of(group)})"
    else:
        label = kind_of(group)
    return label + (f" @{group.resource_id}" if group.resource_id else "")


def to_dot(device: Device) -> str:
    s = Structure(device.definition)
    ids = {node: f"n{i}" for i, node in enumerate(s.nodes)}
    out = [f"digraph {_quote(device.name)} {{", "  rankdir=LR;", "  compound=true;",
           '  node [fontname="Helvetica", fontsize=10];',
           '  edge [fontname="Helvetica", fontsize=8];',
           f"  label={_quote(f'device @{device.name}')};"]
    counter = [0]

    def node_line(op: Operation) -> str:
        kind = kind_of(op)
        rid = s.instance_id(op)
        label = kind if rid == kind else f"{kind}\\n{rid}"
        extra = ""
        if isinstance(op, MemoryOp) and op.size is not None:
            label += f"\\n{format_size(op.size)}"
        if kind == device.compute_kind and isinstance(op, ExecUnitOp):
            extra = ', style="filled,bold", fillcolor="#ffe9b3"'
        elif isinstance(op, MemoryOp):
            extra = ', style=filled, fillcolor="#dcebff"'
        return f'{ids[op]} [label="{label}", shape={_SHAPES[type(op)]}{extra}];'  # type: ignore[index]

    def emit(ops, indent: str) -> None:
        for op in ops:
            if isinstance(op, GroupOp):
                counter[0] += 1
                name = _group_label(s, op)
                out.append(f"{indent}subgraph cluster_{counter[0]} {{")
                out.append(f"{indent}  label={_quote(name)}; style=rounded;")
                emit(op.body.block.ops, indent + "  ")
                out.append(f"{indent}}}")
            elif op in ids:
                out.append(indent + node_line(op))

    emit(device.definition.body.block.ops, "  ")
    by_op = {dp.op: dp for dp in device.datapaths}
    for op in s.datapaths:
        src, dst = (resolve_endpoint(v) for v in (op.source, op.target))
        kinds = (kind_of(src), kind_of(dst))  # type: ignore[arg-type]
        model = by_op.get(op) or device.datapath(*kinds)
        label = ""
        if model is not None:
            label = f"{model.bytes_per_cycle} B/cy, {model.latency} cy"
            if model.is_queue:
                label += f", q{model.queue_depth}" + (" ord" if model.ordered else "")
        out.append(f"  {ids[src]} -> {ids[dst]} [label={_quote(label)}];")  # type: ignore[index]
    out.append("}")
    return "\n".join(out) + "\n"

