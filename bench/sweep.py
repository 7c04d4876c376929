"""Times a design-space sweep: the 48-point examples/sweeps/scratchpad.toml on local processes
and on a local Ray cluster, from scratch each time, and checks that both give the same rows.

    python bench/sweep.py [--jobs 2] [--no-ray] [--spec examples/sweeps/scratchpad.toml]

Reported per executor: wall seconds of the whole sweep (reading the file, building the 8 device
variants, starting the workers or the Ray cluster, the points, writing the Parquet file),
points per wall second, and the seconds of one worker's compile + reference + emulate summed
over the points (the work itself, what more workers divide); then a rerun of the finished
sweep (all points cached).

Measured on the project's 2-core machine shared with other sessions (load average 20.8, so
every figure is several times a quiet machine's), --jobs 2, both from scratch:

    executor  points  spec s  wall s  points/s  work s  rerun s
    local         48     6.7    84.4      0.57   142.2      0.3
    ray           48     0.2    58.9      0.82    74.0      0.4
    rows identical (timings aside): True

`spec s` is reading the sweep file and building its 8 device variants (Ray's run reuses the
variants the first built in this process); `wall s` includes starting the process pool or the
local Ray cluster (its workers at niceness 0: at Ray's default of 15 the same sweep took 409 s
on this busy machine, against 125 s locally for 28 of its points). The rerun computes nothing:
every point is found in the results by its hash.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> None:
    from ktir_tools.sweep import load_spec, run_sweep
    from ktir_tools.sweep.point import TIMINGS
    from ktir_tools.sweep.results import read_rows

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spec", type=Path, default=ROOT / "examples/sweeps/scratchpad.toml")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-ray", action="store_true")
    args = ap.parse_args(argv)

    executors = [("local", False)] + ([] if args.no_ray else [("ray", True)])
    table, rows_of = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, ray in executors:
            out = Path(tmp) / f"{name}.parquet"
            t0 = time.perf_counter()
            sweep = load_spec(args.spec)
            loaded = time.perf_counter() - t0
            outcome = run_sweep(sweep, results=out, jobs=args.jobs, ray=ray)
            wall = time.perf_counter() - t0
            assert outcome.computed == len(sweep.points), outcome
            rows = read_rows(out)
            work = sum(r[k] or 0.0 for r in rows for k in TIMINGS)
            t1 = time.perf_counter()
            again = run_sweep(load_spec(args.spec), results=out, jobs=args.jobs, ray=ray)
            rerun = time.perf_counter() - t1
            assert again.computed == 0, again
            rows_of[name] = [{k: v for k, v in r.items() if k not in TIMINGS} for r in rows]
            table.append((name, len(rows), loaded, wall, len(rows) / wall, work, rerun))
    load = os.getloadavg()[0]
    print(f"{args.spec.name}: {len(rows_of['local'])} points, --jobs {args.jobs}, load "
          f"average {load:.1f}")
    print(f"{'executor':9} {'points':>6} {'spec s':>7} {'wall s':>7} {'points/s':>9} "
          f"{'work s':>7} {'rerun s':>8}")
    for name, n, loaded, wall, rate, work, rerun in table:
        print(f"{name:9} {n:6} {loaded:7.1f} {wall:7.1f} {rate:9.2f} {work:7.1f} {rerun:8.1f}")
    if "ray" in rows_of:
        same = rows_of["ray"] == rows_of["local"]
        print(f"rows identical (timings aside): {same}")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
