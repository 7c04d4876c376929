"""Inter-tile communication ops of `ktdp` (shared/spec/ktir.md §6): produce, reduce, consume.

Production names what each tile contributes (`yield_partial` in a region run once per producing
tile); `inter_tile_reduce` folds the partials of a group for its consumers, `inter_tile_consume`
hands one producer's partial to each consumer. Group sets are `(i)[g]` (tile id, group).
The static checks R1/R2/R8/R10/R11/R13/R14 that can be decided from the grid are done here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import ClassVar, cast

import numpy as np
from xdsl.dialects.builtin import AffineSetAttr, IndexType, TensorType
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.ir.affine import AffineSet
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import (
    HasParent,
    IsTerminator,
    SingleBlockImplicitTerminator,
    is_side_effect_free,
)
from xdsl.utils.exceptions import VerifyException

from ktir import affine
from ktir.dialects.directives import (
    Body,
    CheckedType,
    FutureSignature,
    ReducedResults,
    TypedValues,
)
from ktir.dialects.ktdp_types import TileFutureType, compatible_result, kernel_grid

# ---------------------------------------------------------------------------- group helpers


def group_ids(future: TileFutureType) -> list[int]:
    """The group ids a future ranges over (its `groups` set must be bounded)."""
    return [p[0] for p in affine.points_list(future.groups.data)]


def group_members(tile_set: AffineSet, group: int, num_tiles: int) -> list[int]:
    """Tiles `i < num_tiles` with `i` in `tile_set` for symbol `g = group` (sets `(i)[g]`)."""
    ids = np.arange(num_tiles, dtype=np.int64)
    keep = affine.mask(tile_set, [ids], [group] + [0] * (tile_set.num_symbols - 1))
    return [int(x) for x in ids[keep]]


def members_by_group(tile_set: AffineSet, groups: list[int], num_tiles: int
                     ) -> dict[int, list[int]]:
    """`group_members` of every group that has members, evaluated for many groups at once
    (a set of millions of groups over a few tiles costs a second, not minutes)."""
    ids = np.arange(num_tiles, dtype=np.int64)[:, None]
    out: dict[int, list[int]] = {}
    chunk = max(1, (1 << 20) // max(num_tiles, 1))
    gs = np.asarray(groups, dtype=np.int64)
    for lo in range(0, len(gs), chunk):
        g = gs[None, lo:lo + chunk]
        dims = [np.broadcast_to(ids, (num_tiles, g.shape[1]))]
        syms = [g] + [0] * (tile_set.num_symbols - 1)
        keep = affine.mask(tile_set, dims, syms)
        for col in np.flatnonzero(keep.any(axis=0)):
            out[int(g[0, col])] = [int(t) for t in np.flatnonzero(keep[:, col])]
    return out


def dependency_sources(dep: AffineSet, consumer: int, group: int, num_tiles: int) -> list[int]:
    """Producers `p` with `p` in `dep` for the consumer `c` (sets `(p)[c]` or `(p)[c, g]`)."""
    ids = np.arange(num_tiles, dtype=np.int64)
    syms = [consumer, group][: dep.num_symbols]
    keep = affine.mask(dep, [ids], syms)
    return [int(x) for x in ids[keep]]


def _num_tiles(op: Operation) -> int | None:
    grid = kernel_grid(op)
    if grid is None:
        return None
    n = 1
    for g in grid:
        n *= g
    return n


def _check_tile_set(aset: AffineSet, what: str) -> None:
    if aset.num_dims != 1 or aset.num_symbols != 1:
        raise VerifyException(f"{what} must be a set '(i)[g]' of one dim and one symbol")


def _producer_op(future: SSAValue) -> InterTileProduceOp | None:
    owner = future.owner
    return owner if isinstance(owner, InterTileProduceOp) else None


def _bounded_groups(future: TileFutureType) -> list[int] | None:
    try:
        return group_ids(future)
    except affine.UnboundedSetError:
        return None


# ---------------------------------------------------------------------------- terminators


@irdl_op_definition
class YieldPartialOp(IRDLOperation):
    """Terminator of `inter_tile_produce`: this tile's contribution."""

    name = "ktdp.yield_partial"
    values = var_operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(InterTileProduceOp)))
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])


@irdl_op_definition
class YieldReducedOp(IRDLOperation):
    """Terminator of the combiner region of `inter_tile_reduce`."""

    name = "ktdp.yield_reduced"
    values = var_operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(InterTileReduceOp)))
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])


# ---------------------------------------------------------------------------- produce


@irdl_op_definition
class InterTileProduceOp(IRDLOperation):
    """`%f = ktdp.inter_tile_produce producer_tiles_per_group = S -> !ktdp.tile_future<...>
    { ^bb0(%gid: index): ... ktdp.yield_partial %p : T }`."""

    name = "ktdp.inter_tile_produce"
    producer_tiles_per_group = prop_def(AffineSetAttr)
    future = result_def(TileFutureType)
    body = region_def("single_block")
    traits = traits_def(SingleBlockImplicitTerminator(YieldPartialOp))
    DEFAULT_BLOCK_ARGS: ClassVar[tuple[Attribute, ...]] = (IndexType(),)  # the group id
    custom_directives = (FutureSignature, Body)
    assembly_format = ("`producer_tiles_per_group` `=` $producer_tiles_per_group "
                       "custom<FutureSignature>(type($future)) attr-dict-with-keyword "
                       "custom<Body>($body)")

    def __init__(self, producers: AffineSet, future_type: TileFutureType, body: Region):
        super().__init__(result_types=[future_type], regions=[body],
                         properties={"producer_tiles_per_group": AffineSetAttr(producers)})

    def verify_(self) -> None:
        pset = self.producer_tiles_per_group.data
        _check_tile_set(pset, "producer_tiles_per_group")
        block = self.body.block
        if len(block.args) != 1 or not isinstance(block.args[0].type, IndexType):
            raise VerifyException("the region takes exactly one 'index' argument (the group id)")
        ftype = cast(TileFutureType, self.future.type)
        term = block.last_op
        if isinstance(term, YieldPartialOp):
            got = [v.type for v in term.values]
            if got != list(ftype.partial_types.data):
                raise VerifyException("yield_partial types must equal the future's partial "
                                      f"types ({', '.join(map(str, ftype.partial_types.data))})")
        uses = sum(1 for _ in self.future.uses)
        if uses != 1:
            raise VerifyException(f"the future must be used exactly once (R2), it has {uses} "
                                  "uses")
        try:  # every pass and the interpreter enumerate the groups
            groups = group_ids(ftype)
        except affine.SetTooLargeError:
            return  # bounded but past the element limit: refused where they are enumerated
        except affine.UnboundedSetError:
            raise VerifyException(f"the tile_future's groups '{ftype.groups.data}' are "
                                  "unbounded: a future ranges over finitely many groups") from None
        n = _num_tiles(self)
        if n is None:
            return
        seen: dict[int, int] = {}
        for g, members in members_by_group(pset, groups, n).items():
            for t in members:
                if t in seen:
                    raise VerifyException(f"tile {t} produces for groups {seen[t]} and {g}: "
                                          "producer sets of distinct groups must be disjoint "
                                          "(R1)")
                seen[t] = g


# ---------------------------------------------------------------------------- reduce


def _check_consumers(op: Operation, future: SSAValue, cset: AffineSet) -> tuple[
        dict[int, list[int]], dict[int, list[int]]] | None:
    """Producers and consumers per group, when both are computable."""
    prod = _producer_op(future)
    n = _num_tiles(op)
    groups = _bounded_groups(cast(TileFutureType, future.type))
    if prod is None or n is None or groups is None:
        return None
    pset = prod.producer_tiles_per_group.data
    # groups without members are left out (a group no tile consumes from needs no check)
    producers = defaultdict(list, members_by_group(pset, groups, n))
    consumers = members_by_group(cset, groups, n)
    return producers, consumers


@irdl_op_definition
class InterTileReduceOp(IRDLOperation):
    """`%r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = S, identity(%z : T)
    : !ktdp.tile_future<...> -> T { ^bb0(%l: T, %r: T): ... ktdp.yield_reduced %s : T }`."""

    name = "ktdp.inter_tile_reduce"
    future = operand_def(TileFutureType)
    identities = var_operand_def(TensorType)
    consumer_tiles_per_group = prop_def(AffineSetAttr)
    results_ = var_result_def(TensorType)
    combiner = region_def("single_block")
    traits = traits_def(SingleBlockImplicitTerminator(YieldReducedOp))
    custom_directives = (TypedValues, CheckedType, ReducedResults, Body)
    assembly_format = (
        "`(` $future `)` `consumer_tiles_per_group` `=` $consumer_tiles_per_group `,` "
        "`identity` `(` custom<TypedValues>($identities, type($identities)) `)` "
        "`:` custom<CheckedType>(type($future)) "
        "`->` custom<ReducedResults>(type($results_), ref(type($future))) "
        "attr-dict-with-keyword custom<Body>($combiner)")

    def verify_(self) -> None:
        cset = self.consumer_tiles_per_group.data
        _check_tile_set(cset, "consumer_tiles_per_group")
        partials = list(cast(TileFutureType, self.future.type).partial_types.data)
        n = len(partials)
        if len(self.results_) != n:
            raise VerifyException(f"expects {n} results (one per partial type), got "
                                  f"{len(self.results_)}")
        for p, r in zip(partials, self.results_):
            if not compatible_result(p, r.type):
                raise VerifyException(f"result type {r.type} must equal the partial type {p}")
        if [v.type for v in self.identities] != partials:
            raise VerifyException("identity types must equal the partial types (R11)")
        block = self.combiner.block
        if [a.type for a in block.args] != partials + partials:
            raise VerifyException(f"the combiner takes {2 * n} arguments: two of each partial "
                                  "type")
        term = block.last_op
        if isinstance(term, YieldReducedOp) and [v.type for v in term.values] != partials:
            raise VerifyException("yield_reduced must yield one value of each partial type")
        for inner in block.walk():
            if inner is not term and not is_side_effect_free(inner) \
                    and not _tensor_only(inner):
                raise VerifyException(f"the combiner must be pure (R10); '{inner.name}' has "
                                      "side effects")
        sets = _check_consumers(self, self.future, cset)
        if sets is None:
            return
        producers, consumers = sets
        for g, cons in consumers.items():
            prods = set(producers[g])
            if not set(cons) <= prods:
                raise VerifyException(f"consumers {sorted(set(cons) - prods)} of group {g} are "
                                      "not producers of it (R13)")
            if len(cons) > 1 and set(cons) != prods:
                raise VerifyException(f"group {g}: consumers must equal producers or be a "
                                      "single tile (R14)")


def _tensor_only(op: Operation) -> bool:
    """linalg/tensor ops on tensors have value semantics even when they declare effects."""
    return all(isinstance(v.type, TensorType) or not hasattr(v.type, "get_shape")
               for v in (*op.operands, *op.results)) and op.dialect_name() in (
        "linalg", "tensor", "arith", "math", "spyreop")


# ---------------------------------------------------------------------------- consume


@irdl_op_definition
class InterTileConsumeOp(IRDLOperation):
    """`%c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = S
    (, producer_dependency_per_consumer = D)? : !ktdp.tile_future<...> -> T`."""

    name = "ktdp.inter_tile_consume"
    future = operand_def(TileFutureType)
    consumer_tiles_per_group = prop_def(AffineSetAttr)
    producer_dependency_per_consumer = opt_prop_def(AffineSetAttr)
    results_ = var_result_def(TensorType)
    custom_directives = (CheckedType,)
    assembly_format = (
        "`(` $future `)` `consumer_tiles_per_group` `=` $consumer_tiles_per_group "
        "(`,` `producer_dependency_per_consumer` `=` $producer_dependency_per_consumer^)? "
        "attr-dict `:` custom<CheckedType>(type($future)) "
        "`->` custom<CheckedType>(type($results_))")

    def verify_(self) -> None:
        cset = self.consumer_tiles_per_group.data
        _check_tile_set(cset, "consumer_tiles_per_group")
        partials = list(cast(TileFutureType, self.future.type).partial_types.data)
        if [r.type for r in self.results_] != partials:
            raise VerifyException("results must equal the future's partial types")
        dep = self.producer_dependency_per_consumer
        if dep is not None and (dep.data.num_dims != 1 or dep.data.num_symbols not in (1, 2)):
            raise VerifyException("producer_dependency_per_consumer must be '(p)[c]' or "
                                  "'(p)[c, g]'")
        sets = _check_consumers(self, self.future, cset)
        if sets is None:
            return
        producers, consumers = sets
        n = _num_tiles(self) or 0
        for g, cons in consumers.items():
            if dep is None:
                if len(producers[g]) != 1 and cons:
                    raise VerifyException(
                        f"group {g} has {len(producers[g])} producers: each consumer needs "
                        "exactly one source, give producer_dependency_per_consumer (R8)")
                continue
            for c in cons:
                srcs = set(dependency_sources(dep.data, c, g, n)) & set(producers[g])
                if len(srcs) != 1:
                    raise VerifyException(f"consumer {c} of group {g} depends on "
                                          f"{len(srcs)} producers, expected exactly one (R8)")


__all__ = [
    "InterTileConsumeOp", "InterTileProduceOp", "InterTileReduceOp", "YieldPartialOp",
    "YieldReducedOp", "dependency_sources", "group_ids", "group_members", "members_by_group",
]
