"""Properties over random well-formed devices (tests/strategies/devices.py): they print, parse
back equal and validate, the model reports what was generated, and random mutations of the
text give a located diagnostic or a valid device, never a Python exception."""

from hypothesis import given, settings
from hypothesis import strategies as st

from arch_descriptions.model import devices_in_text
from ktir.context import parse_module
from ktir.diagnostics import KtirDiagnostic
from tests.strategies.devices import COMPUTE, GLOBAL, LOAD, REGISTER, SCRATCHPAD, device_specs


@given(device_specs())
def test_round_trip_is_a_fixed_point(spec):
    first = parse_module(spec.text(), "gen.mlir")
    printed = str(first)
    second = parse_module(printed, "printed.mlir")
    assert str(second) == printed
    assert second.is_structurally_equivalent(first)


@given(device_specs())
def test_model_matches_the_generated_device(spec):
    dev = devices_in_text(spec.text(), "gen.mlir")[0]
    assert dev.max_cores == spec.max_cores
    assert dev.corelets_per_core == spec.corelets
    assert dev.route(GLOBAL, COMPUTE) == spec.route_in
    assert dev.compute_kind == COMPUTE
    for element_type, lanes in spec.lanes.items():
        assert dev.vector_lanes(element_type) == lanes
    assert dev.memories[GLOBAL].depth == 0
    assert dev.memories[SCRATCHPAD].size == spec.scratchpad_size
    assert dev.memories[SCRATCHPAD].depth == 1
    assert dev.memory_for_space("ct_local") == SCRATCHPAD
    if spec.register_size is not None:
        assert dev.memories[REGISTER].depth == 2
        assert dev.local_memory(COMPUTE) == REGISTER
    unit = dev.units[COMPUTE]
    assert unit.per_core == spec.corelets
    assert unit.is_corelet == (spec.corelets > 1)
    fifo = dev.datapath(LOAD, COMPUTE)
    assert (fifo.queue_depth, fifo.ordered, fifo.latency) == (spec.fifo_depth, True, 1)
    assert dev.clock_ghz == (spec.clock_ghz or 1.0)
    assert dev.memories[GLOBAL].bytes_per_cycle == spec.memory_bytes_per_cycle
    # written, else the depth of the queue out of the unit (the load unit's FIFO)
    assert dev.units[LOAD].max_outstanding == (spec.max_outstanding or spec.fifo_depth)
    cores = spec.cores
    ids = {link.src for link in dev.links(None if spec.max_cores else cores)}
    last = f"C{cores - 1}-{LOAD}" + (f"-CL{spec.corelets - 1}" if spec.corelets > 1 else "")
    assert last in ids
    assert dev.warnings == ()


_MUTATIONS = st.sampled_from(["drop_line", "dup_line", "zero", "negative", "huge", "drop_char",
                              "insert", "truncate"])
_INSERTS = st.sampled_from(["}", "{", "%gm", "#nope", "ktdf_arch.feature.bogus",
                            '"x"', "-> exec_unit", "share()", ": memory", "@core0", "yield %cu"])


def mutate(text: str, data) -> str:
    kind = data.draw(_MUTATIONS)
    lines = text.split("\n")
    i = data.draw(st.integers(0, len(lines) - 1))
    if kind == "drop_line":
        return "\n".join(lines[:i] + lines[i + 1:])
    if kind == "dup_line":
        return "\n".join(lines[:i + 1] + lines[i:])
    if kind in ("zero", "negative", "huge"):
        digits = [j for j, ch in enumerate(text) if ch.isdigit()]
        j = data.draw(st.sampled_from(digits))
        new = {"zero": "0", "negative": "-1", "huge": "99999999999999999999999"}[kind]
        return text[:j] + new + text[j + 1:]
    pos = data.draw(st.integers(0, max(len(text) - 1, 0)))
    if kind == "drop_char":
        return text[:pos] + text[pos + 1:]
    if kind == "insert":
        return text[:pos] + " " + data.draw(_INSERTS) + " " + text[pos:]
    return text[:pos]


@settings(max_examples=max(150, settings.default.max_examples))
@given(device_specs(cores=st.integers(1, 2), corelets=st.integers(1, 2)), st.data())
def test_mutations_never_raise_python_errors(spec, data):
    text = mutate(spec.text(), data)
    try:
        devices = devices_in_text(text, "mutated.mlir")
    except KtirDiagnostic as d:
        message = d.text
        devices = []
    else:
        message = "error: none"
    assert "error:" in message
    assert "Traceback" not in message
    for dev in devices:
        dev.route(dev.global_memory_kind, dev.compute_kind)
        dev.resources(2)
        dev.round_trip()
