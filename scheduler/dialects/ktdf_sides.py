"""The two sides of a ktdf transfer: `%v ([subscripts])? (size [sizes])?`.

Shared by `ktdf.data_transfer` and `ktdf.ind_data_transfer` (ktdf_transfers.py): building a
side's operands and attributes from Python values, the verifier rules of one side and of the
pair, and the effects of a transfer (the syntax is the `CellOrSlot` directive, directives.py).
Subscripts are affine expressions of SSA ids held as a dims-only map; sizes mix integers and
SSA values (static attribute with holes plus operands).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseArrayBase,
    IntegerType,
    MemRefType,
    StringAttr,
    i64,
)
from xdsl.dialects.utils.dynamic_index_list import (
    get_dynamic_index_list,
    split_dynamic_index_list,
)
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import IRDLOperation, VarOperand
from xdsl.traits import EffectInstance, MemoryEffectKind
from xdsl.utils.exceptions import VerifyException

from scheduler.dialects.ktdf_types import (
    FifoSlotType,
    TransferMode,
    element_type_of,
    value_element_count,
)

_READ, _WRITE = MemoryEffectKind.READ, MemoryEffectKind.WRITE

Sizes = Sequence[int | SSAValue] | None


def build_side(value: SSAValue, indices: Sequence[SSAValue | int],
               amap: AffineMap | AffineMapAttr | None, sizes: Sizes
               ) -> tuple[list[SSAValue], AffineMapAttr | None, DenseArrayBase | None,
                          list[SSAValue]]:
    """Operands and attributes of one side. Without a map, a memref side gets the identity
    over its SSA indices, with integer indices as constants (`[%i, 0]` -> `(d0) -> (d0, 0)`);
    a FIFO side gets no map. `sizes=None` leaves the side without `size [...]`."""
    ssa = [i for i in indices if isinstance(i, SSAValue)]
    if isinstance(amap, AffineMap):
        amap = AffineMapAttr(amap)
    if amap is None and isinstance(value.type, MemRefType):
        dims = iter(range(len(ssa)))
        exprs = [AffineExpr.constant(i) if isinstance(i, int) else AffineExpr.dimension(next(dims))
                 for i in indices]
        amap = AffineMapAttr(AffineMap(len(ssa), 0, tuple(exprs)))
    elif len(ssa) != len(indices):
        raise TypeError("integer indices are only allowed without an explicit map")
    if amap is not None and amap.data.num_dims == len(ssa) \
            and any(unused := amap.data.unused_dims_bit_vector()):
        # An index no subscript reads is dropped, as the text form drops it: builders map
        # every loop of a nest, and a pass asking what a transfer depends on (broadcast-
        # promotion) must not see an operand that changes nothing.
        amap = AffineMapAttr(amap.data.drop_dims(unused))
        ssa = [v for v, u in zip(ssa, unused) if not u]
    if sizes is None:
        return ssa, amap, None, []
    static, dynamic = split_dynamic_index_list(sizes, DYNAMIC_INDEX)
    return ssa, amap, DenseArrayBase.from_list(i64, static), dynamic


def mixed_sizes(static: DenseArrayBase[IntegerType] | None,
                dynamic: Sequence[SSAValue]) -> list[int | SSAValue] | None:
    if static is None:
        return None
    return get_dynamic_index_list(static.get_values(), dynamic, DYNAMIC_INDEX)


def side_count(value: SSAValue, static: DenseArrayBase[IntegerType] | None) -> int | None:
    """Elements one side moves: the product of its static sizes, else a FIFO slot's count."""
    if static is None:
        return value_element_count(value) if isinstance(value.type, FifoSlotType) else None
    values = static.get_values()
    return None if DYNAMIC_INDEX in values else math.prod(values)


def verify_sizes(side: str, static: DenseArrayBase[IntegerType] | None,
                 dynamic: Sequence[SSAValue]) -> None:
    if static is None:
        if dynamic:
            raise VerifyException(f"{len(dynamic)} dynamic {side} sizes given without "
                                  f"static_{side}_sizes")
        return
    values = static.get_values()
    holes = sum(1 for s in values if s == DYNAMIC_INDEX)
    if len(dynamic) != holes:
        raise VerifyException(f"number of dynamic {side} sizes ({len(dynamic)}) must match "
                              f"number of dynamic entries in static_{side}_sizes ({holes})")
    for s in values:
        if s != DYNAMIC_INDEX and s < 0:
            raise VerifyException(f"{side} sizes must be >= 0, got {s}")


def verify_side(side: str, value: SSAValue, amap: AffineMapAttr | None,
                indices: Sequence[SSAValue], static: DenseArrayBase[IntegerType] | None,
                dynamic: Sequence[SSAValue]) -> None:
    """The rules of one side (upstream's messages): a memref side has a dims-only map with one
    result per dimension, one index per map dim and one size per dimension; a FIFO side has
    neither map nor indices."""
    t = value.type
    if isinstance(t, MemRefType):
        if amap is None:
            raise VerifyException(f"{side}_map must be present when {side} is a memref")
        m = amap.data
        rank = t.get_num_dims()
        if m.num_symbols:
            raise VerifyException(f"{side}_map must have 0 symbols (dims-only); got "
                                  f"{m.num_symbols}")
        if len(m.results) != rank:
            raise VerifyException(f"{side} memref has rank {rank} but {side}_map has "
                                  f"{len(m.results)} results")
        if len(indices) != m.num_dims:
            raise VerifyException(f"{side}_indices count ({len(indices)}) must match {side}_map "
                                  f"dim count ({m.num_dims})")
        n_sizes = 0 if static is None else len(static.get_values())
        if n_sizes != rank:
            raise VerifyException(f"{side} size count ({n_sizes}) must match memref rank "
                                  f"({rank})")
    else:
        if amap is not None:
            raise VerifyException(f"{side}_map must be absent for fifo {side}")
        if indices:
            raise VerifyException(f"FIFO slot {side} cannot have indices specified")
    verify_sizes(side, static, dynamic)


def verify_pair(op: TransferMixin, src_count: int | None, dst_count: int | None) -> None:
    """Rules between the two sides: element types, (P) no FIFO -> FIFO, (P) counts."""
    source, dest = op.source, op.destination  # pyright: ignore[reportAttributeAccessIssue]
    attr = op.attributes.get("transfer_mode")
    if attr is not None and not (isinstance(attr, StringAttr)
                                 and attr.data in tuple(TransferMode)):
        raise VerifyException(f"transfer_mode must be \"splat\" or \"pad\", got {attr}")
    mode = op.transfer_mode
    if isinstance(source.type, FifoSlotType) and isinstance(dest.type, FifoSlotType):
        raise VerifyException("a transfer between two FIFO slots is not allowed")
    st, dt = element_type_of(source.type), element_type_of(dest.type)
    if st != dt:
        raise VerifyException(f"source and destination element types differ ({st} vs {dt})")
    if src_count is None or dst_count is None:
        return
    if mode is None and src_count != dst_count:
        raise VerifyException(f"source and destination move different element counts "
                              f"({src_count} vs {dst_count}) without a transfer_mode")
    if mode == TransferMode.SPLAT and (src_count == 0 or dst_count % src_count):
        raise VerifyException(f"transfer_mode \"splat\" needs a destination count ({dst_count}) "
                              f"that is a multiple of the source count ({src_count})")
    if mode == TransferMode.PAD and dst_count < src_count:
        raise VerifyException(f"transfer_mode \"pad\" needs a destination count ({dst_count}) "
                              f"of at least the source count ({src_count})")


def transfer_effects(source: SSAValue, dest: SSAValue,
                     reads: Sequence[SSAValue] = ()) -> set[EffectInstance]:
    effects = {EffectInstance(_READ, source), EffectInstance(_WRITE, dest)}
    if isinstance(source.type, FifoSlotType):
        effects.add(EffectInstance(_WRITE, source))  # reading a slot pops it
    effects.update(EffectInstance(_READ, v) for v in reads)
    return effects


class TransferMixin(IRDLOperation):
    """Accessors shared by both transfers (the destination side and the mode); the
    subclasses define `destination`, `dest_sizes` and `static_dest_sizes`."""

    if TYPE_CHECKING:
        destination: SSAValue
        dest_sizes: VarOperand
        static_dest_sizes: DenseArrayBase[IntegerType] | None

    def __post_init__(self) -> None:
        super().__post_init__()
        # Properties in definition order, however they were set (the format sets them side by
        # side), so the generic form prints one way.
        order = list(self.get_irdl_definition().properties)
        self.properties = dict(sorted(self.properties.items(), key=lambda kv: (
            order.index(kv[0]) if kv[0] in order else len(order))))

    @property
    def transfer_mode(self) -> str | None:
        """`"splat"`, `"pad"` or None (the discardable `transfer_mode` attribute)."""
        a = self.attributes.get("transfer_mode")
        return a.data if isinstance(a, StringAttr) else None

    @transfer_mode.setter
    def transfer_mode(self, mode: str | None) -> None:
        if mode is None:
            self.attributes.pop("transfer_mode", None)
        else:
            self.attributes["transfer_mode"] = StringAttr(str(mode))

    @property
    def dest_is_fifo(self) -> bool:
        return isinstance(self.destination.type, FifoSlotType)

    @property
    def dest_is_memref(self) -> bool:
        return isinstance(self.destination.type, MemRefType)

    @property
    def mixed_dest_sizes(self) -> list[int | SSAValue] | None:
        """Destination sizes with SSA values in the dynamic places; None without `size`."""
        return mixed_sizes(self.static_dest_sizes, self.dest_sizes)

    @property
    def dest_count(self) -> int | None:
        """Elements the destination receives, when static."""
        return side_count(self.destination, self.static_dest_sizes)


def mode_attr(mode: str | None) -> StringAttr | None:
    return None if mode is None else StringAttr(str(mode))
