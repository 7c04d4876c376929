"""The emulator's limits on unbounded work: the loop limit stops a loop that does no timed
work (which no cycle limit would), in programs and in host code, and leaves timed loops to the
cycle limit; a memory grows only within the buffer limit."""

from __future__ import annotations

import pytest

from arch_descriptions.model import devices_in_text
from emulator import CapacityError, CycleLimitError, emulate
from ktir.context import parse_module
from ktir.limits import limits
from tests.fuzz.faults import DEVICE, fault

DEV = devices_in_text(DEVICE, "fdev.mlir")[0]


def run(kind: str, n: int, **kw):
    return emulate(parse_module(fault(kind, n).program, "p.mlir"), DEV, entry="k", args=[0],
                   **kw)


def test_an_endless_untimed_loop_stops_at_the_loop_limit() -> None:
    with pytest.raises(CycleLimitError, match=r"'scf.while' op C0-LU reached 1,001 iterations "
                       r"of loops that do no timed work .* \(raise the limit with --loop-limit\)"):
        run("spin", 0, loop_limit=1000)


def test_an_untimed_for_loop_is_judged_by_its_trip_count_at_entry() -> None:
    run("trip-count", 1000, loop_limit=1000)
    with pytest.raises(CycleLimitError, match="reached 1,001 iterations"):
        run("trip-count", 1001, loop_limit=1000)


def test_a_timed_loop_is_left_to_the_cycle_limit() -> None:
    r = run("long-loop", 5000, loop_limit=1000)  # one vector load per iteration
    assert r.cycles >= 5000
    with pytest.raises(CycleLimitError, match="more than 1000 loop iterations"):
        run("long-loop", 5000, cycle_limit=1000)


def test_host_loops_count_against_the_loop_limit() -> None:
    text = """func.func @k(%a0: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 100000 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  func.return
}
"""
    emulate(parse_module(text, "h.mlir"), DEV, entry="k", args=[0])
    with pytest.raises(CycleLimitError, match=r"h.mlir:5:3: error: 'scf.for' op host code "
                       "reached 100,000 iterations"):
        emulate(parse_module(text, "h.mlir"), DEV, entry="k", args=[0], loop_limit=99_999)


def test_a_memory_grows_only_within_the_buffer_limit() -> None:
    run("oob", 4096)  # a row at element 4096 of GM: byte 8192 onwards
    with limits(buffer_bytes=8192), pytest.raises(
            CapacityError, match=r"'agen.vector_load' op memory GM needs "
            r"8,320 bytes, more than the limit of 8,192 \(raise it with --max-buffer-bytes\)"):
        run("oob", 4096)
