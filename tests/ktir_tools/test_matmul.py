"""Matmul end to end: `generalize-contractions` makes linalg.matmul a linalg.generic contraction
that the reduction path compiles; emulated on spyre and compared with the reference interpreter.
The contraction's body rounds the f16 accumulator every step while the interpreter sums in f32
and rounds once, so the comparison takes a tolerance (README, numerics)."""

from pathlib import Path

from ktir_tools.run import run_and_check

HERE = Path(__file__).parent / "matmul"


def test_tiny_matmul_within_fp16_accumulation_tolerance() -> None:
    report = run_and_check(HERE / "matmul_tiny.mlir", "spyre", rtol=1e-2, atol=1e-2)
    assert report.match, list(report.checks)

