"""The device model of the shipped devices: kinds, counts, memory tree, routes, ids, timing."""

from pathlib import Path

import pytest

from arch_descriptions.generate_spyre import describe_spyre
from arch_descriptions.model import Work, devices_in_text, load_device, shipped_devices
from arch_descriptions.model.device import DEFAULT_OP_INTERVAL, DEFAULT_OP_LATENCY
from ktir.diagnostics import KtirDiagnostic

UPSTREAM_SAMPLE = Path("/tmp/peers/torch-spyre+dataflow-scheduler/test/Dialect/KTDFArch/"
                       "sample_device.mlir")


@pytest.fixture(scope="module")
def sample():
    return load_device("sample_device")


@pytest.fixture(scope="module")
def spyre():
    return load_device("spyre")


@pytest.fixture(scope="module")
def stream():
    return load_device("stream_device")


def test_shipped_devices_are_listed_and_load():
    assert shipped_devices() == ["sample_device", "spyre", "stream_device"]
    for name in shipped_devices():
        dev = load_device(name)
        assert dev.name == name
        assert dev.warnings == ()


def test_sample_structure(sample):
    assert list(sample.memories) == ["DDR", "L1", "SFU_REG"]
    assert [(m.depth, m.parent, m.per_core, m.shared) for m in sample.memories.values()] == [
        (0, None, 0, 1), (1, "DDR", 1, 0), (2, "L1", 2, 0)]
    assert sample.memories["L1"].size == 1 << 20
    assert {k: (u.per_core, u.is_corelet) for k, u in sample.units.items()} == {
        "MNILU": (1, False), "MNISU": (1, False), "SFU": (2, True), "L1LU": (2, True),
        "L1SU": (2, True)}
    assert sample.compute_kind == "SFU"
    assert sample.global_memory_kind == "DDR"
    assert sample.corelets_per_core == 2
    assert sample.max_cores is None
    assert sample.vector_lanes("f16") == 64
    roles = [(g.kind, g.role, g.nesting, g.siblings) for g in sample.groups]
    assert roles == [("core", "core", 1, 1), (None, "corelet", 2, 2),
                     ("SFU_Block", "alias", 3, 1)]


def test_sample_routes_and_access(sample):
    assert sample.route("DDR", "SFU") == ["DDR", "MNILU", "L1", "L1LU", "SFU"]
    assert sample.route("SFU", "DDR") == ["SFU", "L1SU", "L1", "MNISU", "DDR"]
    assert sample.route("L1", "L1") == ["L1"]
    assert sample.route("SFU_REG", "DDR") == []
    with pytest.raises(ValueError, match="no resource of kind 'HBM'"):
        sample.route("HBM", "SFU")
    assert sample.readers("L1") == {"MNISU", "L1LU"}
    assert sample.writers("L1") == {"MNILU", "L1SU"}
    assert sample.readers("DDR") == {"MNILU"}
    assert sample.local_memory("SFU") == "SFU_REG"
    assert sample.local_memory("MNILU") == "L1"  # same group, as upstream
    assert sample.local_memory("L1LU") is None
    assert sample.units["MNILU"].word_size == {"DDR": 64, "L1": 64}
    assert sample.units["L1LU"].words("L1") == 1
    assert sample.units["L1LU"].access_granularity["L1"] == ((64, 64), (2, 2))
    assert sample.units["L1LU"].splat
    assert sample.units["L1LU"].zero_pad
    assert not sample.units["SFU"].splat


def test_sample_memory_spaces(sample):
    assert sample.memory_for_space("global") == "DDR"
    assert sample.memory_for_space("ct_local") == "L1"
    with pytest.raises(KtirDiagnostic, match="unknown KTIR memory space 'shared'"):
        sample.memory_for_space("shared")


def test_sample_timing_written_and_defaulted(sample):
    dp = sample.datapath("DDR", "MNILU")
    assert (dp.bytes_per_cycle, dp.latency, dp.is_queue, dp.granularity) == (256, 100, False,
                                                                             (64,))
    assert sample.datapath("MNISU", "DDR").bytes_per_cycle == 128
    fifo = sample.datapath("L1LU", "SFU")
    assert (fifo.bytes_per_cycle, fifo.latency, fifo.queue_depth, fifo.ordered,
            fifo.granularity, fifo.per_core) == (128, 1, 16, True, (64, 2), 2)
    assert sample.datapath("MNILU", "L1").latency == 8
    assert sample.datapath("SFU", "DDR") is None
    sfu = sample.units["SFU"]
    assert sfu.op_latency == DEFAULT_OP_LATENCY
    assert sfu.op_interval == DEFAULT_OP_INTERVAL
    assert sfu.lanes_per_cycle == {"f16": 64}
    assert sfu.elements_per_cycle("f32") == 32  # unlisted: the bits per cycle of f16
    assert sample.clock_ghz == 1.0
    assert sample.signal_latency == 1
    used = "\n".join(sample.defaults_used)
    assert "device: signal_latency = 1 cycle" in used
    assert "clock_ghz" not in used  # written in the file
    assert "datapath DDR -> MNILU: latency = 100 cycles (touches off-chip memory)" in used
    assert "datapath DDR -> MNILU: bytes_per_cycle" not in used  # written in the file
    assert "unit MNILU: max_outstanding = 1 (no queue on its outgoing links)" in used
    assert "unit L1LU: max_outstanding = 16 (the queue depth of its outgoing link)" in used
    assert "unit SFU: lanes_per_cycle = simd.lanes (f16 = 64)" in used


def test_sample_resource_ids_and_links(sample):
    assert sample.resource_id("DDR", 5) == "DDR"
    assert sample.resource_id("L1", 5) == "C5-L1"
    assert sample.resource_id("MNILU", 0) == "C0-MNILU"
    assert sample.resource_id("L1LU", 3, 1) == "C3-L1LU-CL1"
    assert sample.resource_id("SFU_REG", 0, 0) == "C0-SFU_REG-CL0"
    with pytest.raises(ValueError, match="'MNILU' has no corelet 0"):
        sample.resource_id("MNILU", 0, 0)
    with pytest.raises(ValueError, match="no corelet 2"):
        sample.resource_id("SFU", 0, 2)
    with pytest.raises(ValueError, match="core -1 out of range"):
        sample.resource_id("SFU", -1)
    with pytest.raises(ValueError, match="no memory or unit of kind"):
        sample.resource_id("XYZ", 0)
    links = {(link.src, link.dst) for link in sample.links(3)}
    assert len(sample.links(3)) == 3 * 12
    assert ("DDR", "C2-MNILU") in links
    assert ("C1-L1LU-CL1", "C1-SFU-CL1") in links
    assert not any(link.src.startswith("C3") for link in sample.links(3))


def test_shared_resources_of_the_shipped_devices(sample, spyre):
    # spyre: device memory shared at ktir-cpu's 128 GB/s, ring links 64 B/cycle, DMA queues
    assert spyre.memories["DDR"].bytes_per_cycle == 128
    assert spyre.memories["LX"].bytes_per_cycle is None
    assert spyre.datapath("RING", "RING").bytes_per_cycle == 64
    assert (spyre.units["DMA_IN"].max_outstanding, spyre.units["LX_LOAD"].max_outstanding) \
        == (4, 16)
    # the sample keeps per-core paths; its DMA units keep one transfer in flight (default)
    assert sample.memories["DDR"].bytes_per_cycle is None
    assert sample.units["MNILU"].max_outstanding == 1
    assert sample.units["L1LU"].max_outstanding == 16
    assert sample.units["MNILU"].moves_data
    assert not sample.units["SFU"].moves_data


def test_resources_of_the_bound(sample, spyre):
    by_name = {r.name: r for r in spyre.resources(32)}
    assert (by_name["DDR"].rate, by_name["DDR"].carries) == (128, "reads + writes")
    assert by_name["DDR -> DMA_IN"].rate == 32 * 128
    assert by_name["PE"].lanes == {"f16": 64 * 32, "f32": 32 * 32}
    assert {r.name: r.rate for r in spyre.resources(4)}["DDR -> DMA_IN"] == 4 * 128
    sample_res = {r.name: r for r in sample.resources(3)}
    assert "DDR" not in sample_res  # no bandwidth of its own: its datapaths bound it
    assert sample_res["DDR -> MNILU"].rate == 3 * 256
    assert sample_res["MNISU -> DDR"].rate == 3 * 128
    assert sample_res["SFU"].lanes == {"f16": 3 * 2 * 64}  # two corelets per core
    latency, trip = sample.round_trip()
    assert trip == ("DDR", "MNILU", "L1", "L1LU", "SFU", "L1SU", "L1", "MNISU", "DDR")
    assert latency == 100 + 8 + 1 + 1 + 1 + 1 + 8 + 100


def test_roofline_of_compulsory_work(sample, spyre):
    work = Work(reads={"DDR": 8192}, writes={"DDR": 8192}, element_ops={"f16": 2048},
                cores=32)
    roof = spyre.roofline(work)
    assert (roof.binding_resource, roof.bound) == ("DDR", "memory")
    # DDR busy 128 cycles; the reads' 64 overlap the round trip as the first data travels (or
    # the writes' as the last does): 128 + 220 - 64
    assert roof.cycles == 128 + 220 - 64
    assert roof.describe() == ("DDR: 16384 B reads + writes / 128 B/cycle = 128 cycles + "
                               "156 of the 220-cycle round trip (the rest overlaps) = 284 "
                               "cycles")
    # nothing read: only the way back, SFU -> L1SU -> L1 -> MNISU -> DDR, adds to the writes
    writes_only = sample.roofline(Work({}, {"DDR": 4096}, {}, 1))
    assert (writes_only.binding_resource, writes_only.cycles) == ("MNISU -> DDR", 32 + 110)
    streaming = spyre.roofline(Work({"DDR": 1 << 20}, {"DDR": 1 << 20}, {}, 32))
    assert streaming.cycles == (2 << 20) // 128  # a trip's worth each way: no latency left
    on_sample = sample.roofline(work)
    # reads: 8192 B / (32 x 256 B/cycle) = 1; writes: 8192 B / (32 x 128 B/cycle) = 2
    assert on_sample.binding_resource == "MNISU -> DDR"
    assert on_sample.cycles == 2 + 220
    heavy = Work(reads={"DDR": 128}, writes={}, element_ops={"f16": 64 * 64 * 1000}, cores=1)
    roof = sample.roofline(heavy)
    assert (roof.bound, roof.binding_resource) == ("compute", "SFU")
    assert roof.cycles == 64 * 64 * 1000 // 128 + 220
    idle = sample.roofline(Work({}, {}, {}, 1))
    assert (idle.bound, idle.binding_resource, idle.cycles) == ("latency", "latency", 110)


def test_matrix_engine_of_spyre_and_not_of_sample(sample, spyre):
    mx = spyre.matrix_engine
    assert (mx.rows, mx.cols, mx.depth, mx.macs_per_cycle, mx.latency) == (32, 32, 1, 1024, 64)
    assert mx.inputs == ("f16", "bf16") and mx.accumulator == "f32"
    assert mx.accepts("f16") and not mx.accepts("f32")
    assert mx.interval(32, 128, 32) == 128          # one pass per k step
    assert mx.interval(32, 128, 512) == 16 * 128    # 16 column blocks
    assert mx.interval(8, 32, 32) == 32             # a smaller block still takes whole passes
    assert mx.interval(33, 1, 32) == 2
    assert sample.matrix_engine is None
    assert "PE matrix" in {r.name for r in spyre.resources(32)}
    assert not [r for r in sample.resources(1) if r.carries == "MACs"]


def test_roofline_of_contractions(sample, spyre):
    # matmul_fwd_ktir: 64 x 8192 x 2048 MACs (f16) plus 16 f16 additions of 32 x 512 per tile
    macs, adds = 64 * 8192 * 2048, 16 * 32 * 512 * 32
    work = Work(reads={"DDR": 64 * 2048 * 2 + 2048 * 8192 * 2}, writes={"DDR": 64 * 8192 * 2},
                element_ops={"f16": macs + adds}, cores=32, contractions=(("f16", "f16", macs),))
    roof = spyre.roofline(work)
    terms = {t.resource.name: t for t in roof.terms}
    assert terms["PE matrix"].cycles == macs / (1024 * 32)
    assert terms["PE"].cycles == adds / (64 * 32)    # the lanes keep only the additions
    assert roof.binding_resource == "DDR"            # 34 MiB over 128 B/cycle binds
    compute_only = Work({}, {}, {"f16": macs}, 32, (("f16", "f16", macs),))
    roof = spyre.roofline(compute_only)
    assert (roof.binding_resource, roof.bound) == ("PE matrix", "compute")
    assert roof.describe().startswith(f"PE matrix: {macs} MACs / (f16: 32768, bf16: 32768 "
                                      "MACs/cycle on 32 units) = 32768 cycles")
    # without an engine (or for a type it does not take) the MACs stay on the lanes
    assert sample.roofline(Work({}, {}, {"f16": macs}, 1, (("f16", "f16", macs),))
                           ).binding_resource == "SFU"
    f32 = spyre.roofline(Work({}, {}, {"f32": 1 << 20}, 32, (("f32", "f32", 1 << 20),)))
    assert f32.binding_resource == "PE"


def test_spyre_is_32_cores_with_2mib_scratchpads(spyre):
    assert spyre.max_cores == 32
    assert spyre.corelets_per_core == 1
    assert spyre.memories["LX"].size == 2 * 1024 * 1024
    assert spyre.memories["LX"].per_core == 1
    assert spyre.memories["PE_REG"].parent == "LX"
    assert spyre.compute_kind == "PE"
    assert spyre.vector_lanes("f16") == 64
    assert spyre.route("DDR", "PE") == ["DDR", "DMA_IN", "LX", "LX_LOAD", "PE"]
    assert spyre.datapath("DDR", "DMA_IN").granularity == (128,)
    ring = spyre.datapath("RING", "RING")
    assert (ring.per_core, ring.shared, ring.bytes_per_cycle) == (0, 64, 64)
    assert spyre.resource_id("PE", 31) == "C31-PE"
    with pytest.raises(ValueError, match="core 32 out of range"):
        spyre.resource_id("PE", 32)
    ring_links = {(link.src, link.dst) for link in spyre.links() if "RING" in link.src
                  and "RING" in link.dst}
    assert ("C31-RING", "C0-RING") in ring_links
    assert ("C0-RING", "C31-RING") in ring_links
    assert len(ring_links) == 64
    with pytest.raises(ValueError, match="writes out 32 cores"):
        spyre.links(4)
    assert spyre.defaults_used == ()


def test_spyre_file_is_the_generator_output():
    shipped = Path(load_device("spyre").source_path).read_text(encoding="utf-8")
    assert shipped == describe_spyre(32)


def test_spyre_generator_other_core_counts():
    two = devices_in_text(describe_spyre(2, "duo"), "duo.mlir")[0]
    assert two.max_cores == 2
    assert len([link for link in two.links() if link.datapath.src == "RING"
                and link.datapath.dst == "RING"]) == 2
    one = devices_in_text(describe_spyre(1, "solo"), "solo.mlir")[0]
    assert one.max_cores is None
    with pytest.raises(ValueError, match="at least one core"):
        describe_spyre(0)


def test_stream_device_retargets(stream):
    assert stream.route("HBM", "VPU") == ["HBM", "VLU", "VPU"]
    assert stream.route("VPU", "HBM") == ["VPU", "VSU", "HBM"]
    assert stream.corelets_per_core == 4
    assert stream.memory_for_space("ct_local") == "VMEM"
    assert stream.vector_lanes("f32") == 16
    assert stream.units["VPU"].op_latency["transcendental"] == 12
    assert stream.units["VPU"].issue_cycles == 1
    assert stream.clock_ghz == 1.5
    assert stream.signal_latency == 4
    assert stream.memories["HBM"].latency == 20
    assert stream.datapath("VLU", "VPU").queue_size == 512
    assert stream.readers("VMEM") == {"VLU"}
    assert stream.writers("VMEM") == {"VSU"}
    assert not any(u.kind.startswith("DMA") or u.kind.startswith("MNI")
                   for u in stream.units.values())
    # types simd.lanes does not list: as many as fit the widest listed vector (16 x 32 bits)
    assert stream.vector_lanes("bf16") == 32
    assert stream.vector_lanes("i8") == 64
    assert stream.units["VPU"].elements_per_cycle("i8") == 64
    assert stream.defaults_used == ()


def test_patterns_by_checkpoint():
    text = """
ktdf_arch.device @p {
  %m = memory {kind = "M"}
  %c = exec_unit {kind = "C", ktdf_arch.features = {ktdf_arch.feature.compute}}
  datapath %m to %c : memory, exec_unit
  datapath %c to %m : exec_unit, memory
  patterns {
    pdl.pattern @always : benefit(1) {
      %op = operation "math.exp"
      rewrite %op { erase %op }
    }
  }
  patterns ["pre_scheduling", "post_lowering"] {
    pdl.pattern @late : benefit(2) {
      %op = operation "math.log"
      rewrite %op { erase %op }
    }
  }
}
"""
    dev = devices_in_text(text, "p.mlir")[0]
    names = lambda cp: [p.sym_name.data for p in dev.patterns(cp)]  # noqa: E731
    assert names("pre_mapping") == ["always"]
    assert names("pre_scheduling") == ["always", "late"]
    assert names("post_lowering") == ["always", "late"]
    assert load_device("sample_device").patterns("pre_scheduling") == []


@pytest.mark.skipif(not UPSTREAM_SAMPLE.exists(), reason="upstream checkout not available")
def test_upstream_sample_parses_unchanged_and_routes():
    dev = load_device(UPSTREAM_SAMPLE)
    assert dev.route("DDR", "SFU") == ["DDR", "MNILU", "L1", "L1LU", "SFU"]
    assert dev.corelets_per_core == 2
    assert dev.datapath("DDR", "MNILU").bytes_per_cycle == 64  # largest granularity
    assert dev.datapath("L1", "L1LU").bytes_per_cycle == 64    # no granularity: 64
    assert "device: clock_ghz = 1.0" in dev.defaults_used
