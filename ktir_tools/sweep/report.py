"""What a sweep shows while it runs and when it ends: a progress bar with the ETA (rich, on a
terminal) or one plain line per finished point, and a summary table of the results."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any


def _rich_available() -> bool:
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


class Progress:
    """`start(total)`, `done(text)` per point, `stop()`. `quiet`: nothing."""

    def __init__(self, quiet: bool = False, stream=None):
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.fancy = not quiet and _rich_available() and self.stream.isatty()
        self.total = self.count = 0
        self._bar = self._task = None
        self._t0 = time.perf_counter()

    def start(self, total: int) -> None:
        self.total, self._t0 = total, time.perf_counter()
        if self.fancy and total:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as Bar

            self._bar = Bar(TextColumn("sweep"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                            TextColumn("{task.description}"),
                            console=Console(file=self.stream))
            self._task = self._bar.add_task("", total=total)
            self._bar.start()

    def done(self, text: str) -> None:
        self.count += 1
        if self.quiet:
            return
        if self._bar is not None:
            self._bar.update(self._task, advance=1, description=text)  # type: ignore[arg-type]
            return
        elapsed = time.perf_counter() - self._t0
        eta = elapsed / self.count * (self.total - self.count)
        width = len(str(self.total))
        print(f"[{self.count:{width}}/{self.total}] {text}  (ETA {eta:.0f} s)",
              file=self.stream, flush=True)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def point_line(point, measures: dict[str, Any]) -> str:
    """`add on spyre [memory.global.bytes_per_cycle=256]: ok 492 cycles, efficiency 0.54`."""
    status = measures.get("status")
    if status in ("ok", "mismatch"):
        text = f"{status} {measures['cycles']} cycles, efficiency {measures['efficiency']:.2f}"
    else:
        first = (measures.get("error") or "").splitlines()
        text = f"{status}: {first[0] if first else ''}"
        text = text if len(text) <= 160 else text[:157] + "..."
    return f"{point.describe()}: {text}"


def summary_rows(rows: Sequence[dict[str, Any]], override_keys: Sequence[str]
                 ) -> tuple[list[str], list[list[str]]]:
    """One line per kernel, device and option set: points, failures, the range of cycles, the
    best point (its overrides, efficiency, binding resource)."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["kernel"], r["device"], r["options"]), []).append(r)
    headers = ["KERNEL", "DEVICE", "OPTIONS", "POINTS", "FAILED", "CYCLES", "BEST AT",
               "EFFICIENCY", "BINDING"]
    out = []
    for (kernel, device, options), items in groups.items():
        good = [r for r in items if r.get("status") == "ok"]
        failed = len(items) - len(good)
        if good:
            best = min(good, key=lambda r: r["cycles"])
            cycles = sorted(r["cycles"] for r in good)
            span = str(cycles[0]) if cycles[0] == cycles[-1] else f"{cycles[0]}-{cycles[-1]}"
            at = ", ".join(f"{k}={best[k]}" for k in override_keys
                           if len({r.get(k) for r in items}) > 1) or "-"
            out.append([kernel, device, options, str(len(items)), str(failed), span, at,
                        f"{best['efficiency']:.2f}", str(best["binding_resource"])])
        else:
            out.append([kernel, device, options, str(len(items)), str(failed), "-", "-", "-",
                        "-"])
    return headers, out


def print_summary(rows: Sequence[dict[str, Any]], override_keys: Sequence[str],
                  stream=None) -> None:
    stream = stream or sys.stdout
    headers, table = summary_rows(rows, override_keys)
    if not table:
        return
    if _rich_available() and stream.isatty():
        from rich.console import Console
        from rich.table import Table

        t = Table(*headers, title="sweep summary")
        for r in table:
            t.add_row(*r)
        Console(file=stream).print(t)
        return
    widths = [max(len(r[i]) for r in [headers, *table]) for i in range(len(headers))]
    for r in [headers, *table]:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip(),
              file=stream)
