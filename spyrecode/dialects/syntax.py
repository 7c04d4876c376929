"""Pieces the DataflowIR dialects share to build and verify their ops, and what their few
hand-written parsers share.

Almost every op has an `assembly_format` (its custom directives are in directives.py), with
`ParsePropInAttrDict` because upstream writes inherent attributes (our properties) inside the
attribute dictionary. The ops whose dictionary a format cannot parse or print split it with
`finish` and print it with `print_attrs`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import AffineSetAttr, IntegerAttr, StringAttr, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import IRDLOperation, opt_prop_def
from xdsl.printer import Printer
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
    return None if v is None else IntegerAttr(v, i32)


def str_attr(v: str | None) -> StringAttr | None:
    return None if v is None else StringAttr(v)


def opt(v: SSAValue | None) -> list[SSAValue]:
    """An optional operand as a builder wants it: [] or [v]."""
    return [] if v is None else [v]


def props(values: Mapping[str, Attribute | None]) -> dict[str, Attribute]:
    """Builder properties: absent (None) ones dropped, sorted by name so ops built in Python
    print their attribute dictionary in MLIR's (sorted) order."""
    return {k: v for k, v in sorted(values.items()) if v is not None}


def split_properties(op_cls: type[IRDLOperation],
                     attrs: Mapping[str, Attribute]) -> tuple[dict[str, Attribute],
                                                              dict[str, Attribute]]:
    """Split a parsed attribute dictionary into the op's properties and the other attributes."""
    names = op_cls.get_irdl_definition().properties
    return ({k: v for k, v in attrs.items() if k in names},
            {k: v for k, v in attrs.items() if k not in names})


def finish(cls: type[IRDLOperation], operands: Sequence, given: Mapping[str, Attribute],
           attrs: Mapping[str, Attribute], result_types: Sequence = (),
           regions: Sequence = ()):
    """Build a parsed op from its parts: `given` holds the properties its syntax spells
    outside the attribute dictionary, `attrs` the dictionary (split into properties and
    attributes). Ops with an implicit terminator get it, an empty region a block first."""
    props_, attrs_ = split_properties(cls, attrs)
    op = cls.build(operands=operands, result_types=result_types,
                   properties={**props_, **given}, attributes=attrs_, regions=regions)
    if (trait := op.get_trait(SingleBlockImplicitTerminator)) is not None:
        ensure_terminator(op, trait)
    return op


def print_attrs(printer: Printer, op: Operation, elided: Sequence[str] = ()) -> bool:
    """Print properties and attributes together as one MLIR attribute dictionary (sorted by
    name, as MLIR does, so built and parsed ops print alike); False if nothing printed."""
    return printer.print_op_attributes(
        dict(sorted({**op.properties, **op.attributes}.items())),
        reserved_attr_names=("operandSegmentSizes", *elided))


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
