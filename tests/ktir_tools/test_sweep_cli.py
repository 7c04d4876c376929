"""`ktir sweep` and `ktir plot` as a user meets them: a missing extra says how to install it,
bad options exit 1 with one line, Ctrl-C keeps what finished, a sweep file's points and the
cache are listed."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ktir.diagnostics import KtirDiagnostic
from ktir_tools.ktir_cli import main
from ktir_tools.sweep import execute
from ktir_tools.sweep.results import check_writable_format, journal_path, read_rows

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "examples" / "kernels"


def _spec(tmp_path: Path, sizes: str = "[4096]") -> Path:
    spec = tmp_path / "small.toml"
    spec.write_text(f'kernels = ["{KERNELS / "mul_max.mlir"}"]\ndevices = ["sample_device"]\n'
                    f'results = "small.csv"\n[sweep]\n"memory.scratchpad.size" = {sizes}\n')
    return spec


def _run(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    out = capsys.readouterr()
    return e.value.code, out.out, out.err


def test_missing_extras_say_how_to_install_them(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(KtirDiagnostic, match=r"--ray needs Ray, an optional extra: "
                                             r"pip install 'ktir\[ray\]'"):
        execute.check_ray()
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(KtirDiagnostic, match=r"Parquet needs pyarrow: pip install "
                                             r"'ktir\[results\]'"):
        check_writable_format(Path("r.parquet"))
    check_writable_format(Path("r.csv"))
    with pytest.raises(KtirDiagnostic, match=r"name it \.parquet or \.csv"):
        check_writable_format(Path("r.json"))


def test_a_sweep_then_its_listing_and_a_rerun(tmp_path, capsys):
    spec = _spec(tmp_path, "[256, 4096]")
    code, out, _ = _run(["sweep", str(spec), "--jobs", "1"], capsys)
    assert code == 0
    assert "small.csv: 2 of 2 point(s), 1 failed; computed 2 in" in out
    rows = read_rows(tmp_path / "small.csv")
    assert [(r["memory.scratchpad.size"], r["status"]) for r in rows] == \
        [(256, "error"), (4096, "ok")]
    code, out, _ = _run(["sweep", str(spec), "--list"], capsys)
    assert code == 0
    assert [line.split()[2] for line in out.splitlines()] == ["cached", "cached"]
    code, out, _ = _run(["sweep", str(spec), "-q"], capsys)
    assert "computed 0 in" in out
    assert "2 from earlier runs" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["sweep", "SPEC", "--jobs", "0"], "error: --jobs must be at least 1"),
    (["sweep", "SPEC", "-o", "r.json"], "name it .parquet or .csv"),
    (["sweep", "nope.toml"], "error: cannot read sweep file 'nope.toml': No such file"),
    (["plot", "nope.parquet"], "error: no results file 'nope.parquet'"),
    (["plot", "RESULTS", "--kind", "bars"], "error: --kind must be one of roofline, pareto"),
    (["plot", "RESULTS", "--format", "gif"], "error: --format must be one of png, svg"),
    (["plot", "RESULTS", "-o", "x.png"], "-o FILE draws one picture"),
])
def test_bad_options_exit_1_with_one_message(tmp_path, capsys, argv, message):
    results = tmp_path / "r.csv"
    results.write_text("point,hash,status\n")
    argv = [str(_spec(tmp_path)) if a == "SPEC" else str(results) if a == "RESULTS" else a
            for a in argv]
    code, out, err = _run(argv, capsys)
    assert code == 1
    assert message in err
    assert "Traceback" not in err + out


def test_ctrl_c_keeps_the_finished_points(tmp_path):
    """SIGINT half way: the results file holds the points that finished, the exit status is
    130, and the rerun computes the rest."""
    spec = _spec(tmp_path, "[4096, 8192, 16384, 32768, 65536, 131072]")
    proc = subprocess.Popen([sys.executable, "-m", "ktir_tools.ktir_cli", "sweep", str(spec),
                             "--jobs", "1", "-q"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    journal = journal_path(tmp_path / "small.csv")
    deadline = time.monotonic() + 300
    while not (journal.is_file() and journal.read_text().count("\n") >= 2):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, (out, err)
    assert "interrupted:" in err
    assert "run the same command again to compute them" in err
    rows = read_rows(tmp_path / "small.csv")
    assert 2 <= len(rows) < 6
    assert all(r["status"] == "ok" for r in rows)
    assert not journal.exists()
