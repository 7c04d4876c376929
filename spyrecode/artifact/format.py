"""The SpyreCode container (shared/spec/spyrecode.md §3): files, checksums, manifest, storage.

An artifact is a set of named files — `manifest.json`, `programs/*.mlir`, `symbols.json`,
`jobplan.json` and `kernel.mlir` (the KTIR source, which the runtime needs only to plan
buffers and to check against the reference interpreter) — stored as a directory or as one tar
archive. The manifest lists every other file with its SHA-256; a reader refuses a missing,
extra or changed file, a format it does not know and a device whose description hash
differs, each with a message naming the file.

Writing is atomic: the files go to a temporary sibling of the destination, which is renamed
into place only once complete, so a reader never sees half an artifact.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ktir.errors import KtirDiagnostic

FORMAT = "ktir-spyrecode"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
SYMBOLS = "symbols.json"
JOBPLAN = "jobplan.json"
KERNEL = "kernel.mlir"
PROGRAMS = "programs"
GLOBAL_PROGRAM = f"{PROGRAMS}/global.mlir"
MAX_FILES = 4096


class ArtifactError(KtirDiagnostic):
    """A SpyreCode artifact (or an argument given to launch it) that cannot be used; the
    message names the file or the symbol."""

    def __init__(self, where: str | os.PathLike, message: str):
        super().__init__(f"error: {where}: {message}")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def device_hash(device: Any) -> str:
    """SHA-256 of what a device model is built from: the file holding its definition (imports
    followed; the definition as printed when it has no file) and the attributes in force (a
    declaration's override the definition's)."""
    path = getattr(device, "source_path", None)
    try:
        base = Path(path).read_bytes() if path is not None else None
    except OSError:
        base = None
    if base is None:
        base = str(device.definition).encode()
    attrs = "\n".join(f"{k} = {v}" for k, v in sorted(device.attributes.items()))
    return sha256(base + f"\n@{device.name}\n{attrs}\n".encode())


def to_json(data: Any) -> bytes:
    return (json.dumps(data, indent=2, sort_keys=False) + "\n").encode()


def parse_json(where: str, data: bytes) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ArtifactError(where, f"is not valid JSON: {e}") from None


def manifest_for(files: Mapping[str, bytes], header: Mapping[str, Any]) -> dict[str, Any]:
    """The manifest of `files` (name -> content, the manifest excluded)."""
    return {"format": FORMAT, "format_version": FORMAT_VERSION, **header,
            "files": [{"path": name, "sha256": sha256(data), "bytes": len(data)}
                      for name, data in sorted(files.items())]}


def check_files(source: str, files: Mapping[str, bytes]) -> dict[str, Any]:
    """The manifest, once the format is known and every file is exactly the one listed."""
    if MANIFEST not in files:
        raise ArtifactError(source, f"no {MANIFEST}: not a SpyreCode artifact")
    where = f"{source}/{MANIFEST}"
    manifest = parse_json(where, files[MANIFEST])
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ArtifactError(where, f"is not a SpyreCode manifest (expected \"format\": "
                                   f"\"{FORMAT}\")")
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise ArtifactError(where, f"format version {version!r} is not one this reader knows "
                                   f"(it reads version {FORMAT_VERSION})")
    listed = manifest.get("files")
    if not isinstance(listed, list) or not all(
            isinstance(f, dict) and isinstance(f.get("path"), str)
            and isinstance(f.get("sha256"), str) for f in listed):
        raise ArtifactError(where, "\"files\" must be a list of {\"path\", \"sha256\"} objects")
    names = {f["path"] for f in listed}
    for f in listed:
        name = f["path"]
        if name not in files:
            raise ArtifactError(f"{source}/{name}", f"is missing (listed in {MANIFEST})")
        if sha256(files[name]) != f["sha256"]:
            raise ArtifactError(f"{source}/{name}", f"checksum mismatch: SHA-256 "
                                f"{sha256(files[name])[:16]}..., {MANIFEST} lists "
                                f"{f['sha256'][:16]}... (the file was changed)")
    for name in sorted(files):
        if name != MANIFEST and name not in names:
            raise ArtifactError(f"{source}/{name}", f"is not listed in {MANIFEST} (an extra "
                                                    "file)")
    for key in (SYMBOLS, JOBPLAN, KERNEL, GLOBAL_PROGRAM):
        if key not in names:
            raise ArtifactError(where, f"lists no {key}")
    return manifest


# ---- storage ----------------------------------------------------------------------------


def is_archive(path: str | os.PathLike) -> bool:
    return str(path).endswith(".tar")


def read_files(path: str | os.PathLike) -> dict[str, bytes]:
    """Every file of an artifact directory or .tar archive, by relative name."""
    from ktir.limits import CURRENT

    p = Path(path)
    if not p.exists():
        raise ArtifactError(p, "no such file or directory")
    limit = CURRENT.input_bytes
    files: dict[str, bytes] = {}
    try:
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                name = f.relative_to(p).as_posix()
                if f.is_symlink() or (not f.is_file() and not f.is_dir()):
                    raise ArtifactError(f, "is not a regular file")
                if f.is_file():
                    _add(files, p, name, f.read_bytes() if f.stat().st_size <= limit
                         else None, limit)
            return files
        if not tarfile.is_tarfile(p):
            raise ArtifactError(p, "is neither a SpyreCode directory nor a tar archive")
        with tarfile.open(p) as tar:
            for m in tar.getmembers():
                if m.isdir():
                    continue
                if not m.isfile() or m.name.startswith("/") or ".." in m.name.split("/"):
                    raise ArtifactError(f"{p}/{m.name}", "is not a regular file inside the "
                                                         "archive")
                f = tar.extractfile(m)
                assert f is not None
                _add(files, p, m.name.removeprefix("./"),
                     f.read() if m.size <= limit else None, limit)
    except OSError as e:
        raise ArtifactError(p, f"cannot read: {e.strerror or e}") from None
    except tarfile.TarError as e:
        raise ArtifactError(p, f"is not a readable tar archive: {e}") from None
    return files


def _add(files: dict[str, bytes], root: Path, name: str, data: bytes | None,
         limit: int) -> None:
    if data is None:
        raise ArtifactError(f"{root}/{name}", f"is larger than the limit of {limit:,} bytes "
                                              "(raise it with --max-input-bytes)")
    if len(files) >= MAX_FILES:
        raise ArtifactError(root, f"holds more than {MAX_FILES} files")
    files[name] = data


def write_files(files: Mapping[str, bytes], out: str | os.PathLike) -> None:
    """Write `files` as directory `out` (or archive `out`.tar), atomically: into a temporary
    sibling first, renamed into place when complete (a directory already there is replaced)."""
    dest = Path(out)
    parent = dest.parent if str(dest.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        if is_archive(dest):
            if dest.is_dir():
                raise ArtifactError(dest, "is a directory: cannot write the archive there")
            fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", dir=parent)
            try:
                with os.fdopen(fd, "wb") as f, tarfile.open(fileobj=f, mode="w") as tar:
                    for name, data in files.items():
                        info = tarfile.TarInfo(name)
                        info.size, info.mode = len(data), 0o644
                        tar.addfile(info, io.BytesIO(data))
                os.replace(tmp, dest)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            return
        if dest.exists() and not dest.is_dir():
            raise ArtifactError(dest, "exists and is not a directory")
        tmp_dir = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=parent))
        try:
            for name, data in files.items():
                target = tmp_dir / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            if dest.exists():
                old = Path(tempfile.mkdtemp(prefix=f".{dest.name}.old.", dir=parent))
                os.replace(dest, old / dest.name)
                os.replace(tmp_dir, dest)
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.replace(tmp_dir, dest)
        except BaseException:
            shutil.rmtree(tmp_dir, ignore_errors=True)
            raise
    except OSError as e:
        raise ArtifactError(dest, f"cannot write: {e.strerror or e}") from None
