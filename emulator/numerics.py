"""Vector numerics of the `vectorchain` ops (shared/spec/dataflow-ir.md §4, §7 E11).

Vectors are 1-D numpy arrays in the element type's compute dtype (ktir.interpreter.dtypes:
f16 -> float16, bf16 and df16 -> float32 carrier values, iN -> intN, i1 -> bool). Every lane is
computed exactly (float64, or natively where numpy's own rounding is a single correct rounding
from an exact result: f16/f32 add, sub, mul, min, max) and rounded once to the result type
(round to nearest even); integers wrap. Estimates are evaluated exactly, then rounded.

`vector_kernel(op)` turns one op into a Python callable over the operand arrays plus its
latency class (arch.md §8); the code generator calls it once per op site. Masked-off lanes of
an op with a `[%mask]` keep the first operand's lane (merge masking).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation

from emulator.errors import UnsupportedOpError
from ktir import affine
from ktir.interpreter.dtypes import ElemType, UnsupportedType, elem_type
from spyrecode.dialects.dataflow_types import element_type, lanes

Kernel = Callable[..., np.ndarray]


def etype(t: Attribute, op: Operation | None = None) -> ElemType:
    """The ElemType of a vector/memref/scalar type; unsupported types fail naming the op."""
    try:
        return elem_type(element_type(t))
    except UnsupportedType as e:
        raise UnsupportedOpError(str(e), op=op) from None


def rounder(et: ElemType) -> Callable[[np.ndarray], np.ndarray]:
    """Exact (float64 / int64) lanes -> lanes of `et`, rounded or wrapped once."""
    if et.is_float:
        if et.round is not None:
            rnd = et.round
            return lambda x: rnd(np.asarray(x, np.float64).astype(np.float32))
        dt = et.compute

        def to_float(x: np.ndarray) -> np.ndarray:
            with np.errstate(over="ignore", invalid="ignore"):
                return np.asarray(x).astype(dt)
        return to_float
    if et.width == 1:
        return lambda x: np.asarray(x).astype(bool)
    dt = et.compute
    return lambda x: np.asarray(x).astype(np.int64).astype(dt)


def _native(et: ElemType) -> bool:
    return et.is_float and et.round is None


def _exact(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float64) if x.dtype.kind == "f" else x.astype(np.int64)


_ARITH = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "min": np.minimum,
          "max": np.maximum}
_LOGIC = {"and0": lambda a, b: a & b, "or0": lambda a, b: a | b,
          "xnor": lambda a, b: ~(a ^ b), "and_not": lambda a, b: a & ~b}
_EXACT = {"abs_min": lambda a, b: np.minimum(np.abs(a), np.abs(b)),
          "abs_max": lambda a, b: np.maximum(np.abs(a), np.abs(b)),
          "mul_div2": lambda a, b: a * b / 2}


def binary_fn(name: str, et: ElemType, op: Operation | None = None) -> Kernel:
    """`r = a <name> b` lane-wise, rounded once to `et`."""
    if name in _ARITH and (_native(et) or not et.is_float):
        uf = _ARITH[name]
        if et.is_float:
            return uf
        rnd = rounder(et)
        return lambda a, b: rnd(uf(_exact(a), _exact(b)))
    if name in _LOGIC:
        f = _LOGIC[name]
        if et.is_float:
            bits = np.dtype(f"u{et.itemsize}")
            dt = et.storage
            enc, dec = et.encode, et.decode

            def logic(a: np.ndarray, b: np.ndarray) -> np.ndarray:
                ua = (enc(a) if enc else a.astype(dt)).view(bits)
                ub = (enc(b) if enc else b.astype(dt)).view(bits)
                r = f(ua, ub).view(dt)
                return dec(r) if dec else r
            return logic
        return f
    g = _ARITH.get(name) or _EXACT.get(name)
    if g is None:
        raise UnsupportedOpError(f"binary operator '{name}' is not supported", op=op)
    rnd = rounder(et)
    return lambda a, b: rnd(g(_exact(a), _exact(b)))


_COMPARE = {"compare_eq": np.equal, "compare_neq": np.not_equal, "compare_lt": np.less,
            "compare_le": np.less_equal, "compare_gt": np.greater,
            "compare_ge": np.greater_equal}


def _sigmoid(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-x))


_UNARY = {"vectorchain.fast_exp": np.exp, "vectorchain.exp_estimate": np.exp,
          "vectorchain.floor": np.floor, "vectorchain.neg": np.negative,
          "vectorchain.rec_estimate": lambda x: 1.0 / x,
          "vectorchain.ln_estimate": np.log,
          "vectorchain.rsqrt_estimate": lambda x: 1.0 / np.sqrt(x),
          "vectorchain.sigmoid_estimate": _sigmoid,
          "vectorchain.tanh_estimate": np.tanh}

_CLASSES = {"vectorchain.binary": "simple", "vectorchain.neg": "simple",
            "vectorchain.floor": "simple", "vectorchain.cast": "simple",
            "vectorchain.element_wise_compare": "simple",
            "vectorchain.element_wise_selection": "simple", "vectorchain.shuffle": "simple",
            "vectorchain.rotate": "simple", "vectorchain.constant_bitstream": "simple",
            "vectorchain.create_affine_mask": "simple", "vectorchain.multiply": "mul",
            "vectorchain.multiply_and_accumulate": "fma", "vectorchain.scan_with_gap": "reduce",
            "dataflow.opaque": "opaque"}


def latency_class(op: Operation) -> str:
    if op.name == "vectorchain.binary":
        return "mul" if op.operator in ("mul", "mul_div2") else "simple"  # type: ignore
    if op.name in _UNARY and op.name not in ("vectorchain.floor", "vectorchain.neg"):
        return "transcendental"
    return _CLASSES.get(op.name, "simple")


def unary_fn(op: Operation, src: ElemType, dst: ElemType) -> Kernel:
    f = _UNARY[op.name]
    rnd = rounder(dst)
    if op.name == "vectorchain.neg" and not src.is_float:
        return lambda x: rnd(-_exact(x))

    def unary(x: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            return rnd(f(x.astype(np.float64)))
    return unary


def cast_fn(src: ElemType, dst: ElemType) -> Kernel:
    rnd = rounder(dst)
    if dst.is_float or src.width == 1 or not src.is_float:
        return lambda x: rnd(_exact(x))
    lo, hi = (0, 1) if dst.width == 1 else (-(1 << (dst.width - 1)), (1 << (dst.width - 1)) - 1)

    def to_int(x: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            y = np.nan_to_num(np.trunc(x.astype(np.float64)), nan=0.0)
        return np.clip(y, lo, hi).astype(np.int64).astype(dst.compute)
    return to_int


def masked(fn: Kernel) -> Kernel:
    """The op with a trailing mask argument: masked-off lanes keep the first operand's lane."""
    def run(*args: np.ndarray) -> np.ndarray:
        *ins, m = args
        r = fn(*ins)
        return np.where(m, r, ins[0].astype(r.dtype)) if ins else r
    return run


def constant_lanes(op: Operation) -> np.ndarray:
    """The lanes of a `constant_bitstream` or a dense `arith.constant` vector."""
    et = etype(op.results[0].type, op)
    if op.name == "vectorchain.constant_bitstream":
        pats = np.asarray(op.values, dtype=np.uint64)  # type: ignore[attr-defined]
        if et.is_float:
            raw = pats.astype(et.storage if et.encode else np.dtype(f"u{et.itemsize}"))
            vals = et.decode(raw) if et.decode else raw.view(et.compute)
        else:
            vals = pats.astype(np.int64).astype(et.compute) if et.width != 1 else pats != 0
        return np.array(vals, dtype=et.compute)
    attr = op.properties.get("value")
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        raise UnsupportedOpError(f"constant {attr} is not a dense vector constant", op=op)
    n = lanes(op.results[0].type) or 1
    vals = np.asarray(attr.get_values(), dtype=np.float64 if et.is_float else np.int64)
    return rounder(et)(np.broadcast_to(vals, (n,)).copy())


def shuffle_fn(op: Operation, et: ElemType) -> Kernel:
    """out[k*n + j] = input[idx[j]], or variable/pad scalars for idx = -1, -2, ..."""
    n_in = lanes(op.input.type) or 0  # type: ignore[attr-defined]
    pat = np.asarray(op.pattern, dtype=np.int64)  # type: ignore[attr-defined]
    idx = np.tile(np.where(pat >= 0, pat, n_in + (-pat - 1)), op.repeat)  # type: ignore
    if not (len(op.variable) + len(op.pad)):  # type: ignore[attr-defined]
        return lambda x: x[idx]
    dt = et.compute

    def shuffle(x: np.ndarray, *scalars: object) -> np.ndarray:
        return np.concatenate([x, np.asarray(scalars, dtype=dt)])[idx]
    return shuffle


def scan_fn(op: Operation, et: ElemType) -> Kernel:
    """O[i] = op over I[i - k*gap], k = 0..floor(i/gap), evaluated exactly then rounded."""
    name = op.reduction_op.data.value  # type: ignore[attr-defined]
    gap = op.gap.value.data  # type: ignore[attr-defined]
    acc = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}.get(name)
    if acc is None:
        raise UnsupportedOpError(f"scan_with_gap with reduction '{name}' is not supported", op=op)
    rnd = rounder(et)

    def scan(x: np.ndarray) -> np.ndarray:
        y = _exact(x).copy()
        for r in range(min(gap, len(y))):
            y[r::gap] = acc.accumulate(y[r::gap])
        return rnd(y)
    return scan


def _reduction_index(op: Operation, n_in: int, n_out: int) -> np.ndarray:
    m = op.reduction_map.data  # type: ignore[attr-defined]
    if m.num_dims != 1 or len(m.results) != 1:
        raise UnsupportedOpError("reduction_map must map the lane index to one result lane",
                                 op=op)
    idx = np.asarray(affine.eval_map_np(m, [np.arange(n_in)])[0], dtype=np.int64)
    idx = np.broadcast_to(idx, (n_in,))
    if idx.min(initial=0) < 0 or idx.max(initial=0) >= n_out:
        raise UnsupportedOpError(f"reduction_map sends lanes outside the {n_out} result lanes",
                                 op=op)
    return idx


def multiply_fn(op: Operation, et: ElemType) -> Kernel:
    """r[map(i)] += a[i] * b[i] (plus the accumulator), exact then rounded."""
    n_in = lanes(op.op1.type) or 0  # type: ignore[attr-defined]
    n_out = lanes(op.data.type) or 0  # type: ignore[attr-defined]
    idx = _reduction_index(op, n_in, n_out)
    rnd = rounder(et)

    def mul(a: np.ndarray, b: np.ndarray, *c: np.ndarray) -> np.ndarray:
        r = _exact(c[0]).copy() if c else np.zeros(n_out, dtype=_exact(a).dtype)
        np.add.at(r, idx, _exact(a) * _exact(b))
        return rnd(r)
    return mul


def mask_fn(op: Operation) -> Kernel:
    s = op.mask_set.data  # type: ignore[attr-defined]
    n = lanes(op.data.type) or 0  # type: ignore[attr-defined]
    lanes_idx = np.arange(n, dtype=np.int64)
    if s.num_symbols:
        return lambda p: affine.mask(s, [lanes_idx], [p]).copy()
    const = affine.mask(s, [lanes_idx], []).copy()
    return lambda: const


def vector_kernel(op: Operation) -> tuple[Kernel, str]:
    """The numpy function of a vectorchain op (operands in op order, mask last) and its
    latency class."""
    name = op.name
    res = op.results[0].type if op.results else None
    et = etype(res, op) if res is not None else None
    cls = latency_class(op)
    if name == "vectorchain.binary":
        if not _is_identity(op.op_specific_map.data):  # type: ignore[attr-defined]
            raise UnsupportedOpError("binary with a non-identity op_specific_map is not "
                                     "supported", op=op)
        fn = binary_fn(op.operator, et, op)  # type: ignore[attr-defined,arg-type]
    elif name == "vectorchain.element_wise_compare":
        fn = _COMPARE[op.operator]  # type: ignore[attr-defined]
    elif name == "vectorchain.element_wise_selection":
        rnd = rounder(et)  # type: ignore[arg-type]
        fn = lambda c, a, b: rnd(np.where(c, a, b))  # noqa: E731
    elif name in _UNARY:
        fn = unary_fn(op, etype(op.operands[0].type, op), et)  # type: ignore[arg-type]
    elif name == "vectorchain.cast":
        fn = cast_fn(etype(op.operands[0].type, op), et)  # type: ignore[arg-type]
    elif name == "vectorchain.shuffle":
        fn = shuffle_fn(op, et)  # type: ignore[arg-type]
    elif name == "vectorchain.rotate":
        right = op.right_shift.value.data  # type: ignore[attr-defined]
        fn = (lambda x, p: np.roll(x, int(p))) if right else (lambda x, p: np.roll(x, -int(p)))
    elif name == "vectorchain.scan_with_gap":
        fn = scan_fn(op, et)  # type: ignore[arg-type]
    elif name in ("vectorchain.multiply", "vectorchain.multiply_and_accumulate"):
        fn = multiply_fn(op, et)  # type: ignore[arg-type]
    elif name == "vectorchain.create_affine_mask":
        return mask_fn(op), cls
    else:
        raise UnsupportedOpError("unsupported op (the emulator has no numerics for it)", op=op)
    if getattr(op, "mask", None) is not None:
        fn = masked(fn)
    return fn, cls


def _is_identity(m: object) -> bool:
    from spyrecode.dialects.syntax import is_identity

    return is_identity(m)  # type: ignore[arg-type]


def type_key(t: Attribute) -> str:
    """A short, comparable spelling of a vector type for FIFO checks ("vector<64xf16>")."""
    if isinstance(t, VectorType):
        shape = "x".join(str(d) for d in t.get_shape())
        return f"vector<{shape}x{t.get_element_type()}>"
    return str(t)


def is_index_like(t: Attribute) -> bool:
    return isinstance(t, IndexType | IntegerType)
