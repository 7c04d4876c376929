"""The lanes of an access: a 0-d memref's one point (ktir-cpu's scalar_broadcast reaches the
emulator with a 0-d view when a pass folds its reshape into the view)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import test
from xdsl.ir.affine import AffineMap

from emulator.access import Access
from ktir.dialects.ktdp_types import box_set


def test_a_zero_d_access_has_one_lane() -> None:
    op = test.TestOp()
    acc = Access(box_set([]), AffineMap.identity(0), 0, op)
    assert acc.n == 1 and acc.points.shape == (1, 0)
    two = Access(box_set([2, 3]), AffineMap.identity(2), 2, op)
    assert two.n == 6 and np.array_equal(two.points[-1], [1, 2])
