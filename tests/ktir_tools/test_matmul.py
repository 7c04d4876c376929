"""Matmul end to end: `generalize-contractions` makes linalg.matmul a linalg.generic contraction;
on spyre (a matrix engine) the contraction pipeline runs it as block products
(`matrixchain.matmul`), on sample_device (SIMD only) the reduction path vectorises it along n
(outer products over k). Emulated and compared with the reference interpreter: f16 products
summed in f32 and rounded once per contraction, as the interpreter does: bit for bit here."""

from pathlib import Path

from ktir_tools.run import run_and_check

HERE = Path(__file__).parent / "matmul"


def test_tiny_matmul_bitwise() -> None:
    """On sample_device one instance for both rows and 32 columns, an outer product per k
    (7,133 cycles when each instance computed one element); on spyre one block product per
    tile (396 cycles; 626 on the SIMD path)."""
    for device in ("spyre", "sample_device"):
        report = run_and_check(HERE / "matmul_tiny.mlir", device)
        assert report.match, (device, list(report.checks))
        assert report.emulation.cycles < 1500, (device, report.emulation.cycles)


def _dfir(device: str) -> str:
    from ktir.context import load_module
    from scheduler.driver import compile_module

    return str(compile_module(load_module(HERE / "matmul_ksteps.mlir"), device).module)


def test_k_loop_matmul_on_the_matrix_engine() -> None:
    """A K loop of two steps with an f16 accumulator (iter_args): on spyre one instance per
    tile's 16 x 64 block, the k steps streamed through it (one `matrixchain.matmul` in the PE's
    k loop), the interpreter's numbers bit for bit (each step rounded to f16 and added in f16,
    as the kernel says); on sample_device the SIMD path, also bitwise, and slower."""
    on_engine = run_and_check(HERE / "matmul_ksteps.mlir", "spyre")
    assert on_engine.match, list(on_engine.checks)
    assert _dfir("spyre").count("matrixchain.matmul") == 1
    simd = run_and_check(HERE / "matmul_ksteps.mlir", "sample_device")
    assert simd.match, list(simd.checks)
    assert "matrixchain" not in _dfir("sample_device")
    assert on_engine.emulation.cycles < simd.emulation.cycles


def test_narrow_column_block_matmul() -> None:
    """16 columns per tile, narrower than the f32 vector: two k per vector step, still bitwise
    on this data, and on sample_device too."""
    for device in ("spyre", "sample_device"):
        report = run_and_check(HERE / "matmul_narrow.mlir", device)
        assert report.match, (device, list(report.checks))
        assert report.emulation.cycles < 1500, (device, report.emulation.cycles)


def test_rows_of_an_instance_share_each_b_row() -> None:
    """Two k chunks of 32 (rounded apart, as the kernel's f16 carry says): two partials per row,
    so 8 rows per instance fill the 2 KiB of registers (16 vectors of 32 f32), and each B row
    brought to the scratchpad serves 8 rows; B's transfer does not depend on the instance, so
    broadcast-promotion loads it once for both. Device-memory reads: A and B once, 6,144
    bytes (10,240 with B per instance, 67,584 with one instance per row), on sample_device's
    SIMD path; spyre's matrix engine takes each k step's blocks once: 6,144 bytes too.
    Bitwise on both."""
    for device, link, read in (("sample_device", "DDR->MNILU", 16 * 64 * 2 + 64 * 32 * 2),
                               ("spyre", "DDR->DMA_IN", 16 * 64 * 2 + 64 * 32 * 2)):
        report = run_and_check(HERE / "matmul_rows.mlir", device)
        assert report.match, (device, list(report.checks))
        assert report.emulation.bytes_per_datapath[link] == read, device
        assert report.emulation.cycles < 5500, (device, report.emulation.cycles)


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
