"""Parameter overrides (arch_descriptions/model/overrides.py): each key changes what it names in
the model and nothing else; a key the device cannot take is an OverrideError saying why."""

import pytest

from arch_descriptions.model import devices_in_text, load_device
from arch_descriptions.model.overrides import OverrideError, overridden_device


@pytest.fixture(scope="module")
def sample():
    return load_device("sample_device")


@pytest.fixture(scope="module")
def spyre():
    return load_device("spyre")


def _links(dev):
    return {(d.src, d.dst): d for d in dev.datapaths}


def test_no_override_reprints_the_same_device(sample):
    text, dev = overridden_device(sample, {})
    again = devices_in_text(text, "reprinted.mlir")[0]
    for model in (dev, again):
        assert model.name == sample.name
        assert {k: m.size for k, m in model.memories.items()} == \
            {k: m.size for k, m in sample.memories.items()}
        assert {k: (d.bytes_per_cycle, d.latency, d.queue_depth)
                for k, d in _links(model).items()} == \
            {k: (d.bytes_per_cycle, d.latency, d.queue_depth) for k, d in _links(sample).items()}


def test_memory_roles_and_kinds(sample, spyre):
    _, dev = overridden_device(sample, {"memory.scratchpad.size": 4096,
                                        "memory.global.bytes_per_cycle": 64})
    assert dev.memories["L1"].size == 4096
    assert dev.memories["DDR"].bytes_per_cycle == 64
    assert dev.memories["SFU_REG"].size == sample.memories["SFU_REG"].size
    _, dev = overridden_device(spyre, {"memory.LX.latency": 3})
    assert dev.memories["LX"].latency == 3
    assert dev.scratchpad_bytes == spyre.scratchpad_bytes


def test_datapath_patterns_and_fifo_depth(sample):
    text, dev = overridden_device(sample, {"datapath.DDR->*.latency": 7,
                                           "datapath.L1->L1LU.queue_depth": 3})
    links, before = _links(dev), _links(sample)
    for (src, dst), d in links.items():
        assert d.latency == (7 if src == "DDR" else before[src, dst].latency), (src, dst)
    assert links["L1", "L1LU"].queue_depth == 3
    assert links["L1LU", "SFU"].queue_depth == before["L1LU", "SFU"].queue_depth
    # the text says the same as the model
    assert _links(devices_in_text(text, "x.mlir")[0])["L1", "L1LU"].queue_depth == 3


def test_unit_fields(spyre):
    _, dev = overridden_device(spyre, {"unit.compute.simd_lanes.f16": 128,
                                       "unit.DMA_IN.max_outstanding": 1,
                                       "unit.LX_LOAD.issue_cycles": 2})
    pe = dev.units["PE"]
    assert (pe.simd_lanes["f16"], pe.lanes_per_cycle["f16"]) == (128, 128)
    assert pe.simd_lanes["f32"] == spyre.units["PE"].simd_lanes["f32"]
    assert dev.units["DMA_IN"].max_outstanding == 1
    assert dev.units["DMA_OUT"].max_outstanding == spyre.units["DMA_OUT"].max_outstanding
    assert dev.units["LX_LOAD"].issue_cycles == 2
    _, dev = overridden_device(spyre, {"unit.PE.lanes_per_cycle.f16": 16})
    assert (dev.units["PE"].simd_lanes["f16"], dev.units["PE"].lanes_per_cycle["f16"]) == (64, 16)


def test_device_fields_and_cores(spyre):
    _, dev = overridden_device(spyre, {"device.cores": 16, "device.clock_ghz": 2.0,
                                       "memory.scratchpad.size": 65536})
    assert dev.max_cores == 16
    assert dev.clock_ghz == 2.0
    assert dev.memories["LX"].size == 65536


@pytest.mark.parametrize(("key", "value", "message"), [
    ("cache.L1.size", 1, "expected device.<field>, memory.<KIND>.<field>"),
    ("memory.L1.width", 1, "memory fields: size, bytes_per_cycle, latency"),
    ("memory.HBM.size", 1, "has no memory of kind 'HBM' (kinds: DDR, L1, SFU_REG"),
    ("memory.L1.size", 0, "must be >= 1, got 0"),
    ("memory.L1.size", "1M", "expected a number, got '1M'"),
    ("memory.L1.size", 1.5, "expected an integer, got 1.5"),
    ("device.clock_ghz", 0, "must be > 0 (GHz)"),
    ("datapath.DDR.latency", 1, "a datapath is named SRC->DST"),
    ("datapath.DDR->SFU.latency", 1, "has no datapath DDR->SFU (datapaths: DDR->MNILU"),
    ("datapath.DDR->MNILU.queue_depth", 4, "is not a FIFO (no ktdf_arch.feature.queue)"),
    ("unit.SFU.simd_lanes", 4, "take an element type: unit.PE.simd_lanes.f16"),
    ("unit.SFU.simd_lanes.i4", 4, "unit SFU has no simd_lanes for i4 (it has: f16"),
    ("unit.SFU.max_outstanding", 2, "moves no data"),
    ("device.cores", 4, "is a core template: the kernel's grid sets how many cores run"),
])
def test_bad_overrides_say_why(sample, key, value, message):
    with pytest.raises(OverrideError) as e:
        overridden_device(sample, {key: value})
    assert e.value.key == key
    assert e.value.text.startswith(f"error: override '{key}': ")
    assert message in e.value.text
