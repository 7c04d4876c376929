"""Every example kernel parses, verifies and prints back to identical text."""

from pathlib import Path

import pytest

from ktir.context import load_module, parse_module

KERNELS = sorted((Path(__file__).parent.parent / "examples" / "kernels").glob("*.mlir"))


@pytest.mark.parametrize("path", KERNELS, ids=[p.stem for p in KERNELS])
def test_kernel_roundtrips(path):
    once = str(load_module(path))
    assert str(parse_module(once)) == once
