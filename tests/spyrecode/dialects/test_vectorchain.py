"""The `vectorchain` dialect: builders, accessors, lane bit patterns against numpy, and the
lane rules of shuffle / constant_bitstream / cast."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerType,
    VectorType,
    f16,
    f32,
    i1,
)
from xdsl.ir import Block
from xdsl.transforms.dead_code_elimination import DeadCodeElimination
from xdsl.utils.exceptions import VerifyException

from ktir.context import parse_module
from ktir.diagnostics import KtirDiagnostic
from spyrecode.dialects.vectorchain import (
    BinaryOp,
    CastOp,
    ConstantBitstreamOp,
    CreateAffineMaskOp,
    ElementWiseCompareOp,
    ElementWiseSelectionOp,
    ExpEstimateOp,
    RotateOp,
    ScanWithGapOp,
    ShuffleOp,
    SigmoidEstimateOp,
    decode_lanes,
    encode_lanes,
)

V64 = VectorType(f16, [64])


def test_fill_lowering_chain_builds_and_roundtrips(kernel, roundtrip, attr):
    """linalg.fill lowers to constant_bitstream + shuffle (spec §4): build it from Python."""

    def build(args):
        zero = ConstantBitstreamOp.from_numbers([0.0], VectorType(f16, [1]))
        splat = ShuffleOp(zero.result, [0], 64, V64)
        total = BinaryOp(args[0], splat.output, "add")
        lt = ElementWiseCompareOp(total.data, args[0], "compare_lt")
        ElementWiseSelectionOp(lt.data, total.data, args[0])
        CastOp(total.data, VectorType(f32, [64]))
        ExpEstimateOp(total.data, "b")
        SigmoidEstimateOp(total.data, "offset")
        ScanWithGapOp(total.data, "max", gap=2)
        c = CreateAffineMaskOp(attr("affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>").data, 64)
        BinaryOp(args[0], args[0], "mul", mask=c.data)

    text = roundtrip(kernel(build, [V64]))
    assert "vectorchain.constant_bitstream {value = [0x0]} : vector<1xf16>" in text
    assert "{indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>" in text
    assert "{binary_op = #vectorchain<binary_operator add>, op_specific_map = " \
           "affine_map<(d0) -> (d0)>}" in text
    assert "{eval_order = #vectorchain<eval_order left_to_right>, gap = 2 : index, " \
           "reduction_op = #vectorchain<binary_operator max>}" in text
    assert " [%" in text
    assert ": vector<64xi1>] {binary_op = #vectorchain<binary_operator mul>" \
        in text


def test_accessors():
    m = parse_module("""
    %a = "test.op"() : () -> vector<2xf16>
    %p = "test.op"() : () -> f16
    %c = vectorchain.constant_bitstream {value = [0x3C00, 0xbc00]} : vector<2xf16>
    %s = vectorchain.shuffle input(%a), pad(%p) {indices = [1 : i32, -1 : i32], repetition = 3 : i32} : vector<2xf16>, f16, vector<6xf16>
    %b = vectorchain.binary %a, %a {binary_op = #vectorchain<binary_operator abs_max>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<2xf16>, vector<2xf16>, vector<2xf16>
    """)
    ops = {o.name: o for o in m.walk()}
    c = ops["vectorchain.constant_bitstream"]
    assert c.values == [0x3C00, 0xBC00]
    assert c.numbers().tolist() == [1.0, -1.0]
    assert "{value = [0x3C00, 0xBC00]}" in str(m)
    sh = ops["vectorchain.shuffle"]
    assert (sh.pattern, sh.repeat, len(sh.pad)) == ([1, -1], 3, 1)
    assert ops["vectorchain.binary"].operator == "abs_max"


@pytest.mark.parametrize(("elem", "dtype"), [
    (Float16Type(), np.float16), (Float32Type(), np.float32)])
def test_float_bit_patterns_match_numpy(elem, dtype):
    xs = [0.0, -0.0, 1.5, -2.25, 65504.0, float("inf")]
    bits = encode_lanes(xs, elem)
    want = np.asarray(xs, dtype).view(np.uint16 if dtype is np.float16 else np.uint32)
    assert bits == want.tolist()
    assert decode_lanes(bits, elem).tolist() == np.asarray(xs, dtype).tolist()


def test_bfloat16_rounds_to_nearest_even():
    # 1 + 2^-8 is halfway between two bf16 values: ties go to the even mantissa (1.0)
    bits = encode_lanes([1.0, 1.0 + 2**-8, 1.0 + 3 * 2**-8, float("nan")], BFloat16Type())
    assert bits[:3] == [0x3F80, 0x3F80, 0x3F82]
    assert bits[3] & 0x7F80 == 0x7F80
    assert bits[3] & 0x7F
    assert decode_lanes(bits[:3], BFloat16Type()).tolist() == [1.0, 1.0, 1.0 + 2**-6]


@given(st.lists(st.integers(-128, 127), min_size=1, max_size=16))
def test_integer_patterns_are_twos_complement(xs):
    bits = encode_lanes(xs, IntegerType(8))
    assert bits == [x & 0xFF for x in xs]
    assert decode_lanes(bits, IntegerType(8)).tolist() == xs


@given(st.integers(1, 4), st.lists(st.integers(-3, 4), min_size=1, max_size=4),
       st.integers(1, 3), st.integers(1, 24))
def test_shuffle_verifier_accepts_exactly_the_valid_patterns(n_in, indices, rep, n_out):
    """Valid iff #out == #indices * repetition and every index picks an input lane (>= 0)
    or one of the 2 scalar operands (-1, -2)."""
    block = Block(arg_types=[VectorType(f16, [n_in]), IndexType(), f16])
    with ImplicitBuilder(block) as (x, var, pad):
        op = ShuffleOp(x, indices, rep, VectorType(f16, [n_out]), variable=[var], pad=[pad])
    valid = n_out == len(indices) * rep and all(-2 <= i < n_in for i in indices)
    if valid:
        op.verify()
    else:
        with pytest.raises(VerifyException):
            op.verify()


@pytest.mark.parametrize(("source", "message"), [
    ("vectorchain.constant_bitstream {value = [0x1, 0x2]} : vector<1xf16>", "2 values for 1 lanes"),
    ("vectorchain.constant_bitstream {value = [0x10000]} : vector<1xf16>",
     "value 0x10000 does not fit the 16-bit element type"),
    ("vectorchain.constant_bitstream {value = [-1]} : vector<1xi8>",
     "value 0xFFFFFFFFFFFFFFFF does not fit the 8-bit element type"),
])
def test_constant_bitstream_rules(source, message):
    with pytest.raises(KtirDiagnostic, match=message):
        parse_module(f"%c = {source}")


def test_ops_are_pure_and_removed_when_unused():
    m = parse_module("""
    func.func @k(%a: vector<4xf16>, %p: index) {
      %0 = vectorchain.binary %a, %a {binary_op = #vectorchain<binary_operator add>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<4xf16>, vector<4xf16>, vector<4xf16>
      %1 = vectorchain.rotate %a, %p : vector<4xf16>, index, vector<4xf16>
      return
    }""")
    DeadCodeElimination().apply(Context(), m)
    assert not any(o.name.startswith("vectorchain.") for o in m.walk())


def test_rotate_and_compare_builders_default_types():
    block = Block(arg_types=[V64, IndexType()])
    with ImplicitBuilder(block) as (x, pos):
        r = RotateOp(x, pos, right_shift=False)
        c = ElementWiseCompareOp(x, x, "compare_ge")
    assert r.output.type == V64
    assert not r.right_shift.value.data
    assert c.data.type == VectorType(i1, [64])
    assert c.operator == "compare_ge"
