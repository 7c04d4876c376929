"""Fuzzing `ktir` and `ktir-opt`: every drawn case (tests/fuzz/cases.py) exits 0 or 1 with a
message, located when its input is text, within the time limit; no traceback, no internal
error, no mismatch between the emulator and the reference interpreter.

The number of cases follows the hypothesis profile (KTIR_HYPOTHESIS_PROFILE): `ci`, the
default, runs about 300 (derandomized, so CI sees the same ones every time); `thorough` many
more. `python bench/fuzz.py` runs 10,000 in parallel and prints the table of outcomes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings

from tests.fuzz.cases import cli_cases, device_cases, dfir_cases, kernel_cases
from tests.fuzz.harness import BAD, Case, Outcome, Pool, classify

PROFILE = os.environ.get("KTIR_HYPOTHESIS_PROFILE", "ci")
COUNTS = {"ci": {"kernel": 120, "device": 50, "dfir": 50, "cli": 80},
          "thorough": {"kernel": 1000, "device": 400, "dfir": 400, "cli": 400}}[PROFILE]


def fuzz(family: str):
    return settings(max_examples=COUNTS[family], deadline=None, derandomize=PROFILE == "ci",
                    suppress_health_check=list(HealthCheck), database=None)


@pytest.fixture(scope="module")
def pool() -> Iterator[Pool]:
    with Pool(jobs=1, timeout=30.0) as p:
        yield p


def check(pool: Pool, case: Case) -> Outcome:
    [(_, _, outcome)] = list(pool.run([case]))
    assert outcome.kind not in BAD, (f"{outcome.kind} ({outcome.seconds:.1f} s): "
                                     f"{case.command()}\n{outcome.excerpt(8)}")
    return outcome


@fuzz("kernel")
@given(case=kernel_cases())
def test_mutated_kernels(pool: Pool, case: Case) -> None:
    check(pool, case)


@fuzz("device")
@given(case=device_cases())
def test_mutated_devices(pool: Pool, case: Case) -> None:
    check(pool, case)


@fuzz("dfir")
@given(case=dfir_cases())
def test_mutated_and_faulty_dataflow_programs(pool: Pool, case: Case) -> None:
    check(pool, case)


@fuzz("cli")
@given(case=cli_cases())
def test_command_line_misuse(pool: Pool, case: Case) -> None:
    check(pool, case)


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
