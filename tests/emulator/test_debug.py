"""The generated Python can be read and debugged (emulator/sources.py): it is dumped one file
per function on request, shows in tracebacks (linecache), names the DataflowIR op of each
group of lines, and belongs to one emulation, released with it."""

from __future__ import annotations

import gc
import linecache
import re
import traceback
import weakref
from pathlib import Path

import numpy as np
import pytest

import emulator.codegen
from emulator import EmulationError, emulate, register_opaque
from emulator.sources import LIVE
from tests.emulator.programs import device, module
from tests.emulator.test_inline import ROWS, _run

OPAQUE = """  dataflow.program_unit %cu : {
    scf.for %i = %c0 to %c2 step %c1 {
      dataflow.opaque {func_name = "look_around", read_write_register_dictionary = {}, read_only_register_dictionary = {}, parameter_dictionary = {}}
    }
  }
"""


def test_dump_programs_writes_one_readable_file_per_function(tmp_path: Path) -> None:
    r = _run(False, dump_programs=tmp_path)
    assert np.array_equal(r.read("GM", 2048, (8, 64), np.float16), ROWS + ROWS)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["k.host.py", "k_body.prelude.py", "k_body.program0.C0-DU.py",
                     "k_body.program1.C0-LU.py", "k_body.program2.C0-CU.py",
                     "k_body.program3.C0-SU.py"]
    text = (tmp_path / "k_body.program2.C0-CU.py").read_text()
    assert text.startswith("# program 2 of @k_body, run by C0-CU\n")
    # each op's lines follow a comment naming it and its line in the IR
    assert re.search(r"# dataflow\.receive -> %x  at prog\.mlir:\d+:\d+\n\s+if ", text)
    assert "# vectorchain.binary -> %y  at prog.mlir:" in text
    assert re.search(r"\bv\d+_y = ", text)  # locals named after the IR's values
    compile(text, "dumped", "exec")  # a file of valid Python


def test_dump_directory_from_the_environment(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KTIR_DUMP_PROGRAMS", str(tmp_path / "dump"))
    a = _run(True)
    b = _run(True, dump_programs=None)
    assert a.cycles == b.cycles
    assert (tmp_path / "dump" / "load.function.py").is_file()
    assert (tmp_path / "dump" / "copy.function.py").is_file()


def _stack_in_program(dump: Path | None) -> list[traceback.FrameSummary]:
    """The Python stack seen from inside an opaque routine a program calls."""
    seen: list[traceback.FrameSummary] = []
    register_opaque("look_around", lambda p: seen.extend(traceback.extract_stack()))
    emulate(module(OPAQUE), device(), entry="k", args=[0], dump_programs=dump)
    return seen


def test_tracebacks_show_the_generated_lines() -> None:
    frames = [f for f in _stack_in_program(None) if f.filename.startswith("<dfir ")]
    assert frames, "no generated frame on the stack"
    f = frames[-1]
    assert re.fullmatch(r"<dfir k_body\.program0\.C0-CU #[0-9a-f]{8}>", f.filename)
    assert f.name == "program0_C0_CU__k_body"
    assert "OPAQUE" in (f.line or "")  # the line itself, from linecache


def test_dumped_code_runs_from_its_files(tmp_path: Path) -> None:
    f = [f for f in _stack_in_program(tmp_path) if f.filename.endswith(".py") and
         Path(f.filename).parent == tmp_path][-1]
    assert Path(f.filename).name == "k_body.program0.C0-CU.py"
    assert f.lineno is not None
    assert "OPAQUE" in Path(f.filename).read_text().splitlines()[f.lineno - 1]


def test_an_emulation_releases_its_generated_code(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[weakref.ref] = []
    real = emulator.codegen.Codegen.__init__

    def spy(self, *args, **kw) -> None:
        real(self, *args, **kw)
        made.extend([weakref.ref(self), weakref.ref(self.sources)])

    monkeypatch.setattr(emulator.codegen.Codegen, "__init__", spy)
    r = _run(True)
    assert len(made) == 2
    assert LIVE  # the pseudo-files of the programs, while they may still be needed
    del r
    gc.collect()
    assert all(ref() is None for ref in made), "the op tables outlive the emulation"
    assert not LIVE
    assert not [k for k in linecache.cache if k.startswith("<dfir ")]


@pytest.mark.parametrize("dump", [False, True])
def test_a_fault_in_generated_code_names_its_op(dump: bool, tmp_path: Path) -> None:
    def divide(p: object) -> None:
        raise ZeroDivisionError

    register_opaque("look_around", divide)
    with pytest.raises(EmulationError, match=r"'dataflow.opaque' op division by zero"):
        emulate(module(OPAQUE), device(), entry="k", args=[0],
                dump_programs=tmp_path if dump else None)
