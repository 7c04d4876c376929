"""The lit + FileCheck suite (filecheck/), one pytest item per lit file, so that `pytest` is
the one test command, a failure names its file and shows FileCheck's message, and `-k`
selects files. lit itself runs the selected files once, in parallel (`lit -o` writes each
file's result), so the suite costs what `lit filecheck` costs; `lit filecheck` still runs
it alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILECHECK = ROOT / "filecheck"
SUFFIXES = (".mlir", ".test")  # filecheck/lit.cfg's config.suffixes


def lit_files() -> list[str]:
    """The files lit runs (lit.cfg: these suffixes, without `Inputs` folders or the output
    folder), relative to filecheck/."""
    out = []
    for p in FILECHECK.rglob("*"):
        rel = p.relative_to(FILECHECK)
        if p.suffix in SUFFIXES and p.is_file() and not {"Inputs", ".lit-out"} & set(rel.parts):
            out.append(rel.as_posix())
    return sorted(out)


@pytest.fixture(scope="session")
def lit_results(request, tmp_path_factory) -> dict[str, dict]:
    """Run lit once on every lit file this session selected; each file's JSON result."""
    chosen = [item.callspec.params["path"] for item in request.session.items
              if getattr(item, "originalname", None) == "test_lit_file"]
    report = tmp_path_factory.mktemp("lit") / "results.json"
    lit = Path(sys.executable).with_name("lit")
    cmd = [str(lit) if lit.exists() else "lit", "-q", "-j", str(os.cpu_count() or 2),
           "-o", str(report), *(str(FILECHECK / c) for c in chosen)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if not report.exists():
        pytest.fail(f"lit did not run:\n{proc.stdout[-5000:]}\n{proc.stderr[-5000:]}",
                    pytrace=False)
    results = {}
    for t in json.loads(report.read_text())["tests"]:
        name = t["name"].split(" :: ", 1)[-1]  # "ktir :: tools/ktir-run/basic.test"
        results[name] = t
    return results


@pytest.mark.parametrize("path", lit_files())
def test_lit_file(path: str, lit_results: dict[str, dict]) -> None:
    result = lit_results.get(path)
    if result is None:
        pytest.fail(f"filecheck/{path}: lit reported no result for this file", pytrace=False)
    code = result["code"]
    if code == "UNSUPPORTED":
        pytest.skip(f"filecheck/{path}: unsupported here")
    if code not in ("PASS", "XFAIL"):
        pytest.fail(f"filecheck/{path}: {code}\n{result.get('output', '')}", pytrace=False)
