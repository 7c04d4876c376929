"""SpyreCode artifacts, this project's open format version 1 (shared/spec/spyrecode.md §3): the
symbolic binary (`programs/`: split DataflowIR, runtime values still symbols), its metadata
(`symbols.json`), the job plan (`jobplan.json`), the manifest and the KTIR source.

    files = build_artifact(kernel_fn, kernel_text, dfir_module, device, compile_args)
    write_artifact(files, "out/add")              # verified first; atomic
    art = read_artifact("out/add")                # manifest, checksums, format version
    art.check_device(device)                      # the description hash
    module = art.program_module()                 # the programs, parsed and verified

The runtime that prepares and launches an artifact on the emulator is `ktir_tools.runtime`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ktir.errors import KtirDiagnostic
from spyrecode.artifact.format import (
    FORMAT_VERSION,
    JOBPLAN,
    KERNEL,
    MANIFEST,
    PROGRAMS,
    SYMBOLS,
    ArtifactError,
    check_files,
    device_hash,
    manifest_for,
    parse_json,
    read_files,
    to_json,
    write_files,
)
from spyrecode.artifact.jobplan import build_jobplan, check_jobplan
from spyrecode.artifact.symbols import Symbol, SymbolTable, build_symbols, expression_text

__all__ = [
    "FORMAT_VERSION", "Artifact", "ArtifactError", "Symbol", "SymbolTable", "build_artifact",
    "device_hash", "expression_text", "read_artifact", "write_artifact",
]


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"name": "ktir"}
    for key, pkg in (("version", "ktir"), ("xdsl", "xdsl")):
        try:
            out[key] = version(pkg)
        except PackageNotFoundError:
            out[key] = "(source tree)"
    return out


def build_artifact(kernel: Any, kernel_text: str, dfir: Any, device: Any,
                   compile_args: Mapping[str, str] | None = None) -> dict[str, bytes]:
    """The files of the artifact of `dfir`, compiled for `device` from the KTIR function
    `kernel` (whose module's text is `kernel_text`) with `compile_args` bound."""
    from spyrecode.artifact.programs import split_files

    entry = kernel.sym_name.data
    symbols = build_symbols(kernel, dfir, compile_args)
    sha = device_hash(device)
    plan = build_jobplan(dfir, symbols, device, entry, sha)
    files = {f"{PROGRAMS}/{name}": text.encode() for name, text in split_files(dfir).items()}
    files[SYMBOLS] = to_json(symbols.to_json())
    files[JOBPLAN] = to_json(plan)
    files[KERNEL] = kernel_text.encode()
    grid = kernel.attributes.get("grid")
    header = {"compiler": _versions(), "device": {"name": device.name, "sha256": sha},
              "kernel": entry,
              "grid": [d.value.data for d in grid.data] if grid is not None else [1],
              "compile_args": dict(compile_args or {})}
    files[MANIFEST] = to_json(manifest_for(files, header))
    return files


@dataclass(frozen=True, eq=False)
class Artifact:
    """A read artifact: files checked against the manifest, symbols and job plan parsed."""

    source: str
    files: Mapping[str, bytes]
    manifest: Mapping[str, Any]
    symbols: SymbolTable
    jobplan: Mapping[str, Any]

    @staticmethod
    def from_files(source: str, files: Mapping[str, bytes]) -> Artifact:
        manifest = check_files(source, files)
        symbols = SymbolTable.from_json(parse_json(f"{source}/{SYMBOLS}", files[SYMBOLS]),
                                        f"{source}/{SYMBOLS}")
        plan = check_jobplan(parse_json(f"{source}/{JOBPLAN}", files[JOBPLAN]), symbols,
                             f"{source}/{JOBPLAN}")
        for key in ("kernel", "device"):
            if key not in manifest:
                raise ArtifactError(f"{source}/{MANIFEST}", f"has no \"{key}\"")
        return Artifact(source, dict(files), manifest, symbols, plan)

    @property
    def kernel(self) -> str:
        return str(self.manifest["kernel"])

    @property
    def device_name(self) -> str:
        return str(self.manifest["device"].get("name"))

    @property
    def compile_args(self) -> dict[str, str]:
        return dict(self.manifest.get("compile_args") or {})

    def text(self, name: str) -> str:
        try:
            return self.files[name].decode("utf-8")
        except UnicodeDecodeError as e:
            raise ArtifactError(f"{self.source}/{name}", f"is not UTF-8 text (byte {e.start})"
                                ) from None

    @cached_property
    def program_names(self) -> list[str]:
        return [n for n in self.files if n.startswith(f"{PROGRAMS}/")]

    def check_device(self, device: Any) -> None:
        """Refuse a device whose description differs from the one compiled for."""
        want = self.manifest["device"].get("sha256")
        got = device_hash(device)
        if want != got:
            raise ArtifactError(f"{self.source}/{MANIFEST}", f"was compiled for device "
                                f"@{self.device_name} with description hash {str(want)[:16]}"
                                f"..., but the description of @{device.name} given hashes to "
                                f"{got[:16]}... (recompile the kernel for this device)")

    def program_module(self) -> Any:
        """The programs joined into one DataflowIR module, parsed and verified."""
        from spyrecode.artifact.programs import join_files

        names = {n.removeprefix(f"{PROGRAMS}/"): n for n in self.program_names}
        for n in names:
            if not n.endswith(".mlir") or "/" in n:
                raise ArtifactError(f"{self.source}/{names[n]}", "is not a program file "
                                    f"({PROGRAMS}/<name>.mlir)")
        texts = {n: self.text(full) for n, full in names.items()}
        return join_files(texts, {n: f"{self.source}/{full}" for n, full in names.items()})


def read_artifact(path: str | os.PathLike) -> Artifact:
    """Read and check an artifact directory or archive (raises `ArtifactError`)."""
    return Artifact.from_files(str(path), read_files(path))


def write_artifact(files: Mapping[str, bytes], out: str | os.PathLike) -> None:
    """Verify `files` as a reader would (manifest, checksums, symbols, job plan, programs
    parsed and verified), then write them atomically to directory `out` or archive `out`.tar.
    What does not verify is a compiler bug, never written."""
    try:
        Artifact.from_files(str(out), files).program_module()
    except KtirDiagnostic as e:
        raise KtirDiagnostic(f"{e.text}\nnote: internal error: the compiler produced a "
                             "SpyreCode artifact that does not verify; nothing was written "
                             "(a compiler bug: please report it with the kernel)") from None
    write_files(files, out)
