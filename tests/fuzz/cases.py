"""The fuzz cases, as hypothesis strategies over `Case`s, one per family:

- `kernel_cases`: mutated example kernels through `ktir-opt`, `ktir-opt -p ktir-to-dfir`,
  `ktir interpret`, `ktir compile` and `ktir run`;
- `device_cases`: mutated shipped devices through `ktir arch check/show` and `ktir run`;
- `dfir_cases`: mutated compiled DataflowIR and the fault programs of faults.py through
  `ktir emulate`;
- `cli_cases`: command-line misuse: bad option values, unwritable outputs, corrupt or
  mismatched `--inputs`, endless inputs.

`FAMILIES` names them with their weight in a mixed run (bench/fuzz.py). `draw_case(family,
seed, index)` draws one case from its own random stream, seeded by (seed, family, index) alone:
the same triple gives the same case in any process, whatever was drawn before or in another
worker, so a failure is replayed from it (`bench/fuzz.py --replay FAMILY:INDEX`).
"""

from __future__ import annotations

import hashlib
import io
import random
from functools import cache
from pathlib import Path

import numpy as np
from hypothesis import strategies as st
from hypothesis.control import BuildContext
from hypothesis.errors import StopTest
from hypothesis.internal.conjecture.data import ConjectureData
from hypothesis.internal.conjecture.providers import HypothesisProvider

from tests.fuzz import faults
from tests.fuzz.harness import Case
from tests.fuzz.mutations import mutant

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "examples" / "kernels"
DEVICES = ROOT / "arch_descriptions" / "devices"
SHIPPED = ("sample_device", "spyre", "stream_device")

# example kernel -> the --arg options it needs; those the scheduler compiles run end to end
ARGS: dict[str, tuple[str, ...]] = {
    "layernorm": ("--arg", "M=32", "--arg", "N=1024", "--arg", "eps=1e-5"),
    "matmul": ("--arg", "K=256"),
    "rmsnorm": ("--arg", "eps=1e-6"),
    "softmax": ("--arg", "M=64"),
}
RUNS = ("add_96x64", "bias_add", "eltwise_chain", "mul_max")


@cache
def kernel_text(name: str) -> str:
    return (KERNELS / f"{name}.mlir").read_text()


@cache
def device_text(name: str) -> str:
    return (DEVICES / f"{name}.mlir").read_text()


@cache
def compiled(name: str, device: str) -> str:
    """The DataflowIR `ktir compile` makes of an example kernel."""
    from ktir.context import make_context, parse_module
    from scheduler.pipeline import KtirToDfirPass

    module = parse_module(kernel_text(name), f"{name}.mlir")
    KtirToDfirPass(device=device).apply(make_context(), module)
    return str(module) + "\n"


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


@st.composite
def kernel_cases(draw) -> Case:
    names = sorted(p.stem for p in KERNELS.glob("*.mlir"))
    name = draw(st.sampled_from(names))
    text = draw(mutant(kernel_text(name)))
    args = ARGS.get(name, ())
    device = draw(st.sampled_from(SHIPPED))
    runnable = name in RUNS
    tool = draw(st.sampled_from(("opt", "opt", "opt", "pipeline", "interpret", "interpret",
                                 "compile", *(("run",) * 3 if runnable else ("compile",)))))
    argv = {"opt": ("ktir-opt", ("k.mlir",)),
            "pipeline": ("ktir-opt", ("k.mlir", "-p", f"ktir-to-dfir{{device={device}}}")),
            "interpret": ("ktir", ("interpret", "k.mlir", *args)),
            "compile": ("ktir", ("compile", "-q", "k.mlir", "-d", device)),
            "run": ("ktir", ("run", "-q", "k.mlir", "-d", device, *args))}[tool]
    return Case("kernel", argv[0], argv[1], (("k.mlir", _b(text)),), label=f"{name} {tool}")


@st.composite
def device_cases(draw) -> Case:
    name = draw(st.sampled_from(SHIPPED))
    text = draw(mutant(device_text(name)))
    if draw(st.integers(0, 9)) == 0 and "ktdf_arch.device" in text:  # declared twice
        text += "\n" + text[text.index("ktdf_arch.device"):]
    tool = draw(st.sampled_from(("check", "check", "show", "run", "compile")))
    files = (("dev.mlir", _b(text)), ("add.mlir", _b(kernel_text("add_96x64"))))
    argv = {"check": ("arch", "check", "dev.mlir"), "show": ("arch", "show", "dev.mlir"),
            "run": ("run", "-q", "add.mlir", "-d", "dev.mlir"),
            "compile": ("compile", "-q", "add.mlir", "-d", "dev.mlir")}[tool]
    return Case("device", "ktir", argv, files, label=f"{name} {tool}")


EMULATE_ADD = ("--arg", "0", "--arg", "6144", "--arg", "12288", "-d", "sample_device",
               "--read", "C=DDR@12288:96x64xf16")


@st.composite
def dfir_cases(draw) -> Case:
    """A quarter mutated compiled DataflowIR (45 kB: slow to parse), the rest fault programs,
    mutated two times in three."""
    if draw(st.integers(0, 3)) == 0:
        text = draw(mutant(compiled("add_96x64", "sample_device")))
        return Case("dfir", "ktir", ("emulate", "p.mlir", *EMULATE_ADD), (("p.mlir", _b(text)),),
                    label="add_96x64 dfir")
    fault = draw(faults.programs())
    program, how = fault.program, "fault"
    if draw(st.integers(0, 2)):
        program, how = draw(mutant(program)), "mutated"
    files = (("p.mlir", _b(program)), ("dev.mlir", _b(fault.device)))
    argv = ("emulate", "p.mlir", "-d", "dev.mlir", *fault.args)
    return Case("dfir", "ktir", argv, files, label=f"{how} {fault.name}")


# --- command-line misuse -------------------------------------------------------------------

NUMBERS = ("nan", "inf", "-inf", "-1", "0", "1", "1e400", "abc", "", "9223372036854775808",
           "18446744073709551616", "-9223372036854775809", "0x10", "1_000", "1e-400")
PATHS = ("missing/x.out", ".", "/dev/full", "/sys/kernel/no-such-file", "out.file",
         "a" * 300, "dir/")


def _npz(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def _npy(a) -> bytes:
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def _input_files() -> dict[str, tuple[bytes, bool]]:
    """`--inputs` files for add_96x64 (A, B: 96x64 f16) -> (bytes, whether it is nonsense)."""
    a = np.ones((96, 64), np.float16)
    good = _npz(A=a, B=a)
    huge_header = _npy(np.zeros(4, np.float16)).replace(b"(4,)", b"(100000000000,)")
    return {
        "good": (good, False),
        "empty": (b"", True),
        "truncated": (good[: len(good) // 2], True),
        "corrupt": (bytes(range(256)) * 8, True),
        "npy": (_npy(a), True),
        "strings": (_npz(A=np.array(["x"] * 6144).reshape(96, 64), B=a), True),
        "bytes": (_npz(A=np.array([b"x"] * 6144).reshape(96, 64), B=a), True),
        "structured": (_npz(A=np.zeros((96, 64), [("x", "f2"), ("y", "i4")]), B=a), True),
        "transposed": (_npz(A=np.ones((64, 96), np.float16), B=a), True),
        "bool": (_npz(A=np.ones((96, 64), bool), B=a), True),
        "complex": (_npz(A=np.ones((96, 64), np.complex64), B=a), True),
        "datetime": (_npz(A=np.zeros((96, 64), "datetime64[s]"), B=a), True),
        "overflow": (_npz(A=np.full((96, 64), 1e6, np.float32), B=a), True),
        "float64": (_npz(A=np.ones((96, 64), np.float64), B=a), False),
        "scalar": (_npz(A=np.float16(1), B=a), True),
        "unknown-name": (_npz(A=a, B=a, Z=a), True),
        "huge-header": (_huge_npz(huge_header), True),
        "object": (_npz_object(), True),
    }


def _huge_npz(npy: bytes) -> bytes:
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(zipfile.ZipInfo("A.npy"), npy)  # a fixed date: the same bytes every time
    return buf.getvalue()


def _npz_object() -> bytes:
    buf = io.BytesIO()
    np.savez(buf, A=np.array([object()] * 2, dtype=object))
    return buf.getvalue()


INPUTS = _input_files()

# (command template, whether every value drawn for it is nonsense); {v} is the value
OPTION_MISUSE: tuple[tuple[tuple[str, ...], bool], ...] = (
    (("run", "-q", "-d", "sample_device", "add.mlir", "--atol", "{v}"), False),
    (("run", "-q", "-d", "sample_device", "add.mlir", "--rtol", "{v}"), False),
    (("run", "-q", "-d", "sample_device", "add.mlir", "--seed", "{v}"), False),
    (("run", "-q", "-d", "sample_device", "add.mlir", "--cycle-limit", "{v}"), False),
    (("interpret", "add.mlir", "--seed", "{v}"), False),
    (("interpret", "add.mlir", "--scratchpad-bytes", "{v}"), False),
    (("emulate", "p.mlir", "--cycle-limit", "{v}", *EMULATE_ADD), False),
    (("emulate", "p.mlir", "--arg", "{v}", "--arg", "6144", "--arg", "12288", "-d",
      "sample_device"), False),
    (("run", "-q", "-d", "sample_device", "add.mlir", "--arg", "{v}"), False),
    (("interpret", "softmax.mlir", "--arg", "M={v}"), False),
    (("interpret", "matmul.mlir", "--arg", "K={v}"), False),
    (("run", "-q", "add.mlir", "-d", "{v}"), False),
    (("compile", "-q", "add.mlir", "--stop-at", "{v}"), False),
    (("compile", "-q", "add.mlir", "--emit", "{v}"), False),
)
ARG_VALUES = ("A=96x64xindex", "A=96x64xf16", "A=64x96xf16", "A=0x64xf16", "A=-1x64xf16",
              "A=100000000000x64xf16", "A=96x64xf99", "C=9223372036854775808x2xf16", "A=",
              "=1", "A", "Z=1", "A=1", "K=9223372036854775808", "K=-1", "K=0", "K=1.5",
              "M=100000000", "M=1e400", "M=nan", "eps=nan", "eps=1e400")
WRITERS: tuple[tuple[str, ...], ...] = (
    ("ktir-opt", "add.mlir", "-o", "{p}"),
    ("ktir", "run", "-q", "-d", "sample_device", "add.mlir", "--out", "{p}"),
    ("ktir", "run", "-q", "-d", "sample_device", "add.mlir", "--trace", "{p}"),
    ("ktir", "interpret", "add.mlir", "--out", "{p}"),
    ("ktir", "emulate", "p.mlir", *EMULATE_ADD, "--trace", "{p}"),
    ("ktir", "emulate", "p.mlir", *EMULATE_ADD, "--out", "{p}"),
    ("ktir", "compile", "-q", "add.mlir", "-o", "{p}"),
    ("ktir", "run", "-q", "-d", "sample_device", "add.mlir", "--dump-programs", "{p}"),
)
READERS: tuple[tuple[str, ...], ...] = (
    ("ktir-opt", "{p}"), ("ktir", "run", "-q", "{p}"), ("ktir", "interpret", "{p}"),
    ("ktir", "arch", "check", "{p}"), ("ktir", "run", "-q", "add.mlir", "-d", "{p}"),
    ("ktir", "run", "-q", "-d", "sample_device", "add.mlir", "--inputs", "{p}"),
    ("ktir", "emulate", "p.mlir", "-d", "sample_device", "--init", "DDR@0={p}"),
)
READ_PATHS = ("/dev/zero", "/dev/null", ".", "missing.mlir", "bin.mlir", "big.mlir")


def _files() -> tuple[tuple[str, bytes], ...]:
    return (("add.mlir", _b(kernel_text("add_96x64"))),
            ("softmax.mlir", _b(kernel_text("softmax"))),
            ("matmul.mlir", _b(kernel_text("matmul"))),
            ("p.mlir", _b(compiled("add_96x64", "sample_device"))),
            ("bin.mlir", bytes(range(256))), ("dir/keep", b""))


@st.composite
def cli_cases(draw) -> Case:
    files = _files()
    kind = draw(st.sampled_from(("option", "option", "arg", "writer", "reader", "inputs",
                                 "inputs", "read", "pipeline")))
    if kind == "option":
        template, nonsense = draw(st.sampled_from(OPTION_MISUSE))
        v = draw(st.one_of(st.sampled_from(NUMBERS), st.text(max_size=12)))
        argv = tuple(a.replace("{v}", v) for a in template)
        known = {"--atol": ("nan", "inf", "-inf", "-1", "1e400"),
                 "--rtol": ("nan", "inf", "-inf", "-1", "1e400"),
                 "--cycle-limit": ("0", "-1", "nan", "inf", "abc", "")}
        nonsense = nonsense or any(o in template and v in bad for o, bad in known.items())
        return Case("cli", "ktir", argv, files, text=False, nonsense=nonsense,
                    label=f"option {template[-1] if template[-1] != '{v}' else template[-2]}")
    if kind == "arg":
        value = draw(st.sampled_from(ARG_VALUES))
        cmd = draw(st.sampled_from(("run", "interpret")))
        kernel = "matmul.mlir" if value.startswith("K") else \
            "softmax.mlir" if value.startswith("M") else "add.mlir"
        argv = (cmd, kernel, "--arg", value) + (("-q", "-d", "sample_device") if cmd == "run"
                                                 else ())
        return Case("cli", "ktir", argv, files, text=False, label=f"--arg {cmd}")
    if kind == "writer":
        template = draw(st.sampled_from(WRITERS))
        p = draw(st.sampled_from(PATHS))
        argv = tuple(a.replace("{p}", p) for a in template)
        folder = template[1] == "compile" or "--dump-programs" in template  # a folder to make
        nonsense = p not in (("out.file", ".", "dir/", "missing/x.out") if folder else
                             ("out.file",))
        return Case("cli", template[0], argv[1:], files, text=False, nonsense=nonsense,
                    label=f"write {template[1]} {template[-2]}")
    if kind == "reader":
        template = draw(st.sampled_from(READERS))
        p = draw(st.sampled_from(READ_PATHS))
        extra = (("big.mlir", b"// " + b"x" * (1 << 20) + b"\n" * 3),) if p == "big.mlir" else ()
        argv = tuple(a.replace("{p}", p) for a in template)
        return Case("cli", template[0], argv[1:], (*files, *extra), text=False,
                    nonsense=(p != "big.mlir" or template[-2:] == ("--inputs", "{p}"))
                    and not (p == "/dev/null" and template[0] == "ktir-opt"),  # empty module
                    label=f"read {' '.join(template[1:-1])}")
    if kind == "inputs":
        which = draw(st.sampled_from(sorted(INPUTS)))
        data, nonsense = INPUTS[which]
        cmd = draw(st.sampled_from((("run", "-q", "-d", "sample_device"), ("interpret",))))
        return Case("cli", "ktir", (*cmd, "add.mlir", "--inputs", "in.npz"),
                    (*files, ("in.npz", data)), text=False, nonsense=nonsense,
                    label=f"--inputs {which}")
    if kind == "read":
        shape = draw(st.sampled_from(("96x64", "0x64", "100000000000x64", "1x1", "99999x99999",
                                      "9223372036854775807x2")))
        addr = draw(st.sampled_from(("0", "12288", "9223372036854775807", "1073741823")))
        dt = draw(st.sampled_from(("f16", "f32", "i64", "bf16")))
        argv = ("emulate", "p.mlir", *EMULATE_ADD[:-2], "--read", f"C=DDR@{addr}:{shape}x{dt}")
        return Case("cli", "ktir", argv, files, text=False, label="emulate --read")
    device = draw(st.sampled_from(("sample_device", "x" * 5000, "", "spyre}", "nope",
                                   "../../etc/passwd", "dev.mlir")))
    return Case("cli", "ktir-opt", ("add.mlir", "-p", f"ktir-to-dfir{{device={device}}}"),
                files, text=False, nonsense=device != "sample_device",
                label="-p ktir-to-dfir{device=...}")


FAMILIES = {"kernel": (kernel_cases, 5), "device": (device_cases, 2), "dfir": (dfir_cases, 2),
            "cli": (cli_cases, 2)}


def any_case() -> st.SearchStrategy[Case]:
    return st.one_of(*(st.one_of(*[s()] * w) for s, w in FAMILIES.values()))


class _SeededProvider(HypothesisProvider):
    """Hypothesis' random choices without its "constants" pool: that pool mixes in literals
    collected from whatever modules the process has imported, in an order that follows
    string hashing (random per process), so the same seed drew different cases in different
    processes. The mutations bring their own interesting numbers (mutations.INTS, FLOATS)."""

    def _maybe_draw_constant(self, choice_type, constraints, *, p=0.05):
        return None


def draw_case(family: str, seed: int, index: int) -> Case:
    """Case `index` of `family` for `seed`: a function of the three alone."""
    strategy = FAMILIES[family][0]()
    for attempt in range(100):
        stream = random.Random(f"ktir-fuzz:{seed}:{family}:{index}:{attempt}")
        data = ConjectureData(random=stream, provider=_SeededProvider)
        try:
            with BuildContext(data, is_final=False, wrapped_test=draw_case):  # for .map
                return data.draw(strategy)
        except StopTest:  # the draw ran past hypothesis' choice budget: the next stream
            continue
    raise RuntimeError(f"no {family} case drawn for seed {seed}, index {index}")


def case_digest(case: Case) -> str:
    """A digest of everything a case runs with (stable across processes, unlike hash())."""
    h = hashlib.sha256(repr((case.family, case.tool, case.argv, case.text, case.nonsense,
                             case.label)).encode())
    for name, data in case.files:
        h.update(name.encode() + b"\0" + data)
    return h.hexdigest()
