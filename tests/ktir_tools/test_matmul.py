"""Matmul end to end: `generalize-contractions` makes linalg.matmul a linalg.generic contraction
that the reduction path compiles; emulated on spyre and compared with the reference interpreter.
f16 products summed in f32 and rounded once, as the interpreter does: bit for bit here."""

from pathlib import Path

from ktir_tools.run import run_and_check

HERE = Path(__file__).parent / "matmul"


def test_tiny_matmul_bitwise() -> None:
    report = run_and_check(HERE / "matmul_tiny.mlir", "spyre")
    assert report.match, list(report.checks)

