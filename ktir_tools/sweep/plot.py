"""Pictures of a sweep's results (matplotlib, an optional extra): the roofline and a Pareto front.

The roofline puts every point that ran at its arithmetic intensity (element operations per
compulsory byte) and the element operations per cycle it achieved (filled), below its bound
(hollow: the element operations over the bound `ktir run` reports) and under the roof of its
device on the cores it used: min(compute peak, bandwidth x intensity), the bound without its
round trip of latency. Its second panel shows the efficiency (bound / cycles) against the
same intensity. The Pareto front plots any two numeric columns (default: cycles against the
scratchpad size) and joins, per kernel and device, the points no other point beats on both
(smaller is better on both axes); points that failed are crosses on its x axis.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ktir.errors import KtirDiagnostic

PLOT_HINT = "pip install 'ktir[plot]' (matplotlib)"
FORMATS = ("png", "svg")
_MARKERS = "osD^vP*X<>"


def _figure(width: float, height: float, columns: int = 1):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise KtirDiagnostic(f"error: ktir plot needs matplotlib: {PLOT_HINT}") from None
    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.subplots(1, columns, squeeze=False)[0]


def _ran(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if r.get("status") in ("ok", "mismatch")
            and r.get("cycles") is not None]


def _styles(values: list[str]) -> dict[str, int]:
    return {v: i for i, v in enumerate(dict.fromkeys(values))}


def roofline(rows: Sequence[dict[str, Any]], path: Path) -> Path:
    """The roofline and the efficiency of every point that ran, by kernel (colour) and
    device (marker); one roof per device variant."""
    ran = [r for r in _ran(rows) if r.get("arithmetic_intensity")]
    if not ran:
        raise KtirDiagnostic("error: no point of the results ran (or did any work): nothing "
                             "to put on a roofline")
    fig, (ax, eff) = _figure(11, 4.6, 2)
    kernels, devices = _styles([r["kernel"] for r in ran]), _styles([r["device"] for r in ran])
    colours = [f"C{i % 10}" for i in range(len(kernels))]
    lo = min(r["arithmetic_intensity"] for r in ran) / 4
    hi = max(r["arithmetic_intensity"] for r in ran) * 4
    roofs: dict[tuple, str] = {}
    for r in ran:
        peak, bw = r.get("peak_ops_per_cycle"), r.get("peak_bytes_per_cycle")
        if peak and bw:
            roofs.setdefault((round(peak, 6), round(bw, 6)), f"{r['device']} on {r['tiles']} "
                             f"core{'s' * (r['tiles'] != 1)}")
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    for i, ((peak, bw), where) in enumerate(sorted(roofs.items())):
        ax.plot(xs, [min(peak, bw * x) for x in xs], color="0.35", lw=1,
                ls=("-", "--", ":", "-.")[i % 4],
                label=f"roof: {where}: {bw:g} B/cycle, {peak:g} ops/cycle")
    for r in ran:
        k, d = kernels[r["kernel"]], devices[r["device"]]
        marker = _MARKERS[d % len(_MARKERS)]
        style = {"color": colours[k], "marker": marker, "ls": "none", "alpha": 0.8}
        ai, ops = r["arithmetic_intensity"], r["element_ops"]
        if r.get("bound_cycles"):  # the bound with its round trip: hollow, joined to the run
            bound = ops / r["bound_cycles"]
            ax.plot([ai, ai], [r["ops_per_cycle"], bound], color=colours[k], lw=0.8,
                    alpha=0.6)
            ax.plot([ai], [bound], color=colours[k], marker=marker, ls="none", mfc="none")
        ax.plot([ai], [r["ops_per_cycle"]], **style)
        eff.plot([ai], [r["efficiency"]], **style)
    for name, k in kernels.items():
        ax.plot([], [], color=colours[k], marker="o", ls="none", label=f"kernel {name}")
    for name, d in devices.items():
        ax.plot([], [], color="0.2", marker=_MARKERS[d % len(_MARKERS)], ls="none",
                label=f"device {name}")
    ax.plot([], [], color="0.2", marker="o", mfc="none", ls="none",
            label="its bound (with the round trip)")
    ax.set(xscale="log", yscale="log", xlim=(lo, hi),
           xlabel="arithmetic intensity (element ops / compulsory byte)",
           ylabel="element ops / cycle", title="roofline: achieved under the bound")
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=7, loc="upper left")
    eff.axhline(1.0, color="0.35", lw=1, label="the bound")
    eff.set(xscale="log", xlim=(lo, hi), ylim=(0, 1.05),
            xlabel="arithmetic intensity (element ops / compulsory byte)",
            ylabel="efficiency (bound / cycles)", title="efficiency per kernel")
    eff.grid(True, which="both", alpha=0.25)
    eff.legend(fontsize=7, loc="upper right")
    return _save(fig, path)


def numeric(rows: Sequence[dict[str, Any]], column: str) -> list[float | None]:
    if rows and column not in rows[0]:
        raise KtirDiagnostic(f"error: the results have no column '{column}' (columns: "
                             + ", ".join(rows[0]) + ")")
    out: list[float | None] = []
    for r in rows:
        v = r.get(column)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int | float)):
            raise KtirDiagnostic(f"error: column '{column}' is not numeric ({v!r}); the "
                                 "Pareto front needs two numeric columns")
        out.append(None if v is None else float(v))
    return out


def pareto_front(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The points no other point beats on both coordinates (smaller is better), by x."""
    front: list[tuple[float, float]] = []
    for x, y in sorted(set(points)):
        if not front or y < front[-1][1]:
            front.append((x, y))
    return front


def pareto(rows: Sequence[dict[str, Any]], path: Path, x: str = "scratchpad_bytes",
           y: str = "cycles", by: Sequence[str] = ("kernel", "device")) -> Path:
    """`y` against `x` for every point that ran, one colour per combination of the `by`
    columns, each group's Pareto front joined; a point that failed (a kernel that does not fit)
    is a cross on the x axis at its `x`."""
    ran = _ran(rows)
    if not ran:
        raise KtirDiagnostic("error: no point of the results ran: no Pareto front to draw")
    xs, ys = numeric(ran, x), numeric(ran, y)
    for column in by:
        if column not in ran[0]:
            raise KtirDiagnostic(f"error: the results have no column '{column}' to group by "
                                 "(columns: " + ", ".join(ran[0]) + ")")
    name_of = lambda r: " on ".join(str(r[c]) for c in by)  # noqa: E731
    fig, (ax,) = _figure(6.4, 4.6)
    groups = _styles([name_of(r) for r in ran])
    for name, i in groups.items():
        pts = [(a, b) for r, a, b in zip(ran, xs, ys, strict=True)
               if name_of(r) == name and a is not None and b is not None]
        if not pts:
            continue
        colour = f"C{i % 10}"
        ax.plot(*zip(*pts, strict=True), color=colour, marker="o", ls="none", alpha=0.5)
        front = pareto_front(pts)
        ax.plot(*zip(*front, strict=True), color=colour, marker="o", drawstyle="steps-post",
                label=name)
    if not ax.lines:
        raise KtirDiagnostic(f"error: no point has both '{x}' and '{y}'")
    failed = [r for r in rows if r.get("status") == "error"]
    at = [v for v in numeric(failed, x) if v is not None] if failed and x in failed[0] else []
    if at:
        ax.plot(at, [0.0] * len(at), transform=ax.get_xaxis_transform(), color="C3",
                marker="x", ls="none", ms=8, clip_on=False,
                label=f"failed ({len(failed)} points)")
    shown = [v for v in [*xs, *at] if v is not None]
    log = all(v > 0 for v in shown) and max(shown) / min(shown) >= 8
    ax.set(xscale="log" if log else "linear", xlabel=x, ylabel=y,
           title=f"Pareto front: {y} against {x} (lower is better)")
    ax.grid(True, alpha=0.25)
    ax.legend(fontsize=8)
    return _save(fig, path)


def _save(fig, path: Path) -> Path:
    fmt = path.suffix.lstrip(".")
    if fmt not in FORMATS:
        raise KtirDiagnostic(f"error: '{path}': pictures are {' or '.join(FORMATS)}")
    try:
        fig.savefig(path, format=fmt, dpi=120)
    except OSError as e:
        raise KtirDiagnostic(f"error: cannot write '{path}': {e.strerror}") from None
    return path
