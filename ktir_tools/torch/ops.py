"""What the KTIR backend lowers: FX graph nodes to kernel-builder expressions.

Each supported op is a function of builder handles (and the node's Python arguments) giving
a handle. Tensors are 2-D in a kernel (rows x the last dimension, see lower.py), so the
reductions take the last dimension only. Reductions and normalisations of f16/bf16 compute
in f32 and round once at the end, as eager PyTorch does on the CPU; element-wise ops compute
in the node's result type; an op the builder writes as several (sigmoid, gelu) computes in
f32 for f16/bf16 and rounds once, as eager does.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F

from ktir.build import Value, maximum, minimum, where

DTYPES = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16", torch.bool: "i1"}
COMPUTE_DTYPES = (torch.float32, torch.float16, torch.bfloat16)


class Unsupported(Exception):
    """This node stays in eager PyTorch; the message says why."""


def _arith(fn: Callable[[Any, Any], Value]):
    def lower(out: str, a: Any, b: Any, *, alpha: Any = 1, **kw: Any) -> Value:
        if kw:
            raise Unsupported(f"arguments {', '.join(kw)}")
        if alpha != 1:
            b = b * alpha
        return _to(fn(_to(a, out), _to(b, out)), out)
    return lower


def _to(v: Any, dtype: str) -> Any:
    return v.astype(dtype) if isinstance(v, Value) and v.dtype != dtype else v


def _unary(fn: Callable[[Value], Value]):
    def lower(out: str, x: Any, **kw: Any) -> Value:
        if kw.pop("inplace", False) is not False:
            raise Unsupported("inplace=True")
        if kw:
            raise Unsupported(f"arguments {', '.join(kw)}")
        return _to(fn(_acc(_to(x, out))), out)  # one rounding per op, as eager
    return lower


def _div(out: str, a: Any, b: Any, *, rounding_mode: Any = None) -> Value:
    if rounding_mode is not None:
        raise Unsupported(f"rounding_mode={rounding_mode!r}")
    return _to(a, out) / _to(b, out)


def _gelu(out: str, x: Any, approximate: str = "none") -> Value:
    return _to(_acc(_to(x, out)).gelu(approximate), out)


def _where(out: str, c: Any, a: Any, b: Any) -> Value:
    return where(c, _to(a, out), _to(b, out))


def _compare(kind: str):
    def lower(out: str, a: Any, b: Any) -> Value:
        if isinstance(a, Value) and isinstance(b, Value) and a.dtype != b.dtype:
            a, b = a.astype("f32"), b.astype("f32")
        if kind in ("eq", "ne"):
            x, y = (a, b) if isinstance(a, Value) else (b, a)
            return getattr(x, kind)(y)
        return {"lt": operator.lt, "le": operator.le, "gt": operator.gt,
                "ge": operator.ge}[kind](a, b)
    return lower


def last_dim(x: Value, dim: Any, rank: int) -> None:
    """Reductions reduce the last dimension of the node's input (rank `rank`)."""
    dims = list(dim) if isinstance(dim, list | tuple) else [dim]
    if dim is None or len(dims) != 1 or dims[0] not in (-1, rank - 1):
        raise Unsupported(f"dim={dim!r} (the backend reduces the last dimension)")


def _acc(x: Value) -> Value:
    return x.astype("f32") if x.dtype in ("f16", "bf16") else x


def _reduction(kind: str):
    def lower(out: str, x: Value, dim: Any = None, keepdim: bool = False, *, dtype: Any = None,
              rank: int = 2) -> Value:
        if dtype is not None:
            raise Unsupported(f"dtype={dtype}")
        last_dim(x, dim, rank)
        a = _acc(x) if kind in ("sum", "mean") else x
        r = getattr(a, kind)(axis=-1, keepdims=True)
        return _to(r, out)
    return lower


def _softmax(out: str, x: Value, dim: Any = None, *args: Any, rank: int = 2,
             dtype: Any = None, _stacklevel: int = 3) -> Value:
    if dtype is not None or (args and args[0] is not None):
        raise Unsupported("a dtype argument")
    last_dim(x, dim, rank)
    a = _acc(x)
    e = (a - a.max(axis=-1, keepdims=True)).exp()
    return _to(e / e.sum(axis=-1, keepdims=True), out)


def _normalized(x: Value, shape: Any) -> None:
    if tuple(shape) != (x.shape[-1],):
        raise Unsupported(f"normalized_shape={tuple(shape)} (the backend normalises the last "
                          "dimension)")


def _layer_norm(out: str, x: Value, normalized_shape: Any, weight: Any = None, bias: Any = None,
                eps: float = 1e-5, *, rank: int = 2) -> Value:
    _normalized(x, normalized_shape)
    a = _acc(x)
    d = a - a.mean(axis=-1, keepdims=True)
    y = d * ((d * d).mean(axis=-1, keepdims=True) + float(eps)).rsqrt()
    if weight is not None:
        y = y * _acc(weight)
    if bias is not None:
        y = y + _acc(bias)
    return _to(y, out)


def _rms_norm(out: str, x: Value, normalized_shape: Any, weight: Any = None, eps: Any = None, *,
              rank: int = 2) -> Value:
    _normalized(x, normalized_shape)
    if eps is None:
        eps = torch.finfo({"f32": torch.float32, "f16": torch.float16,
                           "bf16": torch.bfloat16}[x.dtype]).eps
    a = _acc(x)
    y = a * ((a * a).mean(axis=-1, keepdims=True) + float(eps)).rsqrt()
    if weight is not None:
        y = y * _acc(weight)
    return _to(y, out)


LOWER: dict[str, Callable[..., Value]] = {
    "add": _arith(lambda a, b: a + b),
    "sub": _arith(lambda a, b: a - b),
    "mul": _arith(lambda a, b: a * b),
    "div": _div,
    "maximum": _arith(maximum),
    "minimum": _arith(minimum),
    "neg": _unary(lambda x: -x),
    "abs": _unary(lambda x: x.abs()),
    "exp": _unary(lambda x: x.exp()),
    "log": _unary(lambda x: x.log()),
    "sqrt": _unary(lambda x: x.sqrt()),
    "rsqrt": _unary(lambda x: x.rsqrt()),
    "tanh": _unary(lambda x: x.tanh()),
    "sigmoid": _unary(lambda x: x.sigmoid()),
    "relu": _unary(lambda x: x.relu()),
    "gelu": _gelu,
    "where": _where,
    "gt": _compare("gt"), "lt": _compare("lt"), "ge": _compare("ge"), "le": _compare("le"),
    "eq": _compare("eq"), "ne": _compare("ne"),
    "sum": _reduction("sum"),
    "mean": _reduction("mean"),
    "amax": _reduction("max"),
    "amin": _reduction("min"),
    "softmax": _softmax,
    "layer_norm": _layer_norm,
    "rms_norm": _rms_norm,
}
REDUCTIONS = ("sum", "mean", "amax", "amin", "softmax", "layer_norm", "rms_norm")

# the callables of FX graphs (torch functions, operators; methods by name) -> LOWER's keys
FUNCTIONS: dict[Any, str] = {
    operator.add: "add", operator.sub: "sub", operator.mul: "mul", operator.truediv: "div",
    operator.neg: "neg", operator.gt: "gt", operator.lt: "lt", operator.ge: "ge",
    operator.le: "le", operator.eq: "eq", operator.ne: "ne", operator.abs: "abs",
    torch.add: "add", torch.sub: "sub", torch.subtract: "sub", torch.mul: "mul",
    torch.multiply: "mul", torch.div: "div", torch.divide: "div", torch.true_divide: "div",
    torch.neg: "neg", torch.negative: "neg", torch.abs: "abs", torch.exp: "exp",
    torch.log: "log", torch.sqrt: "sqrt", torch.rsqrt: "rsqrt", torch.tanh: "tanh",
    torch.sigmoid: "sigmoid", torch.relu: "relu", torch.where: "where",
    torch.maximum: "maximum", torch.minimum: "minimum", torch.gt: "gt", torch.lt: "lt",
    torch.ge: "ge", torch.le: "le", torch.eq: "eq", torch.ne: "ne",
    torch.sum: "sum", torch.mean: "mean", torch.amax: "amax", torch.amin: "amin",
    torch.softmax: "softmax", F.softmax: "softmax", F.relu: "relu", F.gelu: "gelu",
    F.sigmoid: "sigmoid", F.tanh: "tanh", F.layer_norm: "layer_norm",
    torch.layer_norm: "layer_norm", torch.special.expit: "sigmoid",
}
if hasattr(F, "rms_norm"):
    FUNCTIONS[F.rms_norm] = "rms_norm"
if hasattr(torch, "rms_norm"):
    FUNCTIONS[torch.rms_norm] = "rms_norm"
METHODS = {name: name for name in LOWER} | {
    "subtract": "sub", "multiply": "mul", "divide": "div", "true_divide": "div",
    "negative": "neg", "__add__": "add", "__mul__": "mul", "__sub__": "sub",
    "__truediv__": "div"}


def op_kind(node: torch.fx.Node) -> str:
    """The node's op in warnings: LOWER's key, else the callable's name."""
    if node.op == "call_function":
        if node.target in FUNCTIONS:
            return FUNCTIONS[node.target]
        return getattr(node.target, "__name__", str(node.target))
    if node.op == "call_method":
        return METHODS.get(str(node.target), str(node.target))
    return f"{node.op} {node.target}"


def known(node: torch.fx.Node) -> bool:
    return (node.op == "call_function" and node.target in FUNCTIONS) or (
        node.op == "call_method" and str(node.target) in METHODS)


def lower_node(node: torch.fx.Node, out_dtype: str, args: tuple, kwargs: dict,
               rank: int) -> Value:
    kind = op_kind(node)
    fn = LOWER[kind]
    if kind in REDUCTIONS:
        kwargs = {**kwargs, "rank": rank}
    try:
        return fn(out_dtype, *args, **kwargs)
    except TypeError as e:  # an argument the lowering does not take
        raise Unsupported(f"the arguments of {kind}: {e}") from None


