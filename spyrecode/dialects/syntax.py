"""Pieces the DataflowIR dialects share to build and verify their ops.

Every op but two has an `assembly_format` (its custom directives are in directives.py), with
`ParsePropInAttrDict` because upstream writes inherent attributes (our properties) inside the
attribute dictionary; the two whose dictionary a format cannot read build the parsed op with
`finish`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TypeVar

from xdsl.dialects.builtin import AffineSetAttr, IntegerAttr, StringAttr, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import IRDLOperation, opt_prop_def
from xdsl.traits import SingleBlockImplicitTerminator, ensure_terminator
from xdsl.utils.exceptions import VerifyException

from ktir import affine


class WithDebugName(IRDLOperation):
    """Ops with upstream's optional `dbgName` string (a label for traces, no semantics)."""

    dbg_name_attr = opt_prop_def(StringAttr, prop_name="dbgName")

    @property
    def dbg_name(self) -> str | None:
        return None if self.dbg_name_attr is None else self.dbg_name_attr.data


def i32_attr(v: int | None) -> IntegerAttr | None:
    return None if v is None else _i32(v)


@lru_cache(maxsize=4096)
def _i32(v: int) -> IntegerAttr:
    """One attribute per value (immutable): the compiler builds hundreds per kernel."""
    return IntegerAttr(v, i32)


def str_attr(v: str | None) -> StringAttr | None:
    return None if v is None else StringAttr(v)


def opt(v: SSAValue | None) -> list[SSAValue]:
    """An optional operand as a builder wants it: [] or [v]."""
    return [] if v is None else [v]


def props(values: Mapping[str, Attribute | None]) -> dict[str, Attribute]:
    """Builder properties: absent (None) ones dropped, sorted by name so ops built in Python
    print their attribute dictionary in MLIR's (sorted) order."""
    return {k: v for k, v in sorted(values.items()) if v is not None}


OpT = TypeVar("OpT", bound=IRDLOperation)


def finish(cls: type[OpT], operands: Sequence, attrs: Mapping[str, Attribute],
           result_types: Sequence = ()) -> OpT:
    """Build a parsed op from its operands, result types and attribute dictionary, whose
    entries naming a property of the op become that property (as ParsePropInAttrDict does)."""
    names = cls.get_irdl_definition().properties
    return cls.build(operands=operands, result_types=result_types,
                     properties={k: v for k, v in attrs.items() if k in names},
                     attributes={k: v for k, v in attrs.items() if k not in names})


def ancestor(op: Operation, cls: type[Operation] | tuple[type[Operation], ...]
             ) -> Operation | None:
    """The nearest enclosing operation of the given class(es)."""
    p = op.parent_op()
    while p is not None and not isinstance(p, cls):
        p = p.parent_op()
    return p


def is_identity(m: AffineMap) -> bool:
    return m.num_symbols == 0 and m == AffineMap.identity(m.num_dims)


def set_size(what: str, aset_attr: AffineSetAttr) -> int:
    """Number of integer points of a symbol-free set (a verifier error if it is unbounded)."""
    aset = aset_attr.data
    if aset.num_symbols:
        raise VerifyException(f"{what} must not use symbols")
    try:
        if affine.is_box(aset):
            n = 1
            for lo, hi in affine.box(aset):
                n *= max(0, hi - lo + 1)
            return n
        pts, _, _ = affine.enumerate_points(aset)
        return len(pts)
    except affine.UnboundedSetError:
        raise VerifyException(f"{what} is unbounded: every dimension needs a finite range") \
            from None


def close_body(op: IRDLOperation) -> None:
    """Give a built op's single block the terminator its `SingleBlockImplicitTerminator` trait
    names, as parsing does."""
    trait = op.get_trait(SingleBlockImplicitTerminator)
    assert trait is not None, f"{op.name} has no SingleBlockImplicitTerminator trait"
    ensure_terminator(op, trait)
