"""The results of a sweep: one row per point in a Parquet file (pyarrow) or a CSV file.

Rows are keyed by the point's content hash (kernel text, device text after overrides, options,
compiler version: `spec.py`). While a sweep runs, every finished point is appended to a
journal beside the results (`<results>.journal.jsonl`, flushed per row), so a crash, a kill or
Ctrl-C loses only the points in flight; the results file is written when the run ends (also on
Ctrl-C) and the journal removed. A rerun reads both and computes only the points missing from
them. A point whose worker was lost (not a diagnostic of its own) is never cached.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ktir.errors import KtirDiagnostic
from ktir_tools.sweep.point import MEASURES

PARQUET_HINT = "pip install 'ktir[results]' (pyarrow)"
IDENTITY: dict[str, type] = {
    "point": int, "hash": str, "kernel": str, "kernel_file": str, "device": str,
    "device_name": str, "options": str, "disable": str, "cores": int,
    "scratchpad_kind": str, "scratchpad_bytes": int,
}
TAIL: dict[str, type] = {"compiler": str}
"""Columns: IDENTITY, then one per override key, then point.MEASURES, then TAIL."""


def have_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def default_path(spec: Path) -> Path:
    return spec.with_suffix(".parquet" if have_pyarrow() else ".csv")


def journal_path(results: Path) -> Path:
    return results.with_name(results.name + ".journal.jsonl")


def columns(override_keys: Iterable[str]) -> list[str]:
    return [*IDENTITY, *override_keys, *MEASURES, *TAIL]


def check_writable_format(path: Path) -> None:
    if path.suffix not in (".parquet", ".csv"):
        raise KtirDiagnostic(f"error: results file '{path}': name it .parquet or .csv")
    if path.suffix == ".parquet" and not have_pyarrow():
        raise KtirDiagnostic(f"error: results file '{path}': Parquet needs pyarrow: "
                             f"{PARQUET_HINT}; or name a .csv file")


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a results file (Parquet or CSV), with CSV's text turned back into numbers
    and booleans."""
    path = Path(path)
    if not path.is_file():
        raise KtirDiagnostic(f"error: no results file '{path}'")
    if path.suffix == ".parquet":
        if not have_pyarrow():
            raise KtirDiagnostic(f"error: reading '{path}' needs pyarrow: {PARQUET_HINT}")
        import pyarrow.parquet as pq

        try:
            return pq.read_table(path).to_pylist()
        except Exception as e:  # pyarrow's errors have no common base
            raise KtirDiagnostic(f"error: cannot read '{path}' as Parquet: {e}") from None
    if path.suffix != ".csv":
        raise KtirDiagnostic(f"error: '{path}': a results file is .parquet or .csv")
    try:
        with path.open(newline="", encoding="utf-8") as f:
            return [{k: _from_text(k, v) for k, v in row.items()} for row in csv.DictReader(f)]
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise KtirDiagnostic(f"error: cannot read '{path}' as CSV: {e}") from None


_TYPES = {**IDENTITY, **MEASURES, **TAIL}


def _from_text(key: str, value: str | None) -> Any:
    if value is None or value == "":
        return None
    kind = _TYPES.get(key)
    if kind is bool:
        return value == "True"
    if kind is str:
        return value
    try:
        return int(value)
    except ValueError:
        try:
            return float(value)
        except ValueError:
            return value


def write_rows(path: Path, rows: list[dict[str, Any]], names: list[str]) -> None:
    """Write `rows` (columns `names`) atomically: a reader never sees half a file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    if path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pylist([{k: r.get(k) for k in names} for r in rows],
                                     schema=_schema(names, rows))
        pq.write_table(table, tmp)
    else:
        with tmp.open("w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=names, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    os.replace(tmp, path)


def _schema(names: list[str], rows: list[dict[str, Any]]):
    import pyarrow as pa

    arrow = {int: pa.int64(), float: pa.float64(), str: pa.string(), bool: pa.bool_()}
    fields = []
    for name in names:
        kind = _TYPES.get(name)
        if kind is None:  # an override column: float if any value is
            values = [r.get(name) for r in rows if r.get(name) is not None]
            kind = float if any(isinstance(v, float) for v in values) else int
        fields.append(pa.field(name, arrow[kind]))
    return pa.schema(fields)


class Store:
    """The cache of measured points (hash -> measured columns) of one results file, and the
    journal new ones go to."""

    def __init__(self, path: Path, fresh: bool = False):
        self.path, self.journal = path, journal_path(path)
        self.cached: dict[str, dict[str, Any]] = {}
        self._out = None
        if fresh:
            return
        if path.is_file():
            for row in read_rows(path):
                self._keep(row)
        if self.journal.is_file():
            with self.journal.open(encoding="utf-8") as f:
                for line in f:
                    try:
                        self._keep(json.loads(line))
                    except json.JSONDecodeError:  # the line a kill cut short
                        continue

    def _keep(self, row: dict[str, Any]) -> None:
        if row.get("hash") and row.get("status") in ("ok", "mismatch", "error"):
            self.cached[row["hash"]] = {k: row.get(k) for k in MEASURES}

    def add(self, key: str, measures: dict[str, Any]) -> None:
        """Record a finished point (journalled at once, unless its worker was lost)."""
        if measures.get("status") == "lost":
            return
        self.cached[key] = measures
        if self._out is None:
            self._out = self.journal.open("a", encoding="utf-8")
        self._out.write(json.dumps({"hash": key, **measures}) + "\n")
        self._out.flush()

    def save(self, rows: list[dict[str, Any]], names: list[str]) -> None:
        """Write the results file; the journal, now inside it, goes."""
        if self._out is not None:
            self._out.close()
            self._out = None
        write_rows(self.path, rows, names)
        self.journal.unlink(missing_ok=True)
