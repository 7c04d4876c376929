"""Address discovery: the element ranges each memory view of a kernel can touch, over all tiles.

A view's offset is usually a kernel argument plus arithmetic on the tile id, loop induction
variables and scalar arguments (`%in_ptr + pid * 128`). `AddressProbe` evaluates such index
expressions at once for every tile and every loop iteration as numpy arrays: axis 0 ranges
over the tiles, one more axis per `scf.for` whose induction variable is involved (bounded by
the loop's own evaluated bounds, with a validity mask). Pointer arguments are symbolic: an
offset is evaluated with them at 0 and again with one of them moved, which both gives the
offset relative to the argument and checks that it is `argument + something`.

Anything else (values loaded from memory, loop-carried values) is not evaluable; the caller
then needs the buffer's shape from the user.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import arith, func, scf
from xdsl.ir import BlockArgument, Operation, SSAValue

from ktir.dialects import mlir_compat
from ktir.dialects.ktdp import GetComputeTileIdOp, RuntimeArgExtractOp

_MAX_SAMPLES = 1 << 22
_MOVE = 1 << 40


class NotEvaluable(Exception):
    """An index value the probe cannot enumerate (the message says why)."""


@dataclass
class Sample:
    """Values of one SSA value over (tiles, loop axes...), and where they exist."""

    value: np.ndarray
    valid: np.ndarray


_BINARY = {
    arith.AddiOp: np.add, arith.SubiOp: np.subtract, arith.MuliOp: np.multiply,
    arith.MaxSIOp: np.maximum, arith.MinSIOp: np.minimum, arith.MaxUIOp: np.maximum,
    arith.MinUIOp: np.minimum, arith.AndIOp: np.bitwise_and, arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor, arith.ShLIOp: np.left_shift, arith.ShRSIOp: np.right_shift,
    arith.ShRUIOp: np.right_shift,
}
_DIVIDING = {
    arith.FloorDivSIOp: np.floor_divide, arith.DivUIOp: np.floor_divide,
    arith.RemUIOp: np.remainder, arith.CeilDivSIOp: lambda a, b: -np.floor_divide(-a, b),
    arith.CeilDivUIOp: lambda a, b: -np.floor_divide(-a, b),
    arith.DivSIOp: lambda a, b: np.trunc(a / b).astype(np.int64), arith.RemSIOp: np.fmod,
}
_CASTS = (arith.IndexCastOp, arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp,
          mlir_compat.IndexCastUIOp)
_ADDRESS_OPS = (*_BINARY, *_DIVIDING, *_CASTS, arith.CmpiOp, arith.SelectOp)
_CMP = {0: np.equal, 1: np.not_equal, 2: np.less, 3: np.less_equal, 4: np.greater,
        5: np.greater_equal, 6: np.less, 7: np.less_equal, 8: np.greater, 9: np.greater_equal}


class AddressProbe:
    """Evaluates integer SSA values of one kernel over all tiles and loop iterations."""

    def __init__(self, fn: func.FuncOp, grid: tuple[int, ...], scalars: dict[SSAValue, Any],
                 pointers: set[SSAValue]):
        self.fn = fn
        self.scalars = scalars
        self.pointers = pointers
        loops = [o for o in fn.walk() if isinstance(o, scf.ForOp)]
        self.ndim = 1 + len(loops)
        self.axis = {lp: i + 1 for i, lp in enumerate(loops)}
        n = int(np.prod(grid))
        self.tile = self._along(np.arange(n, dtype=np.int64), 0)
        self.coords = []
        stride = 1
        for d in grid:
            self.coords.append(self._along((np.arange(n, dtype=np.int64) // stride) % d, 0))
            stride *= d
        self.true = np.ones([1] * self.ndim, dtype=bool)
        self._memo: dict[tuple[SSAValue, tuple[int, ...]], Sample] = {}

    def _along(self, a: np.ndarray, axis: int) -> np.ndarray:
        shape = [1] * self.ndim
        shape[axis] = a.size
        return a.reshape(shape)

    def pointer_deps(self, v: SSAValue, seen: set[SSAValue] | None = None) -> set[SSAValue]:
        """The pointer arguments whose value flows into `v`."""
        seen = seen if seen is not None else set()
        if v in seen:
            return set()
        seen.add(v)
        if v in self.pointers:
            return {v}
        owner = v.owner
        out: set[SSAValue] = set()
        if isinstance(owner, Operation):
            if not isinstance(owner, _ADDRESS_OPS):  # data, not address arithmetic
                return out
            for o in owner.operands:
                out |= self.pointer_deps(o, seen)
        elif isinstance(v, BlockArgument):
            parent = owner.parent_op()
            if isinstance(parent, scf.ForOp) and v.index == 0:
                for o in (parent.lb, parent.ub, parent.step):
                    out |= self.pointer_deps(o, seen)
            elif isinstance(parent, scf.ForOp):
                out |= self.pointer_deps(parent.iter_args[v.index - 1], seen)
        return out

    def eval(self, v: SSAValue, moved: SSAValue | None = None) -> Sample:
        """Values of `v` with every pointer at 0, except `moved` at a large distinct value."""
        key = (v, (id(moved),) if moved is not None else ())
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._eval(v, moved)
            if got.value.size > _MAX_SAMPLES:
                raise NotEvaluable("depends on too many loop iterations to enumerate")
        return got

    def _const(self, x: int) -> Sample:
        return Sample(np.full([1] * self.ndim, x, dtype=np.int64), self.true)

    def _eval(self, v: SSAValue, moved: SSAValue | None) -> Sample:
        if v in self.pointers:
            return self._const(_MOVE if v is moved else 0)
        if isinstance(v, BlockArgument):
            return self._block_arg(v, moved)
        op = v.owner
        assert isinstance(op, Operation)
        if isinstance(op, arith.ConstantOp):
            val = getattr(op.value, "value", None)
            if val is None or not isinstance(val.data, int):
                raise NotEvaluable(f"uses the non-integer constant {op.value}")
            return self._const(int(val.data))
        if isinstance(op, GetComputeTileIdOp):
            if len(op.ids) == 1:
                return Sample(self.tile, self.true)
            return Sample(self.coords[list(op.ids).index(v)], self.true)
        if isinstance(op, RuntimeArgExtractOp):
            arg = self.scalars.get(op.arg)
            if arg is None:
                raise NotEvaluable("uses a runtime_arg that is not bound")
            field = op.extract_kind.value
            return self._const(int(getattr(arg, field)))
        if isinstance(op, _CASTS):
            return self.eval(op.operands[0], moved)
        if type(op) in _BINARY or type(op) in _DIVIDING:
            a, b = (self.eval(o, moved) for o in op.operands)
            if type(op) in _DIVIDING:
                if np.any((b.value == 0) & b.valid):
                    raise NotEvaluable("divides by zero")
                f = _DIVIDING[type(op)]
                value = f(a.value, np.where(b.value == 0, 1, b.value))
            else:
                value = _BINARY[type(op)](a.value, b.value)
            return Sample(np.asarray(value, dtype=np.int64), a.valid & b.valid)
        if isinstance(op, arith.CmpiOp):
            a, b = (self.eval(o, moved) for o in op.operands)
            return Sample(_CMP[op.predicate.value.data](a.value, b.value).astype(np.int64),
                          a.valid & b.valid)
        if isinstance(op, arith.SelectOp):
            k, a, b = (self.eval(o, moved) for o in op.operands)
            return Sample(np.where(k.value != 0, a.value, b.value), k.valid & a.valid & b.valid)
        raise NotEvaluable(f"depends on the result of '{op.name}'")

    def _block_arg(self, v: BlockArgument, moved: SSAValue | None) -> Sample:
        parent = v.owner.parent_op()
        if parent is self.fn:
            if v in self.scalars:
                value = self.scalars[v]
                if not isinstance(value, int):
                    raise NotEvaluable(f"depends on the non-integer argument %{v.name_hint}")
                return self._const(value)
            raise NotEvaluable(f"depends on the unbound argument %{v.name_hint}")
        if isinstance(parent, scf.ForOp) and v.index == 0:
            lb, ub, st = (self.eval(o, moved) for o in (parent.lb, parent.ub, parent.step))
            if np.any((st.value <= 0) & st.valid):
                raise NotEvaluable("depends on a loop with a non-positive step")
            step = np.where(st.value <= 0, 1, st.value)
            count = np.maximum(-((lb.value - ub.value) // step), 0)
            live = lb.valid & ub.valid & st.valid
            m = int(count[np.broadcast_to(live, count.shape)].max(initial=0))
            j = self._along(np.arange(max(m, 1), dtype=np.int64), self.axis[parent])
            iv = lb.value + step * j
            return Sample(iv, live & (iv < ub.value) & (m > 0))
        raise NotEvaluable(f"depends on a value carried by '{parent.name if parent else '?'}'")

    def span(self, s: Sample) -> tuple[int, int] | None:
        """(min, max) over the valid samples, None when there are none."""
        vals = np.broadcast_to(s.value, np.broadcast_shapes(s.value.shape, s.valid.shape))
        mask = np.broadcast_to(s.valid, vals.shape)
        if not mask.any():
            return None
        sel = vals[mask]
        return int(sel.min()), int(sel.max())
