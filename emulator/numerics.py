"""Vector numerics of the `vectorchain` ops (shared/spec/dataflow-ir.md §4, §7 E11).

Vectors are 1-D numpy arrays in the element type's compute dtype (ktir.interpreter.dtypes:
f16 -> float16, bf16 and df16 -> float32 carrier values, iN -> intN, i1 -> bool). Each op that
an element-wise KTIR op lowers to evaluates its lanes with that op's definition in
ktir.semantics, the one the reference interpreter uses for tensors, so that results match it
bit for bit: binary add/sub/mul/min/max, `neg`, `floor`, `cast` and `lane_function` "div",
"sqrt", ... are correctly rounded (rounded once to the result type, nearest even; integers
wrap); the transcendental ones (`fast_exp`, `ln_estimate`, `rsqrt_estimate`, `tanh_estimate`,
`sigmoid_estimate`, `rec_estimate`, `lane_function` "exp2", "erf", ...) are evaluated in
float32 (float64 for f64 lanes) and rounded once, as the reference evaluates them: within a few
float32 ulps of the exact function, not necessarily its correctly rounded value. Ops no KTIR op
lowers to (`mul_div2`, `multiply`, `scan_with_gap`) are computed exactly and rounded once.

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

from emulator.errors import RuntimeFault, UnsupportedOpError
from ktir import affine
from ktir.interpreter.dtypes import ElemType, UnsupportedType, elem_type
from ktir.semantics import DIVISIONS, convert, float_function, int_function
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


# binary operators that are the interpreter's tensor ops (ktir.semantics.FLOAT_FUNCTIONS)
_FLOAT_BINARY = {"add": "add", "sub": "sub", "mul": "mul", "min": "minimum", "max": "maximum"}
_INT_BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "min": np.minimum,
               "max": np.maximum}
_LOGIC = {"and0": lambda a, b: a & b, "or0": lambda a, b: a | b,
          "xnor": lambda a, b: ~(a ^ b), "and_not": lambda a, b: a & ~b}
_ABS = {"abs_min": lambda a, b: np.minimum(np.abs(a), np.abs(b)),
        "abs_max": lambda a, b: np.maximum(np.abs(a), np.abs(b))}


def binary_fn(name: str, et: ElemType, op: Operation | None = None) -> Kernel:
    """`r = a <name> b` lane-wise. Floats: add/sub/mul/min/max are the interpreter's tensor
    ops (ktir.semantics, correctly rounded), abs_min/abs_max exact; integers wrap."""
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
    if et.is_float and name in _FLOAT_BINARY:
        return float_function(_FLOAT_BINARY[name], et)
    if not et.is_float and name in _INT_BINARY and et.width > 1:
        g = _INT_BINARY[name]
        return lambda a, b: g(a, b)
    if name in _ABS:
        g = _ABS[name]
        rnd = et.round
        return (lambda a, b: rnd(g(a, b))) if rnd is not None else g
    if name == "mul_div2":
        rnd = rounder(et)
        return lambda a, b: rnd(_exact(a) * _exact(b) / 2)
    raise UnsupportedOpError(f"binary operator '{name}' is not supported on {et.name}", op=op)


_COMPARE = {"compare_eq": np.equal, "compare_neq": np.not_equal, "compare_lt": np.less,
            "compare_le": np.less_equal, "compare_gt": np.greater,
            "compare_ge": np.greater_equal}

# the unary ops and the function of ktir.semantics.FLOAT_FUNCTIONS each one evaluates (the
# estimates with the reference's numerics, so that results match it bit for bit)
_UNARY = {"vectorchain.fast_exp": "exp", "vectorchain.exp_estimate": "exp",
          "vectorchain.floor": "floor", "vectorchain.neg": None,
          "vectorchain.rec_estimate": "reciprocal", "vectorchain.ln_estimate": "log",
          "vectorchain.rsqrt_estimate": "rsqrt", "vectorchain.sigmoid_estimate": "sigmoid",
          "vectorchain.tanh_estimate": "tanh"}

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
    if op.name == "vectorchain.lane_function":
        return op.latency_class  # type: ignore[attr-defined]
    if op.name in _UNARY and op.name not in ("vectorchain.floor", "vectorchain.neg"):
        return "transcendental"
    return _CLASSES.get(op.name, "simple")


def unary_fn(op: Operation, src: ElemType, dst: ElemType) -> Kernel:
    name = _UNARY[op.name]
    if not dst.is_float or src != dst:
        if op.name == "vectorchain.neg" and not dst.is_float:
            return lambda x: -x
        raise UnsupportedOpError(f"'{op.name}' from {src.name} to {dst.name} is not "
                                 "supported (float lanes of one type)", op=op)
    if name is None:  # neg: exact
        return lambda x: -x
    return float_function(name, dst)


def lane_function_fn(op: Operation, et: ElemType) -> Kernel:
    """`vectorchain.lane_function`: the function of ktir.semantics it names; an integer
    division by zero is a runtime fault at the op."""
    name = op.function_name  # type: ignore[attr-defined]
    if et.is_float:
        params = [p.value.data for p in op.parameter_values]  # type: ignore[attr-defined]
        return float_function(name, et, params)
    f = int_function(name)
    if name not in DIVISIONS:
        return f

    def divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if not b.all():
            raise RuntimeFault("divides by zero")
        return f(a, b)
    return divide


def cast_fn(src: ElemType, dst: ElemType) -> Kernel:
    """`vectorchain.cast`: ktir.semantics.convert (integers read as signed)."""
    return lambda x: convert(x, src, dst)


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
    elif name == "vectorchain.lane_function":
        fn = lane_function_fn(op, et)  # type: ignore[arg-type]
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
