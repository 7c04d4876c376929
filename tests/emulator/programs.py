"""Hand-written DataflowIR for the emulator tests, on small generated devices.

`device(...)` is a small device: per core a scratchpad SP, a load unit LU (reads GM and SP), a
compute unit CU and a store unit SU (writes GM and SP), joined by ordered FIFOs. `module(body, args)` wraps program text
in the two-level shape the compiler emits: `@k` binds its arguments to symbols -1, -2, ... and
calls `@k_body`, whose prelude defines the units `%gm`, `%sp`, `%lu`, `%cu`, `%su` (core 0) and
the constants `%c0`, `%c1`, `%c2`, `%c4`, `%c8`, `%c64`.
"""

from __future__ import annotations

from arch_descriptions.model import Device, devices_in_text
from ktir.context import parse_module

ROW = ("load_order = affine_map<(d0, d1) -> (d0, d1)>, "
       "load_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>")
STORE_ROW = ROW.replace("load_", "store_")
LAYOUT = "layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>"


def device(depth: int = 2, scratchpad: int = 4096, store_bandwidth: int = 128,
           dma: bool = False, queue_bytes: int | None = None,
           matrix: str | None = None) -> Device:
    """One core template: GM -> LU -> CU -> SU -> GM (and SP <-> LU/SU), FIFOs of `depth`
    (and `queue_bytes` bytes in flight) between the units, `store_bandwidth` bytes per cycle
    from SU to GM; with `dma` also a DMA unit DU copying between GM and SP both ways; `matrix`:
    the fields of a matrix engine on CU (`rows = 8, cols = 8, ...`)."""
    mx = f",\n      ktdf_arch.feature.matrix = {{{matrix}}}" if matrix else ""
    size = f", size = {queue_bytes}" if queue_bytes is not None else ""
    q = (f"ktdf_arch.features = {{ktdf_arch.feature.queue = {{depth = {depth}{size}, "
         "ordered}}, ktdf_arch.bytes_per_cycle = 128")
    du = """    %du = exec_unit {kind = "DU", ktdf_arch.features = {ktdf_arch.feature.load}}
    datapath {ktdf_arch.bytes_per_cycle = 64, ktdf_arch.latency = 10} %gm to %du : memory, exec_unit
    datapath {ktdf_arch.bytes_per_cycle = 64} %du to %sp : exec_unit, memory
    datapath {ktdf_arch.bytes_per_cycle = 64} %sp to %du : memory, exec_unit
    datapath {ktdf_arch.bytes_per_cycle = 64, ktdf_arch.latency = 10} %du to %gm : exec_unit, memory
""" if dma else ""
    text = f"""ktdf_arch.device @tdev {{
  %gm = memory {{kind = "GM", size = 1048576}}
  group {{kind = "core"}} share(%gm) {{
    %sp = memory {{kind = "SP", size = {scratchpad}}}
    %cu = exec_unit {{kind = "CU", ktdf_arch.features = {{ktdf_arch.feature.compute,
      ktdf_arch.feature.simd = {{lanes = #ktdf_arch.map<f16 = 64>}}{mx}}}}}
    %lu = exec_unit {{kind = "LU", ktdf_arch.features = {{ktdf_arch.feature.load}}}}
    %su = exec_unit {{kind = "SU", ktdf_arch.features = {{ktdf_arch.feature.store}}}}
    datapath {{ktdf_arch.bytes_per_cycle = 128, ktdf_arch.latency = 2}} %gm to %lu : memory, exec_unit
    datapath {{ktdf_arch.bytes_per_cycle = 128}} %sp to %lu : memory, exec_unit
    datapath {{{q}}} %lu to %cu : exec_unit, exec_unit
    datapath {{{q}}} %cu to %su : exec_unit, exec_unit
    datapath {{ktdf_arch.bytes_per_cycle = {store_bandwidth}}} %su to %gm : exec_unit, memory
    datapath {{ktdf_arch.bytes_per_cycle = 128}} %su to %sp : exec_unit, memory
{du}  }}
}}
"""
    return devices_in_text(text, "tdev.mlir")[0]


def module(body: str, nargs: int = 1, grid: int = 1, name: str = "prog.mlir", funcs: str = ""):
    """The program text `body` in the compiler's module shape, parsed; `funcs`: more
    functions."""
    return parse_module(module_text(body, nargs, grid, funcs), name)


def module_text(body: str, nargs: int = 1, grid: int = 1, funcs: str = "") -> str:
    """The text of `module`: a host function binding `nargs` symbols and calling the body
    function, whose units GM, C0-SP/LU/CU/SU and constants 0, 1, 2, 4, 8, 64 `body` uses."""
    params = ", ".join(f"%a{i}: index" for i in range(nargs))
    ids = "\n".join(f"  symbol.create_id %a{i} {{symbol_id = {-(i + 1)} : si64}} : index"
                    for i in range(nargs))
    text = f"""func.func @k({params}) attributes {{grid = [{grid}]}} {{
{ids}
  func.call @k_body() : () -> ()
  func.return
}}
func.func @k_body() attributes {{grid = [{grid}]}} {{
  %gm = dataflow.get_unit {{name = "GM", type = "GM"}} : index
  %sp = dataflow.get_unit {{core = 0 : i32, name = "C0-SP", type = "SP"}} : index
  %lu = dataflow.get_unit {{core = 0 : i32, name = "C0-LU", type = "LU"}} : index
  %cu = dataflow.get_unit {{core = 0 : i32, name = "C0-CU", type = "CU"}} : index
  %su = dataflow.get_unit {{core = 0 : i32, name = "C0-SU", type = "SU"}} : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
{body}
  func.return
}}
{funcs}"""
    return text


def load_rows(rows: int, src: str = "%gm", sym: int = -1, to: str = "%cu") -> str:
    """LU: send rows 0..rows-1 of a rows x 64 f16 matrix (at symbol `sym`) to `to`."""
    return f"""  dataflow.program_unit %lu : {{
    %a = symbol.create_symbol {{SymbolId = {sym} : i64}} : index
    %v = dataflow.get_logical_memory_view {src}, %a {{{LAYOUT}}} : index, index, memref<{rows}x64xf16>
    %n = arith.constant {rows} : index
    scf.for %i = %c0 to %n step %c1 {{
      %x = agen.vector_load %v[%i, 0] {{{ROW}}} : memref<{rows}x64xf16>, vector<64xf16>
      dataflow.send {to}, %x : vector<64xf16>
    }}
  }}
"""


def store_rows(rows: int, dst: str = "%gm", sym: int = -2, frm: str = "%cu") -> str:
    """SU: receive `rows` vectors from `frm` into a rows x 64 f16 matrix at symbol `sym`."""
    return f"""  dataflow.program_unit %su : {{
    %a = symbol.create_symbol {{SymbolId = {sym} : i64}} : index
    %v = dataflow.get_logical_memory_view {dst}, %a {{{LAYOUT}}} : index, index, memref<{rows}x64xf16>
    %n = arith.constant {rows} : index
    scf.for %i = %c0 to %n step %c1 {{
      %x = dataflow.receive {frm} : vector<64xf16>
      agen.vector_store %x, %v[%i, 0] {{{STORE_ROW}}} : memref<{rows}x64xf16>, vector<64xf16>
    }}
  }}
"""


def compute_rows(rows: int, op: str = "add") -> str:
    """CU: receive two vectors per row from LU, combine them with `op`, send the result."""
    return f"""  dataflow.program_unit %cu : {{
    %n = arith.constant {rows} : index
    scf.for %i = %c0 to %n step %c1 {{
      %x = dataflow.receive %lu : vector<64xf16>
      %y = dataflow.receive %lu : vector<64xf16>
      %z = vectorchain.binary %x, %y {{binary_op = #vectorchain<binary_operator {op}>, op_specific_map = affine_map<(d0) -> (d0)>}} : vector<64xf16>, vector<64xf16>, vector<64xf16>
      dataflow.send %su, %z : vector<64xf16>
    }}
  }}
"""
