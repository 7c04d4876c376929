"""End to end, op family by op family: each element-wise op of real kernels (in a
`linalg.generic` body and on whole tensors), every element type (f16, bf16, f32, i8, i16, i32)
and the ops that move elements, compiled for Spyre and the sample device, emulated, and
compared bit for bit with the reference interpreter (`ktir run`). Inputs mix random values with
the awkward ones: signed zeros, infinities, NaN, subnormals, values that overflow f16, integers
at the ends of their range and shift amounts past the width."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ktir_tools.run import run_and_check
from tests.strategies.kernels import TypedSpec, typed_elementwise_specs, typed_kernel

FLOATS = ("f16", "bf16", "f32")
INTS = ("i8", "i16", "i32")

_F_SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5,
              65504.0, 6e-8, -6e-8, 100.0, -100.0, 3e38, 7.0, 0.1, 1e-40]


def _floats(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(max(n, 2 * len(_F_SPECIAL))) * 4
    k = len(_F_SPECIAL)
    v[:k] = _F_SPECIAL
    v[k:2 * k] = rng.permutation(_F_SPECIAL)
    return v[:n].astype(np.float32)


def _ints(n: int, bits: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    special = [0, 1, -1, lo, hi, 2, -2, 7, 8, bits - 1, bits, bits + 1, 3]
    v = rng.integers(lo, hi + 1, size=max(n, 2 * len(special)), dtype=np.int64)
    v[:len(special)] = special
    v[len(special):2 * len(special)] = rng.permutation(special)
    return v[:n].astype(f"int{bits}")


def inputs_for(spec: TypedSpec) -> dict[str, np.ndarray]:
    out = {}
    for i, elt in enumerate(spec.inputs):
        shape = spec.in_shapes[i] if spec.in_shapes else spec.shape
        n = int(np.prod(shape))
        if elt == "i1":
            v = (_ints(n, 8, i) & 1).astype(np.bool_)
        else:
            v = _ints(n, int(elt[1:]), i) if elt.startswith("i") else _floats(n, i)
        if elt == "f16":  # the run checks inputs fit their buffer: 3e38 is +inf in f16
            with np.errstate(over="ignore"):
                v = v.astype(np.float16)
        out[f"in{i}"] = v.reshape(shape)
    return out


def check(spec: TypedSpec, device: str, tmp: Path) -> None:
    path = tmp / f"{spec.name}.mlir"
    path.write_text(typed_kernel(spec))
    with np.errstate(over="ignore"):  # 3e38 does not fit f16/bf16: +inf, as intended
        report = run_and_check(path, device, inputs=inputs_for(spec))
    assert report.checks, report.to_json()
    assert report.match, (typed_kernel(spec), report.to_json())


_CMPF = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
         "ule", "une", "uno", "true")
_CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def _predicates(op: str, preds: tuple[str, ...], t: str) -> tuple[str, ...]:
    """Every predicate of a comparison at once: bit k of the i32 result is predicate k."""
    body = ["%acc0 = arith.constant {lit_i32_0}"]
    for k, p in enumerate(preds):
        body += [f"%p{k} = arith.{op} {p}, %a0, %a1 : {{{t}}}",
                 f"%b{k} = arith.constant {{lit_i32_{1 << k}}}",
                 f"%s{k} = arith.select %p{k}, %b{k}, %acc0 : {{sel_i32}}",
                 f"%acc{k + 1} = arith.ori %acc{k}, %s{k} : {{i32}}"]
    body.append(f"%r = arith.ori %acc{len(preds)}, %acc0 : {{i32}}")
    return tuple(body)


def _cases(device: str) -> list:
    """(id, spec): the whole matrix on Spyre; one type per family on the sample device."""
    full = device == "spyre"
    floats = FLOATS if full else ("f16",)
    ints = INTS if full else ("i16",)
    cases: list = []

    def add(name: str, ins: tuple[str, ...], out: str, body: tuple[str, ...],
            forms: tuple[str, ...] = ("generic",)) -> None:
        for form in forms:
            cases.append(pytest.param(TypedSpec(ins, out, body, form=form, name="k"),
                                      id=f"{name}-{form}-{device}"))

    both = ("generic", "tensor")
    for t in floats:
        forms = both if t == floats[0] else ("generic",)
        for op in ("addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf",
                   "minnumf"):
            add(f"{op}-{t}", (t, t), t, (f"%r = arith.{op} %a0, %a1 : {{{t}}}",), forms)
        add(f"powf-{t}", (t, t), t, (f"%r = math.powf %a0, %a1 : {{{t}}}",), forms)
        add(f"negf-{t}", (t,), t, (f"%r = arith.negf %a0 : {{{t}}}",), forms)
        for op in ("exp", "exp2", "log", "log2", "sqrt", "rsqrt", "tanh", "erf", "absf", "sin",
                   "cos", "floor", "ceil"):
            add(f"{op}-{t}", (t,), t, (f"%r = math.{op} %a0 : {{{t}}}",), forms)
    for t in floats:
        add(f"cmpf-{t}", (t, t), "i32", _predicates("cmpf", _CMPF, t), both)
    for t in ints:
        forms = both if t == ints[-1] else ("generic",)
        for op in ("addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui",
                   "minui", "shli", "shrsi", "shrui"):
            add(f"{op}-{t}", (t, t), t, (f"%r = arith.{op} %a0, %a1 : {{{t}}}",), forms)
        for op in ("divsi", "divui", "remsi", "remui", "floordivsi", "ceildivsi", "ceildivui"):
            add(f"{op}-{t}", (t, t), t, (f"%one = arith.constant {{lit_{t}_1}}",  # no zeros
                                         f"%d = arith.ori %a1, %one : {{{t}}}",
                                         f"%r = arith.{op} %a0, %d : {{{t}}}"), forms)
        add(f"cmpi-{t}", (t, t), "i32", _predicates("cmpi", _CMPI, t), forms)
        add(f"select-{t}", (t, t), t, (f"%c = arith.cmpi slt, %a0, %a1 : {{{t}}}",
                                       f"%r = arith.select %c, %a1, %a0 : {{sel_{t}}}"), forms)
    casts = [("f16", "f32", "extf"), ("bf16", "f32", "extf"), ("f32", "f16", "truncf"),
             ("f32", "bf16", "truncf"), ("i32", "f32", "sitofp"), ("i8", "f16", "sitofp"),
             ("i16", "bf16", "sitofp"), ("f32", "i32", "fptosi"), ("f16", "i8", "fptosi"),
             ("bf16", "i16", "fptosi"), ("i8", "f32", "uitofp"), ("i32", "f32", "uitofp"),
             ("i16", "f16", "uitofp"), ("f32", "i8", "fptoui"), ("f32", "i32", "fptoui"),
             ("f16", "i16", "fptoui"), ("i8", "i32", "extsi"), ("i8", "i32", "extui"),
             ("i16", "i32", "extui"), ("i32", "i8", "trunci"), ("i32", "i16", "trunci")]
    for a, b, op in casts if full else casts[::3]:
        add(f"{op}-{a}-{b}", (a,), b, (f"%r = arith.{op} %a0 : {{{a}}} to {{{b}}}",), both)
    for t in ("f16", "f32") if full else ("f16",):
        for op in ("exp", "reciprocal", "sqrt", "rsqrt", "sigmoid", "silu"):
            add(f"spyreop-{op}-{t}", (t,), t, (f"%r = spyreop.{op} %a0 : {{{t}}}",))
        add(f"spyreop-realdiv-{t}", (t, t), t, (f"%r = spyreop.realdiv %a0, %a1 : {{{t}}}",))
        add(f"spyreop-layernormscale-{t}", (t,), t, (f"%r = spyreop.layernormscale %a0 : {{{t}}}",))
        add(f"spyreop-layernormscale2-{t}", (t, t), t,
            (f"%r = spyreop.layernormscale %a0 squares %a1 : {{{t}}}",))
        add(f"spyreop-layernormnorm-{t}", (t, t, t, t, t), t,
            (f"%r = spyreop.layernormnorm %a0 squares %a1 scale %a2 weight %a3 bias %a4 : "
             f"{{{t}}}",))
        add(f"spyreop-exx2-{t}", (t,), t, (f"%m, %s = spyreop.exx2 %a0 : {{{t}}}",
                                           f"%r = arith.subf %s, %m : {{{t}}}"))
        add(f"spyreop-select-{t}", (t, t), t, (f"%r = spyreop.select %a0, %a0, %a1 : {{{t}}}",))
        for p in ("equal", "notequal", "greaterthan", "greaterequal", "lesserthan",
                  "lesserequal"):
            add(f"spyreop-compare-{p}-{t}", (t, t), t,
                (f"%r = spyreop.compare <{p}> %a0, %a1 : {{{t}}}",))
    add("spyreop-gelu-f16", ("f16",), "f16", ("%r = spyreop.gelu %a0 : {f16}",))
    add("spyreop-softplus-f16", ("f16",), "f16",
        ("%r = spyreop.softplus %a0 beta 0.5 threshold 2.0 : {f16}",))
    add("spyreop-int", ("i32", "i32"), "i32", ("%s = spyreop.addi32toi32 %a0, %a1",
                                               "%m = spyreop.muli32toi32 %s, %a1",
                                               "%r = spyreop.idx32toaddr %m base %a0 stride %a1"))
    add("spyreop-idx32toaddr-literals", ("i32",), "i32",
        ("%r = spyreop.idx32toaddr %a0 base 0xDEADBEEF stride 4",))
    return cases


def _moves() -> list:
    """Ops that move elements, views of rank 1 to 4, mixed types, scalars from outside."""
    t = "tensor<4x64xf16>"

    def s(name: str, ins: tuple[str, ...], out: str, body: list[str],
          in_shapes: tuple[tuple[int, ...], ...] | None = None, shape=(4, 64),
          grid: int = 1) -> object:
            return pytest.param(TypedSpec(ins, out, tuple(body), shape=shape, grid=grid,
                                      form="tensor", in_shapes=in_shapes,
                                      name=name.replace("-", "_")), id=name)

    return [
        s("fill", ("f16",), "f16", ["%c = arith.constant 2.5 : f16",
                                    f"%e = tensor.empty() : {t}",
                                    f"%f = linalg.fill ins(%c : f16) outs(%e : {t}) -> {t}",
                                    f"%r = arith.addf %a0, %f : {t}"]),
        s("transpose", ("f16",), "f16", [f"%e = tensor.empty() : {t}",
                                         f"%r = linalg.transpose ins(%a0 : tensor<64x4xf16>) "
                                         f"outs(%e : {t}) permutation = [1, 0]"], ((64, 4),)),
        s("broadcast-row", ("f16", "f16"), "f16", [
            f"%e = tensor.empty() : {t}",
            f"%b = linalg.broadcast ins(%a1 : tensor<64xf16>) outs(%e : {t}) dimensions = [0]",
            f"%r = arith.mulf %a0, %b : {t}"], ((4, 64), (64,))),
        s("broadcast-column", ("f16", "f16"), "f16", [
            f"%e = tensor.empty() : {t}",
            f"%b = linalg.broadcast ins(%a1 : tensor<4xf16>) outs(%e : {t}) dimensions = [1]",
            f"%r = arith.subf %a0, %b : {t}"], ((4, 64), (4,))),
        s("copy", ("f16",), "f16", [f"%e = tensor.empty() : {t}",
                                    f"%r = linalg.copy ins(%a0 : {t}) outs(%e : {t}) -> {t}"]),
        s("splat-constant", ("f16",), "f16", ["%c = arith.constant -1.5 : f16",
                                              f"%s = tensor.splat %c : {t}",
                                              f"%r = arith.maximumf %a0, %s : {t}"]),
        s("dense-constant", ("i32",), "i32", ["%s = arith.constant dense<-7> : tensor<4x64xi32>",
                                              "%r = arith.muli %a0, %s : tensor<4x64xi32>"]),
        s("extract-splat", ("f16",), "f16", ["%i1 = arith.constant 1 : index",
                                             "%i3 = arith.constant 3 : index",
                                             f"%v = tensor.extract %a0[%i1, %i3] : {t}",
                                             f"%s = tensor.splat %v : {t}",
                                             f"%r = arith.divf %a0, %s : {t}"]),
        s("collapse-shape", ("f16",), "f16", [
            f"%r = tensor.collapse_shape %a0 [[0, 1], [2]] : tensor<4x1x64xf16> into {t}"],
          ((4, 1, 64),)),
        s("expand-shape", ("f16",), "f16", [
            f"%x = tensor.expand_shape %a0 [[0, 1], [2]] output_shape [1, 4, 64] : {t} into "
            "tensor<1x4x64xf16>",
            "%y = math.sqrt %x : tensor<1x4x64xf16>",
            f"%r = tensor.collapse_shape %y [[0, 1], [2]] : tensor<1x4x64xf16> into {t}"]),
        s("extract-slice", ("f16",), "f16", [
            f"%r = tensor.extract_slice %a0[0, 64] [4, 64] [1, 1] : tensor<4x128xf16> to {t}"],
          ((4, 128),)),
        s("extract-slice-strided", ("f16",), "f16", [
            f"%r = tensor.extract_slice %a0[1, 0] [4, 64] [2, 1] : tensor<8x64xf16> to {t}"],
          ((8, 64),)),
        s("extract-slice-rank-reducing", ("f16",), "f16", [
            f"%x = tensor.extract_slice %a0[2, 0, 0] [1, 4, 64] [1, 1, 1] : tensor<3x4x64xf16> "
            f"to {t}", f"%r = arith.negf %x : {t}"], ((3, 4, 64),)),
        s("empty-is-zeros", ("f16",), "f16", [f"%r = tensor.empty() : {t}"]),
        s("mixed-types", ("f16", "f16"), "f16", [
            "%w = arith.extf %a0 : tensor<4x64xf16> to tensor<4x64xf32>",
            "%x = math.exp %w : tensor<4x64xf32>",
            "%c = arith.cmpf olt, %a0, %a1 : tensor<4x64xf16>",
            "%y = arith.extf %a1 : tensor<4x64xf16> to tensor<4x64xf32>",
            "%z = arith.select %c, %x, %y : tensor<4x64xi1>, tensor<4x64xf32>",
            f"%r = arith.truncf %z : tensor<4x64xf32> to {t}"]),
        s("scalar-select", ("f16", "f16"), "f16", [
            "%i = arith.constant 1 : index", "%z = arith.constant 0 : index",
            "%c = arith.cmpi sgt, %tid, %z : index",
            f"%r = arith.select %c, %a0, %a1 : {t}"], grid=1),
        s("index-scalar", ("f16",), "f16", ["%k = arith.constant 3 : index",
                                            "%ki = arith.index_cast %k : index to i32",
                                            "%kf = arith.sitofp %ki : i32 to f16",
                                            f"%s = tensor.splat %kf : {t}",
                                            f"%r = arith.addf %a0, %s : {t}"]),
        pytest.param(TypedSpec(("f16",), "f16", ("%ki = arith.index_cast %tid : index to i32",
                                                 "%kf = arith.sitofp %ki : i32 to f16",
                                                 "%s = tensor.splat %kf : {f16}",
                                                 "%r = arith.addf %a0, %s : {f16}"),
                               grid=2, form="tensor", name="tile_id"), id="tile-id-scalar"),
        s("mask-stored", ("f16", "f16"), "i1", ["%r = arith.cmpf olt, %a0, %a1 : "
                                                "tensor<4x64xf16>"]),
        s("mask-loaded", ("i1", "f16", "f16"), "f16", [
            f"%r = arith.select %a0, %a1, %a2 : tensor<4x64xi1>, {t}"]),
        s("mask-logic", ("i1", "i1"), "i1", ["%x = arith.xori %a0, %a1 : tensor<4x64xi1>",
                                             "%r = arith.andi %x, %a1 : tensor<4x64xi1>"]),
        s("rank-1", ("f16", "f16"), "f16", ["%r = arith.addf %a0, %a1 : tensor<256xf16>"],
          shape=(256,)),
        s("rank-3", ("bf16", "bf16"), "bf16",
          ["%r = arith.mulf %a0, %a1 : tensor<2x2x64xbf16>"], shape=(2, 2, 64)),
        s("rank-4", ("i16", "i16"), "i16",
          ["%r = arith.subi %a0, %a1 : tensor<2x2x2x32xi16>"], shape=(2, 2, 2, 32)),
        pytest.param(TypedSpec(("f32", "f32"), "f32", ("%r = arith.divf %a0, %a1 : {f32}",),
                               shape=(4, 2, 2, 32), grid=2, name="rank4"), id="rank-4-grid"),
    ]


@pytest.mark.parametrize("spec", _cases("spyre"))
def test_op_on_spyre(spec: TypedSpec, tmp_path: Path) -> None:
    check(spec, "spyre", tmp_path)


@pytest.mark.parametrize("spec", _cases("sample_device"))
def test_op_on_sample_device(spec: TypedSpec, tmp_path: Path) -> None:
    check(spec, "sample_device", tmp_path)


@pytest.mark.parametrize("device", ["spyre", "sample_device"])
@pytest.mark.parametrize("spec", _moves())
def test_element_moves(spec: TypedSpec, device: str, tmp_path: Path) -> None:
    check(spec, device, tmp_path)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(spec=typed_elementwise_specs(), device=st.sampled_from(["spyre", "sample_device"]))
def test_random_typed_kernels_match(spec: TypedSpec, device: str,
                                    tmp_path_factory: pytest.TempPathFactory) -> None:
    check(spec, device, tmp_path_factory.mktemp("typed"))
