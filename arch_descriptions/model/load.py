"""Finding, importing and caching device descriptions.

`load_device("spyre")` loads a shipped device by name, `load_device("my/dev.mlir")` a file.
A declaration `ktdf_arch.device @d attributes {...} import("path.mlir")` is resolved relative to
the file that contains it, then along `$KTIR_DEVICE_PATH`, then among the shipped devices (by
file name), so upstream-style `import("../../Dialect/KTDFArch/sample_device.mlir")` finds the
shipped sample. Its attributes override those of the definition. Chains of imports are followed;
a cycle is an error.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Operation

from arch_descriptions.dialects.ktdf_arch import DeviceOp
from arch_descriptions.model.build import build_device
from arch_descriptions.model.device import Device
from ktir.diagnostics import KtirDiagnostic, op_error, op_location, register_source
from ktir.limits import read_limited

DEVICES_DIR = Path(__file__).resolve().parent.parent / "devices"
_MODULES: dict[tuple[str, str], ModuleOp] = {}
_DEVICES: dict[tuple, Device] = {}
_DECLARED: dict[int, tuple[DeviceOp, Device]] = {}
_IMPORTED: dict[tuple, Device] = {}
_CACHE_LIMIT = 64


def shipped_devices() -> list[str]:
    """Names of the devices shipped in arch_descriptions/devices/."""
    return sorted(p.stem for p in DEVICES_DIR.glob("*.mlir"))


def device_path(spec: str | Path) -> Path:
    """The file of a shipped device name or of a path."""
    try:
        return _device_path(spec)
    except OSError as e:  # a name too long for the file system, a loop of links, ...
        raise KtirDiagnostic(f"error: cannot read device '{_short(spec)}': {e.strerror}"
                             ) from None


def _short(spec: str | Path, width: int = 80) -> str:
    s = str(spec)
    return s if len(s) <= width else f"{s[:width]}... ({len(s)} characters)"


def _device_path(spec: str | Path) -> Path:
    if isinstance(spec, str) and "/" not in spec and not spec.endswith(".mlir") \
            and (DEVICES_DIR / f"{spec}.mlir").is_file():
        return DEVICES_DIR / f"{spec}.mlir"
    path = Path(spec)
    if path.is_file():
        return path.resolve()
    if path.is_dir():
        raise KtirDiagnostic(f"error: cannot read '{spec}': it is a directory, not a device file")
    if path.exists():
        raise KtirDiagnostic(f"error: cannot read '{spec}': not a regular file")
    if isinstance(spec, Path) or "/" in spec or spec.endswith(".mlir"):
        raise KtirDiagnostic(f"error: cannot read '{_short(spec)}': no such file")
    raise KtirDiagnostic(f"error: no device '{_short(spec)}': not a file and not a shipped "
                         f"device (shipped: {', '.join(shipped_devices())})")


def _read(path: Path) -> tuple[str, str]:
    try:
        data = read_limited(path, "device file")
    except OSError as e:
        raise KtirDiagnostic(f"error: cannot read '{path}': {e.strerror}") from None
    try:
        return data.decode("utf-8"), hashlib.sha256(data).hexdigest()
    except UnicodeDecodeError as e:
        raise KtirDiagnostic(f"error: '{path}' is not UTF-8 text (byte {e.start})") from None


def _parse(text: str, name: str, line_offset: int = 0) -> ModuleOp:
    """Parse and verify with located errors (`verify_located` also checks the `ktdf_arch.*`
    attributes of ops outside the dialect)."""
    from ktir.context import make_context
    from ktir.diagnostics import parse_text, verify_located

    check_string_literals(text, name, line_offset)
    ctx = make_context()
    module = parse_text(ctx, text, name, line_offset, register=False)
    verify_located(module, ctx)
    return module


def _module(path: Path, text: str, digest: str, shown: str | None = None) -> ModuleOp:
    """The parsed file (cached); diagnostics name it `shown` (the path as the user wrote it)."""
    key = (str(path), digest)
    if key not in _MODULES:
        register_source(shown or str(path), text)
        module = _parse(text, shown or str(path))
        _trim(_MODULES)
        _MODULES[key] = module
    return _MODULES[key]


def check_string_literals(text: str, name: str, line_offset: int = 0) -> None:
    """Reject a string literal left open at the end of its line before xDSL lexes it, with a
    message that says how to fix it (xDSL's says "End of file reached before closing string
    literal."; its exponential backtracking on such input is mended in `ktir.diagnostics`)."""
    from ktir.diagnostics import format_at

    for number, line in enumerate(text.split("\n"), start=1 + line_offset):
        i, start = 0, None
        while i < len(line):
            ch = line[i]
            if start is None and line.startswith("//", i):
                break
            if ch == '"':
                start = i if start is None else None
            elif ch == "\\" and start is not None:
                i += 1
            i += 1
        if start is not None:
            raise KtirDiagnostic(format_at(name, number, start + 1, "unterminated string "
                                           "literal (a string must close on its line)"))


def _trim(cache: dict) -> None:
    while len(cache) >= _CACHE_LIMIT:
        cache.pop(next(iter(cache)))


def _devices_in(module: Operation) -> list[DeviceOp]:
    return [op for op in module.regions[0].block.ops if isinstance(op, DeviceOp)]


def _shown(spec: str | Path, path: Path) -> str:
    """How diagnostics name a file: as the user wrote it, shipped devices by full path."""
    return str(path) if path.parent == DEVICES_DIR and str(spec) == path.stem else str(spec)


def load_device(spec: str | Path, name: str | None = None) -> Device:
    """The device of a shipped name (`spyre`) or of a file; `name` picks one device when the
    file declares several. Cached per resolved path and content; raises a located
    KtirDiagnostic on any problem with the description."""
    path = device_path(spec)
    return _load(path, *_read(path), _shown(spec, path), name)


def _load(path: Path, text: str, digest: str, shown: str, name: str | None) -> Device:
    key = (str(path), digest, name)
    if key in _DEVICES:
        return _DEVICES[key]
    devices = _devices_in(_module(path, text, digest, shown))
    if name is not None:
        devices = [d for d in devices if d.sym_name.data == name]
        if not devices:
            raise KtirDiagnostic(f"error: '{path}' has no device named @{name}")
    if len(devices) != 1:
        found = ", ".join(f"@{d.sym_name.data}" for d in devices)
        raise KtirDiagnostic(f"{path}:1:1: error: expected one ktdf_arch.device, found "
                             + (f"{len(devices)} ({found}); choose one by name" if devices
                                else "none"))
    device = _materialise(devices[0], path)
    _trim(_DEVICES)
    _DEVICES[key] = device
    return device


def load_devices(spec: str | Path) -> list[Device]:
    """Every device a file declares, in order (a shipped name or a path)."""
    path = device_path(spec)
    text, digest = _read(path)
    shown = _shown(spec, path)
    names = [d.sym_name.data for d in _devices_in(_module(path, text, digest, shown))]
    if not names:
        raise KtirDiagnostic(f"{path}:1:1: error: expected a ktdf_arch.device, found none")
    return [_load(path, text, digest, shown, n) for n in names]


def devices_in_text(text: str, name: str, line_offset: int = 0) -> list[Device]:
    """The devices of one piece of MLIR text (a `--split-input-file` chunk of file `name`);
    imports resolve relative to `name`. Not cached."""
    module = _parse(text, name, line_offset)
    decls = _devices_in(module)
    if not decls:
        raise KtirDiagnostic(f"{name}:{line_offset + 1}:1: error: expected a ktdf_arch.device, "
                             "found none")
    source = Path(name).resolve() if Path(name).is_file() else None
    return [_materialise(d, source) for d in decls]


def _source_of(op: Operation) -> Path | None:
    loc = op_location(op)
    if loc is None or not Path(loc[0]).is_file():
        return None
    return Path(loc[0]).resolve()


def _resolve_import(decl: DeviceOp, source: Path | None) -> Path:
    assert decl.import_path is not None
    raw = decl.import_path.data
    path = Path(raw)
    if path.is_absolute():
        candidates = [path]
    else:
        base = source.parent if source is not None else Path.cwd()
        search = [Path(d) for d in os.environ.get("KTIR_DEVICE_PATH", "").split(os.pathsep) if d]
        candidates = [base / path, *(d / path for d in search), DEVICES_DIR / path.name]
        if not path.suffix:
            candidates.append(DEVICES_DIR / f"{raw}.mlir")
    for candidate in candidates:
        if candidate.is_file():
            return candidate.resolve()
    raise op_error(decl, f"cannot import device @{decl.sym_name.data}: file '{raw}' not found "
                         "(looked in: " + ", ".join(str(c.parent) for c in candidates) + ")")


def _materialise(decl: DeviceOp, source: Path | None) -> Device:
    """Follow `import(...)` from a declaration to its definition and build the model."""
    name = decl.sym_name.data
    attributes: dict[str, Attribute] = dict(decl.attributes)
    definition, where = decl, source
    chain = [(str(source), name)]
    try:
        while definition.is_imported:
            definition, where, attributes = _import_step(definition, where, attributes, chain)
        return build_device(definition, decl, attributes, where)
    except KtirDiagnostic as e:
        loc = op_location(decl)
        if definition is decl or (loc and e.text.startswith(f"{loc[0]}:{loc[1]}:{loc[2]}:")):
            raise
        raise KtirDiagnostic(e.text + "\n" + op_error(
            decl, f"while importing device @{name}", "note").text) from None


def _import_step(definition: DeviceOp, where: Path | None, attributes: dict[str, Attribute],
                 chain: list[tuple[str, str]]) -> tuple[DeviceOp, Path, dict[str, Attribute]]:
    """One hop of an import chain: the definition the declaration names, with overrides."""
    name = definition.sym_name.data
    target = _resolve_import(definition, where)
    if (str(target), name) in chain:
        cycle = " -> ".join(p for p, _ in chain[chain.index((str(target), name)):])
        raise op_error(definition, f"import cycle: device @{name} imports itself "
                                   f"({cycle} -> {target})")
    chain.append((str(target), name))
    try:
        text, digest = _read(target)
        found = [d for d in _devices_in(_module(target, text, digest))
                 if d.sym_name.data == name]
    except KtirDiagnostic as e:
        raise KtirDiagnostic(e.text + "\n" + op_error(
            definition, f"while importing device @{name} from '{target}'",
            "note").text) from None
    if not found:
        raise op_error(definition, f"cannot import device @{name}: '{target}' has no device "
                                   f"named @{name}")
    return found[0], target, {**found[0].attributes, **attributes}


def device_from_module(module: ModuleOp) -> Device | None:
    """The device declared at the top of a module (body or import form); None when there is
    none. Imports resolve relative to the module's file."""
    devices = _devices_in(module)
    if not devices:
        return None
    if len(devices) > 1:
        raise op_error(devices[1], "a module declares several devices (" + ", ".join(
            f"@{d.sym_name.data}" for d in devices) + "); bind functions to one with "
            "{ktdf_arch.maps_to = @name}")
    return device_of_declaration(devices[0])


def device_of_declaration(decl: DeviceOp) -> Device:
    """The model of one `ktdf_arch.device` op (cached while the op lives)."""
    hit = _DECLARED.get(id(decl))
    if hit is not None and hit[0] is decl:
        return hit[1]
    key = _import_key(decl)
    device = _IMPORTED.get(key) if key is not None else None
    if device is None:
        device = _materialise(decl, _source_of(decl))
        if key is not None:
            _trim(_IMPORTED)
            _IMPORTED[key] = device
    _trim(_DECLARED)
    _DECLARED[id(decl)] = (decl, device)
    return device


def _import_key(decl: DeviceOp) -> tuple | None:
    """For `ktdf_arch.device @d {attrs} import("f.mlir")`: what its model depends on (the
    resolved file, its content, the name, the overriding attributes), so every compile of a
    kernel that imports a shipped device shares one model instead of rebuilding it."""
    if not decl.is_imported or decl.import_path is None:
        return None
    try:
        target = _resolve_import(decl, _source_of(decl))
        _, digest = _read(target)
    except KtirDiagnostic:
        return None  # _materialise reports it, located
    attrs = tuple(sorted((k, str(v)) for k, v in decl.attributes.items()))
    return (str(target), digest, decl.sym_name.data, attrs)


def device_for_op(op: Operation) -> Device | None:
    """The device an op maps to (shared/spec/arch.md §4): the nearest `ktdf_arch.maps_to`
    symbol naming a device, else the unique device of the enclosing modules; None if none or
    ambiguous."""
    only: DeviceOp | None = None
    cur: Operation | None = op
    while cur is not None:
        ref = cur.attributes.get("ktdf_arch.maps_to")
        if isinstance(ref, SymbolRefAttr):
            for scope in _ancestors(cur):
                hit = [d for d in _devices_in(scope) if d.sym_name.data == ref.root_reference.data]
                if hit:
                    return device_of_declaration(hit[0])
        if isinstance(cur, ModuleOp):
            devices = _devices_in(cur)
            if devices:
                if only is not None or len(devices) > 1:
                    return None
                only = devices[0]
        cur = cur.parent_op()
    return device_of_declaration(only) if only is not None else None


def _ancestors(op: Operation) -> list[ModuleOp]:
    out = []
    cur: Operation | None = op
    while cur is not None:
        if isinstance(cur, ModuleOp):
            out.append(cur)
        cur = cur.parent_op()
    return out
