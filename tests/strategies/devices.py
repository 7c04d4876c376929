"""Hypothesis strategies for random well-formed architecture descriptions.

`device_specs(...)` draws a `DeviceSpec`: a global memory, `cores` core groups (one = a template
core replicated per grid tile; more = written out), each with a scratchpad, optional DMA units,
and `corelets` sibling sub-core groups holding a load unit, a SIMD compute unit (with an
optional register memory) and a store unit joined by ordered FIFOs. Without DMA the load/store
units reach the global memory directly. `spec.text()` is the MLIR; the other fields say what the
device model must report, so tests can cross-check. Every parameter takes a value or a strategy:

    @given(device_specs(cores=st.integers(1, 4), corelets=2, lanes=st.sampled_from([32, 64])))
    def test_x(spec): dev = devices_in_text(spec.text(), "gen.mlir")[0]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

GLOBAL, SCRATCHPAD, REGISTER = "GM", "SP", "REG"
DMA_LOAD, DMA_STORE, LOAD, COMPUTE, STORE = "DMAL", "DMAS", "LU", "CU", "SU"


@dataclass(frozen=True)
class DeviceSpec:
    name: str
    cores: int
    corelets: int
    global_size: int
    scratchpad_size: int
    register_size: int | None
    fifo_depth: int
    lanes: dict[str, int] = field(hash=False)
    dma: bool
    bytes_per_cycle: int | None
    clock_ghz: float | None
    memory_bytes_per_cycle: int | None = None  # the global memory's own, shared bandwidth
    max_outstanding: int | None = None  # on the units that move data

    @property
    def max_cores(self) -> int | None:
        return self.cores if self.cores > 1 else None

    @property
    def route_in(self) -> list[str]:
        """The route the model must find from global memory to the compute unit."""
        if self.dma:
            return [GLOBAL, DMA_LOAD, SCRATCHPAD, LOAD, COMPUTE]
        return [GLOBAL, LOAD, COMPUTE]

    def text(self) -> str:
        attrs = [f"ktdf_arch.clock_ghz = {self.clock_ghz!r}"] if self.clock_ghz else []
        out = [f"ktdf_arch.device @{self.name}"
               + (f" attributes {{{', '.join(attrs)}}}" if attrs else "") + " {",
               f'  %gm = memory {{kind = "{GLOBAL}", size = {self.global_size}'
               + (f", ktdf_arch.bytes_per_cycle = {self.memory_bytes_per_cycle}"
                  if self.memory_bytes_per_cycle else "") + "}"]
        for c in range(self.cores):
            ident = f" @core{c}" if self.cores > 1 else ""
            out.append(f'  group{ident} {{kind = "core"}} share(%gm) {{')
            out += _core_body(self)
            out.append("  }")
        out.append("}")
        return "\n".join(out) + "\n"


def _link(src: str, dst: str, types: str, attrs: str = "") -> str:
    return f"datapath {attrs + ' ' if attrs else ''}{src} to {dst} : {types}"


def _outstanding(spec: DeviceSpec) -> str:
    n = spec.max_outstanding
    return f"ktdf_arch.max_outstanding = {n}, " if n else ""


def _core_body(spec: DeviceSpec) -> list[str]:
    bpc = f"{{ktdf_arch.bytes_per_cycle = {spec.bytes_per_cycle}}}" if spec.bytes_per_cycle else ""
    lines = [f'%sp = memory {{kind = "{SCRATCHPAD}", size = {spec.scratchpad_size}}}']
    mo = _outstanding(spec)
    if spec.dma:
        lines += [
            f'%dl = exec_unit {{kind = "{DMA_LOAD}", {mo}ktdf_arch.features = '
            '{ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"GM" = 64, "SP" = 64>}}}',
            f'%ds = exec_unit {{kind = "{DMA_STORE}", {mo}ktdf_arch.features = '
            '{ktdf_arch.feature.store}}',
            _link("%gm", "%dl", "memory, exec_unit", bpc),
            _link("%dl", "%sp", "exec_unit, memory", bpc),
            _link("%sp", "%ds", "memory, exec_unit", bpc),
            _link("%ds", "%gm", "exec_unit, memory", bpc)]
    inner = _corelet_body(spec)
    if spec.corelets == 1:
        lines += inner
    else:
        share = "%sp" if spec.dma else "%sp, %gm"
        for _ in range(spec.corelets):
            lines.append(f'group {{kind = "corelet"}} share({share}) {{')
            lines += ["  " + line for line in inner]
            lines.append("}")
    return ["    " + line for line in lines]


def _corelet_body(spec: DeviceSpec) -> list[str]:
    lanes = ", ".join(f"{t} = {n}" for t, n in spec.lanes.items())
    unit = (f'exec_unit {{kind = "{COMPUTE}", ktdf_arch.features = {{ktdf_arch.feature.compute, '
            f"ktdf_arch.feature.simd = {{lanes = #ktdf_arch.map<{lanes}>}}}}}}")
    if spec.register_size is not None:
        lines = ['%cu = group {kind = "CU_Block"} share(%sp) {',
                 f'  %reg = memory {{kind = "{REGISTER}", size = {spec.register_size}}}',
                 f"  %u = {unit}", "  yield %u", "} -> exec_unit"]
    else:
        lines = [f"%cu = {unit}"]
    fifo = f"{{ktdf_arch.features = {{ktdf_arch.feature.queue = {{depth = {spec.fifo_depth}, ordered}}}}}}"
    src = "%sp" if spec.dma else "%gm"
    mo = _outstanding(spec)
    lines += [f'%lu = exec_unit {{kind = "{LOAD}", {mo}ktdf_arch.features = '
              "{ktdf_arch.feature.load}}",
              f'%su = exec_unit {{kind = "{STORE}", {mo}ktdf_arch.features = '
              "{ktdf_arch.feature.store}}",
              _link(src, "%lu", "memory, exec_unit", fifo),
              _link("%lu", "%cu", "exec_unit, exec_unit", fifo),
              _link("%cu", "%su", "exec_unit, exec_unit", fifo),
              _link("%su", src, "exec_unit, memory", fifo)]
    if not spec.dma:
        lines += [_link("%sp", "%lu", "memory, exec_unit", fifo),
                  _link("%su", "%sp", "exec_unit, memory", fifo)]
    return lines


def _st(value):
    return value if isinstance(value, st.SearchStrategy) else st.just(value)


@st.composite
def device_specs(draw, *, cores=st.integers(1, 3), corelets=st.integers(1, 4),
                 sizes=st.integers(1, 1 << 31), depths=st.integers(1, 64),
                 lanes=st.sampled_from([1, 8, 16, 32, 64, 128]), dma=st.booleans(),
                 registers=st.booleans(), timing=st.booleans()) -> DeviceSpec:
    """A random well-formed device. `lanes` draws the f16 SIMD width (f32 gets half when a coin
    says so); `registers` whether the compute unit has a register memory; `timing` whether
    clock, link bandwidths, a shared bandwidth of the global memory and the transfers in flight
    of the data-moving units are written (else the defaults apply)."""
    f16 = draw(_st(lanes))
    lane_map = {"f16": f16}
    if f16 > 1 and draw(st.booleans()):
        lane_map["f32"] = f16 // 2
    timed = draw(_st(timing))
    return DeviceSpec(
        name=draw(st.sampled_from(["gen", "rand_dev", "d0"])),
        cores=draw(_st(cores)), corelets=draw(_st(corelets)),
        global_size=draw(_st(sizes)), scratchpad_size=draw(_st(sizes)),
        register_size=draw(_st(sizes)) if draw(_st(registers)) else None,
        fifo_depth=draw(_st(depths)), lanes=lane_map, dma=draw(_st(dma)),
        bytes_per_cycle=draw(st.integers(1, 1024)) if timed else None,
        clock_ghz=draw(st.sampled_from([0.5, 1.0, 1.25, 2.0])) if timed else None,
        memory_bytes_per_cycle=draw(st.sampled_from([None, 16, 128, 4096])) if timed else None,
        max_outstanding=draw(st.sampled_from([None, 1, 2, 8])) if timed else None)
