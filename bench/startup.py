"""Start-up time of the command-line tools: wall time of whole processes, and what they import.

    python bench/startup.py [--repeat 9]

Part 1 runs each command `--repeat` times as a fresh process and prints the median and the
fastest wall time (target, issue 10: `ktir --help` and `ktir-opt --help` <= 0.3 s median).
`xdsl-opt --help` is the floor of `ktir-opt`: both import xDSL's opt driver, which imports the
builtin dialect and the IR core; ktir-opt adds nothing else before it parses.
Part 2 runs `python -X importtime` for each help command and prints the five slowest
top-level imports, so a regression names its cause. Part 3 times a whole `ktir interpret` of
the 96x64 add against its start-up (the same process with `--help`).

Measured on the project's 2-core machine (load average given with each run):

    command                       median s  fastest s      (2026-12-02, 9 runs, load 2.0)
    ktir --help                      0.123      0.110
    ktir-opt --help                  0.247      0.195
    xdsl-opt --help (floor)          0.342      0.243
    ktir interpret --help            0.109      0.095
    ktir version                     0.120      0.110
    ktir interpret add_96x64         0.441      0.422      (start-up 0.109 s, work 0.332 s)

Before issue 10: `ktir interpret --help` 0.7 s. ktir-opt is below xdsl-opt's own start-up
because the CLIs start without garbage collection and freeze the heap at exit
(ktir_tools/process.py).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
KERNEL = ROOT / "examples" / "kernels" / "add_96x64.mlir"

COMMANDS = {
    "ktir --help": [BIN / "ktir", "--help"],
    "ktir-opt --help": [BIN / "ktir-opt", "--help"],
    "xdsl-opt --help (floor)": [BIN / "xdsl-opt", "--help"],
    "ktir interpret --help": [BIN / "ktir", "interpret", "--help"],
    "ktir version": [BIN / "ktir", "version"],
    "ktir interpret add_96x64": [BIN / "ktir", "interpret", KERNEL],
}
MODULES = {
    "ktir --help": "ktir_tools.ktir_cli",
    "ktir-opt --help": "ktir_tools.ktir_opt",
    "ktir interpret --help": "ktir_tools.ktir_cli",
}


def wall(cmd: list, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([str(c) for c in cmd], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
        out.append(time.perf_counter() - t0)
    return out


def slowest_imports(module: str, args: list[str], n: int = 5) -> list[tuple[str, float]]:
    """The `n` top-level imports (direct children of the entry point) costing most."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", module, *args],
                          capture_output=True, text=True, env={**os.environ, "COLUMNS": "80"})
    rows = []
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\s*)(\S+)", line)
        if m and len(m.group(2)) <= 2:  # the entry point's own imports and their parents
            rows.append((m.group(3), int(m.group(1)) / 1e6))
    return sorted(rows, key=lambda r: -r[1])[:n]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=9)
    opts = ap.parse_args()
    load = os.getloadavg()[0]
    print(f"start-up, {opts.repeat} runs each, load average {load:.1f}\n")
    print(f"{'command':28s} {'median s':>9s} {'fastest s':>10s}")
    medians = {}
    for name, cmd in COMMANDS.items():
        times = wall(cmd, opts.repeat)
        medians[name] = statistics.median(times)
        print(f"{name:28s} {medians[name]:9.3f} {min(times):10.3f}")
    print("\nslowest top-level imports (cumulative s)")
    for name, module in MODULES.items():
        args = name.split()[1:]
        print(f"  {name}: " + ", ".join(f"{m} {s:.3f}" for m, s in
                                         slowest_imports(module, args)))
    work = medians["ktir interpret add_96x64"] - medians["ktir interpret --help"]
    print(f"\nktir interpret add_96x64: {medians['ktir interpret add_96x64']:.3f} s, of which "
          f"start-up {medians['ktir interpret --help']:.3f} s and work {work:.3f} s")
    for name in ("ktir --help", "ktir-opt --help"):
        verdict = "met" if medians[name] <= 0.3 else "NOT met"
        print(f"target {name} <= 0.3 s median: {verdict} ({medians[name]:.3f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
