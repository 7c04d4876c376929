"""ktir.affine: membership, bounds and ordered enumeration of affine sets."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.ir.affine import AffineMap
from xdsl.parser import Parser

from ktir import affine
from ktir.context import make_context


def aset(text: str):
    return Parser(make_context(), text).parse_attribute().data


def amap(text: str) -> AffineMap:
    return Parser(make_context(), text).parse_attribute().data


BOX = aset("affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 3 >= 0)>")
TRI = aset("affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, d0 - d1 >= 0)>")
STRIDED = aset("affine_set<(d0) : (d0 >= 0, -d0 + 9 >= 0, d0 mod 3 == 0)>")
SKEW = aset("affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 - d0 >= 0, -d1 + d0 + 1 >= 0)>")
SYM = aset("affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>")


def test_contains():
    assert affine.contains(BOX, (2, 3))
    assert not affine.contains(BOX, (3, 0))
    assert affine.contains(TRI, (2, 1))
    assert not affine.contains(TRI, (1, 2))
    assert affine.contains(STRIDED, (6,))
    assert not affine.contains(STRIDED, (7,))
    assert affine.contains(SYM, (4, 0), (5,))
    assert not affine.contains(SYM, (5, 0), (5,))


def test_bounds():
    assert affine.dim_bounds(BOX) == [(0, 2), (0, 3)]
    assert affine.dim_bounds(TRI) == [(0, 3), (0, 3)]
    assert affine.dim_bounds(SKEW) == [(0, 2), (0, 3)]
    # a symbol left free bounds nothing; a bound symbol does
    assert affine.dim_bounds(SYM) == [(0, None), (0, 7)]
    assert affine.dim_bounds(SYM, [10]) == [(0, 9), (0, 7)]
    d0 = amap("affine_map<(d0, d1) -> (d0 + d1)>").results[0]
    assert affine.expr_bounds(TRI, d0) == (0, 6)


def test_enumerate_in_order():
    assert affine.points_list(TRI) == [(0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2),
                                       (3, 0), (3, 1), (3, 2), (3, 3)]
    assert affine.points_list(STRIDED) == [(0,), (3,), (6,), (9,)]
    # a transpose order walks columns first; positions and shape follow order(p)
    tr = amap("affine_map<(d0, d1) -> (d1, d0)>")
    pts, pos, shape = affine.enumerate_points(BOX, tr)
    assert [tuple(p) for p in pts[:4]] == [(0, 0), (1, 0), (2, 0), (0, 1)]
    assert shape == (4, 3)
    assert tuple(pos[3]) == (1, 0)


def test_order_extents():
    tr = amap("affine_map<(d0, d1) -> (d1, d0)>")
    assert affine.order_extents(BOX, tr) == [4, 3]
    ident = amap("affine_map<(d0, d1) -> (d0, d1)>")
    assert affine.order_extents(SYM, ident) == [None, 8]


def test_unbounded_enumeration_is_an_error():
    with pytest.raises(affine.UnboundedSetError, match="d0"):
        affine.enumerate_points(SYM)


@given(lo0=st.integers(-3, 3), n0=st.integers(1, 5), lo1=st.integers(-3, 3),
       n1=st.integers(1, 5), k=st.integers(-2, 2), m=st.integers(1, 3))
def test_enumeration_matches_brute_force(lo0, n0, lo1, n1, k, m):
    s = aset(f"affine_set<(d0, d1) : (d0 - {lo0} >= 0, -d0 + {lo0 + n0 - 1} >= 0, "
             f"d1 - {lo1} >= 0, -d1 + {lo1 + n1 - 1} >= 0, d0 * {m} - d1 + {k} >= 0)>")
    brute = [p for p in itertools.product(range(-10, 11), repeat=2) if affine.contains(s, p)]
    assert affine.points_list(s) == brute
    pts, pos, shape = affine.enumerate_points(s)
    if len(pts):
        assert np.all(pos.max(axis=0) + 1 == np.array(shape))
