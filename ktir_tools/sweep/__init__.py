"""Design-space sweeps: many kernels on many device variants, each point compiled, emulated and
checked (`ktir sweep SPEC.toml`, `ktir plot RESULTS`).

    from ktir_tools.sweep import load_spec, run_sweep
    outcome = run_sweep(load_spec("examples/sweeps/ddr_bandwidth.toml"), jobs=2)
    outcome.rows          # one dict per point (results.columns)

`spec.py` reads the sweep file, `point.py` runs one point, `execute.py` runs them (process
pool or Ray), `results.py` stores and caches rows, `report.py` shows progress and the summary,
`plot.py` draws the results.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ktir_tools.sweep.spec import Sweep, load_spec

__all__ = ["Outcome", "Sweep", "load_spec", "run_sweep"]


@dataclass
class Outcome:
    results: Path
    rows: list[dict[str, Any]] = field(default_factory=list)
    computed: int = 0          # points run now
    cached: int = 0            # points found in the results or the journal
    missing: int = 0           # points not run (interrupted)
    seconds: float = 0.0
    interrupted: bool = False


def run_sweep(sweep: Sweep, *, results: Path | None = None, jobs: int | None = None,
              ray: bool = False, ray_address: str | None = None, fresh: bool = False,
              progress=None, on_point=None) -> Outcome:
    """Run the points of `sweep` that are not in its results yet; write the results file.

    `progress`: a `report.Progress` (default: silent). `on_point(point, measures)` is called
    as each point finishes. On KeyboardInterrupt the finished points are saved and the
    outcome says `interrupted`."""
    from ktir_tools.sweep import execute
    from ktir_tools.sweep.report import Progress, point_line
    from ktir_tools.sweep.results import Store, check_writable_format, columns, default_path
    from ktir_tools.sweep.spec import compiler_version

    path = results or sweep.results or default_path(sweep.path)
    check_writable_format(path)
    if ray or ray_address:
        execute.check_ray()
    store = Store(path, fresh=fresh)
    progress = progress or Progress(quiet=True)
    by_key: dict[str, list] = {}
    for p in sweep.points:
        by_key.setdefault(p.key, []).append(p)
    todo = [ps[0].job for key, ps in by_key.items() if key not in store.cached]
    outcome = Outcome(path, cached=sum(1 for p in sweep.points if p.key in store.cached))
    t0 = time.perf_counter()
    if ray or ray_address:
        stream = execute.run_ray(todo, ray_address, jobs)
    else:
        stream = execute.run_local(todo, jobs or execute.default_jobs())
    fresh_rows: dict[str, dict[str, Any]] = {}
    progress.start(len(todo))
    try:
        for job, measures in stream:
            store.add(job.key, measures)
            fresh_rows[job.key] = measures
            outcome.computed += 1
            for p in by_key[job.key]:
                if on_point is not None:
                    on_point(p, measures)
            progress.done(point_line(by_key[job.key][0], measures))
    except KeyboardInterrupt:
        outcome.interrupted = True
    finally:
        progress.stop()
        stream.close()
        outcome.seconds = time.perf_counter() - t0
        version = compiler_version()
        for p in sweep.points:
            measures = fresh_rows.get(p.key) or store.cached.get(p.key)
            if measures is None:
                outcome.missing += 1
                continue
            outcome.rows.append({**p.identity(sweep.override_keys), **measures,
                                 "compiler": version})
        store.save(outcome.rows, columns(sweep.override_keys))
    return outcome
