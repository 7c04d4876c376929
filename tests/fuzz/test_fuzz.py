"""Fuzzing `ktir` and `ktir-opt`: every drawn case (tests/fuzz/cases.py) exits 0 or 1 with a
message, located when its input is text, within the time limit; no traceback, no internal
error, no mismatch between the emulator and the reference interpreter.

The cases are `draw_case(family, SEED, i)` for i below the profile's count
(KTIR_HYPOTHESIS_PROFILE): `ci`, the default, runs 300 (seed 0, the same ones every time);
`thorough` 2,200. A failure names its (family, index): `python bench/fuzz.py --seed 0
--replay FAMILY:INDEX` regenerates and reruns it. `python bench/fuzz.py` runs 10,000 in
parallel and prints the table of outcomes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fuzz.cases import FAMILIES, case_digest, draw_case
from tests.fuzz.harness import BAD, Case, Outcome, Pool, classify

PROFILE = os.environ.get("KTIR_HYPOTHESIS_PROFILE", "ci")
COUNTS = {"ci": {"kernel": 120, "device": 50, "dfir": 50, "cli": 80},
          "thorough": {"kernel": 1000, "device": 400, "dfir": 400, "cli": 400}}[PROFILE]
SEED = 0
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pool() -> Iterator[Pool]:
    with Pool(jobs=1, timeout=30.0) as p:
        yield p


def check(pool: Pool, case: Case) -> Outcome:
    [(_, _, outcome)] = list(pool.run([case]))
    assert outcome.kind not in BAD, (f"{outcome.kind} ({outcome.seconds:.1f} s): "
                                     f"{case.command()}\n{outcome.excerpt(8)}")
    return outcome


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_fuzzed_cases(pool: Pool, family: str) -> None:
    """Mutated kernels (ktir-opt, the pipeline, interpret, compile, run), mutated devices,
    mutated and faulty DataflowIR programs, command-line misuse: no bad outcome."""
    cases = [draw_case(family, SEED, i) for i in range(COUNTS[family])]
    bad = [f"[{o.kind}] {family}:{i} ({c.label}) {c.command()[:200]}\n    "
           + o.excerpt(4).replace("\n", "\n    ")
           for i, c, o in pool.run(cases) if o.kind in BAD]
    assert not bad, (f"{len(bad)} failure(s); replay with `python bench/fuzz.py --seed {SEED} "
                     "--replay FAMILY:INDEX`:\n" + "\n".join(sorted(bad)))


DIGESTS = """
import sys
sys.path.insert(0, {root!r})
from tests.fuzz.cases import FAMILIES, case_digest, draw_case
for family in sorted(FAMILIES):
    for i in {indices!r}:
        print(family, i, case_digest(draw_case(family, 7, i)))
"""


def test_a_case_is_a_function_of_seed_family_and_index() -> None:
    """The same (seed, family, index) gives the same case: drawn twice here, in any order,
    and in another process with another string-hash seed and other modules imported."""
    indices = tuple(range(40))
    here = {}
    for family in sorted(FAMILIES):
        for i in reversed(indices):  # another order than the child's
            here[family, i] = case_digest(draw_case(family, 7, i))
        assert case_digest(draw_case(family, 7, 5)) == here[family, 5]
        assert len({here[family, i] for i in indices}) > 1  # and not all the same case
        assert case_digest(draw_case(family, 8, 5)) != here[family, 5]
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", DIGESTS.format(root=str(ROOT), indices=indices)],
                         env=env, capture_output=True, text=True, check=True).stdout
    there = {(f, int(i)): d for f, i, d in (line.split() for line in out.splitlines())}
    assert there == here


def test_the_input_files_do_not_depend_on_the_clock() -> None:
    """The `--inputs` files (zip archives, which carry dates) are the same bytes at any time."""
    from unittest import mock

    from tests.fuzz import cases

    now = cases._input_files()
    with mock.patch("time.time", return_value=1e9):
        assert cases._input_files() == now


def test_the_harness_sees_each_outcome(pool: Pool) -> None:
    """The classifier: a traceback, an internal error, a located and an unlocated error, a
    silent failure, nonsense accepted; and a case stuck in C code is stopped and replaced."""
    text = Case("t", "ktir", ())
    raw = Case("t", "ktir", (), text=False)
    assert classify(text, 1, "", "Traceback (most recent call last):\n", False) == "traceback"
    assert classify(text, 1, "", "ktir: internal error: KeyError", False) == "internal"
    assert classify(text, 1, "", "k.mlir:3:5: error: bad\n", False) == "located"
    assert classify(text, 1, "", "error: bad\n", False) == "unlocated"
    assert classify(raw, 1, "", "error: bad\n", False) == "named"
    assert classify(text, 1, "", "", False) == "silent"
    assert classify(text, 2, "", "error: x", False) == "silent"
    assert classify(Case("t", "ktir", (), nonsense=True), 0, "", "", False) == "accepted"
    assert classify(text, 1, "  check C: MISMATCH in 3 element(s)\nFAIL\n", "", False) \
        == "mismatch"
    add = (("k.mlir", b"func.func @f() {\n  return\n}\n"),)
    ok = check(pool, Case("t", "ktir-opt", ("k.mlir",), add))
    assert ok.kind == "exit 0"
    bad = check(pool, Case("t", "ktir-opt", ("k.mlir",), (("k.mlir", b"func.func @f( {\n"),)))
    assert bad.kind == "located"


def test_the_harness_stops_a_case_that_runs_too_long() -> None:
    """A loop that would spin for minutes is stopped after the CPU-time limit, as a timeout,
    and the pool goes on with the next case."""
    from tests.fuzz import faults

    spin = faults.fault("spin", 0)
    files = (("p.mlir", spin.program.encode()), ("dev.mlir", spin.device.encode()))
    slow = Case("t", "ktir", ("emulate", "p.mlir", "-d", "dev.mlir", *spin.args,
                              "--loop-limit", "1000000000000"), files)
    quick = Case("t", "ktir", ("emulate", "p.mlir", "-d", "dev.mlir", *spin.args,
                               "--loop-limit", "1000"), files)
    with Pool(jobs=1, timeout=2.0) as p:
        got = {i: o.kind for i, _, o in p.run([slow, quick])}
    assert got == {0: "timeout", 1: "located"}
