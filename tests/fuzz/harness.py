"""Run command lines of `ktir` and `ktir-opt` in-process and sort what happens into outcomes.

A `Case` is one command line plus the files it reads (written into a fresh folder that is the
working directory while it runs). Cases run in long-lived worker processes forked from a warm
parent (every dialect, pass and the emulator imported once), each case through the CLI's own
`main(argv)` with its output captured, so thousands of cases take minutes: a worker has a
memory limit, and a case that overruns its time is stopped by an alarm (after `timeout`
seconds of CPU time: on a machine shared with other work, wall time would call slow cases
hangs) or, stuck in C code where the alarm cannot reach, by killing the worker once the case
has used 10 s more CPU time than that (read from /proc); a worker that waits without using the
CPU is killed after `(timeout + grace) * 5` seconds of wall time. A killed worker is replaced.

Outcomes (`OUTCOMES`, in table order): `exit 0`; `located` (exit 1 with a
`file:line:col: error:`); `named` (exit 1 with a one-line `error:` that names the file or
option, for inputs that are not text); `unlocated` (exit 1 with a message but, for a text
input, no location); `accepted` (exit 0 on an input the case knows is nonsense); `silent`
(exit 1 with nothing on stderr, or an exit code other than 0 and 1); `internal` ("internal
error"); `traceback` (a Python traceback printed or escaping `main`); `timeout`; `mismatch`
(`ktir run` found the emulator and the reference interpreter disagreeing). `BAD` are the
outcomes the suite must never see.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing as mp
import os
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path

OUTCOMES = ("exit 0", "located", "named", "unlocated", "accepted", "silent", "internal",
            "traceback", "timeout", "mismatch")
BAD = frozenset({"unlocated", "accepted", "silent", "internal", "traceback", "timeout",
                 "mismatch"})

LOCATED = re.compile(r"^\S+:\d+:\d+: error: ", re.MULTILINE)
TRACEBACK = "Traceback (most recent call last)"


@dataclass(frozen=True)
class Case:
    """`tool` (`ktir` or `ktir-opt`) run with `argv` in a folder holding `files` (name ->
    bytes). `text` says whether the input in question is text (its errors must be located);
    `nonsense` that the command must fail (exit 0 is `accepted`)."""

    family: str
    tool: str
    argv: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...] = ()
    text: bool = True
    nonsense: bool = False
    label: str = ""

    def command(self) -> str:
        """The command line, for a report."""
        return " ".join([self.tool, *(_quote(a) for a in self.argv)])


def _quote(arg: str) -> str:
    return arg if re.fullmatch(r"[\w@%+=:,./-]+", arg) else "'" + arg.replace("'", "'\\''") + "'"


@dataclass
class Outcome:
    kind: str
    code: int | None
    seconds: float
    stdout: str = ""
    stderr: str = ""

    def excerpt(self, lines: int = 4) -> str:
        text = (self.stderr.strip() or self.stdout.strip()).splitlines()
        return "\n".join(text[-lines:] if self.kind == "traceback" else text[:lines])


def classify(case: Case, code: int | None, out: str, err: str, escaped: bool) -> str:
    if escaped or TRACEBACK in out or TRACEBACK in err:
        return "traceback"
    if "internal error" in err.lower() or "internal error" in out.lower():
        return "internal"
    if code == 0:
        return "accepted" if case.nonsense else "exit 0"
    if code == 1 and "MISMATCH" in out:  # `ktir run` prints its checks on stdout
        return "mismatch"
    if code != 1 or not err.strip():
        return "silent"
    if LOCATED.search(err):
        return "located"
    return "unlocated" if case.text else "named"


class CaseTimeout(BaseException):
    """Raised by the alarm in a case that runs too long (a BaseException, so that no
    `except Exception` of the code under test swallows it)."""


def _alarm(signum, frame):
    raise CaseTimeout


def _mains():
    from ktir_tools import ktir_cli, ktir_opt

    return {"ktir": ktir_cli.main, "ktir-opt": ktir_opt.main}


def run_case(case: Case, timeout: float) -> Outcome:
    """Run one case in this process (its own working folder; stdout, stderr and stdin
    replaced; an alarm after `timeout` seconds of CPU time, so that a busy shared machine
    does not turn slow cases into timeouts)."""
    mains = _mains()
    here = os.getcwd()
    work = tempfile.mkdtemp(prefix="ktir-fuzz-")
    out, err = io.StringIO(), io.StringIO()
    code: int | None = None
    escaped = False
    kind = None
    t0 = time.perf_counter()
    old_stdin = sys.stdin
    env_tb = os.environ.pop("KTIR_TRACEBACK", None)
    try:
        for name, data in case.files:
            p = Path(work, name)
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
        os.chdir(work)
        sys.stdin = io.TextIOWrapper(io.BytesIO(b""))
        signal.signal(signal.SIGPROF, _alarm)
        signal.setitimer(signal.ITIMER_PROF, timeout)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                mains[case.tool](list(case.argv))
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except CaseTimeout:
            kind = "timeout"
        except BaseException:
            escaped = True
            err.write(traceback.format_exc())
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    except CaseTimeout:  # the alarm fired between the inner handler and disarming it
        kind = "timeout"
    finally:
        sys.stdin = old_stdin
        os.chdir(here)
        shutil.rmtree(work, ignore_errors=True)
        if env_tb is not None:
            os.environ["KTIR_TRACEBACK"] = env_tb
    seconds = time.perf_counter() - t0
    if kind is None:
        kind = classify(case, code, out.getvalue(), err.getvalue(), escaped)
    return Outcome(kind, code, seconds, out.getvalue(), err.getvalue())


def warm_up() -> None:
    """Import what the cases use, before the workers fork."""
    import emulator  # noqa: F401
    import ktir.interpreter  # noqa: F401
    import scheduler.pipeline  # noqa: F401
    from ktir.context import make_context

    _mains()
    make_context()


def _worker(conn: Connection, timeout: float, memory: int | None) -> None:
    if memory is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the pool
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        index, case = job
        try:
            outcome = run_case(case, timeout)
        except MemoryError:
            outcome = Outcome("traceback", None, 0.0, stderr="MemoryError in the harness")
        conn.send((index, outcome))


@dataclass
class _Slot:
    proc: mp.process.BaseProcess
    conn: Connection
    job: tuple[int, Case] | None = None
    started: float = 0.0
    cpu0: float = 0.0


def _cpu_seconds(pid: int | None) -> float:
    """User + system CPU time of process `pid` so far (0 when it cannot be read)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


@dataclass
class Pool:
    """`jobs` worker processes running cases with `timeout` CPU seconds each (the worker
    killed after 10 CPU seconds more, stuck in C code, or after `(timeout + grace) * 5`
    seconds of wall time, waiting) and `memory` bytes of address space (None: no limit)."""

    jobs: int = 2
    timeout: float = 30.0
    memory: int | None = 6 << 30
    grace: float = 60.0
    slots: list[_Slot] = field(default_factory=list)

    def __enter__(self) -> Pool:
        warm_up()
        self.slots = [self._spawn() for _ in range(self.jobs)]
        return self

    def __exit__(self, *exc) -> None:
        for s in self.slots:
            with contextlib.suppress(OSError, BrokenPipeError):
                s.conn.send(None)
            s.proc.join(timeout=2)
            if s.proc.is_alive():
                s.proc.kill()
                s.proc.join()
        self.slots = []

    def _spawn(self) -> _Slot:
        ctx = mp.get_context("fork")
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(child, self.timeout, self.memory), daemon=True)
        proc.start()
        child.close()
        return _Slot(proc, parent)

    def _replace(self, s: _Slot) -> _Slot:
        s.proc.kill()
        s.proc.join()
        s.conn.close()
        return self._spawn()

    def run(self, cases: Iterable[Case]) -> Iterator[tuple[int, Case, Outcome]]:
        """(index, case, outcome) for every case, in completion order."""
        todo = iter(enumerate(cases))
        busy = 0
        done = False
        while True:
            for i, s in enumerate(self.slots):
                if s.job is None and not done:
                    nxt = next(todo, None)
                    if nxt is None:
                        done = True
                        break
                    s.job, s.started = nxt, time.perf_counter()
                    s.cpu0 = _cpu_seconds(s.proc.pid)
                    s.conn.send(nxt)
                    busy += 1
            if busy == 0:
                return
            ready = wait([s.conn for s in self.slots if s.job is not None], timeout=1.0)
            now = time.perf_counter()
            for i, s in enumerate(self.slots):
                if s.job is None:
                    continue
                index, case = s.job
                if s.conn in ready:
                    try:
                        got, outcome = s.conn.recv()
                    except (EOFError, OSError):  # the worker died (memory, a signal)
                        outcome = Outcome("traceback", s.proc.exitcode, now - s.started,
                                          stderr=f"the worker died (exit {s.proc.exitcode})")
                        self.slots[i] = self._replace(s)
                    else:
                        assert got == index
                        s.job = None
                    busy -= 1
                    self.slots[i].job = None
                    yield index, case, outcome
                elif (_cpu_seconds(s.proc.pid) - s.cpu0 > self.timeout + 10
                      or now - s.started > (self.timeout + self.grace) * 5):
                    self.slots[i] = self._replace(s)
                    busy -= 1
                    yield index, case, Outcome("timeout", None, now - s.started)
