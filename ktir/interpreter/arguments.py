"""Kernel arguments: which are buffers, their shapes, where they live, and their inputs.

A kernel's `index` arguments are element addresses (D1) when they flow, as an added term, into
the offset of a `construct_memory_view` ("pointers"); every other argument is a scalar or a
`!ktdp.runtime_arg` bound with `NAME=VALUE`; a runtime_arg given no value takes the largest
its type admits (its upperbound, rounded down to a multiple of its granularity), and its spec
says so (`ArgumentSpec.defaulted`, `default_notes`). A pointer's buffer is the union of the element
ranges its views can touch over all tiles (`probe.py`); its element type is the views' and its
shape the view's shape when one contiguous view covers it (else a flat range), unless the user
gives `NAME=96x64xf16`. Buffers are placed one after another in device memory, each on a stick
(128-byte) boundary and after any range the kernel addresses with constant offsets. A pointer
whose views live in scratchpads (`ct_local`) names an address valid in each of them; its
array is indexed by the views' global coordinates (with a leading tile axis when the views
name the executing tile's own scratchpad) and is copied into the scratchpads before the run.

Views whose offset needs no pointer argument (RFC-style kernels that address device memory
with constants, or with scalar arguments) are *fixed buffers* (`plan_kernel`): overlapping
element ranges of such views become one buffer, named after its first view (`%C_view` ->
`C_view`), seeded like a pointer's and read back when the kernel writes it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerType
from xdsl.ir import BlockArgument, Operation, SSAValue

from ktir import affine, limits
from ktir.diagnostics import KtirDiagnostic, op_error
from ktir.dialects.ktdp import (
    ConstructIndirectAccessTileOp,
    ConstructMemoryViewOp,
    MemoryKind,
    MemorySpaceAttr,
    RuntimeArgType,
)
from ktir.dialects.ktdp_types import int_list, kernel_grid
from ktir.interpreter import dtypes
from ktir.interpreter.dtypes import ElemType, UnsupportedType, elem_type
from ktir.interpreter.memory import STICK_BYTES
from ktir.interpreter.ops_ktdp import RuntimeArg
from ktir.interpreter.probe import AddressProbe, NotEvaluable
from ktir.limits import over
from ktir.semantics import wrap_int

_TYPE_NAMES = ("f16", "f32", "f64", "bf16", "df16", "index", "i1", "i8", "i16", "i32", "i64")
_SHAPE = re.compile(r"^(?:(?:\d+x)*\d+(?:x(" + "|".join(_TYPE_NAMES) + r"))?|(" +
                    "|".join(_TYPE_NAMES) + r"))$")
DEFAULT_INT_RANGE = (0, 15)


@dataclass
class Placement:
    """One view of a scratchpad buffer: where its coordinates live."""

    ct: int | None  # scratchpad of this tile; None = of each executing tile
    delta: int  # view offset minus the argument
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    lo: tuple[int, ...]
    box: tuple[tuple[int, int], ...]


@dataclass
class ArgumentSpec:
    """One kernel argument as the interpreter (and anyone reproducing its run) sees it."""

    name: str
    index: int  # argument position; fixed buffers are numbered after the arguments
    kind: str  # "pointer" | "scalar" | "runtime_arg" | "fixed" (a constant-address buffer)
    type: str  # the argument's MLIR type
    shape: tuple[int, ...] | None = None  # pointer: shape of its array
    dtype: np.dtype | None = None  # pointer: dtype of its array; scalar: of its value
    element_type: str | None = None  # pointer: MLIR element type of its views
    address: int | None = None  # pointer: the kernel argument (element address)
    memory: str | None = None  # pointer: "global" or "scratchpad"
    value: int | float | None = None  # scalar / runtime_arg: the bound value
    int_range: tuple[int, int] | None = None  # integer buffers: range of the seeded values
    start: int | None = None  # pointer: element address of the array's first element
    placements: list[Placement] = field(default_factory=list)  # scratchpad views
    elem: ElemType | None = None
    defaulted: bool = False  # runtime_arg: given no value, it took the largest its type admits

    @property
    def count(self) -> int:
        return math.prod(self.shape) if self.shape is not None else 0

    def describe(self) -> str:
        if self.kind in ("pointer", "fixed"):
            shape = "x".join(map(str, self.shape or ()))
            return f"{shape}x{self.element_type} at {self.address} ({self.memory})"
        return f"{self.value}"


@dataclass
class _Override:
    shape: tuple[int, ...] | None = None
    elem: str | None = None
    value: str | None = None


def _arg_name(a: BlockArgument) -> str:
    return a.name_hint or f"arg{a.index}"


def kernel_grid_of(fn: func.FuncOp) -> tuple[int, ...]:
    """The `grid` of a kernel ([1] when absent); a diagnostic when malformed."""
    g = fn.attributes.get("grid")
    if g is None:
        return (1,)
    grid = kernel_grid(fn)
    if grid is None:
        raise op_error(fn, f"has a malformed grid {g}: expected a non-empty array of positive "
                       "integers")
    n = math.prod(grid)
    if over("elements", n, "") is not None:  # the interpreter keeps arrays over all tiles
        raise op_error(fn, f"has a grid of {n:,} tiles, more than the element limit of "
                       f"{limits.CURRENT.elements:,} (raise it with --max-elements)")
    return grid


def _parse_overrides(fn: func.FuncOp, overrides: dict[str, str | tuple[int, ...]]
                     ) -> dict[str, _Override]:
    names = [_arg_name(a) for a in fn.args]
    out: dict[str, _Override] = {}
    for name, given in overrides.items():
        if name not in names:
            raise op_error(fn, f"has no argument named '{name}' (its arguments are "
                           f"{', '.join(names) or 'none'})")
        if isinstance(given, tuple):
            out[name] = _Override(shape=given)
            continue
        text = str(given).strip()
        m = _SHAPE.match(text)
        if m and ("x" in text or m.group(2)):
            # a shape for a buffer, or (for a scalar) a value such as 0x180: decided later
            if m.group(2):
                out[name] = _Override(shape=(), elem=m.group(2), value=text)
            else:
                elem = m.group(1)
                dims = text[: len(text) - len(elem) - 1] if elem else text
                shape = tuple(int(p) for p in dims.split("x"))
                nbytes = math.prod(shape) * (elem_type_named(elem).itemsize if elem else 1)
                if (msg := over("buffer_bytes", nbytes, f"argument '{name}' = {text}")
                        ) is not None:
                    raise op_error(fn, msg)
                out[name] = _Override(shape=shape, elem=elem, value=None if elem else text)
        else:
            out[name] = _Override(value=text)
    return out


def _elem_name(et: ElemType) -> str:
    return "df16" if et.name == "!spyreop.df16" else et.name


def _parse_scalar(fn: func.FuncOp, name: str, text: str, t: Any) -> int | float:
    et = elem_type(t)
    try:
        if et.is_float:
            v = float(text)
            with np.errstate(all="ignore"):
                held = float(et.round(np.float32(v)) if et.round is not None else
                             et.compute.type(v))
            if math.isinf(held) and "inf" not in text.lower():
                raise op_error(fn, f"argument '{name}' of type {t} cannot hold the value "
                               f"{text}: beyond its range")
            return v
        if et.width == 1 and text in ("true", "false"):
            return int(text == "true")
        v = int(text, 0)
    except ValueError:
        raise op_error(fn, f"argument '{name}' of type {t} cannot take the value '{text}'"
                       ) from None
    lo, hi = (-(1 << 63), (1 << 64) - 1) if et.is_index else (
        (0, 1) if et.width == 1 else (-(1 << (et.width - 1)), (1 << et.width) - 1))
    if not lo <= v <= hi:
        raise op_error(fn, f"argument '{name}' of type {t} cannot hold the value {v}")
    return wrap_int(v, et.width)


def _added_terms(v: SSAValue, seen: set[SSAValue]) -> set[SSAValue]:
    """Function arguments that reach `v` as added (not scaled) terms."""
    if v in seen:
        return set()
    seen.add(v)
    if isinstance(v, BlockArgument):
        return {v}
    op = v.owner
    if isinstance(op, arith.AddiOp):
        return _added_terms(op.lhs, seen) | _added_terms(op.rhs, seen)
    if isinstance(op, arith.SubiOp):
        return _added_terms(op.lhs, seen)
    if isinstance(op, arith.IndexCastOp | arith.ExtSIOp | arith.ExtUIOp):
        return _added_terms(op.operands[0], seen)
    return set()


def _view_space(view: ConstructMemoryViewOp) -> tuple[bool, int | None]:
    """(is global, ct_id or None for the executing tile)."""
    space = view.memory_space
    if not isinstance(space, MemorySpaceAttr):
        raise op_error(view, f"memory space {space} has no meaning in the interpreter")
    if space.kind.data == MemoryKind.GLOBAL:
        return True, None
    return False, space.ct_id.data if space.ct_id.data >= 0 else None


@dataclass
class _ViewInfo:
    op: ConstructMemoryViewOp
    is_global: bool
    ct: int | None
    elem: ElemType
    rel: tuple[int, int]  # touched element range relative to the pointer
    delta: tuple[int, int]  # offset range relative to the pointer
    sizes: tuple[int, ...] | None  # when the same for every tile
    strides: tuple[int, ...] | None
    lo: tuple[int, ...]
    box: tuple[tuple[int, int], ...] | None


def _uniform(probe: AddressProbe, values: list[SSAValue], static: list[int],
             moved: SSAValue | None) -> tuple[list[np.ndarray], tuple[int, ...] | None]:
    """Per-dimension value arrays of sizes/strides, and the tuple when they do not vary."""
    it = iter(values)
    arrays: list[np.ndarray] = []
    fixed: list[int] = []
    uniform = True
    for s in static:
        if s != DYNAMIC_INDEX:
            arrays.append(np.asarray(s))
            fixed.append(s)
            continue
        sample = probe.eval(next(it), moved)
        span = probe.span(sample)
        arrays.append(sample.value)
        if span is None or span[0] != span[1]:
            uniform = False
        else:
            fixed.append(span[0])
    return arrays, tuple(fixed) if uniform else None


def _analyse_view(probe: AddressProbe, view: ConstructMemoryViewOp,
                  pointer: SSAValue | None) -> _ViewInfo | None:
    is_global, ct = _view_space(view)
    try:
        et = elem_type(view.result.type)
    except UnsupportedType as e:
        raise op_error(view, str(e)) from None
    off0 = probe.eval(view.offset)
    if pointer is not None:
        moved = probe.eval(view.offset, pointer)
        diff = moved.value - off0.value
        mask = np.broadcast_to(off0.valid & moved.valid, np.broadcast_shapes(
            diff.shape, off0.valid.shape))
        if np.any(np.broadcast_to(diff, mask.shape)[mask] != 1 << 40):
            raise NotEvaluable(f"is not '%{_arg_name(cast(BlockArgument, pointer))} + offset'")
    sizes_a, sizes = _uniform(probe, list(view.sizes), int_list(view.static_sizes), None)
    strides_a, strides = _uniform(probe, list(view.strides), int_list(view.static_strides), None)
    cset = view.coordinate_set.data
    dyn_syms = [int(np.max(probe.eval(v).value)) for v in list(view.sizes)[: cset.num_symbols]]
    try:
        bounds = affine.dim_bounds(cset, dyn_syms or None)
    except affine.NonLinearError:
        bounds = [(None, None)] * cset.num_dims
    lo = tuple(b[0] if b[0] is not None else 0 for b in bounds)
    span = np.zeros([1], dtype=np.int64)
    for k, (b, sz, st) in enumerate(zip(bounds, sizes_a, strides_a)):
        hi = np.asarray(sz) - 1
        if b[1] is not None:
            hi = np.minimum(hi, b[1] - lo[k])
        span = span + np.maximum(hi, 0) * np.asarray(st)
    end = probe.span(type(off0)(off0.value + span, off0.valid))
    start = probe.span(off0)
    if start is None or end is None:
        return None
    box = None
    if all(b[0] is not None and b[1] is not None for b in bounds):
        box = tuple((cast(int, b[0]), cast(int, b[1])) for b in bounds)
    return _ViewInfo(view, is_global, ct, et, (start[0], end[1]), start, sizes, strides, lo,
                     box)


def _contiguous(sizes: tuple[int, ...], strides: tuple[int, ...]) -> bool:
    expect = 1
    for s, st in zip(reversed(sizes), reversed(strides)):
        if s > 1 and st != expect:
            return False
        expect *= s
    return True


def _global_shape(infos: list[_ViewInfo], lo: int, length: int) -> tuple[int, ...]:
    best = None
    for v in infos:
        if v.sizes is not None and v.strides is not None and _contiguous(v.sizes, v.strides):
            if best is None or np.prod(v.sizes) > np.prod(best):
                best = v.sizes
    if best is None or lo != 0 or not best:
        return (length,)
    inner = int(np.prod(best[1:]))
    if length == int(np.prod(best)):
        return best
    if inner and length % inner == 0:
        return (length // inner, *best[1:])
    return (length,)


def _added_args(fn: func.FuncOp) -> set[SSAValue]:
    """The index arguments added into some view offset."""
    added: set[SSAValue] = set()
    for op in fn.walk():
        if isinstance(op, ConstructMemoryViewOp):
            added |= {a for a in _added_terms(op.offset, set()) if isinstance(a, BlockArgument)
                      and a.owner is fn.body.block and isinstance(a.type, IndexType)}
    return added


def buffer_arguments(fn: func.FuncOp) -> set[str]:
    """The names of the arguments that take a buffer unless given a value (the pointers)."""
    return {_arg_name(cast(BlockArgument, a)) for a in _added_args(fn)}


def _classify(fn: func.FuncOp, ov: dict[str, _Override]) -> set[SSAValue]:
    """The pointer arguments: index args added into some view offset (not given a value)."""
    added = _added_args(fn)
    pointers: set[SSAValue] = set()
    for a in fn.args:
        o = ov.get(_arg_name(a))
        if o is not None and o.shape is not None:
            if a in added:
                pointers.add(a)
                o.value = None
            elif o.value is None or not isinstance(a.type, IndexType | IntegerType):
                raise op_error(fn, f"argument '{_arg_name(a)}' is not an address any memory "
                               f"view is built on: give {_arg_name(a)}=VALUE")
            else:
                o.shape = None  # `0x180` for a scalar is a hexadecimal value
        elif a in added and o is None:
            pointers.add(a)
    return pointers


def _int_ranges(fn: func.FuncOp, probe: AddressProbe) -> dict[SSAValue, tuple[int, int]]:
    """For buffers read as indirect subscripts: the coordinate range of what they index,
    keyed by the pointer argument the index view is built on, or by the index view itself
    when its address is a constant (a fixed buffer)."""
    out: dict[SSAValue, tuple[int, int]] = {}
    for op in fn.walk():
        if not isinstance(op, ConstructIndirectAccessTileOp):
            continue
        base = op.base.owner
        views = iter(op.indirect_memrefs)
        for d, kind in enumerate(op.per_dim_subscript_kinds.data):
            if not cast(Any, kind).value.data:
                continue
            iv = next(views).owner
            if not isinstance(iv, ConstructMemoryViewOp) or not isinstance(
                    base, ConstructMemoryViewOp):
                continue
            try:
                bounds = affine.dim_bounds(base.coordinate_set.data)[d]
            except affine.NonLinearError:
                continue
            size = int_list(base.static_sizes)[d]
            lo = bounds[0] if bounds[0] is not None else 0
            hi = bounds[1] if bounds[1] is not None else lo + size - 1
            if lo > hi:
                raise op_error(base, f"the coordinate set of this view holds no coordinate in "
                               f"dimension {d} (from {lo} to {hi}), so the indirect subscript "
                               f"of dimension {d} has nothing to index")
            for p in probe.pointer_deps(iv.offset) or {iv.result}:
                old = out.get(p, (lo, hi))
                out[p] = (max(old[0], lo), min(old[1], hi))
    return out


def plan_arguments(func_op: func.FuncOp,
                   overrides: dict[str, str] | dict[str, str | tuple[int, ...]] | None = None
                   ) -> list[ArgumentSpec]:
    """Classify, size and place every argument of a kernel (see the module docstring).
    `plan_kernel` also gives the fixed buffers."""
    return plan_kernel(func_op, overrides)[0]


def plan_kernel(func_op: func.FuncOp,
                overrides: dict[str, str] | dict[str, str | tuple[int, ...]] | None = None
                ) -> tuple[list[ArgumentSpec], list[ArgumentSpec]]:
    """The argument specs (one per argument, by position) and the fixed buffers (kind
    "fixed": device-memory ranges the kernel addresses without a pointer argument).

    `overrides` maps argument names to `96x64xf16` (a buffer's shape and element type; the
    type may be omitted when the shape has two or more dims), to a shape tuple, or to a value
    for a scalar or runtime_arg (`4096`, `1e-5`). Raises `KtirDiagnostic`.
    """
    fn = func_op
    grid = kernel_grid_of(fn)
    ov = _parse_overrides(fn, dict(overrides or {}))
    pointers = _classify(fn, ov)
    specs: list[ArgumentSpec] = []
    scalars: dict[SSAValue, Any] = {}
    for a in fn.args:
        name = _arg_name(a)
        o = ov.get(name)
        spec = ArgumentSpec(name, a.index, "scalar", str(a.type))
        specs.append(spec)
        if a in pointers:
            spec.kind = "pointer"
            continue
        t = a.type
        if isinstance(t, RuntimeArgType):
            spec.kind = "runtime_arg"
            t = t.value_type
        if dtypes.is_shaped(t):
            raise op_error(fn, f"argument '{name}' has type {t}: kernel arguments are element "
                           "addresses (index), scalars or runtime_args")
        if o is not None and o.value is None:
            raise op_error(fn, f"argument '{name}' is a {spec.kind}, not a buffer: give "
                           f"{name}=VALUE")
        try:
            et = elem_type(t)
        except UnsupportedType as e:
            raise op_error(fn, f"argument '{name}': {e}") from None
        spec.dtype = et.compute
        largest = _largest(cast(RuntimeArgType, a.type), et.is_float) \
            if spec.kind == "runtime_arg" else None
        if o is None and largest is not None:
            spec.value, spec.defaulted = largest, True
        elif o is None:
            if not a.uses:
                spec.value = 0
                continue
            raise op_error(fn, f"argument '{name}' ({a.type}) is not bound: give "
                           f"--arg {name}=VALUE")
        else:
            spec.value = _parse_scalar(fn, name, cast(str, o.value), t)
        if spec.kind == "runtime_arg":
            rt = cast(RuntimeArgType, a.type)
            g, ub = rt.granularity_value, rt.upperbound_value
            if not et.is_float and g is not None and int(spec.value) % g:
                raise op_error(fn, f"runtime_arg '{name}' = {spec.value} is not a multiple of "
                               f"its granularity {g}")
            if ub is not None and spec.value > ub:
                raise op_error(fn, f"runtime_arg '{name}' = {spec.value} exceeds its "
                               f"upperbound {ub}")
            scalars[a] = RuntimeArg(spec.value, g, ub)
        else:
            scalars[a] = spec.value
    probe = AddressProbe(fn, grid, scalars, pointers)
    fixed = _size_pointers(fn, probe, specs, ov, pointers, int(np.prod(grid)))
    return specs, fixed


def _largest(t: RuntimeArgType, is_float: bool) -> int | float | None:
    """The largest value a runtime_arg of type `t` admits: its upperbound, rounded down to a
    multiple of its granularity (None without an upperbound)."""
    ub, g = t.upperbound_value, t.granularity_value
    if ub is None:
        return None
    if is_float:
        return float(ub)
    return ub - ub % g if g else ub


def default_notes(specs: Collection[ArgumentSpec]) -> list[str]:
    """One line per runtime_arg given no value: the value it took and how to choose another
    (the CLIs print these on stderr)."""
    out = []
    for s in specs:
        if s.defaulted:
            out.append(f"note: runtime_arg '{s.name}' ({s.type}) has no value: using {s.value}, "
                       f"the largest its type admits; choose another with --arg {s.name}=VALUE")
    return out


def _size_pointers(fn: func.FuncOp, probe: AddressProbe, specs: list[ArgumentSpec],
                   ov: dict[str, _Override], pointers: set[SSAValue], ntiles: int
                   ) -> list[ArgumentSpec]:
    per_ptr: dict[SSAValue, list[_ViewInfo]] = {p: [] for p in pointers}
    fixed_views: list[_ViewInfo] = []
    scratchpad_views: list[_ViewInfo] = []
    failures: dict[SSAValue, tuple[Operation, str]] = {}
    reserved = {True: 0, False: 0}  # end (bytes) of constant-address ranges per memory kind
    for view in fn.walk():
        if not isinstance(view, ConstructMemoryViewOp):
            continue
        deps = probe.pointer_deps(view.offset) & pointers
        if len(deps) > 1:
            names = ", ".join(sorted("%" + _arg_name(cast(BlockArgument, d)) for d in deps))
            raise op_error(view, f"has an offset that combines the pointer arguments {names}")
        ptr = next(iter(deps)) if deps else None
        try:
            info = _analyse_view(probe, view, ptr)
        except NotEvaluable as e:
            if ptr is not None:
                failures.setdefault(ptr, (view, str(e)))
            continue
        except OverflowError:
            raise op_error(view, "spans more elements than a 64-bit address reaches (its "
                           "sizes or strides are too large)") from None
        if info is None:
            continue
        if ptr is None:
            end = (info.rel[1] + 1) * info.elem.itemsize
            reserved[info.is_global] = max(reserved[info.is_global], end)
            (fixed_views if info.is_global else scratchpad_views).append(info)
        else:
            per_ptr[ptr].append(info)
    ranges = _int_ranges(fn, probe)
    cursor = {True: _align(reserved[True]), False: _align(reserved[False])}
    for a in fn.args:
        if a not in pointers:
            continue
        spec = specs[a.index]
        o = ov.get(spec.name)
        infos = per_ptr[a]
        if a in failures and (o is None or o.shape is None):
            view, why = failures[a]
            raise op_error(view, f"cannot infer the buffer of argument '{spec.name}': its "
                           f"address {why}; give --arg {spec.name}=SHAPExTYPE (e.g. 96x64xf16)")
        if not infos and (o is None or o.shape is None):
            raise op_error(fn, f"cannot infer the buffer of argument '{spec.name}': no memory "
                           f"view reaches it; give --arg {spec.name}=SHAPExTYPE")
        elems = {i.elem.name for i in infos}
        if len(elems) > 1:
            raise op_error(infos[0].op, f"argument '{spec.name}' is viewed with several "
                           f"element types ({', '.join(sorted(elems))})")
        if o is not None and o.elem is not None:
            et = elem_type_named(o.elem)
            if infos and et.name != infos[0].elem.name:
                raise op_error(infos[0].op, f"argument '{spec.name}' is given as {o.elem} but "
                               f"its views hold {infos[0].elem.name}")
        elif infos:
            et = infos[0].elem
        else:
            raise op_error(fn, f"argument '{spec.name}' needs an element type: give "
                           f"--arg {spec.name}=SHAPExTYPE")
        spaces = {i.is_global for i in infos} or {True}
        if len(spaces) > 1:
            raise op_error(infos[0].op, f"argument '{spec.name}' is viewed both in device "
                           "memory and in scratchpads, which the interpreter does not support")
        spec.elem, spec.element_type = et, _elem_name(et)
        spec.dtype = et.compute
        if et.is_float is False and a in ranges:
            spec.int_range = ranges[a]
        elif not et.is_float:
            spec.int_range = (0, 1) if et.width == 1 else DEFAULT_INT_RANGE
        is_global = spaces.pop()
        spec.memory = "global" if is_global else "scratchpad"
        if is_global:
            _place_global(spec, infos, o, cursor)
        else:
            _place_scratchpad(spec, infos, o, cursor, ntiles)
    fixed = _fixed_buffers(fixed_views, specs, ranges)
    return fixed + _fixed_scratchpad_buffers(scratchpad_views, specs + fixed, ntiles)


def _fixed_scratchpad_buffers(infos: list[_ViewInfo], specs: list[ArgumentSpec], ntiles: int
                              ) -> list[ArgumentSpec]:
    """One buffer per constant-address scratchpad view (data an earlier operator left on
    chip): named after the view, shaped like its coordinate box (with a leading tile axis for
    a view of the executing tile's own scratchpad), placed at the view's address in the
    scratchpad of tile `ct_id` (or of every tile). A view that overlaps an earlier one in the
    same scratchpad shares its bytes and gets no buffer of its own; a view whose set is not a
    bounded box is not seeded (it reads what the kernel wrote there)."""
    taken = {s.name for s in specs}
    out: list[ArgumentSpec] = []
    seen: list[tuple[int | None, int, int]] = []
    for info in infos:
        if info.box is None or info.sizes is None or info.strides is None \
                or info.delta[0] != info.delta[1] or any(b[1] < b[0] for b in info.box):
            continue
        lo, hi = info.rel
        if any(ct == info.ct and lo <= h and l_ <= hi for ct, l_, h in seen):
            continue
        seen.append((info.ct, lo, hi))
        ext = tuple(b[1] - b[0] + 1 for b in info.box)
        first = info.op.result
        name = first.name_hint or f"scratchpad@{lo}"
        while name in taken:
            name = f"{name}@{lo}"
        taken.add(name)
        et = info.elem
        _check_span(info, name, et)
        shape = (ntiles, *ext) if info.ct is None else ext
        spec = ArgumentSpec(name, len(specs) + len(out), "fixed", str(first.type), shape=shape,
                            dtype=et.compute, element_type=_elem_name(et), address=info.delta[0],
                            memory="scratchpad", start=info.delta[0], elem=et)
        # the buffer's coordinates are the view's, from 0 (its set's lower bounds)
        spec.placements.append(Placement(info.ct, 0, info.sizes, info.strides,
                                         tuple(0 for _ in ext),
                                         tuple((0, e - 1) for e in ext)))
        if not et.is_float:
            spec.int_range = (0, 1) if et.width == 1 else DEFAULT_INT_RANGE
        out.append(spec)
    return out


def scratchpad_points(spec: ArgumentSpec) -> list[tuple[int | None, np.ndarray, tuple]]:
    """Per placement of a scratchpad buffer: its tile (None: each executing tile), the
    element addresses of the points it holds, and their index into the buffer's array
    (without the leading tile axis)."""
    out = []
    for p in spec.placements:
        idx = np.indices(tuple(hi - lo + 1 for lo, hi in p.box)).reshape(len(p.box), -1)
        coords = idx + np.asarray([lo for lo, _ in p.box], dtype=np.int64)[:, None]
        local = coords - np.asarray(p.lo, dtype=np.int64)[:, None]
        keep = ((local >= 0) & (local < np.asarray(p.sizes)[:, None])).all(axis=0)
        addrs = cast(int, spec.start) + p.delta + (np.asarray(p.strides) @ local[:, keep])
        out.append((p.ct, addrs, tuple(coords[:, keep])))
    return out


def scratchpad_image(spec: ArgumentSpec, data: np.ndarray, tile: int | None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """(element addresses, values) a scratchpad buffer puts into the scratchpad of `tile`
    (None: of tile `ct_id` of a named placement), in the buffer's storage type."""
    et = cast(ElemType, spec.elem)
    stored = et.encode(data) if et.encode is not None else data.astype(et.storage)
    addrs, vals = [], []
    for ct, a, where in scratchpad_points(spec):
        src = stored[tile] if ct is None else stored
        addrs.append(a)
        vals.append(src[where])
    return np.concatenate(addrs), np.concatenate(vals)


def _bytes(info: _ViewInfo) -> tuple[int, int]:
    """The byte range [first, last] a view touches (its addresses count its own elements)."""
    isz = info.elem.itemsize
    return info.rel[0] * isz, (info.rel[1] + 1) * isz - 1


def _fixed_buffers(infos: list[_ViewInfo], specs: list[ArgumentSpec],
                   ranges: dict[SSAValue, tuple[int, int]] | None = None
                   ) -> list[ArgumentSpec]:
    """Overlapping byte ranges of constant-address device-memory views, one buffer each
    (in address order), shaped like the one contiguous view that spans it exactly; views of
    different element types may not share a byte. An index buffer's seeded values stay in
    the range of what its index views index (`ranges`, by view)."""
    groups: list[list[_ViewInfo]] = []
    for info in sorted(infos, key=lambda i: _bytes(i)[0]):
        last = groups[-1] if groups else None
        if last is not None and _bytes(info)[0] <= max(_bytes(i)[1] for i in last):
            last.append(info)
        else:
            groups.append([info])
    taken = {s.name for s in specs}
    out: list[ArgumentSpec] = []
    for group in groups:
        elems = {i.elem.name for i in group}
        if len(elems) > 1:
            raise op_error(group[1].op, f"views the device-memory bytes "
                           f"[{_bytes(group[0])[0]}, {max(_bytes(i)[1] for i in group)}] with "
                           f"several element types ({', '.join(sorted(elems))}): addresses "
                           "count each view's own elements (ktir.md D1)")
        lo, hi = group[0].rel[0], max(i.rel[1] for i in group)
        length = hi - lo + 1
        shape: tuple[int, ...] = (length,)
        for i in group:
            if i.rel == (lo, hi) and i.sizes is not None and i.strides is not None and \
                    _contiguous(i.sizes, i.strides) and int(np.prod(i.sizes)) == length:
                shape = i.sizes
                break
        first = group[0].op.result
        name = first.name_hint or f"global@{lo}"
        while name in taken:
            name = f"{name}@{lo}"
        taken.add(name)
        et = group[0].elem
        if (msg := over("buffer_bytes", length * et.itemsize, f"the device-memory buffer "
                        f"'{name}' these views address ({length:,} x {_elem_name(et)})")
                ) is not None:
            raise op_error(group[0].op, msg)
        spec = ArgumentSpec(name, len(specs) + len(out), "fixed", str(first.type), shape=shape,
                            dtype=et.compute, element_type=_elem_name(et), address=lo,
                            memory="global", start=lo, elem=et)
        if not et.is_float:
            spec.int_range = (0, 1) if et.width == 1 else DEFAULT_INT_RANGE
            bounds = [r for i in group if (r := (ranges or {}).get(i.op.result)) is not None]
            if bounds:
                spec.int_range = (max(b[0] for b in bounds), min(b[1] for b in bounds))
        out.append(spec)
    return out


def elem_type_named(name: str) -> ElemType:
    from xdsl.dialects.builtin import (
        BFloat16Type,
        Float16Type,
        Float32Type,
        Float64Type,
    )

    from ktir.dialects.spyreop import DF16Type

    table: dict[str, Any] = {"f16": Float16Type(), "f32": Float32Type(), "f64": Float64Type(),
                             "bf16": BFloat16Type(), "df16": DF16Type(), "index": IndexType()}
    t = table.get(name) or IntegerType(int(name[1:]))
    return elem_type(t)


def _align(nbytes: int) -> int:
    return -(-nbytes // STICK_BYTES) * STICK_BYTES


def _place_global(spec: ArgumentSpec, infos: list[_ViewInfo], o: _Override | None,
                  cursor: dict[bool, int]) -> None:
    et = cast(ElemType, spec.elem)
    lo = min((i.rel[0] for i in infos), default=0)
    hi = max((i.rel[1] for i in infos), default=-1)
    length = hi - lo + 1 if infos else 0
    if o is not None and o.shape is not None:
        count = math.prod(o.shape)
        if infos and count < length:
            raise op_error(infos[0].op, f"argument '{spec.name}' is given {count} elements but "
                           f"the kernel addresses {length} from it")
        spec.shape = o.shape
        length = max(length, count)
    else:
        spec.shape = _global_shape(infos, lo, length)
    if infos:
        at = infos[0].op
        if length <= 0 or any(d < 0 for d in spec.shape):
            raise op_error(at, f"the buffer of argument '{spec.name}' would have shape "
                           f"{'x'.join(map(str, spec.shape))}: its views' sizes are negative "
                           "or overflow")
        n = max(length, spec.count)
        if (msg := over("buffer_bytes", n * et.itemsize, f"the buffer of argument "
                        f"'{spec.name}' ({n:,} x {spec.element_type})")) is not None:
            raise op_error(at, msg)
    start_bytes = _align(cursor[True])
    spec.start = start_bytes // et.itemsize
    spec.address = spec.start - min(lo, 0)
    cursor[True] = _align(start_bytes + max(length, 1) * et.itemsize)


def _check_span(info: _ViewInfo, name: str, et: ElemType) -> None:
    """A scratchpad view whose byte addresses do not fit in 64 bits (a stride of 2^63 - 1)
    is an error at the view, before any address is computed in int64 (where it would wrap)."""
    if info.strides is None or info.box is None:
        return
    far = abs(info.delta[0]) + sum(abs(s) * max(abs(lo), abs(hi))
                                   for s, (lo, hi) in zip(info.strides, info.box))
    if (far + 1) * et.itemsize >= 1 << 63:
        raise op_error(info.op, f"the scratchpad view of argument '{name}' reaches element "
                       f"{far} (strides {list(info.strides)}): its byte addresses do not fit "
                       "in 64 bits")


def _place_scratchpad(spec: ArgumentSpec, infos: list[_ViewInfo], o: _Override | None,
                      cursor: dict[bool, int], ntiles: int) -> None:
    et = cast(ElemType, spec.elem)
    own = {i.ct is None for i in infos}
    if len(own) > 1:
        raise op_error(infos[0].op, f"argument '{spec.name}' is viewed both in the executing "
                       "tile's scratchpad and in named ones, which the interpreter does not "
                       "support")
    extent = 0
    for i in infos:
        if i.sizes is None or i.strides is None or i.box is None or i.delta[0] != i.delta[1]:
            raise op_error(i.op, f"the scratchpad buffer of argument '{spec.name}' needs a view "
                           "with the same static layout on every tile")
        if any(b[0] < 0 for b in i.box):
            raise op_error(i.op, f"argument '{spec.name}' is viewed at negative coordinates")
        if any(b[1] < b[0] for b in i.box):
            raise op_error(i.op, f"the view of argument '{spec.name}' has an empty coordinate "
                           "set: no element of its scratchpad buffer is reachable")
        _check_span(i, spec.name, et)
        spec.placements.append(Placement(i.ct, i.delta[0], i.sizes, i.strides, i.lo, i.box))
        extent = max(extent, i.rel[1] + 1)
    rank = len(infos[0].box or ())
    shape = tuple(max(cast(tuple, i.box)[k][1] + 1 for i in infos) for k in range(rank))
    if own.pop():
        shape = (ntiles, *shape)
    if o is not None and o.shape is not None and tuple(o.shape) != shape:
        raise op_error(infos[0].op, f"argument '{spec.name}' is given shape "
                       f"{'x'.join(map(str, o.shape))} but its views span "
                       f"{'x'.join(map(str, shape))}")
    n = math.prod(shape)
    if (msg := over("buffer_bytes", n * et.itemsize, f"the scratchpad buffer of argument "
                    f"'{spec.name}' ({'x'.join(map(str, shape))}x{spec.element_type})")
            ) is not None:
        widest = max(infos, key=lambda i: math.prod(b[1] - b[0] + 1 for b in cast(tuple, i.box)))
        raise op_error(widest.op, msg)
    spec.shape = shape
    start_bytes = _align(cursor[False])
    spec.start = spec.address = start_bytes // et.itemsize
    cursor[False] = _align(start_bytes + max(extent, 1) * et.itemsize)


def make_inputs(specs: list[ArgumentSpec], seed: int = 0,
                skip: Collection[str] = ()) -> dict[str, np.ndarray]:
    """Seeded inputs for every pointer argument and fixed buffer not named in `skip` (arrays
    the caller gives), reproducible per (seed, argument position; fixed buffers are numbered
    after the arguments).

    Floats are drawn uniform in [-1, 1) in float32 and rounded to the element type (so an
    fp16 value may round to 1.0), a range where fp16 softmax and layer norm are well
    conditioned. Each argument has its own generator, `numpy.random.default_rng([seed,
    position of the argument])`. Integers are uniform in `spec.int_range`: the coordinate
    range of the dimension they index when the buffer feeds an indirect subscript, else
    [0, 15]; i1 buffers hold 0/1.
    """
    out: dict[str, np.ndarray] = {}
    for s in specs:
        if (s.kind not in ("pointer", "fixed") or s.shape is None or s.elem is None
                or s.name in skip):
            continue
        rng = np.random.default_rng([seed, s.index])
        et = s.elem
        if et.is_float:
            v = (rng.random(size=s.shape, dtype=np.float32) * np.float32(2.0) - np.float32(1.0)
                 ).astype(et.compute)
            out[s.name] = et.round(v) if et.round is not None else v
        elif et.width == 1:
            out[s.name] = rng.integers(0, 2, size=s.shape).astype(np.bool_)
        else:
            lo, hi = s.int_range or DEFAULT_INT_RANGE
            out[s.name] = rng.integers(lo, hi + 1, size=s.shape).astype(et.compute)
    return out


def check_input(spec: ArgumentSpec, value: Any) -> np.ndarray:
    """A user-given array for a pointer argument, in the spec's dtype and shape: the same
    shape (any with as many elements for a flat buffer), numbers that the element type holds
    exactly enough (no booleans for numbers, no complex values, no integers out of range,
    no finite floats that become infinite)."""
    arr = np.asarray(value)
    assert spec.shape is not None
    assert spec.dtype is not None
    et = spec.elem
    want = "x".join(map(str, spec.shape))
    if arr.shape != tuple(spec.shape) and (len(spec.shape) != 1 or arr.size != spec.count):
        raise KtirDiagnostic(f"error: input '{spec.name}' has shape "
                             f"{'x'.join(map(str, arr.shape)) or 'scalar'} but the kernel's "
                             f"buffer is {want}")
    if et is not None and et.is_float and arr.dtype == et.storage and (
            et.decode is not None or et.storage == et.compute):
        # the buffer's own storage format (fp16 for f16): every value fits as it is
        out = arr.reshape(spec.shape)
        return et.decode(out) if et.decode is not None else out
    bad = _unsafe(arr, et) if et is not None else None
    if bad is not None:
        raise KtirDiagnostic(f"error: input '{spec.name}' ({arr.dtype}) cannot fill a buffer "
                             f"of {spec.element_type}: {bad}")
    with np.errstate(all="ignore"):
        out = arr.reshape(spec.shape).astype(spec.dtype, copy=False)  # no copy when it fits
    if et is not None and et.round is not None:
        out = et.round(out)
    return out


def _unsafe(arr: np.ndarray, et: ElemType) -> str | None:
    """Why `arr` cannot be converted to element type `et` without changing its values."""
    kind = arr.dtype.kind
    if kind not in "biuf":
        return f"its values are {arr.dtype}, not real numbers"
    if kind == "b" and (et.is_float or et.width != 1):
        return "booleans are not numbers; convert them first"
    if et.is_float:
        with np.errstate(all="ignore"):
            conv = arr.astype(et.compute)
            if et.round is not None:
                conv = et.round(conv)
            lost = np.isfinite(arr) & ~np.isfinite(conv)
        if lost.any():
            i = tuple(int(x) for x in np.argwhere(lost)[0])
            return (f"the value {arr[i]} at {list(i)} is beyond the range of {et.name} "
                    "(it would become infinite)")
        return None
    if kind == "f":
        with np.errstate(all="ignore"):
            frac = ~np.isfinite(arr) | (arr != np.round(arr))
        if frac.any():
            i = tuple(int(x) for x in np.argwhere(frac)[0])
            return f"the value {arr[i]} at {list(i)} is not an integer"
    if arr.size == 0:
        return None
    lo, hi = (0, 1) if et.width == 1 else (-(1 << (et.width - 1)), (1 << et.width) - 1)
    vmin, vmax = int(arr.min()), int(arr.max())
    if vmin < lo or vmax > hi:
        return f"its values [{vmin}, {vmax}] do not fit in {et.width} bits"
    return None
