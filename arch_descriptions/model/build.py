"""Build a `Device` from a device definition: kinds, counts, memory tree, timing with defaults.

Timing attributes absent from the description get the defaults of shared/spec/arch.md §8, and
each default applied is recorded in `Device.defaults_used` so the emulator can say what it
assumed.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, DictionaryAttr, FloatAttr, StringAttr
from xdsl.ir import Attribute

from arch_descriptions.dialects.ktdf_arch import (
    DatapathOp,
    DeviceOp,
    ExecUnitOp,
    MapAttr,
    MemoryOp,
    resolve_endpoint,
)
from arch_descriptions.dialects.ktdf_arch_intrinsics import as_i64, map_items
from arch_descriptions.model import device as dm
from arch_descriptions.model.structure import Structure, kind_name, kind_of
from arch_descriptions.model.validate import check_compute, check_structure
from ktir.diagnostics import op_error


def build_device(definition: DeviceOp, declaration: DeviceOp,
                 attributes: Mapping[str, Attribute], source_path: Path | None) -> dm.Device:
    """The model of `definition`, with the device-level `attributes` (declaration overrides
    applied); raises a located KtirDiagnostic when the description is not usable."""
    s = Structure(definition)
    checked = check_structure(s)
    defaults: list[str] = []
    mapping = _space_mapping(declaration, attributes, s)
    memories = _memories(s, defaults)
    global_kind = _global_memory(s, memories, mapping)
    compute = check_compute(s, global_kind, checked.edges, checked.warnings)
    datapaths, by_op = _datapaths(s, memories, defaults)
    units = _units(s, datapaths, defaults)
    clock = attributes.get("ktdf_arch.clock_ghz")
    signal = as_i64(attributes.get("ktdf_arch.signal_latency"))
    defaults[:0] = ([f"device: clock_ghz = {dm.DEFAULT_CLOCK_GHZ}"] if clock is None else []) \
        + ([f"device: signal_latency = {dm.DEFAULT_SIGNAL_LATENCY} cycle"] if signal is None
           else [])
    max_cores = len(s.core_groups) if len(s.core_groups) > 1 else None
    links = [(s.endpoint_id(dp.source), s.endpoint_id(dp.target), by_op[dp])
             for dp in s.datapaths if max_cores is not None or s.in_template(dp)]
    corelet_kinds = frozenset(kind_of(n) for n in s.nodes if s.corelet_index(n) is not None)
    device = dm.Device(
        name=definition.sym_name.data, definition=definition, declaration=declaration,
        attributes=attributes, source_path=source_path,
        clock_ghz=_float(clock) if clock is not None else dm.DEFAULT_CLOCK_GHZ,
        signal_latency=dm.DEFAULT_SIGNAL_LATENCY if signal is None else signal,
        memories=memories, units=units, datapaths=datapaths, groups=_groups(s),
        global_memory_kind=global_kind, compute_kind=compute,
        corelets_per_core=s.corelets_per_core, max_cores=max_cores, space_mapping=mapping,
        defaults_used=defaults, links=links,  # type: ignore[arg-type]
        core_local_ids=corelet_kinds, warnings=checked.warnings)
    return device


def _float(attr: Attribute) -> float:
    return float(attr.value.data) if isinstance(attr, FloatAttr) else float(as_i64(attr) or 0)


def _counts(s: Structure, ops: list) -> tuple[int, int]:
    """(instances in the first core, instances outside the cores)."""
    shared = sum(1 for op in ops if s.is_shared(op))
    return sum(1 for op in ops if not s.is_shared(op) and s.core_index(op) == 0), shared


def _by_kind(ops: list) -> dict[str, list]:
    out: dict[str, list] = {}
    for op in ops:
        out.setdefault(kind_of(op), []).append(op)
    return out


def _space_mapping(declaration: DeviceOp, attributes: Mapping[str, Attribute],
                   s: Structure) -> dict[str, str]:
    mapping = attributes.get("mem_space_mapping")
    if mapping is None:
        return {}
    if not isinstance(mapping, MapAttr):
        raise op_error(declaration, "attribute 'mem_space_mapping' requires a #ktdf_arch.map<"
                                    "memory space = memory kind, ...>")
    kinds = sorted({kind_of(n) for n in s.nodes if isinstance(n, MemoryOp)})
    out: dict[str, str] = {}
    for key, value in mapping.items():
        if getattr(key, "name", None) == "ktdp.memory_space":
            space = key.kind.data  # type: ignore[attr-defined]
        else:
            space = key.data if isinstance(key, StringAttr) else str(key)
        target = kind_name(value, "")
        if target not in kinds:
            raise op_error(declaration, f"mem_space_mapping maps {key} to {value}, but device "
                                        f"@{s.device.sym_name.data} has no memory of kind "
                                        f"{value} (memory kinds: " + ", ".join(kinds) + ")")
        out[space] = target
    return out


def _memories(s: Structure, defaults: list[str]) -> dict[str, dm.Memory]:
    out: dict[str, dm.Memory] = {}
    for kind, ops in _by_kind([n for n in s.nodes if isinstance(n, MemoryOp)]).items():
        mem: MemoryOp = ops[0]
        latency = as_i64(mem.attributes.get("ktdf_arch.latency"))
        if latency is None:
            defaults.append(f"memory {kind}: latency = 0 cycles")
        # absent: no limit of its own (its datapaths limit it); not a number assumed
        bpc = as_i64(mem.attributes.get("ktdf_arch.bytes_per_cycle"))
        parent = s.mem_parent.get(mem)
        per_core, shared = _counts(s, ops)
        out[kind] = dm.Memory(kind=kind, size=mem.size, latency=latency or 0,
                              bytes_per_cycle=bpc, depth=s.depth(mem), parent=kind_of(parent) if parent else None,
                              per_core=per_core, shared=shared, op=mem)
    return out


def _global_memory(s: Structure, memories: dict[str, dm.Memory],
                   mapping: dict[str, str]) -> str:
    if "global" in mapping:
        return mapping["global"]
    roots = [k for k, m in memories.items() if m.depth == 0]
    if len(roots) == 1:
        return roots[0]
    if not roots:
        raise op_error(s.device, f"device @{s.device.sym_name.data} has no memory: describe at "
                                 "least the global (device) memory")
    raise op_error(memories[roots[1]].op,
                   f"several top-level memories ({', '.join(roots)}): say which one KTIR "
                   "'global' means with mem_space_mapping = #ktdf_arch.map<"
                   f'#ktdp.memory_space<global> = "{roots[0]}">')


def _queue(dp: DatapathOp) -> tuple[bool, int | None, int | None, bool]:
    queue = dp.feature("queue")
    if queue is None:
        return False, None, None, False
    fields = queue.data if isinstance(queue, DictionaryAttr) else {}
    return (True, as_i64(fields.get("depth")), as_i64(fields.get("size")),
            "ordered" in fields)


def _datapaths(s: Structure, memories: dict[str, dm.Memory],
               defaults: list[str]) -> tuple[list[dm.Datapath], dict[DatapathOp, dm.Datapath]]:
    groups: dict[tuple[str, str], list[DatapathOp]] = {}
    for dp in s.datapaths:
        ends = tuple(kind_of(resolve_endpoint(v)) for v in dp.operands)  # type: ignore[arg-type]
        groups.setdefault(ends, []).append(dp)  # type: ignore[arg-type]
    out: list[dm.Datapath] = []
    by_op: dict[DatapathOp, dm.Datapath] = {}
    for (src, dst), ops in groups.items():
        dp = ops[0]
        a = dp.attributes
        name = f"datapath {src} -> {dst}"
        gran_attr = a.get("ktdf_arch.transfer_granularity")
        gran = tuple(gran_attr.get_values()) if isinstance(gran_attr, DenseArrayBase) else ()
        bpc = as_i64(a.get("ktdf_arch.bytes_per_cycle"))
        if bpc is None:
            if (bw := as_i64(a.get("ktdf_arch.bandwidth"))) is not None:
                bpc, why = bw, "from ktdf_arch.bandwidth"
            elif max(gran, default=0) > 0:
                bpc, why = max(gran), "largest transfer_granularity"  # type: ignore[assignment]
            else:
                bpc, why = dm.DEFAULT_BYTES_PER_CYCLE, "default"
            defaults.append(f"{name}: bytes_per_cycle = {bpc} ({why})")
        is_queue, depth, size, ordered = _queue(dp)
        latency = as_i64(a.get("ktdf_arch.latency"))
        if latency is None:
            offchip = any(memories.get(k) is not None and memories[k].depth == 0
                          for k in (src, dst))
            latency, why = ((dm.DEFAULT_LATENCY_QUEUE, "queue link") if is_queue else
                            (dm.DEFAULT_LATENCY_OFFCHIP, "touches off-chip memory") if offchip
                            else (dm.DEFAULT_LATENCY_OTHER, "on-chip link"))
            defaults.append(f"{name}: latency = {latency} cycle{'s' * (latency != 1)} ({why})")
        if is_queue and depth is None:
            defaults.append(f"{name}: queue depth = {dm.DEFAULT_QUEUE_DEPTH}")
        per_core, shared = _counts(s, ops)
        model = dm.Datapath(src=src, dst=dst, bytes_per_cycle=bpc, latency=latency,
                            is_queue=is_queue, queue_depth=depth or dm.DEFAULT_QUEUE_DEPTH,
                            queue_size=size, ordered=ordered, granularity=gran,
                            per_core=per_core, shared=shared, op=dp)
        out.append(model)
        by_op.update(dict.fromkeys(ops, model))
    return out, by_op


def _int_map(attr: Attribute | None) -> dict[str, int]:
    items = map_items(attr) if attr is not None else None
    return {kind_name(k, ""): as_i64(v) or 0 for k, v in items or ()}


def _unit_memory_maps(unit: ExecUnitOp) -> tuple[dict[str, int], dict[str, tuple]]:
    words: dict[str, int] = {}
    access: dict[str, tuple[tuple[int, int], ...]] = {}
    for feature in ("load", "store"):
        value = unit.feature(feature)
        if not isinstance(value, DictionaryAttr):
            continue
        for mem, size in _int_map(value.data.get("word_size")).items():
            if words.setdefault(mem, size) != size:
                raise op_error(unit, f"exec_unit \"{kind_of(unit)}\": load and store give "
                                     f"different word sizes for {mem} ({words[mem]} and "
                                     f"{size} bytes)")
        for mem, entries in map_items(value.data.get("access_granularity")) or ():
            pairs = tuple((as_i64(e.data.get("size_in_words")) or 0,
                           as_i64(e.data.get("align_in_words")) or 1)
                          for e in entries.data)  # type: ignore[attr-defined]
            key = kind_name(mem, "")
            access[key] = access.get(key, ()) + tuple(p for p in pairs
                                                       if p not in access.get(key, ()))
    return words, access


def _units(s: Structure, datapaths: list[dm.Datapath],
           defaults: list[str]) -> dict[str, dm.Unit]:
    out: dict[str, dm.Unit] = {}
    no_issue: list[str] = []
    for kind, ops in _by_kind([n for n in s.nodes if isinstance(n, ExecUnitOp)]).items():
        unit: ExecUnitOp = ops[0]
        a = unit.attributes
        simd = unit.feature("simd")
        simd_fields = simd.data if isinstance(simd, DictionaryAttr) else {}
        lanes = _int_map(simd_fields.get("lanes"))
        compute = unit.feature("compute") is not None
        explicit = a.get("ktdf_arch.lanes_per_cycle")
        per_cycle = _int_map(explicit) if explicit is not None else dict(lanes)
        if compute and explicit is None:
            defaults.append(f"unit {kind}: lanes_per_cycle = "
                            + (f"simd.lanes ({_show(lanes)})" if lanes else "1"))
        latency = dict(dm.DEFAULT_OP_LATENCY) | _int_map(a.get("ktdf_arch.op_latency"))
        interval = dict(dm.DEFAULT_OP_INTERVAL) | _int_map(a.get("ktdf_arch.op_interval"))
        for attr, table in (("op_latency", dm.DEFAULT_OP_LATENCY),
                            ("op_interval", dm.DEFAULT_OP_INTERVAL)):
            missing = [c for c in table if c not in _int_map(a.get(f"ktdf_arch.{attr}"))]
            if compute and missing:
                defaults.append(f"unit {kind}: {attr} defaults for "
                                + ", ".join(f"{c} = {table[c]}" for c in missing))
        issue = as_i64(a.get("ktdf_arch.issue_cycles"))
        if issue is None:
            no_issue.append(kind)
        moves = unit.feature("load") is not None or unit.feature("store") is not None
        outstanding = as_i64(a.get("ktdf_arch.max_outstanding"))
        if outstanding is None:
            outstanding, why = _queue_depth_out(kind, datapaths)
            if moves:
                defaults.append(f"unit {kind}: max_outstanding = {outstanding} ({why})")
        words, access = _unit_memory_maps(unit)
        for dp in datapaths:
            for mem in ((dp.src,) if dp.dst == kind else (dp.dst,) if dp.src == kind else ()):
                if any(kind_of(m) == mem for m in s.nodes if isinstance(m, MemoryOp)):
                    words.setdefault(mem, 1)
        features = a.get("ktdf_arch.features")
        per_core, shared = _counts(s, ops)
        out[kind] = dm.Unit(
            kind=kind, is_compute=compute, can_load=unit.feature("load") is not None,
            can_store=unit.feature("store") is not None, simd_lanes=dm._ro(lanes),
            lanes_per_cycle=dm._ro(per_cycle), op_latency=dm._ro(latency),
            op_interval=dm._ro(interval), issue_cycles=issue or 0,
            max_outstanding=outstanding, word_size=dm._ro(words),
            access_granularity=dm._ro(access), splat="splat" in simd_fields,
            zero_pad="zero_pad" in simd_fields, per_core=per_core, shared=shared,
            is_corelet=s.corelet_index(unit) is not None,
            features=dm._ro(features.data if isinstance(features, DictionaryAttr) else {}),
            op=unit, matrix=_matrix(unit.feature("matrix")))
    if no_issue:
        defaults.append("issue_cycles = 0 on units " + ", ".join(no_issue))
    return out


def _matrix(value: Attribute | None) -> dm.MatrixEngine | None:
    """The matrix engine of `ktdf_arch.feature.matrix` (its fields checked by the verifier)."""
    if not isinstance(value, DictionaryAttr):
        return None
    f = value.data
    n = {k: as_i64(f[k]) or 0 for k in ("rows", "cols", "depth", "macs_per_cycle", "latency")}
    inputs = f["inputs"]
    return dm.MatrixEngine(
        rows=n["rows"], cols=n["cols"], depth=n["depth"],
        inputs=tuple(str(t) for t in inputs.data) if isinstance(inputs, ArrayAttr) else (),
        accumulator=str(f["accumulator"]), macs_per_cycle=n["macs_per_cycle"],
        latency=n["latency"])


def _queue_depth_out(kind: str, datapaths: list[dm.Datapath]) -> tuple[int, str]:
    """The default of `max_outstanding`: the depth of the queue on a link out of the unit (the
    deepest, when several), else 1."""
    depths = [dp.queue_depth for dp in datapaths if dp.src == kind and dp.is_queue]
    if depths:
        return max(depths), "the queue depth of its outgoing link"
    return 1, "no queue on its outgoing links"


def _show(m: Mapping[str, int]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in m.items())


def _groups(s: Structure) -> list[dm.Group]:
    out: dict[tuple, dm.Group] = {}
    for g in s.groups:
        parent = g.parent_op()
        kind = kind_of(g)
        if g in s.core_groups:
            role = "core"
        elif s.is_alias(g):
            role = "alias"
        elif s.is_corelet_group(g):
            role = "corelet"
        else:
            role = "group"
        key = (kind, role, len(s.chain[g]))
        if key in out:
            continue
        siblings = sum(1 for o in parent.regions[0].block.ops  # type: ignore[union-attr]
                       if o.name == g.name and kind_of(o) == kind)
        out[key] = dm.Group(kind=kind_name(g.attributes.get("kind"), "") or None, role=role,
                            nesting=len(s.chain[g]) + 1, siblings=siblings, op=g)
    return list(out.values())
