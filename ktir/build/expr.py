"""Tensor handles of the kernel builder: a small expression graph over tiles.

A handle stands for a tile-sized tensor inside the tile loop: what a `load` gives, a
function of other handles (`a * b + c`, `x.exp()`), a reduction along one axis
(`x.max(axis=1, keepdims=True)`), a scalar kernel argument or a Python number. Nothing is
emitted when a handle is made; `Kernel.build` turns the graph into `linalg.generic` ops.
Shapes broadcast as numpy's do (right-aligned, size-1 dimensions stretch); operands of one
op must share an element type (`astype` converts), numbers take the other operand's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

FLOAT_TYPES = ("f16", "bf16", "f32")
INT_TYPES = ("i1", "i8", "i16", "i32")
ELEMENT_TYPES = FLOAT_TYPES + INT_TYPES


class BuildError(ValueError):
    """A construct the kernel builder cannot express; the message names it."""


UNARY_FLOAT = ("neg", "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "tanh", "erf", "abs",
               "sin", "cos", "floor", "ceil")
UNARY_INT = ("abs",)
BINARY_FLOAT = ("add", "sub", "mul", "div", "max", "min", "pow")
BINARY_INT = ("add", "sub", "mul", "max", "min")
COMPARE = ("lt", "le", "gt", "ge", "eq", "ne")
REDUCE = ("sum", "max", "min")


def broadcast(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """numpy's broadcast of `shapes`; a BuildError when they do not broadcast."""
    n = max((len(s) for s in shapes), default=0)
    out = []
    for k in range(n):
        dims = {s[len(s) - n + k] for s in shapes if len(s) - n + k >= 0} - {1}
        if len(dims) > 1:
            raise BuildError(f"shapes {' and '.join(map(_shape, shapes))} do not broadcast")
        out.append(dims.pop() if dims else 1)
    return tuple(out)


def _shape(s: Sequence[int]) -> str:
    return "(" + ", ".join(map(str, s)) + ("," if len(s) == 1 else "") + ")"


@dataclass(eq=False)
class Value:
    """A tile-sized tensor (or a scalar, shape ()) of element type `dtype`."""

    shape: tuple[int, ...]
    dtype: str

    # element-wise arithmetic ------------------------------------------------------------
    def __add__(self, o: Any) -> Value:
        return _binary("add", self, o)

    def __radd__(self, o: Any) -> Value:
        return _binary("add", o, self)

    def __sub__(self, o: Any) -> Value:
        return _binary("sub", self, o)

    def __rsub__(self, o: Any) -> Value:
        return _binary("sub", o, self)

    def __mul__(self, o: Any) -> Value:
        return _binary("mul", self, o)

    def __rmul__(self, o: Any) -> Value:
        return _binary("mul", o, self)

    def __truediv__(self, o: Any) -> Value:
        return _binary("div", self, o)

    def __rtruediv__(self, o: Any) -> Value:
        return _binary("div", o, self)

    def __pow__(self, o: Any) -> Value:
        return _binary("pow", self, o)

    def __neg__(self) -> Value:
        return _unary("neg", self)

    def __abs__(self) -> Value:
        return _unary("abs", self)

    def __lt__(self, o: Any) -> Value:
        return _binary("lt", self, o)

    def __le__(self, o: Any) -> Value:
        return _binary("le", self, o)

    def __gt__(self, o: Any) -> Value:
        return _binary("gt", self, o)

    def __ge__(self, o: Any) -> Value:
        return _binary("ge", self, o)

    def eq(self, o: Any) -> Value:
        """Element-wise `==` (a method: `==` stays identity so handles can be dict keys)."""
        return _binary("eq", self, o)

    def ne(self, o: Any) -> Value:
        return _binary("ne", self, o)

    __hash__ = object.__hash__

    def __getitem__(self, index: Any) -> Value:
        raise BuildError("indexing a tile handle (slices, gathers): the builder reads whole "
                         "tiles; declare the tensor with the shape to read")

    def __matmul__(self, o: Any) -> Value:
        raise BuildError("matmul (@): the builder has element-wise ops and reductions only")

    def __bool__(self) -> bool:
        raise BuildError("a tensor handle has no truth value: kernels have no data-dependent "
                         "Python control flow (use `where`)")

    # functions --------------------------------------------------------------------------
    def exp(self) -> Value:
        return _unary("exp", self)

    def exp2(self) -> Value:
        return _unary("exp2", self)

    def log(self) -> Value:
        return _unary("log", self)

    def log2(self) -> Value:
        return _unary("log2", self)

    def sqrt(self) -> Value:
        return _unary("sqrt", self)

    def rsqrt(self) -> Value:
        return _unary("rsqrt", self)

    def tanh(self) -> Value:
        return _unary("tanh", self)

    def erf(self) -> Value:
        return _unary("erf", self)

    def sin(self) -> Value:
        return _unary("sin", self)

    def cos(self) -> Value:
        return _unary("cos", self)

    def floor(self) -> Value:
        return _unary("floor", self)

    def ceil(self) -> Value:
        return _unary("ceil", self)

    def abs(self) -> Value:
        return _unary("abs", self)

    def maximum(self, o: Any) -> Value:
        return _binary("max", self, o)

    def minimum(self, o: Any) -> Value:
        return _binary("min", self, o)

    def sigmoid(self) -> Value:
        return 1.0 / (1.0 + (-self).exp())

    def relu(self) -> Value:
        return self.maximum(0.0)

    def gelu(self, approximate: str = "none") -> Value:
        """GELU as PyTorch defines it: exact (erf) or the tanh approximation."""
        if approximate == "tanh":
            inner = math.sqrt(2.0 / math.pi) * (self + 0.044715 * self * self * self)
            return 0.5 * self * (1.0 + inner.tanh())
        if approximate != "none":
            raise BuildError(f"gelu approximation '{approximate}' (known: none, tanh)")
        return 0.5 * self * (1.0 + (self * (1.0 / math.sqrt(2.0))).erf())

    def astype(self, dtype: str) -> Value:
        _check_type(dtype)
        if dtype == self.dtype:
            return self
        return Op("cast", (self,), self.shape, dtype)

    # reductions -------------------------------------------------------------------------
    def sum(self, axis: int, keepdims: bool = False) -> Value:
        return _reduce("sum", self, axis, keepdims)

    def max(self, axis: int, keepdims: bool = False) -> Value:
        return _reduce("max", self, axis, keepdims)

    def min(self, axis: int, keepdims: bool = False) -> Value:
        return _reduce("min", self, axis, keepdims)

    def mean(self, axis: int, keepdims: bool = False) -> Value:
        ax = _axis(self, axis)
        return self.sum(ax, keepdims) / float(self.shape[ax])


@dataclass(eq=False)
class Load(Value):
    """The tile of a kernel tensor this tile (loop iteration) reads."""

    tensor: Any = None  # build.kernel.Tensor
    whole: bool = False


@dataclass(eq=False)
class Scalar(Value):
    """A scalar argument of the kernel (e.g. eps), used inside compute bodies."""

    name: str = ""


@dataclass(eq=False)
class Const(Value):
    """A number; `dtype` "" until an op gives it its operand's type."""

    value: float | int | bool = 0


@dataclass(eq=False)
class Op(Value):
    """An element-wise op: one of UNARY_*, BINARY_*, COMPARE, "select", "cast"."""

    kind: str = ""
    operands: tuple[Value, ...] = field(default_factory=tuple)

    def __init__(self, kind: str, operands: tuple[Value, ...], shape: tuple[int, ...],
                 dtype: str):
        super().__init__(shape, dtype)
        self.kind = kind
        self.operands = operands


@dataclass(eq=False)
class Reduce(Value):
    """A reduction of `operand` along `axis`; its shape keeps a 1 there when `keepdims`."""

    kind: str = ""
    operand: Value | None = None
    axis: int = 0
    keepdims: bool = False


def where(cond: Value, a: Any, b: Any) -> Value:
    """`a` where `cond` (i1) holds, else `b`."""
    if not isinstance(cond, Value) or cond.dtype != "i1":
        raise BuildError(f"where: the condition must be an i1 tensor handle, got "
                         f"{getattr(cond, 'dtype', type(cond).__name__)}")
    a, b = _pair(a, b, "select")
    return Op("select", (cond, a, b), broadcast(cond.shape, a.shape, b.shape), a.dtype)


def maximum(a: Any, b: Any) -> Value:
    return _binary("max", a, b)


def minimum(a: Any, b: Any) -> Value:
    return _binary("min", a, b)


def _check_type(dtype: str) -> None:
    if dtype not in ELEMENT_TYPES:
        raise BuildError(f"element type '{dtype}' (the builder knows "
                         f"{', '.join(ELEMENT_TYPES)})")


def _lift(v: Any) -> Value:
    if isinstance(v, Value):
        return v
    if isinstance(v, bool | int | float):
        return Const((), "", v)
    raise BuildError(f"a {type(v).__name__} is not a tensor handle or a number")


def _typed(c: Value, dtype: str) -> Value:
    if isinstance(c, Const) and not c.dtype:
        if dtype in INT_TYPES and not float(c.value).is_integer():
            raise BuildError(f"the number {c.value} in an operation on {dtype}")
        return Const((), dtype, c.value)
    return c


def _pair(a: Any, b: Any, kind: str) -> tuple[Value, Value]:
    a, b = _lift(a), _lift(b)
    if not a.dtype and not b.dtype:
        raise BuildError(f"{kind} of two numbers: compute it in Python")
    a, b = _typed(a, b.dtype or a.dtype), _typed(b, a.dtype or b.dtype)
    if a.dtype != b.dtype:
        raise BuildError(f"{kind} of {a.dtype} and {b.dtype}: convert one with astype()")
    return a, b


def _binary(kind: str, a: Any, b: Any) -> Value:
    a, b = _pair(a, b, kind)
    allowed = BINARY_FLOAT + COMPARE if a.dtype in FLOAT_TYPES else BINARY_INT + COMPARE
    if kind not in allowed:
        raise BuildError(f"operation '{kind}' on {a.dtype} (the builder has "
                         f"{', '.join(allowed)} for it)")
    dtype = "i1" if kind in COMPARE else a.dtype
    return Op(kind, (a, b), broadcast(a.shape, b.shape), dtype)


def _unary(kind: str, x: Value) -> Value:
    if kind == "neg" and x.dtype in INT_TYPES and x.dtype != "i1":
        return _binary("sub", 0, x)
    allowed = UNARY_FLOAT if x.dtype in FLOAT_TYPES else UNARY_INT
    if kind not in allowed:
        raise BuildError(f"operation '{kind}' on {x.dtype} (the builder has "
                         f"{', '.join(allowed)} for it)")
    return Op(kind, (x,), x.shape, x.dtype)


def _axis(x: Value, axis: int) -> int:
    if not x.shape:
        raise BuildError("a reduction of a scalar")
    ax = axis + len(x.shape) if axis < 0 else axis
    if not 0 <= ax < len(x.shape):
        raise BuildError(f"axis {axis} of a tile of shape {_shape(x.shape)}")
    return ax


def _reduce(kind: str, x: Value, axis: int, keepdims: bool) -> Value:
    ax = _axis(x, axis)
    if x.dtype == "i1":
        raise BuildError(f"a {kind} reduction of i1 values")
    shape = tuple(1 if k == ax else d for k, d in enumerate(x.shape)) if keepdims else \
        tuple(d for k, d in enumerate(x.shape) if k != ax)
    return Reduce(shape, x.dtype, kind, x, ax, keepdims)
