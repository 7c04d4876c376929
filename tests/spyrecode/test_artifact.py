"""The SpyreCode container: what the writer produces reads back identically from a directory
and from an archive; every kind of tampering is refused naming the file; nothing that does not
verify is written, and an existing artifact is replaced whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ktir.context import load_module
from ktir.diagnostics import KtirDiagnostic
from ktir.interpreter import select_kernel
from scheduler.driver import compile_kernel
from spyrecode.artifact import (
    Artifact,
    ArtifactError,
    build_artifact,
    read_artifact,
    write_artifact,
)
from spyrecode.artifact.format import manifest_for, sha256, to_json

KERNEL = Path(__file__).resolve().parents[2] / "examples" / "kernels" / "bias_add.mlir"


@pytest.fixture(scope="module")
def files() -> dict[str, bytes]:
    compiled = compile_kernel(KERNEL, "sample_device")
    fn = select_kernel(load_module(KERNEL))
    return build_artifact(fn, KERNEL.read_text(), compiled.module, compiled.device)


def _remanifest(files: dict[str, bytes]) -> dict[str, bytes]:
    """`files` with a manifest whose checksums match them again (tampering that a checksum
    alone would not reveal)."""
    manifest = json.loads(files["manifest.json"])
    header = {k: v for k, v in manifest.items() if k not in ("format", "format_version",
                                                             "files")}
    rest = {k: v for k, v in files.items() if k != "manifest.json"}
    return {**rest, "manifest.json": to_json(manifest_for(rest, header))}


def test_directory_and_archive_read_back_the_same_files(files, tmp_path) -> None:
    write_artifact(files, tmp_path / "art")
    write_artifact(files, tmp_path / "art.tar")
    for where in ("art", "art.tar"):
        art = read_artifact(tmp_path / where)
        assert dict(art.files) == files
        assert art.kernel == "bias_add"
        assert [s.kind for s in art.symbols.symbols] == ["tensor_address"] * 3
        assert {s.element_bytes for s in art.symbols.symbols} == {2}
        module = art.program_module()
        assert any(op.name == "dataflow.program_unit" for op in module.walk())
    manifest = json.loads(files["manifest.json"])
    assert {f["path"]: f["sha256"] for f in manifest["files"]} == {
        k: sha256(v) for k, v in files.items() if k != "manifest.json"}
    assert manifest["grid"] == [16]
    assert manifest["device"]["name"] == "sample_device"


def test_rewriting_replaces_an_artifact_whole(files, tmp_path) -> None:
    out = tmp_path / "art"
    write_artifact({**files}, out)
    (out / "stale.txt").write_text("left from before")
    write_artifact(files, out)
    assert not (out / "stale.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["art"]  # no temporary left


def test_what_does_not_verify_is_never_written(files, tmp_path) -> None:
    broken = dict(files)
    broken["programs/local_schedule_0.mlir"] = b"builtin.module { not.an_op }\n"
    with pytest.raises(KtirDiagnostic, match="nothing was written"):
        write_artifact(_remanifest(broken), tmp_path / "art")
    assert not (tmp_path / "art").exists()
    assert list(tmp_path.iterdir()) == []


def test_a_program_that_does_not_parse_names_its_file(files) -> None:
    broken = dict(files)
    broken["programs/local_schedule_0.mlir"] = b"builtin.module {\n  %x = arith.constant\n}\n"
    art = Artifact.from_files("art", _remanifest(broken))
    with pytest.raises(KtirDiagnostic, match=r"art/programs/local_schedule_0\.mlir:\d+:\d+: "):
        art.program_module()


@pytest.mark.parametrize(("edit", "message"), [
    (lambda s: {"symbols": [{**s["symbols"][0], "kind": "pointer"}]},
     r"symbols\.json: malformed symbol"),
    (lambda s: {"symbols": [s["symbols"][0], s["symbols"][0]]}, "symbol -1 is listed twice"),
    (lambda s: {"symbols": [{**s["symbols"][0], "colour": "red"}]}, "unknown field"),
    (lambda s: {"symbols": [{k: v for k, v in s["symbols"][0].items()
                             if k != "element_bytes"}]}, "without \"element_bytes\""),
    (lambda s: {"symbols": [{**s["symbols"][0], "granularity": -4}]},
     "must be a non-negative integer"),
    (lambda s: {"symbols": s["symbols"][1:]}, "symbol -1, which symbols.json does not define"),
])
def test_malformed_symbols_are_refused_naming_the_file(files, edit, message) -> None:
    symbols = json.loads(files["symbols.json"])
    tampered = _remanifest({**files, "symbols.json": to_json(edit(symbols))})
    with pytest.raises(ArtifactError, match=message):
        Artifact.from_files("art", tampered)


def test_malformed_json_and_archive_members(files, tmp_path) -> None:
    with pytest.raises(ArtifactError, match=r"art/jobplan\.json: is not valid JSON"):
        Artifact.from_files("art", _remanifest({**files, "jobplan.json": b"{"}))
    with pytest.raises(ArtifactError, match=r"art/manifest\.json: is not a SpyreCode manifest"):
        Artifact.from_files("art", {**files, "manifest.json": b"[]"})
    import io
    import tarfile

    bad = tmp_path / "evil.tar"
    with tarfile.open(bad, "w") as tar:
        info = tarfile.TarInfo("../outside")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    with pytest.raises(ArtifactError, match=r"evil\.tar/\.\./outside: is not a regular file"):
        read_artifact(bad)
