"""`ktir arch` in-process: exit codes, split checking, DOT, and SVG where Graphviz exists."""

import shutil
from io import StringIO

import pytest

from ktir_tools.ktir_cli import main

GOOD = """ktdf_arch.device @good {
  %m = memory {kind = "M"}
  %c = exec_unit {kind = "C", ktdf_arch.features = {ktdf_arch.feature.compute}}
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {ordered}}} %m to %c : memory, exec_unit
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {ordered}}} %c to %m : exec_unit, memory
}
"""


def run(argv, capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(argv)
    out = capsys.readouterr()
    return done.value.code, out.out, out.err


def test_split_input_file_reports_every_chunk(tmp_path, capsys):
    f = tmp_path / "chunks.mlir"
    f.write_text(GOOD + "// -----\nktdf_arch.device @bad {\n  %m = memory {kind = \"M\", "
                 "size = 0}\n}\n// -----\n" + GOOD.replace("@good", "@again"), encoding="utf-8")
    code, out, err = run(["arch", "check", "--split-input-file", str(f)], capsys)
    assert code == 1
    assert out.count(": ok: ") == 2
    assert f"{f}:9:3: error: 'ktdf_arch.memory' op memory \"M\": attribute 'size' must be >= 1" in err
    code, out, _ = run(["arch", "check", "--split-input-file", str(tmp_path / "nope.mlir")], capsys)
    assert code == 1


def test_check_all_devices_of_a_file(tmp_path, capsys):
    f = tmp_path / "two.mlir"
    f.write_text(GOOD + GOOD.replace("@good", "@other"), encoding="utf-8")
    code, out, err = run(["arch", "check", str(f)], capsys)
    assert code == 0
    assert err == ""
    assert [line.split(":")[0] for line in out.splitlines()] == ["device @good", "device @other"]


def test_draw_stdout_and_name(tmp_path, capsys):
    f = tmp_path / "two.mlir"
    f.write_text(GOOD + GOOD.replace("@good", "@other"), encoding="utf-8")
    code, out, _ = run(["arch", "draw", str(f), "--name", "other"], capsys)
    assert code == 0
    assert out.startswith('digraph "other" {')
    assert out.count(" -> ") == 2
    code, _, err = run(["arch", "draw", str(f)], capsys)
    assert code == 1
    assert "found 2 (@good, @other); choose one by name" in err


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` not installed")
def test_draw_writes_svg_when_dot_exists(tmp_path, capsys):
    code, out, _ = run(["arch", "draw", "spyre", "-o", str(tmp_path / "spyre.dot")], capsys)
    assert code == 0
    assert "spyre.svg" in out
    assert (tmp_path / "spyre.svg").read_text().lstrip().startswith(("<?xml", "<svg"))


def test_draw_without_dot_writes_only_dot(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    code, out, _ = run(["arch", "draw", "stream_device", "-o", str(tmp_path / "s.dot")], capsys)
    assert code == 0
    assert out.strip() == f"wrote {tmp_path / 's.dot'}"
    assert not (tmp_path / "s.svg").exists()
    dot = (tmp_path / "s.dot").read_text()
    assert dot.count("subgraph cluster_") == 1 + 4 + 4  # core, 4 lanes, 4 VPU blocks


@pytest.mark.parametrize("name", ["sample_device", "spyre", "stream_device"])
def test_shipped_devices_print_as_a_fixed_point(name):
    from xdsl.printer import Printer

    from arch_descriptions.model import device_path
    from ktir.context import parse_module

    printed = str(parse_module(device_path(name).read_text(encoding="utf-8"), f"{name}.mlir"))
    assert str(parse_module(printed, "again.mlir")) == printed
    generic = StringIO()
    Printer(stream=generic, print_generic_format=True).print_op(parse_module(printed))
    assert str(parse_module(generic.getvalue(), "generic.mlir")) == printed


def test_list_and_bad_arguments(tmp_path, capsys):
    code, out, _ = run(["arch", "list"], capsys)
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["sample_device", "spyre",
                                                              "stream_device"]
    code, _, err = run(["arch", "show", str(tmp_path / "missing.mlir")], capsys)
    assert code == 1
    assert err.strip() == f"error: cannot read '{tmp_path / 'missing.mlir'}': no such file"
    code, _, err = run(["arch", "draw", "sample_device", "-o",
                        str(tmp_path / "no-dir" / "out.dot")], capsys)
    assert code == 1
    assert "ktir arch draw: error: cannot write" in err
    assert "No such file or directory" in err


def test_show_reports_an_overridden_clock(tmp_path, capsys):
    f = tmp_path / "fast.mlir"
    f.write_text('ktdf_arch.device @sample_device attributes {ktdf_arch.clock_ghz = 2.0} '
                 'import("sample_device.mlir")\n', encoding="utf-8")
    code, out, _ = run(["arch", "show", str(f)], capsys)
    assert code == 0
    assert "  clock            2.0 GHz" in out.splitlines()
    assert "device: clock_ghz" not in out
