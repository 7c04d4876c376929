"""The one table of element-wise compute the scheduler supports, shared by
`ktir-legality-check` (what it accepts) and the DataflowIR lowering (what it emits), so that
"accepted" always means "lowerable" (an upstream v1 limit, pipeline.md §4).

`SCALAR_OPS` maps each scalar op (in a `linalg.generic` body, in the body of a named linalg op,
or applied to whole tensors) to how it becomes `vectorchain` ops: one op where vectorchain has
it (`binary`, `neg`, `floor`, `cast`, `element_wise_compare`, `element_wise_selection`, the
estimates), a short sequence of exact identities where it does not have the op but has its
parts (ceil = -floor(-x), unsigned compares through the flipped sign bit, maxnum through NaN
tests and selections, uitofp through a 64-bit zero extension), and otherwise the project's
extension `vectorchain.lane_function`, which names the op's definition in ktir.semantics
(division, remainder, sqrt, exp2, log2, erf, sin, cos, pow, integer division and shifts, the
spyreop intrinsics gelu/silu/softplus/layer norm). The recipes are written against `Vectors`,
the vectorchain primitives that the lowering (ktdflowering_to_dfir/compute.py) implements;
latency classes follow from the ops emitted (arch.md §8).

`unsupported(op)` says why an op of the compute dialects (arith/math/spyreop on tensors,
linalg, tensor) is outside what the element-wise fusion and the lowering handle, or None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    ShapedType,
    TensorType,
    f32,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from ktir.semantics import FLOAT_FUNCTION_OF_OP, INT_FUNCTION_OF_OP
from scheduler.dialects.ktdf_types import const_int

_NOT_YET = "not supported by the scheduler yet"


class Vectors(Protocol):
    """The vectorchain primitives a recipe builds on; every vector has the group's lanes."""

    def binary(self, operator: str, a: SSAValue, b: SSAValue) -> SSAValue: ...
    def unary(self, kind: str, x: SSAValue) -> SSAValue: ...  # vectorchain op name suffix
    def function(self, name: str, args: Sequence[SSAValue],
                 params: Sequence[float] = ()) -> SSAValue: ...
    def compare(self, operator: str, a: SSAValue, b: SSAValue) -> SSAValue: ...
    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue: ...
    def cast(self, x: SSAValue, element: Attribute) -> SSAValue: ...
    def constant(self, value: float, element: Attribute) -> SSAValue: ...
    def element(self, x: SSAValue) -> Attribute: ...


Recipe = Callable[[Vectors, Operation, list[SSAValue]], list[SSAValue]]


@dataclass(frozen=True)
class ScalarOp:
    """How one scalar op is lowered, and which of its forms are not (`reason`)."""

    lower: Recipe
    reason: Callable[[Operation], str | None] | None = None


# ---- element types ---------------------------------------------------------------------------

ELEMENT_TYPES = ("f16", "bf16", "f32", "i1", "i8", "i16", "i32")


def element_of(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, ShapedType) else t


def element_reason(op: Operation) -> str | None:
    """Element types the compute unit's vectors carry: floats f16/bf16/f32, integers
    i1 (masks) to i32; `index` only as a scalar (index arithmetic feeding a splat)."""
    for v in (*op.operands, *op.results):
        e = element_of(v.type)
        if isinstance(e, IndexType) and not isinstance(v.type, ShapedType):
            continue
        if str(e) not in ELEMENT_TYPES:
            return (f"element type {e} in compute: {_NOT_YET} (supported: "
                    f"{', '.join(ELEMENT_TYPES)})")
    return None


def _width(e: Attribute) -> int:
    return 64 if isinstance(e, IndexType) else e.width.data  # type: ignore[attr-defined]


# ---- recipes: helpers --------------------------------------------------------------------------


def _binary(operator: str) -> Recipe:
    return lambda v, op, x: [v.binary(operator, x[0], x[1])]


def _unary(kind: str) -> Recipe:
    return lambda v, op, x: [v.unary(kind, x[0])]


def _function(name: str) -> Recipe:
    return lambda v, op, x: [v.function(name, x)]


def _cast(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    return [v.cast(x[0], element_of(op.results[0].type))]


def _not(v: Vectors, m: SSAValue) -> SSAValue:
    return v.binary("xnor", m, v.constant(0, v.element(m)))


def _xor(v: Vectors, a: SSAValue, b: SSAValue) -> SSAValue:
    return _not(v, v.binary("xnor", a, b))


def _flip_sign(v: Vectors, x: SSAValue) -> SSAValue:
    """x with its sign bit flipped: unsigned order becomes signed order."""
    e = v.element(x)
    return v.binary("xnor", x, v.constant((1 << (_width(e) - 1)) - 1, e))


def _unsigned_minmax(operator: str) -> Recipe:
    def lower(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
        return [_flip_sign(v, v.binary(operator, _flip_sign(v, x[0]), _flip_sign(v, x[1])))]
    return lower


def _zero_extend(v: Vectors, x: SSAValue, to: Attribute) -> SSAValue:
    bits = _width(v.element(x))
    return v.binary("and0", v.cast(x, to), v.constant((1 << bits) - 1, to))


def _uitofp(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    return [v.cast(_zero_extend(v, x[0], i64), element_of(op.results[0].type))]


def _extui(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    dst = element_of(op.results[0].type)
    if _width(dst) <= _width(v.element(x[0])):
        return [v.cast(x[0], dst)]
    return [_zero_extend(v, x[0], dst)]


def _fptoui(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    dst = element_of(op.results[0].type)
    wide = v.cast(x[0], i64)  # truncates toward zero, saturates, NaN -> 0
    wide = v.binary("max", wide, v.constant(0, i64))
    wide = v.binary("min", wide, v.constant((1 << _width(dst)) - 1, i64))
    return [v.cast(wide, dst)]


def _ceil(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    return [v.unary("neg", v.unary("floor", v.unary("neg", x[0])))]


def _absolute(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    return [v.binary("abs_max", x[0], x[0])]


def _num_minmax(operator: str) -> Recipe:
    """maxnumf/minnumf: a NaN operand yields the other operand."""
    def lower(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
        a, b = x
        a_nan, b_nan = v.compare("compare_neq", a, a), v.compare("compare_neq", b, b)
        return [v.select(b_nan, a, v.select(a_nan, b, v.binary(operator, a, b)))]
    return lower


# ---- comparisons -------------------------------------------------------------------------------

_ORDERED = {1: "compare_eq", 2: "compare_gt", 3: "compare_ge", 4: "compare_lt",
            5: "compare_le", 13: "compare_neq"}
_NEGATED = {9: "compare_le", 10: "compare_lt", 11: "compare_ge", 12: "compare_gt"}  # ugt..ule


def _cmpf(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    a, b = x
    pred = op.predicate.value.data  # type: ignore[attr-defined]
    if pred in _ORDERED:
        return [v.compare(_ORDERED[pred], a, b)]
    if pred in _NEGATED:
        return [_not(v, v.compare(_NEGATED[pred], a, b))]
    if pred in (0, 15):
        return [v.constant(1 if pred == 15 else 0, i1)]
    one = v.binary("or0", v.compare("compare_lt", a, b), v.compare("compare_gt", a, b))
    if pred == 6:
        return [one]
    if pred == 8:
        return [_not(v, one)]
    if pred == 7:
        return [v.binary("and0", v.compare("compare_eq", a, a), v.compare("compare_eq", b, b))]
    return [v.binary("or0", v.compare("compare_neq", a, a), v.compare("compare_neq", b, b))]


_CMPI = {0: "compare_eq", 1: "compare_neq", 2: "compare_lt", 3: "compare_le", 4: "compare_gt",
         5: "compare_ge"}


def _cmpi(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    a, b = x
    pred = op.predicate.value.data  # type: ignore[attr-defined]
    if pred >= 6:  # ult ule ugt uge: signed compares of the sign-flipped operands
        a, b, pred = _flip_sign(v, a), _flip_sign(v, b), pred - 4
    return [v.compare(_CMPI[pred], a, b)]


def _select(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    return [v.select(*x)]


# ---- spyreop -----------------------------------------------------------------------------------

_SPYRE_COMPARE = {"equal": "compare_eq", "notequal": "compare_neq",
                  "greaterthan": "compare_gt", "greaterequal": "compare_ge",
                  "lesserthan": "compare_lt", "lesserequal": "compare_le"}


def _spyre_compare(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    e = v.element(x[0])
    hit = v.compare(_SPYRE_COMPARE[op.predicate.data], *x)  # type: ignore[attr-defined]
    return [v.select(hit, v.constant(1.0, e), v.constant(0.0, e))]


def _spyre_select(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    k, t, f = x
    return [v.select(v.compare("compare_neq", k, v.constant(0.0, v.element(k))), t, f)]


def _idx32toaddr(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    e = v.element(x[0])
    if len(x) == 3:
        base, stride = x[1], x[2]
    else:
        base = v.constant(op.base_value.value.data, e)  # type: ignore[attr-defined]
        stride = v.constant(op.stride_value.value.data, e)  # type: ignore[attr-defined]
    return [v.binary("add", base, v.binary("mul", stride, x[0]))]


def _softplus(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    params = (op.beta.value.data, op.threshold.value.data)  # type: ignore[attr-defined]
    return [v.function("softplus", x, params)]


def _exx2(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    return [x[0], v.binary("mul", x[0], x[0])]


def _no_vector_form(what: str) -> Callable[[Operation], str]:
    return lambda op: f"{what}: {_NOT_YET}"


def _never(v: Vectors, op: Operation, x: list[SSAValue]) -> list[SSAValue]:
    raise AssertionError(f"{op.name} is rejected by its reason")


# ---- the table ---------------------------------------------------------------------------------

_ESTIMATES = {"math.exp": "fast_exp", "math.log": "ln_estimate", "math.rsqrt": "rsqrt_estimate",
              "math.tanh": "tanh_estimate", "math.floor": "floor", "spyreop.exp": "fast_exp",
              "spyreop.reciprocal": "rec_estimate", "spyreop.rsqrt": "rsqrt_estimate",
              "spyreop.sigmoid": "sigmoid_estimate"}

SCALAR_OPS: dict[str, ScalarOp] = {
    # float arithmetic
    "arith.addf": ScalarOp(_binary("add")), "arith.subf": ScalarOp(_binary("sub")),
    "arith.mulf": ScalarOp(_binary("mul")), "arith.maximumf": ScalarOp(_binary("max")),
    "arith.minimumf": ScalarOp(_binary("min")), "arith.maxnumf": ScalarOp(_num_minmax("max")),
    "arith.minnumf": ScalarOp(_num_minmax("min")), "arith.negf": ScalarOp(_unary("neg")),
    "arith.cmpf": ScalarOp(_cmpf), "arith.select": ScalarOp(_select),
    # integer arithmetic (wrapping) and logic
    "arith.addi": ScalarOp(_binary("add")), "arith.subi": ScalarOp(_binary("sub")),
    "arith.muli": ScalarOp(_binary("mul")), "arith.maxsi": ScalarOp(_binary("max")),
    "arith.minsi": ScalarOp(_binary("min")), "arith.maxui": ScalarOp(_unsigned_minmax("max")),
    "arith.minui": ScalarOp(_unsigned_minmax("min")), "arith.andi": ScalarOp(_binary("and0")),
    "arith.ori": ScalarOp(_binary("or0")),
    "arith.xori": ScalarOp(lambda v, op, x: [_xor(v, *x)]), "arith.cmpi": ScalarOp(_cmpi),
    # conversions
    **{f"arith.{n}": ScalarOp(_cast) for n in ("extf", "truncf", "sitofp", "fptosi", "extsi",
                                                "trunci", "index_cast")},
    "arith.uitofp": ScalarOp(_uitofp), "arith.fptoui": ScalarOp(_fptoui),
    "arith.extui": ScalarOp(_extui), "arith.index_castui": ScalarOp(_extui),
    # math
    "math.ceil": ScalarOp(_ceil), "math.absf": ScalarOp(_absolute),
    "math.absi": ScalarOp(_absolute),
    # spyreop intrinsics (ktir.md §7)
    "spyreop.addi32toi32": ScalarOp(_binary("add")), "spyreop.addi64toi64": ScalarOp(
        _binary("add")), "spyreop.muli32toi32": ScalarOp(_binary("mul")),
    "spyreop.idx32toaddr": ScalarOp(_idx32toaddr), "spyreop.softplus": ScalarOp(_softplus),
    "spyreop.exx2": ScalarOp(_exx2), "spyreop.compare": ScalarOp(_spyre_compare),
    "spyreop.select": ScalarOp(_spyre_select),
    "spyreop.exx2_fused": ScalarOp(_never, _no_vector_form(
        "fused (mean, mean of squares) values have no vector form")),
    "spyreop.layernormscale_fused": ScalarOp(_never, _no_vector_form(
        "fused (mean, mean of squares) values have no vector form")),
    "spyreop.slice_reduction": ScalarOp(_never, _no_vector_form(
        "reductions across the lanes of a stick (spyreop.slice_reduction)")),
}
# the rest of the ops with a definition in ktir.semantics: a lane_function (or an estimate)
for _op, _fn in {**FLOAT_FUNCTION_OF_OP, **INT_FUNCTION_OF_OP}.items():
    if _op not in SCALAR_OPS:
        SCALAR_OPS[_op] = ScalarOp(_unary(_ESTIMATES[_op]) if _op in _ESTIMATES
                                   else _function(_fn))


def scalar_reason(op: Operation) -> str | None:
    """Why the scalar op `op` is not lowered (None: it is)."""
    entry = SCALAR_OPS.get(op.name)
    if entry is None:
        return f"'{op.name}' has no DataflowIR lowering yet (supported element-wise ops: " \
               f"{supported_list()})"
    return (entry.reason(op) if entry.reason is not None else None) or element_reason(op)


def lower_scalar(v: Vectors, op: Operation, args: list[SSAValue]) -> list[SSAValue]:
    return SCALAR_OPS[op.name].lower(v, op, args)


# ---- structural ops of the element-wise fusion ------------------------------------------------

# named linalg ops whose body is element-wise (the fusion reads the body)
NAMED_ELEMENTWISE = frozenset({"linalg.add", "linalg.sub", "linalg.mul", "linalg.div",
                               "linalg.max", "linalg.min", "linalg.exp", "linalg.log",
                               "linalg.sqrt", "linalg.select", "linalg.copy"})
# ops that move or reshape element-wise values, handled by the fusion itself
STRUCTURAL = frozenset({"linalg.generic", "linalg.reduce", "linalg.yield", "linalg.fill",
                        "linalg.broadcast",
                        "linalg.transpose", "tensor.empty", "tensor.splat", "tensor.extract",
                        "tensor.collapse_shape", "tensor.expand_shape", "tensor.extract_slice",
                        "tensor.from_elements", "arith.constant"})


def unit_groups_reason(op: Operation, groups: list[list[int]], shape: Sequence[int]) -> str | None:
    """A reshape keeps every element in its lane order only when each group of
    dimensions has at most one dimension larger than 1."""
    for g in groups:
        if sum(1 for d in g if shape[d] != 1) > 1:
            return (f"a reshape that merges or splits dimensions larger than 1 "
                    f"({'x'.join(str(shape[d]) for d in g)}): {_NOT_YET}")
    return None


def reassociation(op: Operation) -> list[list[int]]:
    return [[int(x.value.data) for x in g] for g in op.reassociation]  # type: ignore


def _static(values: Sequence[int]) -> bool:
    return all(v > -(1 << 62) for v in values)


def structural_reason(op: Operation) -> str | None:
    """Why a structural op (tensor/linalg) is outside the fusion, or None."""
    name = op.name
    if name == "tensor.extract":
        if any(const_int(i) is None for i in op.operands[1:]):
            return f"tensor.extract at indices that are not constants: {_NOT_YET}"
    elif name in ("tensor.collapse_shape", "tensor.expand_shape"):
        src, res = op.operands[0].type, op.results[0].type
        assert isinstance(src, TensorType)
        assert isinstance(res, TensorType)
        wide = res if name == "tensor.expand_shape" else src
        if not wide.has_static_shape():
            return f"reshapes of dynamic shape: {_NOT_YET}"
        return unit_groups_reason(op, reassociation(op), wide.get_shape())
    elif name == "tensor.extract_slice":
        if op.offsets or op.sizes or op.strides:  # type: ignore[attr-defined]
            return f"tensor.extract_slice with dynamic offsets, sizes or strides: {_NOT_YET}"
    elif name == "tensor.splat":
        if len(op.operands) > 1:
            return f"tensor.splat of dynamic shape: {_NOT_YET}"
    elif name == "tensor.from_elements":
        if len(op.operands) != 1:
            return (f"tensor.from_elements of {len(op.operands)} elements (one element, a "
                    f"splat, is fused): {_NOT_YET}")
    elif name == "arith.constant":
        v = op.properties.get("value")
        if isinstance(v, DenseIntOrFPElementsAttr) and not v.is_splat():
            return f"non-splat tensor constants: {_NOT_YET}"
    elif name == "linalg.generic":
        for m in op.indexing_maps.data:  # type: ignore[attr-defined]
            if not m.data.is_projected_permutation(allow_zero_in_results=True):
                return ("linalg.generic indexing maps must be projected permutations "
                        "(broadcasts allowed)")
        if any(it.data.value != "parallel" for it in op.iterator_types.data):  # type: ignore
            return reduction_reason(op)
    elif name == "linalg.reduce":
        return reduction_reason(op)
    return None


# ---- reductions ---------------------------------------------------------------------------------

# combining op -> the vectorchain binary operator that folds partials (and its identity)
_COMBINING = {"arith.addf": "add", "arith.mulf": "mul", "arith.maximumf": "max",
              "arith.minimumf": "min", "arith.maxnumf": "max", "arith.minnumf": "min",
              "arith.addi": "add", "arith.muli": "mul", "arith.maxsi": "max",
              "arith.minsi": "min"}
# select(cmp(a, b), a, b): the larger (gt, ge) or the smaller (lt, le) of the two
_SELECT_CMPF = {2: "max", 3: "max", 10: "max", 11: "max", 4: "min", 5: "min", 12: "min",
                13: "min"}
_SELECT_CMPI = {4: "max", 5: "max", 2: "min", 3: "min"}


@dataclass(frozen=True)
class Combiner:
    """How a reduction body folds one contribution into its accumulator: `kind` (add, mul,
    max, min), the ops that do it (cloned to fold partials, lane by lane or across lanes),
    the contribution value and the accumulator argument."""

    kind: str
    ops: tuple[Operation, ...]
    contribution: SSAValue
    accumulator: SSAValue

    def identity(self, element: Attribute) -> float:
        """The value that leaves any partial unchanged (the lane partials start from it)."""
        if self.kind == "add":
            return 0
        if self.kind == "mul":
            return 1
        if isinstance(element, AnyFloat):
            return float("-inf") if self.kind == "max" else float("inf")
        w = element.width.data  # type: ignore[attr-defined]
        return -(1 << (w - 1)) if self.kind == "max" else (1 << (w - 1)) - 1

    def accumulator_type(self, element: Attribute) -> Attribute:
        """Sums and products of narrow floats accumulate in f32 (as the reference
        interpreter does) and are rounded once at the end; max/min are exact."""
        if (self.kind in ("add", "mul") and isinstance(element, AnyFloat)
                and element.bitwidth < 32):
            return f32
        return element


def _depends_on(v: SSAValue, arg: SSAValue, ops: set[Operation]) -> bool:
    if v is arg:
        return True
    owner = v.owner
    return isinstance(owner, Operation) and owner in ops and any(
        _depends_on(o, arg, ops) for o in owner.operands)


def combiner_of(body_ops: Sequence[Operation], acc: SSAValue,
                yielded: SSAValue) -> Combiner | str:
    """The combiner of `yielded = combine(acc, contribution)`, or why there is none."""
    ops = set(body_ops)
    owner = yielded.owner
    if isinstance(owner, Operation) and owner.name in _COMBINING:
        a, b = owner.operands
        for x, y in ((a, b), (b, a)):
            if x is acc and not _depends_on(y, acc, ops):
                return Combiner(_COMBINING[owner.name], (owner,), y, acc)
    if isinstance(owner, Operation) and owner.name == "arith.select":
        cond, a, b = owner.operands
        cmp = cond.owner
        if isinstance(cmp, Operation) and cmp.name in ("arith.cmpf", "arith.cmpi") and \
                tuple(cmp.operands) == (a, b) and acc in (a, b):
            table = _SELECT_CMPF if cmp.name == "arith.cmpf" else _SELECT_CMPI
            kind = table.get(cmp.predicate.value.data)  # type: ignore[attr-defined]
            contrib = b if a is acc else a
            if kind is not None and not _depends_on(contrib, acc, ops):
                return Combiner(kind, (cmp, owner), contrib, acc)
    return ("the reduction body must fold its accumulator with one of "
            f"{', '.join(sorted({n.split('.')[1] for n in _COMBINING}))} or a "
            "compare-and-select (max/min) of the accumulator and a value computed without it")


def reduction_combiners(op: Operation) -> list[Combiner] | str:
    """The combiner of each output of a `linalg.reduce` or reducing `linalg.generic`."""
    block = op.regions[0].block
    yielded = list(block.last_op.operands)  # type: ignore[union-attr]
    n_in = 1 if op.name == "linalg.reduce" else len(op.inputs)  # type: ignore[attr-defined]
    accs = list(block.args[n_in:])
    out: list[Combiner] = []
    for acc, y in zip(accs, yielded):
        c = combiner_of(list(block.ops), acc, y)
        if isinstance(c, str):
            return c
        out.append(c)
    return out


def reduction_reason(op: Operation) -> str | None:
    """Why a `linalg.reduce` / reducing `linalg.generic` is not lowered, or None: one
    input and one output of a reduce, outputs whose maps keep the parallel dimensions in
    order, a body folding each accumulator with a known combiner."""
    what = op.name
    if what == "linalg.reduce" and len(op.results) != 1:
        return f"{what} on memrefs (without a result): {_NOT_YET}"
    if what == "linalg.generic":
        iters = [it.data.value for it in op.iterator_types.data]  # type: ignore[attr-defined]
        n_in = len(op.inputs)  # type: ignore[attr-defined]
        for m in op.indexing_maps.data[n_in:]:  # type: ignore[attr-defined]
            dims = [getattr(e, "position", None) for e in m.data.results]
            kept = [d for d, it in enumerate(iters) if it == "parallel"]
            if dims != kept:
                return ("a reducing linalg.generic whose output map is not the parallel "
                        f"dimensions in order ({m.data}): {_NOT_YET}")
    combiners = reduction_combiners(op)  # (the body's ops are checked where they are)
    if isinstance(combiners, str):
        return f"{combiners}: {_NOT_YET}"
    return None


_TENSOR_REASONS = {
    "tensor.insert_slice": " (each stored element is computed from loaded elements; a slice "
                           "written over another value needs per-lane masks)",
    "tensor.insert": " (a single element written over another value needs per-lane masks)",
    "tensor.generate": " (values computed from their indices)",
    "tensor.pad": " (padding needs per-lane masks)",
    "tensor.concat": " (each stored element is computed from loaded elements of one place)",
}


def unsupported(op: Operation) -> str | None:
    """Why an op of the compute dialects is outside what the scheduler lowers, or None."""
    if op.name in STRUCTURAL:
        return structural_reason(op)
    if op.name in NAMED_ELEMENTWISE:
        for inner in op.regions[0].block.ops:
            if inner.name != "linalg.yield" and (why := scalar_reason(inner)) is not None:
                return why
        return None
    if op.dialect_name() == "linalg":
        return (f"no DataflowIR lowering yet (supported element-wise ops: "
                f"{supported_list()})")
    if op.dialect_name() == "tensor":
        why = _TENSOR_REASONS.get(op.name, "")
        return f"'{op.name}' in compute{why}: {_NOT_YET}"
    return scalar_reason(op)


def is_float_element(t: Attribute) -> bool:
    return isinstance(element_of(t), AnyFloat)


def is_integer_element(t: Attribute) -> bool:
    return isinstance(element_of(t), IntegerType)


def supported_list() -> str:
    """The lowered ops by dialect: "arith addf, addi, ...; math ...; linalg ...; spyreop ..."."""
    names = {n for n, e in SCALAR_OPS.items() if e.reason is None} | NAMED_ELEMENTWISE | {
        "linalg.fill", "linalg.broadcast", "linalg.transpose", "linalg.generic"}
    by: dict[str, list[str]] = {}
    for n in sorted(names):
        d, _, short = n.partition(".")
        by.setdefault(d, []).append(short)
    return "; ".join(f"{d} {', '.join(ops)}" for d, ops in by.items())


__all__ = [
    "ELEMENT_TYPES",
    "NAMED_ELEMENTWISE",
    "SCALAR_OPS",
    "STRUCTURAL",
    "Combiner",
    "ScalarOp",
    "Vectors",
    "combiner_of",
    "element_of",
    "lower_scalar",
    "reassociation",
    "reduction_combiners",
    "reduction_reason",
    "scalar_reason",
    "supported_list",
    "unsupported",
]


def latency_class(op: Operation) -> str:
    """The latency class (shared/spec/arch.md §8) a generic body op lowers to, for the
    passes that estimate or order compute: a multiply is `mul`, a divide `divide`, a `math`
    function `transcendental` (its lane estimate), anything else `simple`."""
    from xdsl.dialects import arith

    if isinstance(op, arith.MulfOp | arith.MuliOp):
        return "mul"
    if isinstance(op, arith.DivfOp | arith.DivSIOp | arith.DivUIOp):
        return "divide"
    return "transcendental" if op.dialect_name() == "math" else "simple"


def has_reduction(pipeline: Operation) -> bool:
    """Whether a `ktdf.pipeline` reduces: a loop with `reduction_loop` or loop-carried values
    in a stage, or a generic with a reduction iterator."""
    from xdsl.dialects import scf
    from xdsl.dialects.linalg import ops as linalg

    from scheduler.dialects.ktdf import LoopType, LoopTypeAttr

    for op in pipeline.walk():
        if isinstance(op, scf.ForOp) and (op.iter_args or (
                isinstance(lt := op.attributes.get("loop_type"), LoopTypeAttr)
                and lt.data == LoopType.REDUCTION_LOOP)):
            return True
        if isinstance(op, linalg.GenericOp) and any(
                str(it.data) != "parallel" for it in op.iterator_types):  # type: ignore
            return True
    return False
