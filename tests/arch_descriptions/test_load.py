"""Finding devices: shipped names, files, imports (relative, search path, shipped fallback,
chains with overrides, cycles), caching, and the device of a module or of an op."""

from pathlib import Path

import pytest

from arch_descriptions.model import (
    device_for_op,
    device_from_module,
    device_path,
    load_device,
    load_devices,
)
from ktir.context import load_module, parse_module
from ktir.diagnostics import KtirDiagnostic

BODY = """ktdf_arch.device @{name} {{
  %m = memory {{kind = "M", size = {size}}}
  %c = exec_unit {{kind = "C", ktdf_arch.features = {{ktdf_arch.feature.compute}}}}
  datapath %m to %c : memory, exec_unit
  datapath %c to %m : exec_unit, memory
}}
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_names_and_paths(tmp_path):
    assert device_path("spyre").name == "spyre.mlir"
    with pytest.raises(KtirDiagnostic, match=r"no device 'nope'.*shipped: sample_device"):
        device_path("nope")
    with pytest.raises(KtirDiagnostic, match=r"cannot read .*missing\.mlir': no such file"):
        load_device(tmp_path / "missing.mlir")


def test_cache_per_path_and_content(tmp_path):
    f = write(tmp_path / "d.mlir", BODY.format(name="d", size=64))
    first = load_device(f)
    assert load_device(str(f)) is first
    write(f, BODY.format(name="d", size=128))
    second = load_device(f)
    assert second is not first
    assert second.memories["M"].size == 128


def test_several_devices_in_one_file(tmp_path):
    f = write(tmp_path / "two.mlir", BODY.format(name="a", size=1) + BODY.format(name="b", size=2))
    with pytest.raises(KtirDiagnostic, match=r"expected one ktdf_arch.device, found 2 \(@a, @b\)"):
        load_device(f)
    assert load_device(f, "b").memories["M"].size == 2
    assert [d.name for d in load_devices(f)] == ["a", "b"]


def test_import_relative_with_overrides(tmp_path):
    write(tmp_path / "defs" / "base.mlir",
          BODY.format(name="dev", size=8).replace("ktdf_arch.device @dev {",
                                                  "ktdf_arch.device @dev attributes "
                                                  "{ktdf_arch.clock_ghz = 1.0, "
                                                  "ktdf_arch.signal_latency = 3} {"))
    write(tmp_path / "defs" / "middle.mlir",
          'ktdf_arch.device @dev attributes {ktdf_arch.clock_ghz = 2.0} import("base.mlir")\n')
    top = write(tmp_path / "top.mlir", 'ktdf_arch.device @dev attributes '
                '{ktdf_arch.clock_ghz = 3.0} import("defs/middle.mlir")\n')
    dev = load_device(top)
    assert dev.clock_ghz == 3.0          # the outermost declaration wins
    assert dev.signal_latency == 3       # untouched attributes come from the definition
    assert dev.source_path == (tmp_path / "defs" / "base.mlir").resolve()
    assert dev.declaration.sym_name.data == "dev"


def test_import_falls_back_to_shipped_devices_and_search_path(tmp_path, monkeypatch):
    upstream_style = write(tmp_path / "k.mlir", 'ktdf_arch.device @sample_device '
                           'import("../../Dialect/KTDFArch/sample_device.mlir")\n')
    assert load_device(upstream_style).route("DDR", "SFU")[-1] == "SFU"
    write(tmp_path / "lib" / "mine.mlir", BODY.format(name="mine", size=4))
    user = write(tmp_path / "elsewhere" / "k.mlir", 'ktdf_arch.device @mine import("mine.mlir")\n')
    with pytest.raises(KtirDiagnostic, match=r"file 'mine\.mlir' not found"):
        load_device(user)
    monkeypatch.setenv("KTIR_DEVICE_PATH", str(tmp_path / "lib"))
    assert load_device(user).memories["M"].size == 4


def test_import_errors_are_located(tmp_path):
    a = write(tmp_path / "a.mlir", 'ktdf_arch.device @x import("b.mlir")\n')
    write(tmp_path / "b.mlir", '\nktdf_arch.device @x import("a.mlir")\n')
    with pytest.raises(KtirDiagnostic) as err:
        load_device(a)
    text = err.value.text
    assert "b.mlir:2:1: error: 'ktdf_arch.device' op import cycle: device @x imports itself" in text
    assert "a.mlir:1:1: note: 'ktdf_arch.device' op while importing device @x" in text
    self_import = write(tmp_path / "self.mlir", 'ktdf_arch.device @s import("self.mlir")\n')
    with pytest.raises(KtirDiagnostic, match="import cycle"):
        load_device(self_import)


def test_device_from_module_body_and_import(tmp_path):
    write(tmp_path / "dev.mlir", BODY.format(name="dev", size=16))
    kernel = write(tmp_path / "kernel.mlir", 'ktdf_arch.device @dev attributes {mem_space_mapping'
                   ' = #ktdf_arch.map<#ktdp.memory_space<global> = "M">} import("dev.mlir")\n'
                   "func.func @k() {\n  func.return\n}\n")
    module = load_module(kernel)
    dev = device_from_module(module)
    assert dev is not None
    assert dev.memories["M"].size == 16
    assert dev.memory_for_space("global") == "M"
    assert device_from_module(module) is dev  # cached while the declaration lives
    assert device_from_module(parse_module("func.func @k() {\n  func.return\n}\n")) is None
    body = parse_module(BODY.format(name="inline", size=32))
    assert device_from_module(body).memories["M"].size == 32


def test_device_from_module_rejects_several():
    module = parse_module(BODY.format(name="a", size=1) + BODY.format(name="b", size=2))
    with pytest.raises(KtirDiagnostic, match="a module declares several devices"):
        device_from_module(module)


def test_device_for_op_prefers_maps_to():
    module = parse_module(BODY.format(name="a", size=1) + BODY.format(name="b", size=2)
                          + "func.func @f() attributes {ktdf_arch.maps_to = @b} {\n"
                            "  func.return\n}\n"
                          + "func.func @g() {\n  func.return\n}\n")
    f, g = [op for op in module.ops if op.name == "func.func"]
    assert device_for_op(f).name == "b"
    assert device_for_op(g) is None  # two devices and no maps_to: ambiguous
    one = parse_module(BODY.format(name="only", size=1) + "func.func @h() {\n  func.return\n}\n")
    assert device_for_op(list(one.ops)[-1]).name == "only"
