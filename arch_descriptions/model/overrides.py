"""Parameter overrides: a device description changed without editing its file.

A design-space sweep asks "what if the scratchpad were 1 MiB, the DMA links wider, the FIFOs
deeper?". `override_description(device, {"memory.scratchpad.size": 1 << 20})` answers with the
text of a new description: the device's definition (its effective device-level attributes
included) with every resource of the named kind changed, printed as a self-contained
`ktdf_arch.device`. The `Device` it was made from is left alone (models are read-only);
`overridden_device` also loads the new text, so the changed machine is validated like any file.

Keys (`<section>.<target>.<field>`):

    device.cores                               cores of a device `generate_spyre` wrote
    device.clock_ghz | device.signal_latency
    memory.<KIND>.size | bytes_per_cycle | latency
    datapath.<SRC>-><DST>.bytes_per_cycle | latency | queue_depth     (`*` matches any kind)
    unit.<KIND>.max_outstanding | issue_cycles | simd_lanes.<type> | lanes_per_cycle.<type>

A memory KIND may be a role, `global` or `scratchpad` (the device's global memory and per-core
scratchpad), a unit KIND `compute`, when the device has no resource of that literal kind; so
one key means "the scratchpad" on every device of a sweep. `simd_lanes.f16` also changes the
unit's written `lanes_per_cycle` for that type (more lanes complete more per cycle);
`lanes_per_cycle.f16` changes the throughput alone. A key naming something the device lacks is
an `OverrideError` that lists what it has.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    f64,
    i64,
)
from xdsl.ir import Attribute, Operation

from arch_descriptions.dialects.ktdf_arch import (
    DatapathOp,
    DeviceOp,
    ExecUnitOp,
    MemoryOp,
    resolve_endpoint,
)
from arch_descriptions.dialects.ktdf_arch_types import MapAttr
from arch_descriptions.model.device import Device
from arch_descriptions.model.structure import kind_name, kind_of
from ktir.errors import KtirDiagnostic

Value = int | float

FIELDS: dict[str, tuple[str, ...]] = {
    "device": ("cores", "clock_ghz", "signal_latency"),
    "memory": ("size", "bytes_per_cycle", "latency"),
    "datapath": ("bytes_per_cycle", "latency", "queue_depth"),
    "unit": ("max_outstanding", "issue_cycles", "simd_lanes", "lanes_per_cycle"),
}
"""What each section can change (`simd_lanes` and `lanes_per_cycle` take `.<type>`)."""

_AT_LEAST = {"size": 1, "bytes_per_cycle": 1, "queue_depth": 1, "max_outstanding": 1,
             "simd_lanes": 1, "lanes_per_cycle": 1, "cores": 1, "latency": 0,
             "signal_latency": 0, "issue_cycles": 0}
_ROLES = {"memory": ("global", "scratchpad"), "unit": ("compute",)}


class OverrideError(KtirDiagnostic):
    """An override the device cannot take; `key` is the override as written."""

    def __init__(self, key: str, message: str):
        super().__init__(f"error: override '{key}': {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True)
class Key:
    """A parsed override key."""

    text: str
    section: str
    target: str              # kind, role, or "SRC->DST" ("" for device)
    field: str
    element_type: str | None = None

    @classmethod
    def parse(cls, text: str) -> Key:
        parts = text.split(".")
        section = parts[0]
        if section not in FIELDS:
            raise OverrideError(text, "expected device.<field>, memory.<KIND>.<field>, "
                                      "datapath.<SRC>-><DST>.<field> or unit.<KIND>.<field>")
        if section == "device":
            if len(parts) != 2 or parts[1] not in FIELDS["device"]:
                raise OverrideError(text, "device fields: " + ", ".join(FIELDS["device"]))
            return cls(text, section, "", parts[1])
        if len(parts) < 3 or not parts[1]:
            raise OverrideError(text, f"expected {section}.<{_what(section)}>.<field> "
                                      f"(fields: {', '.join(FIELDS[section])})")
        typed = section == "unit" and parts[2] in ("simd_lanes", "lanes_per_cycle")
        if parts[2] not in FIELDS[section] or len(parts) != (4 if typed else 3):
            hint = "; simd_lanes and lanes_per_cycle take an element type: " \
                   "unit.PE.simd_lanes.f16" if section == "unit" else ""
            raise OverrideError(text, f"{section} fields: {', '.join(FIELDS[section])}{hint}")
        if section == "datapath" and parts[1].count("->") != 1:
            raise OverrideError(text, "a datapath is named SRC->DST (kinds, or * for any): "
                                      "datapath.DDR->MNILU.bytes_per_cycle")
        return cls(text, section, parts[1], parts[2], parts[3] if typed else None)


def _what(section: str) -> str:
    return "SRC->DST" if section == "datapath" else "KIND"


def _check_value(key: Key, value: object) -> Value:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise OverrideError(key.text, f"expected a number, got {value!r}")
    if key.field == "clock_ghz":
        if not value > 0:
            raise OverrideError(key.text, f"must be > 0 (GHz), got {value}")
        return float(value)
    if isinstance(value, float) and not value.is_integer():
        raise OverrideError(key.text, f"expected an integer, got {value}")
    least = _AT_LEAST[key.field]
    if value < least:
        raise OverrideError(key.text, f"must be >= {least}, got {int(value)}")
    return int(value)


def override_description(device: Device, overrides: Mapping[str, object]) -> str:
    """The text of `device` with `overrides` applied (see the module docstring)."""
    return str(_overridden_module(device, overrides)) + "\n"


def overridden_device(device: Device, overrides: Mapping[str, object]) -> tuple[str, Device]:
    """The overridden description's text and its model, validated like a device file (the
    verifier, then the model's checks); a diagnostic points at the changed op's line in the
    file it came from. Built from the changed ops, not by parsing the text again (a printed
    32-core spyre takes most of a second to parse)."""
    from arch_descriptions.model.build import build_device
    from ktir.context import make_context
    from ktir.diagnostics import verify_located

    module = _overridden_module(device, overrides)
    verify_located(module, make_context())
    definition = module.body.block.first_op
    assert isinstance(definition, DeviceOp)
    return str(module) + "\n", build_device(definition, definition,
                                            dict(definition.attributes), None)


def _overridden_module(device: Device, overrides: Mapping[str, object]) -> ModuleOp:
    keys = [(Key.parse(k), v) for k, v in overrides.items()]
    checked = [(k, _check_value(k, v)) for k, v in keys]
    for key, value in checked:
        if key.field == "cores":
            device = _with_cores(device, key, int(value))
    definition = device.definition.clone()
    definition.attributes = dict(device.attributes)  # the declaration's overrides included
    for key, value in checked:
        if key.field != "cores":
            _apply(device, definition, key, value)
    return ModuleOp([definition])


def _with_cores(device: Device, key: Key, cores: int) -> Device:
    """The same device with `cores` cores: only for a file `generate_spyre` wrote (a core
    template runs as many cores as the kernel's grid; other written-out devices have no
    generator to ask)."""
    from arch_descriptions.generate_spyre import describe_spyre
    from arch_descriptions.model.load import devices_in_text

    if device.max_cores is None:
        raise OverrideError(key.text, f"device @{device.name} is a core template: the "
                                      "kernel's grid sets how many cores run")
    try:
        written = device.source_path.read_text() if device.source_path else None
    except OSError:
        written = None
    if written != describe_spyre(device.max_cores, device.name):
        raise OverrideError(key.text, f"device @{device.name} writes its {device.max_cores} "
                                      "cores out by hand; only a description written by "
                                      "`python -m arch_descriptions.generate_spyre` can be "
                                      "regenerated with another core count")
    text = describe_spyre(cores, device.name)
    return devices_in_text(text, f"{device.name} ({cores} cores)")[0]


def _apply(device: Device, definition: DeviceOp, key: Key, value: Value) -> None:
    if key.section == "device":
        attr: Attribute = FloatAttr(float(value), f64) if key.field == "clock_ghz" \
            else IntegerAttr(int(value), i64)
        definition.attributes[f"ktdf_arch.{key.field}"] = attr
        return
    ops = [op for op in definition.walk() if isinstance(op, _OP[key.section])]
    if key.section == "datapath":
        targets = _datapaths(device, ops, key)  # type: ignore[arg-type]
    else:
        kind = _kind(device, key)
        targets = [op for op in ops if kind_of(op) == kind]
    for op in targets:
        _SETTERS[key.section](device, op, key, value)


_OP = {"memory": MemoryOp, "datapath": DatapathOp, "unit": ExecUnitOp}


def _kind(device: Device, key: Key) -> str:
    """The kind a memory or unit key names (a role resolved)."""
    have = device.memories if key.section == "memory" else device.units
    if key.target in have:
        return key.target
    if key.target in _ROLES[key.section]:
        if key.target == "global":
            return device.global_memory_kind
        if key.target == "scratchpad":
            return device.scratchpad_kind()
        return device.compute_kind
    noun = "memory" if key.section == "memory" else "execution unit"
    roles = " or ".join(_ROLES[key.section])
    raise OverrideError(key.text, f"device @{device.name} has no {noun} of kind "
                                  f"'{key.target}' (kinds: {', '.join(have)}; roles: {roles})")


def _endpoint_kinds(device: Device, pattern: str) -> set[str]:
    kinds = set(device.memories) | set(device.units) | {d.src for d in device.datapaths} \
        | {d.dst for d in device.datapaths}
    if pattern in ("global", "scratchpad") and pattern not in kinds:
        return {device.global_memory_kind if pattern == "global" else device.scratchpad_kind()}
    if pattern == "compute" and pattern not in kinds:
        return {device.compute_kind}
    return {k for k in kinds if fnmatch.fnmatchcase(k, pattern)}


def _datapaths(device: Device, ops: list[DatapathOp], key: Key) -> list[DatapathOp]:
    src, dst = key.target.split("->")
    srcs, dsts = _endpoint_kinds(device, src.strip()), _endpoint_kinds(device, dst.strip())
    out = []
    for op in ops:
        a, b = (resolve_endpoint(v) for v in op.operands)
        if a is not None and b is not None and kind_of(a) in srcs and kind_of(b) in dsts:
            out.append(op)
    if not out:
        links = ", ".join(f"{d.src}->{d.dst}" for d in device.datapaths)
        raise OverrideError(key.text, f"device @{device.name} has no datapath {src}->{dst} "
                                      f"(datapaths: {links})")
    return out


def _int(value: Value) -> IntegerAttr:
    return IntegerAttr(int(value), i64)


def _set_memory(device: Device, op: Operation, key: Key, value: Value) -> None:
    name = "size" if key.field == "size" else f"ktdf_arch.{key.field}"
    op.attributes[name] = _int(value)


def _set_datapath(device: Device, op: Operation, key: Key, value: Value) -> None:
    if key.field != "queue_depth":
        op.attributes[f"ktdf_arch.{key.field}"] = _int(value)
        return
    features = dict(_dict(op.attributes.get("ktdf_arch.features")))
    queue = features.get("ktdf_arch.feature.queue")
    if queue is None:
        a, b = (kind_of(resolve_endpoint(v)) for v in op.operands)  # type: ignore[arg-type]
        raise OverrideError(key.text, f"datapath {a}->{b} of device @{device.name} is not a "
                                      "FIFO (no ktdf_arch.feature.queue): it has no depth")
    features["ktdf_arch.feature.queue"] = DictionaryAttr({**_dict(queue), "depth": _int(value)})
    op.attributes["ktdf_arch.features"] = DictionaryAttr(features)


def _set_unit(device: Device, op: Operation, key: Key, value: Value) -> None:
    unit = device.units[kind_of(op)]
    if key.field in ("max_outstanding", "issue_cycles"):
        if key.field == "max_outstanding" and not unit.moves_data:
            raise OverrideError(key.text, f"unit {unit.kind} of device @{device.name} moves no "
                                          "data (no load or store feature): nothing is "
                                          "outstanding")
        op.attributes[f"ktdf_arch.{key.field}"] = _int(value)
        return
    assert key.element_type is not None
    per_cycle = op.attributes.get("ktdf_arch.lanes_per_cycle")
    if key.field == "lanes_per_cycle":
        if per_cycle is None:
            per_cycle = MapAttr([(k, _int(n)) for k, n in _lanes_map(op).items()])
        op.attributes["ktdf_arch.lanes_per_cycle"] = _set_entry(per_cycle, key, value, unit.kind)
        return
    features = dict(_dict(op.attributes.get("ktdf_arch.features")))
    simd = features.get("ktdf_arch.feature.simd")
    lanes = _dict(simd).get("lanes")
    if lanes is None:
        raise OverrideError(key.text, f"unit {unit.kind} of device @{device.name} has no SIMD "
                                      "lanes (no ktdf_arch.feature.simd lanes)")
    features["ktdf_arch.feature.simd"] = DictionaryAttr(
        {**_dict(simd), "lanes": _set_entry(lanes, key, value, unit.kind)})
    op.attributes["ktdf_arch.features"] = DictionaryAttr(features)
    if per_cycle is not None and _has_entry(per_cycle, key.element_type):
        op.attributes["ktdf_arch.lanes_per_cycle"] = _set_entry(per_cycle, key, value, unit.kind)


_SETTERS: dict[str, Callable[[Device, Operation, Key, Value], None]] = {
    "memory": _set_memory, "datapath": _set_datapath, "unit": _set_unit}


def _dict(attr: Attribute | None) -> Mapping[str, Attribute]:
    return attr.data if isinstance(attr, DictionaryAttr) else {}


def _lanes_map(op: Operation) -> dict[Attribute, int]:
    simd = _dict(op.attributes.get("ktdf_arch.features")).get("ktdf_arch.feature.simd")
    lanes = _dict(simd).get("lanes")
    if not isinstance(lanes, MapAttr):
        return {}
    return {k: v.value.data for k, v in lanes.items() if isinstance(v, IntegerAttr)}


def _has_entry(m: Attribute, element_type: str) -> bool:
    return isinstance(m, MapAttr) and any(kind_name(k, "") == element_type for k, _ in m.items())


def _set_entry(m: Attribute, key: Key, value: Value, unit: str) -> MapAttr:
    assert isinstance(m, MapAttr)
    assert key.element_type is not None
    if not _has_entry(m, key.element_type):
        have = ", ".join(kind_name(k, "") for k, _ in m.items()) or "none"
        raise OverrideError(key.text, f"unit {unit} has no {key.field} for "
                                      f"{key.element_type} (it has: {have})")
    return MapAttr([(k, _int(value) if kind_name(k, "") == key.element_type else v)
                    for k, v in m.items()])
