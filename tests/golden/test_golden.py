"""What the compiler produces and what the emulator measures stay as recorded.

tests/golden/recorded holds, per case (supported example kernels on every shipped device, and
fixed random element-wise kernels), the output recorded before a change (`python -m
tests.golden.record` rewrites it; do that only when a change to the schedule is intended, and
say so in the commit). DataflowIR must be byte-identical, or, where its syntax changed,
identical once the recorded generic form is parsed and printed by today's code.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tests.golden.record import OUT, observe

CASES = sorted(p.name.removesuffix(".json.gz") for p in OUT.glob("*.json.gz"))


def _reprint(generic: str) -> str:
    from ktir.context import parse_module

    return str(parse_module(generic, "recorded", verify=False))


@pytest.mark.parametrize("case", CASES)
def test_output_is_as_recorded(case: str, tmp_path: Path) -> None:
    want = json.loads(gzip.decompress((OUT / f"{case}.json.gz").read_bytes()))
    got = observe(want["kernel"], want["device"], tmp_path)
    if got["dfir"] != want["dfir"]:
        assert got["dfir"] == _reprint(want["dfir_generic"]), "DataflowIR changed"
    if got["ktdf"] != want["ktdf"]:
        assert got["ktdf"] == _reprint(want["ktdf_generic"]), "scheduled ScheduleIR changed"
    for key in sorted(set(want) - {"dfir", "dfir_generic", "ktdf", "ktdf_generic"}):
        assert got[key] == want[key], f"{key} changed"


def test_cases_were_recorded() -> None:
    assert len(CASES) == 36
