"""vectorchain numerics (shared/spec/dataflow-ir.md §7 E11): each lane exact, rounded once,
against numpy evaluated in float64 and rounded; and the ops run inside a program."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from xdsl.dialects.builtin import Float16Type, Float32Type, IntegerType

from emulator import emulate
from emulator.numerics import binary_fn, cast_fn, vector_kernel
from ktir.interpreter.dtypes import elem_type
from tests.emulator.programs import LAYOUT, ROW, device, module, store_rows

F16, F32, I16 = elem_type(Float16Type()), elem_type(Float32Type()), elem_type(IntegerType(16))
EXACT = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "min": np.minimum,
         "max": np.maximum, "abs_min": lambda a, b: np.minimum(abs(a), abs(b)),
         "abs_max": lambda a, b: np.maximum(abs(a), abs(b)), "mul_div2": lambda a, b: a * b / 2}
halves = arrays(np.float16, 64, elements=st.floats(-1e3, 1e3, width=16))


@settings(max_examples=25, deadline=None)
@given(a=halves, b=halves, op=st.sampled_from(sorted(EXACT)))
def test_float_binary_rounds_once(a: np.ndarray, b: np.ndarray, op: str) -> None:
    with np.errstate(over="ignore"):
        got = binary_fn(op, F16)(a, b)
        want = EXACT[op](a.astype(np.float64), b.astype(np.float64)).astype(np.float16)
    assert got.dtype == np.float16
    assert np.array_equal(got, want, equal_nan=True)


@settings(max_examples=25, deadline=None)
@given(a=arrays(np.int16, 16), b=arrays(np.int16, 16))
def test_integer_binary_wraps_and_logic_is_bitwise(a: np.ndarray, b: np.ndarray) -> None:
    assert np.array_equal(binary_fn("add", I16)(a, b),
                          (a.astype(np.int64) + b).astype(np.int16))
    assert np.array_equal(binary_fn("mul", I16)(a, b),
                          (a.astype(np.int64) * b).astype(np.int16))
    assert np.array_equal(binary_fn("and_not", I16)(a, b), a & ~b)
    assert np.array_equal(binary_fn("xnor", I16)(a, b), ~(a ^ b))


def test_float_logic_works_on_bit_patterns() -> None:
    a = np.array([1.0, -2.0], np.float16)
    got = binary_fn("and0", F16)(a, np.array([-0.0, -0.0], np.float16))
    assert np.array_equal(got.view(np.uint16), a.view(np.uint16) & 0x8000)


def test_casts_round_and_saturate() -> None:
    x = np.array([0.1, 70000.0, -1.5], np.float32)
    with np.errstate(over="ignore"):
        assert np.array_equal(cast_fn(F32, F16)(x), x.astype(np.float16))
    assert cast_fn(F32, I16)(x).tolist() == [0, 32767, -1]


def _vector_program(ops: str, result: str) -> str:
    """CU: build two vectors from GM rows (via LU), run `ops`, send `result` to SU."""
    return f"""  dataflow.program_unit %lu : {{
    %v = dataflow.get_logical_memory_view %gm, %c0 {{{LAYOUT}}} : index, index, memref<2x64xf16>
    %x = agen.vector_load %v[0, 0] {{{ROW}}} : memref<2x64xf16>, vector<64xf16>
    %y = agen.vector_load %v[1, 0] {{{ROW}}} : memref<2x64xf16>, vector<64xf16>
    dataflow.send %cu, %x : vector<64xf16>
    dataflow.send %cu, %y : vector<64xf16>
  }}
  dataflow.program_unit %cu : {{
    %x = dataflow.receive %lu : vector<64xf16>
    %y = dataflow.receive %lu : vector<64xf16>
{ops}
    dataflow.send %su, {result} : vector<64xf16>
  }}
""" + store_rows(1)


def _run_vector(ops: str, result: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    m = module(_vector_program(ops, result), nargs=2)
    r = emulate(m, device(), entry="k", args=[0, 1024],
                memory_init={"GM": [(0, np.stack([x, y]).astype(np.float16))]})
    return r.read("GM", 1024, 64, np.float16)


X = (np.arange(64, dtype=np.float32) / 8 - 4).astype(np.float16)
Y = np.linspace(-2, 2, 64).astype(np.float16)

CASES = {
    "select": ("""    %c = vectorchain.element_wise_compare %x, %y {compare_op = #vectorchain<element_wise_compare_operator compare_lt>} : vector<64xf16>, vector<64xf16>, vector<64xi1>
    %r = vectorchain.element_wise_selection %c ? %x : %y : vector<64xi1>, vector<64xf16>, vector<64xf16>, vector<64xf16>""",
               np.where(X < Y, X, Y)),
    "exp": ("    %r = vectorchain.fast_exp %x : vector<64xf16>, vector<64xf16>",
            np.exp(X.astype(np.float64)).astype(np.float16)),
    "scan": ("    %r = vectorchain.scan_with_gap %x {eval_order = #vectorchain<eval_order left_to_right>, gap = 2 : index, reduction_op = #vectorchain<binary_operator add>} : vector<64xf16>, vector<64xf16>",
             np.concatenate([np.cumsum(X[0::2].astype(np.float64))[:, None],
                             np.cumsum(X[1::2].astype(np.float64))[:, None]], 1)
             .reshape(-1).astype(np.float16)),
    "shuffle": ("    %r = vectorchain.shuffle input(%x) {indices = [1 : i32, 0 : i32], repetition = 32 : i32} : vector<64xf16>, vector<64xf16>",
                np.tile(X[[1, 0]], 32)),
    "fma": ("    %r = vectorchain.multiply_and_accumulate %x, %y, %x {reduction_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<64xf16>, vector<64xf16>",
            (X.astype(np.float64) * Y + X).astype(np.float16)),
    "neg": ("    %r = vectorchain.neg %y : vector<64xf16>, vector<64xf16>", -Y),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_vector_ops_in_a_program(case: str) -> None:
    ops, want = CASES[case]
    assert np.array_equal(_run_vector(ops, "%r", X, Y), want)


# ---- the ops element-wise KTIR lowers to evaluate as the reference interpreter does ---------

_REFERENCE = {"vectorchain.fast_exp": "math.exp", "vectorchain.ln_estimate": "math.log",
              "vectorchain.rsqrt_estimate": "math.rsqrt", "vectorchain.tanh_estimate":
              "math.tanh", "vectorchain.rec_estimate": "spyreop.reciprocal",
              "vectorchain.sigmoid_estimate": "spyreop.sigmoid"}


def _interpret(op: str, t: str, *xs: np.ndarray) -> np.ndarray:
    """The reference interpreter's value of the scalar op `op` on arrays `xs` (as in a
    linalg.generic body, where scalar-typed ops see whole arrays). Inside a kernel f16 values
    are float32 carriers holding f16 values (ktir/interpreter/dtypes.py): they go in as such
    and come out as the f16 they hold."""
    from ktir.context import parse_module
    from ktir.interpreter.core import Compiler

    args = ", ".join(f"%x{i}: {t}" for i in range(len(xs)))
    uses = ", ".join(f"%x{i}" for i in range(len(xs)))
    fn = next(o for o in parse_module(f"func.func @f({args}) {{\n  %r = {op} {uses} : {t}\n"
                                      "  return\n}", "t.mlir").walk() if o.name == "func.func")
    target = next(iter(fn.body.block.ops))
    c = Compiler()
    run = c.compile_ops([target])[0]
    r: list = [None] * (len(xs) + 8)
    for a, x in zip(fn.body.block.args, xs):
        r[c.slot(a)] = x.astype(np.float32) if x.dtype == np.float16 else x
    out = c.slot(target.results[0])
    r += [None] * c.nslots
    run(r)
    v = np.asarray(r[out])
    return v.astype(np.float16) if t == "f16" else v


@pytest.mark.parametrize("name", sorted(_REFERENCE))
@pytest.mark.parametrize("t", ["f16", "f32"])
def test_estimates_evaluate_with_the_reference_numerics(name: str, t: str) -> None:
    et = elem_type(Float16Type() if t == "f16" else Float32Type())
    x = np.linspace(-6, 6, 257).astype(et.compute)
    op = Operation_of(name, t, 257)
    fn, cls = vector_kernel(op)
    with np.errstate(all="ignore"):
        got = fn(x)
        want = _interpret(_REFERENCE[name], t, x)
    assert cls == "transcendental"
    assert np.array_equal(got.view(np.uint8), want.astype(et.compute).view(np.uint8))


def Operation_of(name: str, t: str, n: int, *more: str):
    from xdsl.dialects.builtin import VectorType
    from xdsl.ir import Block

    from spyrecode.dialects import vectorchain as vc

    elt = Float16Type() if t == "f16" else Float32Type()
    block = Block(arg_types=[VectorType(elt, [n])] * 5)
    cls = {"vectorchain.fast_exp": vc.FastExpOp, "vectorchain.ln_estimate": vc.LnEstimateOp,
           "vectorchain.rsqrt_estimate": vc.RsqrtEstimateOp,
           "vectorchain.tanh_estimate": vc.TanhEstimateOp,
           "vectorchain.rec_estimate": vc.RecEstimateOp,
           "vectorchain.sigmoid_estimate": vc.SigmoidEstimateOp}.get(name)
    if cls is not None:
        return cls(block.args[0])
    return vc.LaneFunctionOp(name, block.args[:len(more) + 1])


@pytest.mark.parametrize(("function", "op", "arity"),
                         [("div", "arith.divf", 2), ("rem", "arith.remf", 2),
                          ("sqrt", "math.sqrt", 1), ("exp2", "math.exp2", 1),
                          ("log2", "math.log2", 1), ("erf", "math.erf", 1),
                          ("sin", "math.sin", 1), ("cos", "math.cos", 1),
                          ("pow", "math.powf", 2), ("gelu", "spyreop.gelu", 1),
                          ("silu", "spyreop.silu", 1)])
def test_lane_functions_are_the_reference_functions(function: str, op: str, arity: int) -> None:
    x = np.linspace(-3, 3, 64).astype(np.float16)
    y = np.linspace(0.5, 4, 64).astype(np.float16)
    fn, _ = vector_kernel(Operation_of(function, "f16", 64, *["y"] * (arity - 1)))
    with np.errstate(all="ignore"):
        got = fn(*(x, y)[:arity])
        want = _interpret(op, "f16", *(x, y)[:arity])
    assert np.array_equal(got.view(np.uint16), want.view(np.uint16))


def test_lane_function_latency_classes_and_integer_division_by_zero() -> None:
    from xdsl.dialects.builtin import VectorType
    from xdsl.ir import Block

    from emulator.errors import RuntimeFault
    from spyrecode.dialects import vectorchain as vc

    block = Block(arg_types=[VectorType(IntegerType(16), [4])] * 2)
    div = vc.LaneFunctionOp("divsi", block.args)
    fn, cls = vector_kernel(div)
    assert cls == "divide"
    assert fn(np.array([7, -7, 1, 0], np.int16), np.array([2, 2, 1, 3], np.int16)).tolist() == [
        3, -3, 1, 0]
    with pytest.raises(RuntimeFault, match="divides by zero"):
        fn(np.array([1, 2, 3, 4], np.int16), np.array([1, 0, 1, 1], np.int16))
    assert vector_kernel(vc.LaneFunctionOp("shli", block.args))[1] == "simple"
    assert vector_kernel(Operation_of("erf", "f16", 4))[1] == "transcendental"
