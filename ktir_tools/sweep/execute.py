"""Where the points run: a local process pool (default) or a Ray cluster, one task per point,
results yielded as they finish.

Both yield `(job, measures)`; a worker that dies or a task Ray loses yields a row of status
`lost` with what happened (the store does not cache it, so a rerun tries again). Stopping the
iteration (Ctrl-C in the caller) cancels the points not started.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Generator, Sequence
from typing import Any

from ktir.errors import KtirDiagnostic
from ktir_tools.sweep.point import MEASURES, Job, run_point

RAY_HINT = "pip install 'ktir[ray]'"
_PRELOAD = ["ktir_tools.sweep.point", "ktir_tools.run", "scheduler.driver", "emulator",
            "ktir.interpreter"]


def lost(what: str) -> dict[str, Any]:
    return {**dict.fromkeys(MEASURES), "status": "lost", "error": what}


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the sweep, which stops them in order."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_local(jobs: Sequence[Job], workers: int) -> Generator[tuple[Job, dict[str, Any]]]:
    """A pool of `workers` processes forked from a server that has imported the compiler
    once (forkserver: no fork of a process with threads, a fast start per worker)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    if not jobs:
        return
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(_PRELOAD)
    pool = ProcessPoolExecutor(max_workers=max(1, min(workers, len(jobs))), mp_context=ctx,
                               initializer=_quiet_worker)
    try:
        futures = {pool.submit(run_point, job): job for job in jobs}
        for future in as_completed(futures):
            job = futures[future]
            try:
                yield job, future.result()
            except Exception as e:  # the worker died (BrokenProcessPool, a pickling error)
                yield job, lost(f"worker lost: {type(e).__name__}: {e}")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def check_ray() -> None:
    """Say how to install Ray when it is missing (before anything runs)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise KtirDiagnostic(f"error: --ray needs Ray, an optional extra: {RAY_HINT}") from None


def _check_reachable(address: str) -> None:
    """Fail at once when nothing listens at a `HOST:PORT` (or `ray://HOST:PORT`) address: Ray
    itself retries such an address for minutes. `auto` and other forms are left to Ray."""
    import socket

    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as e:
        raise KtirDiagnostic(f"error: cannot start or join the Ray cluster {address}: nothing "
                             f"answers there ({e.strerror or e})") from None


def run_ray(jobs: Sequence[Job], address: str | None, workers: int | None
            ) -> Generator[tuple[Job, dict[str, Any]]]:
    """One Ray task per point on the cluster at `address` (None: the one `ray.init` finds, or
    a new local one with `workers` CPUs). A Ray session the caller started is used as it is
    and left running."""
    check_ray()
    import ray

    if not jobs:
        return
    started = not ray.is_initialized()
    if started:
        if address is not None:
            _check_reachable(address)
        # a local cluster's raylet starts its workers at niceness 15 (for the driver's sake):
        # here the workers are the job, and on a busy machine niced workers starve
        os.environ.setdefault("RAY_worker_niceness", "0")
        try:
            ray.init(address=address, num_cpus=workers if address is None else None,
                     include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        except Exception as e:  # ConnectionError, ValueError, RuntimeError, by version
            raise KtirDiagnostic(f"error: cannot start or join the Ray cluster "
                                 f"{address or '(local)'}: {e}") from None
    task = ray.remote(num_cpus=1, max_retries=0)(run_point)
    pending = {task.remote(job): job for job in jobs}
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                job = pending.pop(ref)
                try:
                    yield job, ray.get(ref)
                except Exception as e:  # RayTaskError, WorkerCrashedError, ...
                    yield job, lost(f"Ray task lost: {type(e).__name__}: "
                                    f"{str(e).splitlines()[0] if str(e) else ''}")
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
