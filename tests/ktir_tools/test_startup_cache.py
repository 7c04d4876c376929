"""`ktir_tools.startup_cache`: dataclasses built from cached code behave as dataclasses'
own (and the cache is written, reused, and ignored when corrupt); deferred assembly formats
parse and print as xDSL's eager ones, and a bad one still fails; a real `ktir interpret`
process (which installs both) writes the same outputs as the in-process interpreter.

Each check runs in a fresh interpreter (both patch process-wide state)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

# dataclasses of the shapes xDSL declares: frozen with hash, defaults and factories,
# kw_only, order, slots, init=False with __post_init__, inheritance
CLASSES = """
import dataclasses
from dataclasses import dataclass, field
from typing import ClassVar

@dataclass(frozen=True)
class Frozen:
    a: int
    b: str = "x"
    c: tuple = field(default_factory=tuple)

@dataclass(order=True)
class Ordered:
    x: float
    y: list = field(default_factory=list, compare=False)

@dataclass(kw_only=True, slots=True)
class KwSlots:
    p: int
    q: int = 2

@dataclass(init=False, eq=False)
class Manual:
    k: ClassVar[int] = 3
    v: int = 0
    def __init__(self, v):
        self.v = v * 2

@dataclass(frozen=True)
class Child(Frozen):
    d: int = 4
    def __post_init__(self):
        object.__setattr__(self, "b", self.b.upper())

def behaviour():
    out = []
    f = Frozen(1, "y", (2,))
    same = Frozen(1, "y", (2,))
    out += [repr(f), f == same, f == Frozen(2), hash(f) == hash(same)]
    try:
        f.a = 3
    except dataclasses.FrozenInstanceError as e:
        out.append(type(e).__name__)
    o = Ordered(1.0, [1])
    out += [repr(o), o < Ordered(2.0), o == Ordered(1.0, [9]), sorted([Ordered(3), o])[0] is o]
    ks = KwSlots(p=1)
    out += [repr(ks), ks == KwSlots(p=1, q=2), hasattr(ks, "__dict__")]
    out += [Manual(2).v, repr(Manual(1))]
    c = Child(1)
    out += [repr(c), c.b, c == Child(1, "x"), Child.__doc__, Frozen.__doc__]
    out += [[f.name for f in dataclasses.fields(Child)], Child.__match_args__]
    return out
"""


def _python(code: str, env: dict[str, str] | None = None) -> str:
    run_env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run_env.pop("PYTHONDONTWRITEBYTECODE", None)
    run_env.update(env or {})
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=run_env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _with_cache(path: Path, env: dict[str, str] | None = None) -> str:
    return _python(f"""
        from ktir_tools import startup_cache
        assert startup_cache.cache_dataclass_code({str(path)!r})
        exec({CLASSES!r})
        print(behaviour())
        print(startup_cache.stats())
        """, env)


def test_cached_dataclasses_behave_as_dataclasses_own(tmp_path: Path) -> None:
    cache = tmp_path / "code.marshal"
    plain = _python(CLASSES + "\nprint(behaviour())\n").strip()
    first = _with_cache(cache).strip().splitlines()
    assert first[0] == plain
    assert cache.is_file()
    compiled = eval(first[1])["compiled"]
    assert compiled > 10
    second = _with_cache(cache).strip().splitlines()
    assert second[0] == plain
    assert eval(second[1]) == {"compiled": 0, "cached": compiled}  # every function reused


def test_a_corrupt_cache_is_ignored_and_replaced(tmp_path: Path) -> None:
    cache = tmp_path / "code.marshal"
    plain = _python(CLASSES + "\nprint(behaviour())\n").strip()
    from importlib.util import MAGIC_NUMBER

    for junk in (b"", b"\x00garbage", b"\xe3\x00\x00\x00", MAGIC_NUMBER + b"\x00junk",
                 b"\x00\x00\x00\x00" + b"{}"):
        cache.write_bytes(junk)
        assert _with_cache(cache).strip().splitlines()[0] == plain
    assert eval(_with_cache(cache).strip().splitlines()[1])["compiled"] == 0


def test_no_cache_file_without_bytecode_writing(tmp_path: Path) -> None:
    cache = tmp_path / "code.marshal"
    _with_cache(cache, {"PYTHONDONTWRITEBYTECODE": "1"})
    assert not cache.exists()


FORMATS = """
from ktir_tools import startup_cache
if DEFER:
    startup_cache.defer_assembly_formats()
from ktir.context import parse_module
from xdsl.printer import Printer
import io
text = '''
func.func @f(%a: tensor<4xf32>, %b: index) -> tensor<4xf32> {
  %c = arith.constant 2 : index
  %s = arith.addi %b, %c : index
  %t = arith.addf %a, %a fastmath<fast> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %m = linalg.add ins(%t, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>)
         -> tensor<4xf32>
  %x = math.exp %m : tensor<4xf32>
  func.return %x : tensor<4xf32>
}
'''
m = parse_module(text)
out = io.StringIO()
Printer(stream=out).print_op(m)
print(out.getvalue())
"""


def test_deferred_formats_parse_and_print_as_eager_ones() -> None:
    eager = _python("DEFER = False\n" + FORMATS)
    deferred = _python("DEFER = True\n" + FORMATS)
    assert deferred == eager
    assert "arith.addf" in eager


def test_a_bad_deferred_format_fails_at_first_use() -> None:
    out = _python("""
        from ktir_tools import startup_cache
        startup_cache.defer_assembly_formats()
        from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def
        from xdsl.utils.exceptions import PyRDLOpDefinitionError

        @irdl_op_definition
        class BadOp(IRDLOperation):
            name = "test_bad.op"
            x = operand_def()
            assembly_format = "$x $nonexistent attr-dict"

        try:
            BadOp.parse(None)
        except PyRDLOpDefinitionError as e:
            print("raised", "assembly format" in str(e))
        """)
    assert out.strip() == "raised True"


def test_the_interpret_process_writes_what_the_interpreter_computes(tmp_path: Path) -> None:
    """The program's own process (startup_cache installed) against the library call."""
    from ktir.interpreter.runner import run_kernel

    kernel = ROOT / "examples" / "kernels" / "softmax.mlir"
    want = run_kernel(kernel, args={"M": "64"}, seed=0)
    np.savez(tmp_path / "in.npz", M=64, **want.inputs)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run([sys.executable, "-m", "ktir_tools.ktir_cli", "interpret", str(kernel),
                           "--inputs", str(tmp_path / "in.npz"), "--out",
                           str(tmp_path / "out.npz")], capture_output=True, text=True, env=env,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    got = np.load(tmp_path / "out.npz")
    assert sorted(got.files) == sorted(want.outputs)
    for k, v in want.outputs.items():
        assert got[k].tobytes() == np.asarray(v).tobytes(), k


def test_the_switch_leaves_the_standard_library_and_xdsl_as_they_are() -> None:
    """`KTIR_NO_STARTUP_CACHE=1`: install() patches nothing."""
    code = textwrap.dedent("""
        import dataclasses, xdsl.irdl.operations as ops
        before = (dataclasses._create_fn, ops.get_accessors_from_op_def)
        from ktir_tools.startup_cache import install
        install()
        print(before == (dataclasses._create_fn, ops.get_accessors_from_op_def))
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KTIR_NO_STARTUP_CACHE": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
    env["KTIR_NO_STARTUP_CACHE"] = "0"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.stdout.strip() == "False"
