"""DataflowIR programs with a fault (deadlock, out-of-bounds access, FIFO type mismatch, race,
a loop that never advances the clock, a loop too long for the cycle limit, an unbound symbol,
a division by zero, a view too large for any memory, a loop of huge trip count), their sizes
and addresses drawn by hypothesis, on a small one-core device: each must stop with a located
error naming the unit, within the time limit."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from tests.emulator.programs import module_text
from tests.fuzz.mutations import INTS

DEVICE = """ktdf_arch.device @fdev {
  %gm = memory {kind = "GM", size = 1048576}
  group {kind = "core"} share(%gm) {
    %sp = memory {kind = "SP", size = 4096}
    %cu = exec_unit {kind = "CU", ktdf_arch.features = {ktdf_arch.feature.compute,
      ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
    %lu = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %su = exec_unit {kind = "SU", ktdf_arch.features = {ktdf_arch.feature.store}}
    datapath {ktdf_arch.bytes_per_cycle = 128, ktdf_arch.latency = 2} %gm to %lu : memory, exec_unit
    datapath {ktdf_arch.bytes_per_cycle = 128} %sp to %lu : memory, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}, ktdf_arch.bytes_per_cycle = 128} %lu to %cu : exec_unit, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}, ktdf_arch.bytes_per_cycle = 128} %cu to %lu : exec_unit, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}, ktdf_arch.bytes_per_cycle = 128} %cu to %su : exec_unit, exec_unit
    datapath {ktdf_arch.bytes_per_cycle = 128} %su to %gm : exec_unit, memory
    datapath {ktdf_arch.bytes_per_cycle = 128} %su to %sp : exec_unit, memory
  }
}
"""

ROW = ("{kind}_order = affine_map<(d0, d1) -> (d0, d1)>, "
       "{kind}_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>")
LAYOUT = "layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>"


def module(body: str) -> str:
    """A fault program's text: `body` in the emulator tests' module shape."""
    return module_text(body)


@dataclass(frozen=True)
class Fault:
    name: str
    program: str
    args: tuple[str, ...] = ("--arg", "0")
    device: str = DEVICE


def _load(view: str, rows: str | int, at: str = "%c0") -> str:
    return (f"    %v = dataflow.get_logical_memory_view {view}, {at} {{{LAYOUT}}} : index, index, "
            f"memref<{rows}x64xf16>\n")


KINDS = ("deadlock", "oob", "fifo-type", "race", "spin", "long-loop", "unbound-symbol",
         "divide-by-zero", "huge-view", "trip-count", "copy")


@st.composite
def programs(draw) -> Fault:
    kind = draw(st.sampled_from(KINDS))
    n = draw(st.one_of(st.sampled_from(INTS), st.integers(-5, 5000)))
    limit = draw(st.sampled_from((10**9, 10**6, 1000)))
    return fault(kind, n, limit, kind == "race" or draw(st.booleans()))


def fault(kind: str, n: int, cycle_limit: int = 10**9, strict: bool = False) -> Fault:
    """The program of fault `kind`, its size or address `n`."""
    pos = abs(n) if n else 1
    if kind == "deadlock":
        body = """  dataflow.program_unit %lu : {
    %x = dataflow.receive %cu : vector<64xf16>
    dataflow.send %cu, %x : vector<64xf16>
  }
  dataflow.program_unit %cu : {
    %x = dataflow.receive %lu : vector<64xf16>
    dataflow.send %lu, %x : vector<64xf16>
  }"""
    elif kind == "oob":
        body = f"""  %at = arith.constant {n} : index
  dataflow.program_unit %lu : {{
{_load("%gm", 1, "%at")}    %x = agen.vector_load %v[0, 0] {{{ROW.format(kind="load")}}} : memref<1x64xf16>, vector<64xf16>
  }}"""
    elif kind == "fifo-type":
        body = f"""  dataflow.program_unit %lu : {{
{_load("%gm", 1)}    %x = agen.vector_load %v[0, 0] {{{ROW.format(kind="load")}}} : memref<1x64xf16>, vector<64xf16>
    dataflow.send %cu, %x : vector<64xf16>
  }}
  dataflow.program_unit %cu : {{
    %x = dataflow.receive %lu : vector<{pos % 128 or 1}xf32>
  }}"""
    elif kind == "race":
        body = f"""  dataflow.program_unit %su : {{
    %v = dataflow.get_logical_memory_view %sp, %c0 {{{LAYOUT}}} : index, index, memref<1x64xf16>
    %z = vectorchain.constant_bitstream {{value = [{", ".join(["0x3C00"] * 64)}]}} : vector<64xf16>
    agen.vector_store %z, %v[0, 0] {{{ROW.format(kind="store")}}} : memref<1x64xf16>, vector<64xf16>
  }}
  dataflow.program_unit %lu : {{
{_load("%sp", 1)}    %x = agen.vector_load %v[0, 0] {{{ROW.format(kind="load")}}} : memref<1x64xf16>, vector<64xf16>
  }}"""
    elif kind == "spin":  # no op in the loop takes time
        body = """  dataflow.program_unit %lu : {
    %t = arith.constant true
    scf.while () : () -> () {
      scf.condition(%t)
    } do {
      scf.yield
    }
  }"""
    elif kind == "long-loop":  # every iteration takes time: the cycle limit stops it
        cycle_limit = min(cycle_limit, 10**6)  # (10^9 cycles of loads is real work)
        body = f"""  %n = arith.constant {n} : index
  dataflow.program_unit %lu : {{
{_load("%gm", 1)}    scf.for %i = %c0 to %n step %c1 {{
      %x = agen.vector_load %v[0, 0] {{{ROW.format(kind="load")}}} : memref<1x64xf16>, vector<64xf16>
    }}
  }}"""
    elif kind == "unbound-symbol":
        body = f"""  dataflow.program_unit %lu : {{
    %a = symbol.create_symbol {{SymbolId = {-pos} : i64}} : index
{_load("%gm", 1, "%a")}  }}"""
    elif kind == "divide-by-zero":
        body = f"""  %z = arith.constant {n % 3 - 1} : index
  dataflow.program_unit %lu : {{
    %q = arith.divsi %c1, %z : index
    %r = arith.remsi %c1, %z : index
  }}"""
    elif kind == "huge-view":
        body = f"""  dataflow.program_unit %lu : {{
{_load("%gm", pos)}    %r = arith.constant {pos - 1} : index
    %x = agen.vector_load %v[%r, 0] {{{ROW.format(kind="load")}}} : memref<{pos}x64xf16>, vector<64xf16>
  }}"""
    elif kind == "copy":  # no fault: n rows through LU -> CU -> SU, a seed for mutations
        rows = pos % 64 or 1
        body = f"""  %n = arith.constant {rows} : index
  %out = arith.constant {rows * 64} : index
  dataflow.program_unit %lu : {{
{_load("%gm", rows)}    scf.for %i = %c0 to %n step %c1 {{
      %x = agen.vector_load %v[%i, 0] {{{ROW.format(kind="load")}}} : memref<{rows}x64xf16>, vector<64xf16>
      dataflow.send %cu, %x : vector<64xf16>
    }}
  }}
  dataflow.program_unit %cu : {{
    scf.for %i = %c0 to %n step %c1 {{
      %x = dataflow.receive %lu : vector<64xf16>
      %y = vectorchain.binary %x, %x {{binary_op = #vectorchain<binary_operator add>, op_specific_map = affine_map<(d0) -> (d0)>}} : vector<64xf16>, vector<64xf16>, vector<64xf16>
      dataflow.send %su, %y : vector<64xf16>
    }}
  }}
  dataflow.program_unit %su : {{
    %w = dataflow.get_logical_memory_view %gm, %out {{{LAYOUT}}} : index, index, memref<{rows}x64xf16>
    scf.for %i = %c0 to %n step %c1 {{
      %x = dataflow.receive %cu : vector<64xf16>
      agen.vector_store %x, %w[%i, 0] {{{ROW.format(kind="store")}}} : memref<{rows}x64xf16>, vector<64xf16>
    }}
  }}"""
    else:  # a loop of no timed op and a huge trip count
        body = f"""  %n = arith.constant {n} : index
  dataflow.program_unit %lu : {{
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (index) {{
      %b = arith.addi %a, %i : index
      scf.yield %b : index
    }}
  }}"""
    args = ("--arg", "0", "--cycle-limit", str(cycle_limit)) + (("--strict",) if strict else ())
    return Fault(kind, module(body), args)
