"""`ktir interpret`'s summary sum takes the float32 route only where the total is exact:
bit for bit numpy's float64 sum of the fp16 values, exact or not (the fallback), finite or
not."""

from __future__ import annotations

import numpy as np
import pytest

from ktir_tools.cli_interpret import _sum

rng = np.random.default_rng(7)
CASES = {
    "normal": rng.standard_normal((512, 300)).astype(np.float16),
    "probabilities": rng.random((1 << 17,)).astype(np.float16) / np.float16(8),
    "negative zeros": np.full(1 << 16, -0.0, np.float16),
    "subnormal": np.full(1 << 16, 2.0**-24, np.float16),
    "large (not exact: numpy's sum)": np.full((1 << 18,), 60000, np.float16),
    "mixed large": np.concatenate([np.full(1 << 16, 65504, np.float16),
                                   rng.standard_normal(1 << 16).astype(np.float16)]),
    "inf": np.concatenate([rng.standard_normal(1 << 16).astype(np.float16), [np.inf]]),
    "nan": np.concatenate([rng.standard_normal(1 << 16).astype(np.float16), [np.nan]]),
    "small": rng.standard_normal(100).astype(np.float16),
    "float32": rng.standard_normal(1 << 17).astype(np.float32),
    "strided": rng.standard_normal((1024, 512)).astype(np.float16)[::2, 1::3],
}


@pytest.mark.parametrize("name", CASES)
def test_sum_is_numpys(name: str) -> None:
    arr = CASES[name]
    want = float(np.sum(arr, dtype=np.float64))
    got = _sum(arr)
    assert np.float64(got).tobytes() == np.float64(want).tobytes() or (
        np.isnan(got) and np.isnan(want))
