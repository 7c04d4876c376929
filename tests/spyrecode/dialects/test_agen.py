"""The `agen` dialect from Python: every builder, the accessors, the verifier rules that make
a program executable (§7 E6), and the round trip of what the builders make."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, MemRefType, VectorType, f16, i32
from xdsl.ir import Block
from xdsl.ir.affine import (
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineExpr,
    AffineMap,
    AffineSet,
)
from xdsl.transforms.dead_code_elimination import DeadCodeElimination
from xdsl.utils.exceptions import VerifyException

from ktir.context import parse_module
from ktir.diagnostics import KtirDiagnostic
from spyrecode.dialects.agen import (
    CompositeLoadAndStoreOp,
    CompositeLoadOp,
    CompositeMemoryInterleaveOp,
    CompositeStoreOp,
    SetTransferMaskStateOp,
    VectorLoadOp,
    VectorStoreOp,
)
from spyrecode.dialects.agen_access import Access, TimeLoop, YieldOp
from spyrecode.dialects.agen_indirect import (
    CompositeIndirectLoadAndStoreOp,
    CompositeIndirectLoadOp,
    CompositeIndirectStoreOp,
    IndirectVectorLoadOp,
    IndirectVectorStoreOp,
    SymbolicVectorLoadOp,
    SymbolicVectorStoreOp,
)
from spyrecode.dialects.dataflow import GetLogicalMemoryViewOp, GetUnitOp, SendOp

IDX = IndexType()
V64 = VectorType(f16, [64])
ROW = "affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>"
COL = "affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>"
ID2 = AffineMap.identity(2)
ID1 = AffineMap.identity(1)


@pytest.fixture
def s(attr):
    """Affine sets and maps from text: s(ROW), s("affine_map<(d0) -> (0, d0)>")."""
    return lambda text: attr(text).data


def test_direct_ops_build_verify_and_roundtrip(program, roundtrip, s):
    def build(args):
        src, dst = args
        c0 = arith.ConstantOp.from_int_and_width(0, IDX).result
        c1 = arith.ConstantOp.from_int_and_width(1, IDX).result
        peer = GetUnitOp("C0-SFU", "SFU", core=0).unit
        v = VectorLoadOp(src, [c1, c0], None, s(ROW), ID2, V64).result
        VectorStoreOp(v, dst, [c0, c0], None, s(ROW), ID2)
        steps = TimeLoop(s("affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>"), ID1, [c1])
        rows = s("affine_map<(d0) -> (d0, 0)>")
        def make_dma():
            return CompositeLoadAndStoreOp(Access(src, [c0, c0]), Access(dst, [c0, c0]),
                                           s(ROW), ID2, s(ROW), ID2, steps, rows, rows, V64,
                                           dir="PseudoRandom")

        dma = make_dma()
        sender = Block(arg_types=[V64])
        with ImplicitBuilder(sender) as (x,):
            SendOp(peer, x)
        CompositeLoadOp(Access(src, [c0, c0]), s(ROW), ID2, steps, rows, V64, sender)
        filler = Block()
        with ImplicitBuilder(filler):
            YieldOp(v)
        CompositeStoreOp(Access(dst, [c0, c0]), steps, rows, s(ROW), ID2, filler)
        inner = make_dma()
        inner.detach()  # built by the implicit builder, then moved into the interleave
        CompositeMemoryInterleaveOp([inner], granularity=32)
        assert dma.load_iv is dma.body.block.args[0]
        assert dma.src == Access(src, (c0, c0), ID2)
        assert dma.time_loop.symbols == (c1,)

    text = roundtrip(program(build, [MemRefType(f16, [4, 64])] * 2))
    assert "{dir = #agen<direction PseudoRandom>, load_order = affine_map<(d0, d1) -> (d0, d1)>" \
        in text
    assert re.search(r"\n +time_symbols\(%\w+\), load_iv\(%\w+:vector<64xf16>\)\n", text)
    assert re.search(r"\n +time_symbols\(%\w+\)\(%\w+:vector<64xf16>\)\n", text)
    assert "agen.composite_memory_interleave {granularity = 32 : i32} {" in text


def test_subscripts_print_mlir_style_and_dedupe_on_parse(kernel, s):
    def build(args):
        (src,) = args
        i = arith.ConstantOp.from_int_and_width(2, IDX).result
        VectorLoadOp(src, [i], s("affine_map<(d0) -> (d0 * 2 - 1, 0)>"), s(ROW), ID2, V64)
        VectorLoadOp(src, [i, i], None, s(ROW), ID2, V64)

    text = str(kernel(build, [MemRefType(f16, [4, 64])]))
    assert re.search(r"agen.vector_load %\w+\[%\w+ \* 2 - 1, 0\] \{load_order = ", text)
    assert re.search(r"agen.vector_load %\w+\[%(\w+), %\1\] \{load_order = ", text)
    loads = [o for o in parse_module(text).walk() if isinstance(o, VectorLoadOp)]
    assert loads[0].access.map == s("affine_map<(d0) -> (d0 * 2 - 1, 0)>")
    assert len(loads[1].map_operands) == 1  # a repeated value is one map input
    assert loads[1].access.map == s("affine_map<(d0) -> (d0, d0)>")


def test_indirect_and_symbolic_ops(kernel, roundtrip, s):
    def build(args):
        idx, src, dst = args
        c0 = arith.ConstantOp.from_int_and_width(0, IDX).result
        ind = Access(idx, [c0])
        one = TimeLoop(s("affine_set<() : ()>"), s("affine_map<() -> ()>"))
        zero1, zero2 = s("affine_map<() -> (0)>"), s("affine_map<() -> (0, 0)>")
        v = IndirectVectorLoadOp(ind, Access(src, [c0, c0]), s(ROW), ID2, V64).result
        IndirectVectorStoreOp(v, ind, Access(dst, [c0, c0]), s(ROW), ID2)
        CompositeIndirectLoadOp(ind, Access(src, [c0, c0]), s(ROW), ID2, one, zero2, V64)
        stored = Block()
        with ImplicitBuilder(stored):
            YieldOp(v)
        CompositeIndirectStoreOp(ind, Access(dst, [c0, c0]), s(ROW), ID2, one, zero2, stored)
        CompositeIndirectLoadAndStoreOp(Access(src, [c0, c0]), Access(dst, [c0, c0]), s(ROW),
                                        ID2, s(ROW), ID2, one, zero2, zero2, V64,
                                        indirect_src=ind, load_indirect_time_addr_map=zero1)
        mem = GetUnitOp("C0-L1", "L1").unit
        view = GetLogicalMemoryViewOp(mem, c0, ID1, MemRefType(f16, [128])).data
        sv = SymbolicVectorLoadOp(view, [c0], [c0], V64).result
        SymbolicVectorStoreOp(sv, view, [c0, c0], [c0, c0])

    text = roundtrip(kernel(build, [MemRefType(i32, [8]), MemRefType(f16, [4, 64]),
                                    MemRefType(f16, [4, 64])]))
    assert "agen.composite_indirect_load_and_store indirect_src:%0[%" in text
    assert "[indices:(%" in text
    assert "strides:(%" in text


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda s: (s(COL), ID1, V64), "load_set has 1 dimensions but the loaded memref has rank 2"),
    (lambda s: (s(ROW), ID1, V64), "load_set and load_order dimensions should match"),
    (lambda s: (s(ROW), ID2, VectorType(f16, [32])), "load_set selects 64 elements but the "
                                                     "vector has 32 lanes"),
    (lambda s: (s(ROW), ID2, VectorType(i32, [64])), "vector element type i32 differs"),
    (lambda s: (s("affine_set<(d0, d1) : (d0 >= 0)>"), ID2, V64), "load_set is unbounded"),
])
def test_vector_load_rules(kernel, s, mutate, message):
    aset, order, vtype = mutate(s)

    def build(args):
        c0 = arith.ConstantOp.from_int_and_width(0, IDX).result
        VectorLoadOp(args[0], [c0, c0], None, aset, order, vtype)

    with pytest.raises(VerifyException, match=message):
        kernel(build, [MemRefType(f16, [4, 64])]).verify()


def test_composite_rules(kernel, s):
    one = TimeLoop(s("affine_set<() : ()>"), s("affine_map<() -> ()>"))
    zero = s("affine_map<() -> (0, 0)>")

    def dma(store_map=zero, time=one, body=None):
        def build(args):
            c0 = arith.ConstantOp.from_int_and_width(0, IDX).result
            CompositeLoadAndStoreOp(Access(args[0], [c0, c0]), Access(args[1], [c0, c0]),
                                    s(ROW), ID2, s(ROW), ID2, time, zero, store_map, V64,
                                    body=body)
        return kernel(build, [MemRefType(f16, [4, 64])] * 2)

    dma().verify()
    with pytest.raises(VerifyException, match="store_time_addr_map must give one offset per"):
        dma(store_map=s("affine_map<() -> (0)>")).verify()
    with pytest.raises(VerifyException, match="time_set has 1 symbols but 0 time_symbols"):
        dma(time=TimeLoop(s("affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 >= 0)>"), ID1)).verify()
    narrow = Block(arg_types=[V64])
    with ImplicitBuilder(narrow) as (x,):
        YieldOp(x, x)
    with pytest.raises(VerifyException, match="the region yields 2 values"):
        dma(body=narrow).verify()


def test_mask_state_parses_masks_into_counts():
    m = parse_module("""
    %c0 = arith.constant 0 : index
    %mk = agen.set_transfer_mask_state mask_value(%c0) {num_slices = 2 : i32, slice_mask_map = "(A|B)(1)", maskA = "(unmasked = 6 : i32, masked = 2 : i32)", maskB = "(unmasked = 1, masked = 1)"} : index, vector<64xi1>
    """)
    op = next(o for o in m.walk() if isinstance(o, SetTransferMaskStateOp))
    assert op.masks == [(6, 2), (1, 1)]
    assert 'maskA = "(unmasked = 6, masked = 2)"' in str(m)


def test_memory_ops_survive_dce_and_stay_distinct():
    m = parse_module("""
    func.func @k(%m: memref<64xf16>) {
      %c0 = arith.constant 0 : index
      %a = agen.vector_load %m[%c0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<64xf16>, vector<64xf16>
      %b = agen.vector_load %m[%c0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<64xf16>, vector<64xf16>
      return
    }""")
    DeadCodeElimination().apply(Context(), m)
    assert sum(isinstance(o, VectorLoadOp) for o in m.walk()) == 2


@st.composite
def boxes(draw):
    """A memref shape and a box inside it, as (shape, [(lo, hi)] per dimension)."""
    shape = draw(st.lists(st.integers(1, 6), min_size=1, max_size=3))
    box = []
    for n in shape:
        lo = draw(st.integers(0, n - 1))
        box.append((lo, draw(st.integers(lo, n - 1))))
    return shape, box


@given(boxes(), st.integers(-1, 1))
def test_generated_loads_verify_iff_lanes_match(spec, skew):
    shape, box = spec
    cons = []
    for d, (lo, hi) in enumerate(box):
        x = AffineExpr.dimension(d)
        cons += [AffineConstraintExpr(AffineConstraintKind.ge, x, AffineExpr.constant(lo)),
                 AffineConstraintExpr(AffineConstraintKind.le, x, AffineExpr.constant(hi))]
    points = 1
    for lo, hi in box:
        points *= hi - lo + 1
    lanes = max(1, points + skew)
    block = Block(arg_types=[MemRefType(f16, shape), IDX])
    with ImplicitBuilder(block) as (mem, i):
        op = VectorLoadOp(mem, [i] * len(shape), None, AffineSet(len(shape), 0, tuple(cons)),
                          AffineMap.identity(len(shape)), VectorType(f16, [lanes]))
    if lanes == points:
        op.verify()
    else:
        with pytest.raises(VerifyException, match=f"selects {points} elements"):
            op.verify()


def test_vector_load_splat_repeats_each_lane():
    """`splat = N` (scalar-broadcast-legalization): N lanes per gathered point; it round-trips,
    and the lane count must be the points times N."""
    text = """
    func.func @k(%m: memref<1x1xf16>) {
      %c0 = arith.constant 0 : index
      %a = agen.vector_load %m[%c0, %c0] {load_order = affine_map<(d0, d1) -> (d0, d1)>, load_set = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>, splat = 64 : i32} : memref<1x1xf16>, vector<64xf16>
      return
    }"""
    m = parse_module(text)
    (ld,) = [o for o in m.walk() if isinstance(o, VectorLoadOp)]
    assert ld.repeats == 64
    assert "splat = 64 : i32" in str(m)
    with pytest.raises(KtirDiagnostic, match="load_set selects 32 elements but the vector "
                                             "has 64 lanes"):
        parse_module(text.replace("splat = 64", "splat = 32"))
    with pytest.raises(KtirDiagnostic, match="splat must be at least 1"):
        parse_module(text.replace("splat = 64", "splat = 0"))
