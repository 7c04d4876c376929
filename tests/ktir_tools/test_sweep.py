"""Design-space sweeps end to end (ktir_tools/sweep/): the 48-point example sweep killed half
way and resumed (only the missing points computed), the same rows on a real local Ray cluster,
the capacity diagnostic as a row, the results as CSV, and the pictures as valid images."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ktir.diagnostics import KtirDiagnostic
from ktir_tools.sweep import load_spec, run_sweep
from ktir_tools.sweep.point import TIMINGS
from ktir_tools.sweep.results import journal_path, read_rows, write_rows

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "examples" / "sweeps" / "scratchpad.toml"
SIZE = "memory.scratchpad.size"


def _deterministic(rows):
    return [{k: v for k, v in r.items() if k not in TIMINGS} for r in rows]


def _journal_hashes(path: Path) -> set[str]:
    hashes = set()
    for line in journal_path(path).read_text().splitlines():
        try:
            hashes.add(json.loads(line)["hash"])
        except json.JSONDecodeError:  # the line the kill cut short
            pass
    return hashes


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """The 48-point sweep on local processes, killed (SIGKILL, the whole process group) when
    about half its points are journalled, then resumed in this process."""
    pytest.importorskip("pyarrow")
    out = tmp_path_factory.mktemp("sweep") / "scratchpad.parquet"
    journal = journal_path(out)
    proc = subprocess.Popen([sys.executable, "-m", "ktir_tools.ktir_cli", "sweep", str(SPEC),
                             "-o", str(out), "--jobs", "2", "--quiet"], cwd=ROOT,
                            start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + 600
    try:
        while not (journal.is_file() and len(journal.read_text().splitlines()) >= 20):
            assert proc.poll() is None, proc.stderr.read().decode()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the sweep journalled no 20 points in 600 s"
            time.sleep(0.2)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert not out.exists()  # killed before it could write the results
    done_before = _journal_hashes(out)
    assert 20 <= len(done_before) < 48

    ran: list[str] = []
    sweep = load_spec(SPEC)
    t0 = time.perf_counter()
    outcome = run_sweep(sweep, results=out, jobs=2, on_point=lambda p, m: ran.append(p.key))
    return {"path": out, "before": done_before, "ran": ran, "outcome": outcome,
            "sweep": sweep, "seconds": time.perf_counter() - t0}


def test_a_killed_sweep_reruns_only_the_missing_points(local):
    outcome, before, ran = local["outcome"], local["before"], local["ran"]
    assert not outcome.interrupted
    assert (outcome.cached, outcome.computed, outcome.missing) == \
        (len(before), 48 - len(before), 0)
    assert len(ran) == 48 - len(before)
    assert not set(ran) & before
    assert set(ran) | before == {p.key for p in local["sweep"].points}
    assert not journal_path(local["path"]).exists()
    rows = read_rows(local["path"])
    assert [r["point"] for r in rows] == list(range(48))
    # and once more: nothing left to compute
    again = run_sweep(local["sweep"], results=local["path"], jobs=2)
    assert (again.computed, again.cached) == (0, 48)
    assert again.rows == rows


def test_the_rows_say_what_ran(local):
    rows = read_rows(local["path"])
    assert {(r["kernel"], r["device"], r["options"]) for r in rows} == {
        (k, d, o) for k in ("add", "eltwise_chain", "mul_max") for d in ("spyre", "sample")
        for o in ("default", "no-legality-check")}
    for r in rows:
        assert r["scratchpad_bytes"] == r[SIZE]
        assert r["scratchpad_kind"] == ("LX" if r["device"] == "spyre" else "L1")
        if r["status"] == "ok":
            assert r["match"] is True
            assert r["cycles"] >= r["bound_cycles"] > 0
            assert 0 < r["efficiency"] <= 1
            assert 0 < r["scratchpad_peak_bytes"] <= r[SIZE]
            assert sum(json.loads(r["bytes_per_datapath"]).values()) >= r["compulsory_bytes"]
            assert r["error"] is None
    # the option sets compile the same schedule
    by_point = {(r["kernel"], r["device"], r[SIZE], r["options"]): r for r in rows}
    for (k, d, s, o), r in by_point.items():
        if o == "default":
            assert r["cycles"] == by_point[k, d, s, "no-legality-check"]["cycles"]


def test_a_kernel_that_does_not_fit_is_a_row_with_the_capacity_diagnostic(local):
    rows = read_rows(local["path"])
    for r in rows:
        fits = r[SIZE] >= (512 if r["kernel"] == "eltwise_chain" else 384)
        assert (r["status"] == "ok") == fits, r
        if not fits:
            memory = "LX" if r["device"] == "spyre" else "L1"
            kernel = "add_96x64" if r["kernel"] == "add" else r["kernel"]
            assert r["cycles"] is None
            assert f'{kernel}.mlir:' in r["error"]
            assert f'error: \'memref.alloc\' op memory "{memory}" of device @' in r["error"]
            assert "is full: the buffers of this compute group need" in r["error"]
            assert f"of its {r[SIZE]} B" in r["error"]


def test_ray_gives_the_same_rows(local, tmp_path):
    """A real local Ray cluster (started here, two CPUs), one task per point."""
    pytest.importorskip("ray")
    out = tmp_path / "ray.parquet"
    t0 = time.perf_counter()
    outcome = run_sweep(local["sweep"], results=out, jobs=2, ray=True)
    seconds = time.perf_counter() - t0
    assert (outcome.computed, outcome.cached) == (48, 0)
    assert _deterministic(read_rows(out)) == _deterministic(read_rows(local["path"]))
    print(f"48 points: resumed locally {local['seconds']:.1f} s "
          f"({local['outcome'].computed} points), on Ray {seconds:.1f} s")


def test_results_as_csv_read_back_the_same(local, tmp_path):
    rows = read_rows(local["path"])
    csv = tmp_path / "r.csv"
    write_rows(csv, rows, list(rows[0]))
    assert read_rows(csv) == rows


def test_plots_are_valid_images(local, tmp_path):
    pytest.importorskip("matplotlib")
    from matplotlib.image import imread

    from ktir_tools.ktir_cli import main

    for fmt in ("png", "svg"):
        with pytest.raises(SystemExit) as e:
            main(["plot", str(local["path"]), "--format", fmt, "-o", str(tmp_path)])
        assert e.value.code == 0
    for kind in ("roofline", "pareto"):
        png = tmp_path / f"scratchpad.{kind}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        height, width, _ = imread(png).shape
        assert width > 600
        assert height > 400
        root = ET.parse(tmp_path / f"scratchpad.{kind}.svg").getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert root.findall(".//{http://www.w3.org/2000/svg}path")
    with pytest.raises(SystemExit) as e:
        main(["plot", str(local["path"]), "-k", "pareto", "--x", "nope",
              "-o", str(tmp_path / "p.png")])
    assert e.value.code == 1


def test_a_rerun_of_a_changed_point_recomputes_only_it(local, tmp_path):
    """The cache key is the content: another scratchpad size is a new point, the same ones
    are found in the results whatever their order in the file."""
    text = SPEC.read_text().replace("[256, 384, 512, 4096]", "[4096, 512, 1024]")
    spec = SPEC.parent / ".test_changed.toml"  # beside the example: its paths are relative
    spec.write_text(text)
    try:
        sweep = load_spec(spec)
    finally:
        spec.unlink()
    out = tmp_path / "changed.parquet"
    out.write_bytes(local["path"].read_bytes())
    outcome = run_sweep(sweep, results=out, jobs=2)
    assert (outcome.cached, outcome.computed) == (24, 12)
    assert {r[SIZE] for r in read_rows(out)} == {4096, 512, 1024}


def test_a_ray_address_that_answers_nothing_is_a_diagnostic():
    pytest.importorskip("ray")
    from ktir_tools.sweep import execute
    from ktir_tools.sweep.point import Job

    with pytest.raises(KtirDiagnostic, match="cannot start or join the Ray cluster"):
        next(execute.run_ray([Job("k", "k.mlir", "", "d", "", "LX")], "127.0.0.1:1", None))
