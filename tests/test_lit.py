"""Runs the lit + FileCheck suite (filecheck/) so that `pytest` is the one test command."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_filecheck_suite():
    lit = Path(sys.executable).with_name("lit")
    cmd = [str(lit) if lit.exists() else "lit", "-q", "-j", str(os.cpu_count() or 2),
           str(ROOT / "filecheck")]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, f"lit failed:\n{proc.stdout[-20000:]}\n{proc.stderr[-5000:]}"
