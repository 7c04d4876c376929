"""The end-to-end bar the `ktir run` tests share: checked, matching, within the bound's
reach, and nothing left in a FIFO or signal at the end."""

from __future__ import annotations


def assert_matches(report) -> None:
    assert report.checks, report.to_json()
    assert report.match, report.to_json()
    em = report.emulation
    assert em.cycles >= em.roofline_cycles > 0
    assert not [w for w in em.warnings if "at the end" in w]  # no data left in FIFOs/signals
