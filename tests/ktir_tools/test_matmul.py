"""Matmul end to end: `generalize-contractions` makes linalg.matmul a linalg.generic contraction
that the reduction path compiles, vectorised along n (outer products over k); emulated on spyre
and compared with the reference interpreter. f16 products summed in f32 and rounded once, as the
interpreter does: bit for bit here."""

from pathlib import Path

from ktir_tools.run import run_and_check

HERE = Path(__file__).parent / "matmul"


def test_tiny_matmul_bitwise() -> None:
    """One instance per row and 32 columns, an outer product per k: 729 cycles (7,133 when
    each instance computed one element, reducing a row of A and a column of B across lanes)."""
    report = run_and_check(HERE / "matmul_tiny.mlir", "spyre")
    assert report.match, list(report.checks)
    assert report.emulation.cycles < 1500, report.emulation.cycles


def test_narrow_column_block_matmul() -> None:
    """16 columns per tile, narrower than the f32 vector: two k per vector step, still bitwise
    on this data, and on sample_device too."""
    for device in ("spyre", "sample_device"):
        report = run_and_check(HERE / "matmul_narrow.mlir", device)
        assert report.match, (device, list(report.checks))
        assert report.emulation.cycles < 1500, (device, report.emulation.cycles)


def test_a_long_emulation_says_it_is_running(monkeypatch, capsys) -> None:
    """`ktir run` prints how long the emulation has run (every 10 s to a file), so a long run is
    not taken for a hang; the line stops with the run."""
    from ktir_tools.cli_compile import Progress

    monkeypatch.setattr(Progress, "EVERY", (0.005, 0.005))  # the emulation takes ~50 ms
    progress = Progress(True)
    report = run_and_check(HERE / "matmul_tiny.mlir", "spyre", on_emulate=progress.emulating)
    progress.finish()
    assert report.match
    err = capsys.readouterr().err
    assert err.startswith("emulating ... 0 s\n"), err
    assert progress.ticker is None and capsys.readouterr().err == ""
