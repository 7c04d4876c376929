"""The matrix engine on hand-written DataflowIR (spyrecode/dialects/matrixchain.py): numbers
as numpy's f32 block product of the f16 operands, time from the engine's shape and rate."""

from __future__ import annotations

import numpy as np
import pytest

from emulator import UnsupportedOpError, emulate
from tests.emulator.programs import device, module

ENGINE = ("rows = 8, cols = 8, depth = 1, inputs = [f16], accumulator = f32, "
          "macs_per_cycle = 64, latency = {lat}")


def _set(rows: int, cols: int) -> str:
    return (f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, "
            f"-d1 + {cols - 1} >= 0)>")


def _load(name: str, sym: int, rows: int, cols: int) -> str:
    """LU: a whole rows x cols f16 block at symbol `sym` as one vector to CU."""
    return f"""    %{name}_p = symbol.create_symbol {{SymbolId = {sym} : i64}} : index
    %{name}_v = dataflow.get_logical_memory_view %gm, %{name}_p {{layout_map = affine_map<(d0, d1) -> (d0 * {cols} + d1)>}} : index, index, memref<{rows}x{cols}xf16>
    %{name} = agen.vector_load %{name}_v[0, 0] {{load_order = affine_map<(d0, d1) -> (d0, d1)>, load_set = {_set(rows, cols)}}} : memref<{rows}x{cols}xf16>, vector<{rows * cols}xf16>
    dataflow.send %cu, %{name} : vector<{rows * cols}xf16>
"""


def program(m: int, k: int, n: int, steps: int = 1) -> str:
    """acc = 0; `steps` times acc = matmul(A, B, acc); C (f32) = acc."""
    mn = m * n
    zeros = ", ".join(["0x0"] * mn)
    return f"""  dataflow.program_unit %lu : {{
{_load("a", -1, m, k)}{_load("b", -2, k, n)}  }}
  dataflow.program_unit %cu : {{
    %a = dataflow.receive %lu : vector<{m * k}xf16>
    %b = dataflow.receive %lu : vector<{k * n}xf16>
    %z = vectorchain.constant_bitstream {{value = [{zeros}]}} : vector<{mn}xf32>
    %n = arith.constant {steps} : index
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%part = %z) -> (vector<{mn}xf32>) {{
      %next = matrixchain.matmul %a, %b, %part {{k = {k} : i64, m = {m} : i64, n = {n} : i64}} : vector<{m * k}xf16>, vector<{k * n}xf16>, vector<{mn}xf32> -> vector<{mn}xf32>
      scf.yield %next : vector<{mn}xf32>
    }}
    dataflow.send %su, %acc : vector<{mn}xf32>
  }}
  dataflow.program_unit %su : {{
    %c_p = symbol.create_symbol {{SymbolId = -3 : i64}} : index
    %c_v = dataflow.get_logical_memory_view %gm, %c_p {{layout_map = affine_map<(d0, d1) -> (d0 * {n} + d1)>}} : index, index, memref<{m}x{n}xf32>
    %c = dataflow.receive %cu : vector<{mn}xf32>
    agen.vector_store %c, %c_v[0, 0] {{store_order = affine_map<(d0, d1) -> (d0, d1)>, store_set = {_set(m, n)}}} : memref<{m}x{n}xf32>, vector<{mn}xf32>
  }}
"""


def _run(m: int, k: int, n: int, steps: int = 1, latency: int = 4):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    dev = device(depth=4, scratchpad=1 << 16, matrix=ENGINE.format(lat=latency))
    r = emulate(module(program(m, k, n, steps), nargs=3), dev, entry="k",
                args=[0, 8192, 16384], memory_init={"GM": [(0, a), (8192, b)]})
    return a, b, r


def test_block_product_is_numpys_f32_matmul() -> None:
    a, b, r = _run(8, 16, 8)
    want = a.astype(np.float32) @ b.astype(np.float32)
    assert np.array_equal(r.read("GM", 16384, (8, 8), np.float32), want)
    # accumulating: three steps add the same product three times, in f32
    a, b, r = _run(8, 16, 8, steps=3)
    p = a.astype(np.float32) @ b.astype(np.float32)
    assert np.array_equal(r.read("GM", 16384, (8, 8), np.float32), (p + p) + p)


def test_cycles_follow_the_engines_passes() -> None:
    # an 8 x 8 x 1 array at 64 MACs/cycle: one pass a cycle, one pass per k step of each
    # 8 x 8 output block; two more steps of the loop hold the engine twice that long
    def per_step(m: int, k: int, n: int) -> float:
        one, three = _run(m, k, n, steps=1)[2], _run(m, k, n, steps=3)[2]
        return (three.units["C0-CU"].busy - one.units["C0-CU"].busy) / 2

    assert per_step(8, 16, 8) == 16
    assert per_step(8, 16, 32) == 4 * 16     # 4 column blocks
    assert per_step(12, 16, 8) == 2 * 16     # 12 rows take two row passes (the last half idle)
    assert per_step(4, 16, 4) == 16          # a smaller block still takes whole passes
    # the result is ready `latency` cycles after the passes end
    small, slow = _run(8, 16, 8)[2], _run(8, 16, 8, latency=40)[2]
    assert slow.cycles - small.cycles == 36


def test_a_unit_without_an_engine_refuses() -> None:
    text = program(8, 16, 8)
    located = r"prog.mlir:36:7: .*without a matrix engine.*\[unit C0-CU"
    with pytest.raises(UnsupportedOpError, match=located):
        emulate(module(text, nargs=3), device(depth=4, scratchpad=1 << 16), entry="k",
                args=[0, 8192, 16384])


def test_verifier_checks_lanes_and_types() -> None:
    bad = program(8, 16, 8).replace("k = 16 : i64", "k = 8 : i64")
    with pytest.raises(Exception, match="lhs has 128 lanes; a 8 x 8 x 8 block product needs 64"):
        module(bad, nargs=3).verify()
