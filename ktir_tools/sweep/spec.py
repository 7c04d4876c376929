"""The sweep file (TOML): kernels, devices, overrides, compiler options; the points it means.

    # examples/sweeps/ddr_bandwidth.toml
    results = "ddr_bandwidth.parquet"       # optional; default: <file stem>.parquet beside it

    [kernels]                               # label = file, or a table (file, args, seed, ...)
    add = "../kernels/add_96x64.mlir"
    bias = { file = "../kernels/bias_add.mlir", seed = 1 }

    [devices]                               # label = shipped name or file, or a table
    spyre = "spyre"
    spyre16 = { device = "spyre", overrides = { "device.cores" = 16 } }

    [sweep]                                 # the cartesian product of these values
    "memory.global.bytes_per_cycle" = [64, 128, 256, 512]

    [options]                               # compiler option sets (default: one, empty)
    default = {}
    no-legality-check = { disable = ["ktir-legality-check"] }

or, instead of `[sweep]`, listed points: `[[points]]` with `kernel`, `device`, `options` and
`overrides`. `kernels` and `devices` may also be arrays of files (labelled by file stem or
name). Override keys are those of `arch_descriptions/model/overrides.py`. Paths are relative to
the sweep file. Every mistake is reported at its line in the file (`spec.toml:7:1: error:`)
before anything runs; a point that fails to compile or run is a row of the results instead.

Compiler options today are what the pipeline offers: `disable` (passes skipped by name, as
`ktir compile --disable`) and `cycle_limit` (the emulator's); forced tile sizes do not exist yet.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ktir.errors import KtirDiagnostic
from ktir_tools.sweep.point import Job

_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_KERNEL_FIELDS = {"file", "args", "seed", "function", "rtol", "atol"}
_DEVICE_FIELDS = {"device", "overrides"}
_OPTION_FIELDS = {"disable", "cycle_limit"}
_POINT_FIELDS = {"kernel", "device", "options", "overrides"}
_TOP = {"results", "kernels", "devices", "sweep", "options", "points"}


@dataclass(frozen=True)
class Kernel:
    label: str
    file: str                    # as the sweep file wrote it (resolved relative to it)
    text: str
    args: tuple[tuple[str, str], ...] = ()
    seed: int = 0
    function: str | None = None
    rtol: float = 0.0
    atol: float = 0.0


@dataclass(frozen=True)
class DeviceChoice:
    label: str
    device: str                  # shipped name or file path
    overrides: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Options:
    label: str
    disable: tuple[str, ...] = ()
    cycle_limit: int = 10**9


@dataclass(frozen=True)
class Point:
    """One point: what it is (the identity columns of its row) and the job that runs it."""

    index: int
    kernel: Kernel
    device: DeviceChoice
    options: Options
    overrides: dict[str, Any]    # the device's own overrides and the point's, merged
    job: Job
    device_name: str
    scratchpad_bytes: int | None
    cores: int | None

    @property
    def key(self) -> str:
        return self.job.key

    def identity(self, override_keys: list[str]) -> dict[str, Any]:
        return {"point": self.index, "hash": self.key, "kernel": self.kernel.label,
                "kernel_file": self.kernel.file, "device": self.device.label,
                "device_name": self.device_name, "options": self.options.label,
                "disable": ",".join(self.options.disable) or None,
                **{k: self.overrides.get(k) for k in override_keys},
                "cores": self.cores, "scratchpad_kind": self.job.scratchpad_kind,
                "scratchpad_bytes": self.scratchpad_bytes}

    def describe(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.overrides.items())
        return f"{self.kernel.label} on {self.device.label}" + (f" [{shown}]" if shown else "") \
            + (f" ({self.options.label})" if self.options.label != "default" else "")


@dataclass
class Sweep:
    path: Path
    results: Path | None         # as the file asks (None: the default)
    points: list[Point]
    override_keys: list[str]     # every override key any point sets, in order of appearance


class _Source:
    """The sweep file's text, to point diagnostics at the line of a table or key."""

    def __init__(self, path: Path, text: str):
        self.name, self.lines = str(path), text.split("\n")

    def error(self, message: str, table: str | None = None, key: str | None = None,
              nth: int = 0) -> KtirDiagnostic:
        from ktir.diagnostics import format_at

        line, col = self._find(table, key, nth)
        if line is None:
            return KtirDiagnostic(f"{self.name}: error: {message}")
        return KtirDiagnostic(format_at(self.name, line, col, message))

    def _find(self, table: str | None, key: str | None, nth: int) -> tuple[int | None, int]:
        current, seen, header = None, -1, None
        for number, raw in enumerate(self.lines, start=1):
            line = raw.strip()
            if line.startswith("["):
                current = line.strip("[]").strip().strip('"')
                if current == table:
                    seen += 1
                    if seen == nth:
                        header = number
                continue
            at_top = current is None and table is None
            if key is not None and (at_top or (current == table and seen == nth)):
                for form in (key, f'"{key}"', f"'{key}'"):
                    if line.startswith(form) and line[len(form):].lstrip().startswith("="):
                        return number, raw.index(form) + 1
            if key is not None and table is not None and current is None \
                    and line.split("=")[0].strip() == table:  # `kernels = [...]` at the top
                return number, raw.index(table) + 1
        return (header, 1) if header is not None else (None, 1)


def load_spec(path: str | Path) -> Sweep:
    """Read and check a sweep file; every point's device built (overrides applied) and
    kernel parsed, so that the run finds no mistake of the file's."""
    from ktir.diagnostics import format_at, register_source

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise KtirDiagnostic(f"error: cannot read sweep file '{path}': {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise KtirDiagnostic(f"error: '{path}' is not UTF-8 text (byte {e.start})") from None
    register_source(str(path), text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        message = str(e)
        if (m := _TOML_AT.search(message)) is not None:
            raise KtirDiagnostic(format_at(str(path), int(m[1]), int(m[2]),
                                           f"invalid TOML: {message[:m.start()]}")) from None
        if message.endswith("(at end of document)"):
            last = len(text.rstrip("\n").split("\n"))
            raise KtirDiagnostic(format_at(str(path), last, 1, "invalid TOML: " + message[
                :-len("(at end of document)")].strip() + " (at the end of the file)")) from None
        raise KtirDiagnostic(f"{path}: error: invalid TOML: {message}") from None
    return _Builder(path, _Source(path, text), data).build()


class _Builder:
    def __init__(self, path: Path, src: _Source, data: dict[str, Any]):
        self.path, self.src, self.data = path, src, data
        self.base = path.resolve().parent

    def build(self) -> Sweep:
        for key in self.data:
            if key not in _TOP:
                raise self.src.error(f"unknown key '{key}' (a sweep file has: "
                                     f"{', '.join(sorted(_TOP))})", None, key)
        results = self.data.get("results")
        if results is not None and not isinstance(results, str):
            raise self.src.error("'results' must be a file name", None, "results")
        kernels = self._labelled("kernels", self._kernel)
        devices = self._labelled("devices", self._device)
        options = self._options()
        if "sweep" in self.data and "points" in self.data:
            raise self.src.error("give a [sweep] (a product) or [[points]] (a list), not both",
                                 "points")
        combos = self._points(kernels, devices, options) if "points" in self.data \
            else self._product(kernels, devices, options)
        keys: list[str] = []
        for _, d, _, ov, _ in combos:
            for k in [*d.overrides, *ov]:
                if k not in keys:
                    keys.append(k)
        points = [self._point(i, *c) for i, c in enumerate(combos)]
        return Sweep(self.path, self.base / results if results else None, points, keys)

    # ---- tables -------------------------------------------------------------------------

    def _labelled(self, name: str, make) -> dict[str, Any]:
        raw = self.data.get(name)
        if raw is None:
            raise self.src.error(f"no [{name}]: a sweep needs at least one")
        if isinstance(raw, list):
            entries = {}
            for item in raw:
                if not isinstance(item, str):
                    raise self.src.error(f"'{name}' entries must be strings (or use a "
                                         f"[{name}] table of label = ...)", name, name)
                label = Path(item).stem
                if label in entries:
                    raise self.src.error(f"two {name} are labelled '{label}': use a [{name}] "
                                         "table to name them", name, name)
                entries[label] = item
            raw = entries
        if not isinstance(raw, dict) or not raw:
            raise self.src.error(f"'{name}' must be a table of label = ... (or an array of "
                                 "files)", name, name)
        return {label: make(label, value) for label, value in raw.items()}

    def _fields(self, table: str, label: str, value: dict, allowed: set[str]) -> None:
        for k in value:
            if k not in allowed:
                raise self.src.error(f"{table} '{label}': unknown field '{k}' (fields: "
                                     f"{', '.join(sorted(allowed))})", table, label)

    def _kernel(self, label: str, value: Any) -> Kernel:
        from ktir.context import parse_module

        if isinstance(value, str):
            value = {"file": value}
        if not isinstance(value, dict) or not isinstance(value.get("file"), str):
            raise self.src.error(f"kernel '{label}' needs a file: {label} = \"kernel.mlir\" or "
                                 f"{label} = {{ file = \"kernel.mlir\", ... }}", "kernels", label)
        self._fields("kernels", label, value, _KERNEL_FIELDS)
        file = self.base / value["file"]
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            why = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
            raise self.src.error(f"kernel '{label}': cannot read '{file}': {why}", "kernels",
                                 label) from None
        shown = _shown(file)
        module = parse_module(text, shown)  # a located error in the kernel stops here
        if any(op.name == "ktdf_arch.device" for op in module.body.block.ops):
            raise self.src.error(f"kernel '{label}' ({shown}) declares its own device, which "
                                 "would ignore the sweep's devices: remove the declaration",
                                 "kernels", label)
        args = value.get("args", {})
        if not isinstance(args, dict):
            raise self.src.error(f"kernel '{label}': args must be a table NAME = VALUE "
                                 "(as ktir run --arg)", "kernels", label)
        try:
            return Kernel(label, shown, text, tuple((str(k), str(v)) for k, v in args.items()),
                          int(value.get("seed", 0)), value.get("function"),
                          float(value.get("rtol", 0.0)), float(value.get("atol", 0.0)))
        except (TypeError, ValueError) as e:
            raise self.src.error(f"kernel '{label}': {e}", "kernels", label) from None

    def _device(self, label: str, value: Any) -> DeviceChoice:
        if isinstance(value, str):
            value = {"device": value}
        if not isinstance(value, dict) or not isinstance(value.get("device"), str):
            raise self.src.error(f"device '{label}' needs a device: {label} = \"spyre\" or "
                                 f"{label} = {{ device = \"my.mlir\", overrides = {{...}} }}",
                                 "devices", label)
        self._fields("devices", label, value, _DEVICE_FIELDS)
        overrides = value.get("overrides", {})
        if not isinstance(overrides, dict):
            raise self.src.error(f"device '{label}': overrides must be a table "
                                 "\"key\" = value", "devices", label)
        spec = value["device"]
        if "/" in spec or spec.endswith(".mlir"):
            spec = str(self.base / spec)
        return DeviceChoice(label, spec, overrides)

    def _options(self) -> dict[str, Options]:
        from scheduler.pipeline import pass_names

        raw = self.data.get("options", {"default": {}})
        if not isinstance(raw, dict) or not raw:
            raise self.src.error("'options' must be a table of label = { disable = [...] }",
                                 "options")
        out = {}
        for label, value in raw.items():
            if not isinstance(value, dict):
                raise self.src.error(f"option set '{label}' must be a table, e.g. "
                                     f"{label} = {{ disable = [\"ktir-legality-check\"] }}",
                                     "options", label)
            self._fields("options", label, value, _OPTION_FIELDS)
            disable = value.get("disable", [])
            if not isinstance(disable, list) or not all(isinstance(p, str) for p in disable):
                raise self.src.error(f"option set '{label}': disable must be a list of pass "
                                     "names", "options", label)
            for p in disable:
                if p not in pass_names():
                    raise self.src.error(f"option set '{label}': unknown pass '{p}' (the "
                                         f"pipeline's passes: {', '.join(pass_names())})",
                                         "options", label)
            limit = value.get("cycle_limit", 10**9)
            if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
                raise self.src.error(f"option set '{label}': cycle_limit must be an integer "
                                     ">= 1", "options", label)
            out[label] = Options(label, tuple(disable), limit)
        return out

    # ---- points -------------------------------------------------------------------------

    def _product(self, kernels, devices, options) -> list[tuple]:
        axes = self.data.get("sweep", {})
        if not isinstance(axes, dict):
            raise self.src.error("[sweep] must be a table \"override key\" = [values]", "sweep")
        names = list(axes)
        values = []
        for k in names:
            v = axes[k]
            v = v if isinstance(v, list) else [v]
            if not v:
                raise self.src.error(f"sweep axis '{k}' has no values", "sweep", k)
            values.append(v)
        out = []
        for k, d, o in itertools.product(kernels.values(), devices.values(), options.values()):
            for combo in itertools.product(*values):
                out.append((k, d, o, dict(zip(names, combo, strict=True)), ("sweep", None)))
        return out

    def _points(self, kernels, devices, options) -> list[tuple]:
        raw = self.data["points"]
        if not isinstance(raw, list) or not all(isinstance(p, dict) for p in raw):
            raise self.src.error("points must be [[points]] tables", "points")
        out = []
        for i, p in enumerate(raw):
            for k in p:
                if k not in _POINT_FIELDS:
                    raise self.src.error(f"point {i + 1}: unknown field '{k}' (fields: "
                                         f"{', '.join(sorted(_POINT_FIELDS))})", "points", k, i)
            chosen = []
            for name, table in (("kernel", kernels), ("device", devices),
                                ("options", options)):
                label = p.get(name)
                if label is None and len(table) == 1:
                    label = next(iter(table))
                if label is None and name == "options":
                    label = next(iter(table))
                if label not in table:
                    have = ", ".join(table)
                    raise self.src.error(f"point {i + 1}: {name} "
                                         + (f"'{label}' is not one of: {have}" if label
                                            else f"missing (one of: {have})"),
                                         "points", name if label else None, i)
                chosen.append(table[label])
            overrides = p.get("overrides", {})
            if not isinstance(overrides, dict):
                raise self.src.error(f"point {i + 1}: overrides must be a table", "points",
                                     "overrides", i)
            out.append((*chosen, overrides, ("points", i)))
        return out

    def _point(self, index: int, kernel: Kernel, device: DeviceChoice, options: Options,
               overrides: dict[str, Any], where: tuple[str, int | None]) -> Point:
        from arch_descriptions.model.overrides import OverrideError

        merged = {**device.overrides, **overrides}
        try:
            text, model = _device_text(device.device, json.dumps(merged, sort_keys=True))
        except OverrideError as e:
            table, nth = ("devices", 0) if e.key in device.overrides and e.key not in overrides \
                else where
            key = device.label if table == "devices" else \
                ("overrides" if table == "points" else e.key)
            raise self.src.error(f"override '{e.key}': {e.message} (device '{device.label}' "
                                 f"= {device.device})",
                                 table, key, nth or 0) from None
        except KtirDiagnostic as e:
            raise KtirDiagnostic(self.src.error(f"device '{device.label}': cannot use "
                                                f"'{device.device}'", "devices",
                                                device.label).text + "\n" + e.text) from None
        shown = ",".join(f"{k}={v}" for k, v in merged.items())
        label = device.label + (f"{{{shown}}}" if shown else "")
        scratchpad = model.scratchpad_kind()
        digest = hashlib.sha256(json.dumps({
            "kernel": kernel.text, "args": kernel.args, "seed": kernel.seed,
            "function": kernel.function, "rtol": kernel.rtol, "atol": kernel.atol,
            "device": text, "disable": options.disable, "cycle_limit": options.cycle_limit,
            "compiler": compiler_version()}, sort_keys=True).encode()).hexdigest()[:20]
        job = Job(digest, kernel.file, kernel.text, label, text, scratchpad, kernel.args,
                  kernel.seed, kernel.function, kernel.rtol, kernel.atol, options.disable,
                  options.cycle_limit)
        return Point(index, kernel, device, options, merged, job, model.name,
                     model.scratchpad_bytes, model.max_cores)


def _shown(file: Path) -> str:
    """A path as diagnostics show it: relative to the current directory when inside it."""
    try:
        return str(file.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(file)


@cache
def _device_text(spec: str, overrides_json: str):
    """The description text after overrides and its model (cached: a product repeats each
    device variant for every kernel and option set)."""
    from arch_descriptions.model import load_device
    from arch_descriptions.model.overrides import overridden_device

    # even without overrides: the printed definition is self-contained (no imports to resolve
    # on a worker) and validated
    return overridden_device(load_device(spec), json.loads(overrides_json))


@cache
def compiler_version() -> str:
    """What a point's result depends on besides its inputs: ktir's and xDSL's versions and a
    digest of the sources that compile, emulate and measure (a changed compiler recomputes
    every point; a changed plot does not)."""
    from importlib.metadata import PackageNotFoundError, version

    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    files = [p for pkg in ("ktir", "arch_descriptions", "spyrecode", "scheduler", "emulator")
             for p in sorted((root / pkg).rglob("*")) if p.suffix in (".py", ".mlir")]
    files += [root / "ktir_tools" / n for n in ("run.py", "work.py")]
    files += [root / "ktir_tools" / "sweep" / "point.py"]
    for p in files:
        digest.update(str(p.relative_to(root)).encode())
        digest.update(p.read_bytes())
    try:
        mine = version("ktir")
    except PackageNotFoundError:
        mine = "source"
    return f"ktir {mine}+{digest.hexdigest()[:12]} (xdsl {version('xdsl')})"
