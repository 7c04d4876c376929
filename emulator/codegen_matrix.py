"""Code generation for `matrixchain` (spyrecode/dialects/matrixchain.py): a block product on
the compute unit's matrix engine, numbers by numpy in f32, time from the engine's shape and
rate (`MatrixEngine.interval`: whole passes of the array) and its latency."""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation

from emulator import codegen_inline as inline
from emulator.codegen import Gen, handles


def matmul_kernel(m: int, k: int, n: int):
    """acc + A . B on flat row-major blocks: f16/bf16 operands exact in f32, f32 sums."""

    def run(a: np.ndarray, b: np.ndarray, acc: np.ndarray) -> np.ndarray:
        a32 = np.asarray(a, np.float32).reshape(m, k)
        b32 = np.asarray(b, np.float32).reshape(k, n)
        return (np.asarray(acc, np.float32).reshape(m, n) + a32 @ b32).reshape(m * n)

    return run


@handles("matrixchain.matmul")
def _matmul(g: Gen, op: Operation) -> None:
    m, k, n = op.shape  # type: ignore[attr-defined]
    res = op.results[0]
    r = g.define(res)
    call = f"{g.cg.const(matmul_kernel(m, k, n), 'KERNEL')}(" + ", ".join(
        g.v(a) for a in op.operands) + ")"
    if g.mode != "program":
        g.emit(f"{r} = {call}; w{r[1:]} = 0.0", op)
        return
    ready = f"max({', '.join(g.w(a) for a in op.operands)})"
    site = g.cg.site("matrix", m * k * n, f"{m}x{k}x{n}", "matmul")
    g.emit(f"if _ivl{site} < 0: {g.cg.const(_no_engine, 'NOMX')}()", op)
    g.emit(f"{r} = {call}", op)
    inline.vop(g, op, site, ready, "w" + r[1:])


def _no_engine() -> None:
    from emulator.errors import UnsupportedOpError

    raise UnsupportedOpError("matrixchain.matmul on a unit without a matrix engine "
                             "(ktdf_arch.feature.matrix)")


def matrix_cost(unit, block: str, label: str, site: int) -> tuple[float, float, str, int]:
    """(latency, interval, label, site) of a block product "MxKxN" on `unit`'s engine; a
    unit without one gets interval -1, which the generated op refuses when it runs there."""
    engine = unit.matrix
    if engine is None:
        return (0.0, -1.0, label, site)
    m, k, n = (int(x) for x in block.split("x"))
    busy = engine.interval(m, k, n)  # the result comes `latency` after the passes
    return (float(busy + engine.latency), float(busy), label, site)
