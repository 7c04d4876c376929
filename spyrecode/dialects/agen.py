"""The `agen` dialect of DataflowIR (shared/spec/dataflow-ir.md §3, §7 E6/E9): address
generation and memory access.

An access is `%m[subscripts]`: the subscripts (affine expressions of SSA values, kept as an
affine map over its operands) give the base coordinate B. A `*_set` (integer set over the
memref's dimensions, relative to B) selects the elements and a `*_order` map packs them into
lanes, lexicographically by `order(p)`; one lane per selected element, of the memref's element
type. Composite ops add a time loop: for each point t of `time_set` (its symbols bound by
`time_symbols(...)`) in `time_order` order, the load base is `B + load_time_addr_map(t)` and
the store base `B' + store_time_addr_map(t)`; the region runs once per step with the loaded
vector as its argument and `agen.yield`s the vector to store (nothing yielded: the loaded
vector). A region that only yields is an asynchronous DMA.

Memory ops carry read and write effects (the write also stands for multicast delivery), so no
rewrite removes or merges them. Builders take `Access(memref, indices, map=None)` and
`TimeLoop(set, order, symbols=())` where an op has several parts. Shared pieces are in
agen_access.py, the indirect and symbolic ops in agen_indirect.py; the Dialect is here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I32,
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    i32,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap, AffineSet
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryWriteEffect, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from spyrecode.dialects.agen_access import (
    ATTRS,
    ATTRS_AND_BODY,
    DIRECTIVES,
    LOAD_IV,
    MEMORY_EFFECTS,
    MULTICAST,
    NEW_LINE,
    OPTIONS,
    TIME_SYMBOLS,
    Access,
    AgenDirectionAttr,
    DirectAccess,
    LoadsPattern,
    StoresPattern,
    TimedOp,
    TimeLoop,
    YieldOp,
    access,
    body_region,
    composite_ops,
    loaded_vector,
    no_arguments,
    nothing_yielded,
    pattern,
    stored_vector,
    time_props,
    verify_access,
    verify_lanes,
    verify_pattern,
    verify_time,
    yielded,
)
from spyrecode.dialects.agen_indirect import (
    CompositeIndirectLoadAndStoreOp,
    CompositeIndirectLoadOp,
    CompositeIndirectStoreOp,
    IndirectVectorLoadOp,
    IndirectVectorStoreOp,
    SymbolicVectorLoadOp,
    SymbolicVectorStoreOp,
)
from spyrecode.dialects.dataflow_types import RoutingDirection, VectorLike
from spyrecode.dialects.directives import ImplicitBody, RegionIfNoDict
from spyrecode.dialects.syntax import (
    WithDebugName,
    close_body,
    finish,
    i32_attr,
    opt,
    props,
    str_attr,
)


@irdl_op_definition
class VectorLoadOp(DirectAccess, LoadsPattern, WithDebugName):
    """`%v = agen.vector_load %m[%i, %c0] {load_order = #o, load_set = #s} : memref<4x64xf16>,
    vector<64xf16>`: gather the points B + p, p in load_set, into lanes ordered by
    load_order(p). `{splat = N}` (this project's extension, for a load unit with
    `simd.splat`: scalar-broadcast-legalization) repeats each gathered lane N times in a row.
    Builder: `VectorLoadOp(memref, indices, map, load_set, load_order, vector_type,
    multicast_info=None, splat=None)` (map None: identity)."""

    name = "agen.vector_load"
    mem_ref = operand_def(MemRefType)  # re-declared: operands keep upstream's order
    map_operands = var_operand_def(IndexType)
    multicast_info = opt_operand_def(IndexType)
    splat = opt_prop_def(IntegerAttr[I32])
    result = result_def(VectorLike)
    traits = traits_def(*MEMORY_EFFECTS)
    irdl_options = OPTIONS
    assembly_format = (access("mem_ref", "map_operands", "affine_map")
                       + f" {MULTICAST} attr-dict `:` type($mem_ref) `,` type($result)")
    custom_directives = DIRECTIVES

    def __init__(self, memref: SSAValue, indices: Sequence[SSAValue], map: AffineMap | None,
                 load_set: AffineSet, load_order: AffineMap, vector_type: Attribute,
                 multicast_info: SSAValue | None = None, dbg_name: str | None = None,
                 splat: int | None = None):
        super().__init__(
            operands=[memref, indices, opt(multicast_info)], result_types=[vector_type],
            properties=props({"affine_map": Access(memref, indices, map).map_attr(),
                              **pattern("load", load_set, load_order),
                              "dbgName": str_attr(dbg_name), "splat": i32_attr(splat)}))

    @property
    def repeats(self) -> int:
        """How often each gathered lane appears in the result (1 without `splat`)."""
        return 1 if self.splat is None else self.splat.value.data

    def verify_(self) -> None:
        n = verify_pattern("loaded", self.verify_direct(), "load", self.load_set,
                           self.load_order)
        if self.repeats < 1:
            raise VerifyException(f"splat must be at least 1, got {self.repeats}")
        verify_lanes("load", n * self.repeats, self.result.type, self.mem_ref)


@irdl_op_definition
class VectorStoreOp(DirectAccess, StoresPattern, WithDebugName):
    """`agen.vector_store %v, %m[%i, %c0] {store_order = #o, store_set = #s} :
    memref<4x64xf16>, vector<64xf16>`: scatter the lanes to the points B + p of store_set.
    Builder: `VectorStoreOp(value, memref, indices, map, store_set, store_order)`."""

    name = "agen.vector_store"
    value_to_store = operand_def(VectorLike)
    traits = traits_def(*MEMORY_EFFECTS)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("$value_to_store `,` " + access("mem_ref", "map_operands", "affine_map")
                       + " attr-dict `:` type($mem_ref) `,` type($value_to_store)")
    custom_directives = DIRECTIVES

    def __init__(self, value: SSAValue, memref: SSAValue, indices: Sequence[SSAValue],
                 map: AffineMap | None, store_set: AffineSet, store_order: AffineMap,
                 dbg_name: str | None = None):
        super().__init__(
            operands=[value, memref, indices],
            properties=props({"affine_map": Access(memref, indices, map).map_attr(),
                              **pattern("store", store_set, store_order),
                              "dbgName": str_attr(dbg_name)}))

    def verify_(self) -> None:
        n = verify_pattern("stored", self.verify_direct(), "store", self.store_set,
                           self.store_order)
        verify_lanes("store", n, self.value_to_store.type, self.mem_ref)


@irdl_op_definition
class CompositeLoadAndStoreOp(TimedOp, LoadsPattern, StoresPattern):
    """Per time step: load a vector, run the region with it, store what it yields (or the
    loaded vector); a region that only yields is an asynchronous DMA (§7 E9).

        agen.composite_load_and_store src:%a[%c0, %c0] dst:%b[%c0, %c0]
         time_symbols(), load_iv(%x:vector<64xf16>)
         {load_order = ..., load_set = ..., load_time_addr_map = ..., store_order = ...,
          store_set = ..., store_time_addr_map = ..., time_order = ..., time_set = ...}
        {
          agen.yield
        } : memref<1x64xf16>, memref<1x64xf16>

    Builder: `CompositeLoadAndStoreOp(src, dst, load_set, load_order, store_set,
    store_order, time, load_time_addr_map, store_time_addr_map, vector_type, body=None,
    dir=None, multicast_info=None)` with `src`/`dst` Access and `time` a TimeLoop; `body`
    (a Block taking the loaded vector) defaults to a plain DMA. Accessors `load_iv`, `src`,
    `dst`, `time_loop`."""

    name = "agen.composite_load_and_store"
    src_mem_ref = operand_def(MemRefType)
    dst_mem_ref = operand_def(MemRefType)
    src_map_operands = var_operand_def(IndexType)
    dst_map_operands = var_operand_def(IndexType)
    multicast_info = opt_operand_def(IndexType)
    src_map = prop_def(AffineMapAttr)
    dst_map = prop_def(AffineMapAttr)
    load_time_addr_map = prop_def(AffineMapAttr)
    store_time_addr_map = prop_def(AffineMapAttr)
    dir = opt_prop_def(AgenDirectionAttr)
    irdl_options = OPTIONS
    assembly_format = (
        access("src_mem_ref", "src_map_operands", "src_map", "src") + " "
        + access("dst_mem_ref", "dst_map_operands", "dst_map", "dst")
        + f" {NEW_LINE} {TIME_SYMBOLS} `,` {LOAD_IV} (`,` `multicast_info` `=` "
        f"$multicast_info^)? {ATTRS_AND_BODY} type($src_mem_ref) `,` type($dst_mem_ref)")
    custom_directives = DIRECTIVES

    def __init__(self, src: Access, dst: Access, load_set: AffineSet, load_order: AffineMap,
                 store_set: AffineSet, store_order: AffineMap, time: TimeLoop,
                 load_time_addr_map: AffineMap, store_time_addr_map: AffineMap,
                 vector_type: Attribute, body: Block | None = None,
                 dir: RoutingDirection | str | None = None,
                 multicast_info: SSAValue | None = None, dbg_name: str | None = None):
        super().__init__(
            operands=[src.memref, dst.memref, src.indices, dst.indices, opt(multicast_info),
                      time.symbols],
            regions=[body_region(body, [vector_type])],
            properties=props({
                "src_map": src.map_attr(), "dst_map": dst.map_attr(),
                **pattern("load", load_set, load_order),
                **pattern("store", store_set, store_order),
                **time_props(time, load_time_addr_map=load_time_addr_map,
                             store_time_addr_map=store_time_addr_map),
                "dir": None if dir is None else AgenDirectionAttr(RoutingDirection(dir)),
                "dbgName": str_attr(dbg_name)}))
        close_body(self)

    @property
    def src(self) -> Access:
        return Access(self.src_mem_ref, tuple(self.src_map_operands), self.src_map.data)

    @property
    def dst(self) -> Access:
        return Access(self.dst_mem_ref, tuple(self.dst_map_operands), self.dst_map.data)

    def verify_(self) -> None:
        srank = verify_access("source", self.src_mem_ref, self.src_map, self.src_map_operands)
        drank = verify_access("destination", self.dst_mem_ref, self.dst_map,
                              self.dst_map_operands)
        nload = verify_pattern("source", srank, "load", self.load_set, self.load_order)
        nstore = verify_pattern("destination", drank, "store", self.store_set,
                                self.store_order)
        verify_time(self, [("load_time_addr_map", self.load_time_addr_map, srank),
                           ("store_time_addr_map", self.store_time_addr_map, drank)])
        iv = loaded_vector(self.body)
        verify_lanes("load", nload, iv.type, self.src_mem_ref)
        verify_lanes("store", nstore, stored_vector(self.body, iv), self.dst_mem_ref)


@irdl_op_definition
class CompositeLoadOp(DirectAccess, TimedOp, LoadsPattern):
    """Per time step: load a vector and run the region with it (e.g. to send it).

        agen.composite_load %a[%c0, %c0] time_symbols()(%x:vector<64xf16>)
         {load_order = ..., load_set = ..., time_addr_map = ..., time_order = ...,
          time_set = ...}
        { dataflow.send %u, %x : vector<64xf16> } : memref<...>

    Builder: `CompositeLoadOp(src, load_set, load_order, time, time_addr_map, vector_type,
    body=None)`."""

    name = "agen.composite_load"
    time_addr_map = prop_def(AffineMapAttr)
    irdl_options = OPTIONS
    assembly_format = (access("mem_ref", "map_operands", "affine_map")
                       + f" {NEW_LINE} {TIME_SYMBOLS} `` `(` custom<EntryArg>(ref($body)) `)`"
                       f" {ATTRS_AND_BODY} type($mem_ref)")
    custom_directives = DIRECTIVES

    def __init__(self, src: Access, load_set: AffineSet, load_order: AffineMap,
                 time: TimeLoop, time_addr_map: AffineMap, vector_type: Attribute,
                 body: Block | None = None, dbg_name: str | None = None):
        super().__init__(
            operands=[src.memref, src.indices, time.symbols],
            regions=[body_region(body, [vector_type])],
            properties=props({"affine_map": src.map_attr(),
                              **pattern("load", load_set, load_order),
                              **time_props(time, time_addr_map=time_addr_map),
                              "dbgName": str_attr(dbg_name)}))
        close_body(self)

    def verify_(self) -> None:
        rank = self.verify_direct()
        n = verify_pattern("loaded", rank, "load", self.load_set, self.load_order)
        verify_time(self, [("time_addr_map", self.time_addr_map, rank)])
        verify_lanes("load", n, loaded_vector(self.body).type, self.mem_ref)
        nothing_yielded(self.body, "a composite load stores nothing")


@irdl_op_definition
class CompositeStoreOp(DirectAccess, TimedOp):
    """Per time step: store the vector the region yields (with store_set + store_order), or
    `input_vector` (then no set, order or region):

        agen.composite_store %b[%c0] time_symbols() {store_order = ..., store_set = ...,
          time_addr_map = ..., time_order = ..., time_set = ...}
        { %v = dataflow.receive %u : vector<64xf16>  agen.yield %v : vector<64xf16> }
        : memref<64xf16>
        agen.composite_store %b[%c0] input_vector = %v time_symbols() {...} : memref<64xf16>,
          vector<64xf16>

    Builder: `CompositeStoreOp(dst, time, time_addr_map, store_set=None, store_order=None,
    body=None, input_vector=None)`."""

    name = "agen.composite_store"
    mem_ref = operand_def(MemRefType)  # re-declared: operands keep upstream's order
    map_operands = var_operand_def(IndexType)
    input_vector = opt_operand_def(VectorLike)
    store_set = opt_prop_def(AffineSetAttr)
    store_order = opt_prop_def(AffineMapAttr)
    time_addr_map = prop_def(AffineMapAttr)
    irdl_options = OPTIONS
    assembly_format = (
        access("mem_ref", "map_operands", "affine_map")
        + f" {NEW_LINE} (`input_vector` `=` $input_vector^)? {TIME_SYMBOLS} {ATTRS}"
        " (`\\n` `` custom<BodyUnless>($body, ref($input_vector))^)? `:`"
        " custom<PresentTypes>(type($mem_ref), type($input_vector))")
    custom_directives = DIRECTIVES

    def __init__(self, dst: Access, time: TimeLoop, time_addr_map: AffineMap,
                 store_set: AffineSet | None = None, store_order: AffineMap | None = None,
                 body: Block | None = None, input_vector: SSAValue | None = None,
                 dbg_name: str | None = None):
        super().__init__(
            operands=[dst.memref, dst.indices, opt(input_vector), time.symbols],
            regions=[body_region(body, [])],
            properties=props({"affine_map": dst.map_attr(),
                              **pattern("store", store_set, store_order),
                              **time_props(time, time_addr_map=time_addr_map),
                              "dbgName": str_attr(dbg_name)}))
        close_body(self)

    def verify_(self) -> None:
        rank = self.verify_direct()
        verify_time(self, [("time_addr_map", self.time_addr_map, rank)])
        no_arguments(self.body)
        if self.input_vector is not None:
            if self.store_set is not None or self.store_order is not None:
                raise VerifyException("either store_set + store_order or input_vector, "
                                      "not both")
            if len(self.body.block.ops) > 1 or yielded(self.body):
                raise VerifyException("with input_vector the region must be empty")
            return
        if self.store_set is None or self.store_order is None:
            raise VerifyException("either store_set + store_order or input_vector is required")
        n = verify_pattern("stored", rank, "store", self.store_set, self.store_order)
        verify_lanes("store", n, stored_vector(self.body, None), self.mem_ref)


@irdl_op_definition
class CompositeMemoryInterleaveOp(WithDebugName):
    """`agen.composite_memory_interleave {granularity = 64 : i32} { ... }`: the composite ops
    of the region (all of one kind) interleave in `granularity`-element chunks. Builder:
    `CompositeMemoryInterleaveOp(ops, granularity=None)`."""

    name = "agen.composite_memory_interleave"
    granularity = opt_prop_def(IntegerAttr[I32])
    body = region_def("single_block")
    traits = lazy_traits_def(lambda: (*MEMORY_EFFECTS, SingleBlockImplicitTerminator(YieldOp)))
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("custom<RegionIfNoDict>(ref($body)) attr-dict "
                       "custom<ImplicitBody>($body)")
    custom_directives = (RegionIfNoDict, ImplicitBody)

    def __init__(self, ops: Sequence[Operation], granularity: int | None = None,
                 dbg_name: str | None = None):
        super().__init__(regions=[Region(Block(ops))], properties=props({
            "granularity": i32_attr(granularity),
            "dbgName": str_attr(dbg_name)}))
        close_body(self)

    def verify_(self) -> None:
        if self.granularity is not None and self.granularity.value.data <= 0:
            raise VerifyException("granularity must be > 0")
        kinds = {type(op) for op in self.body.block.ops if not isinstance(op, YieldOp)}
        if not kinds <= set(composite_ops()):
            raise VerifyException("the region may only hold agen composite memory ops")
        if len(kinds) > 1:
            raise VerifyException("all interleaved ops must be of the same kind")


_MASK_GROUP = re.compile(r"\(([^()]*)\)")
_MASK_SPEC = re.compile(r"^\(\s*unmasked\s*=\s*(\d+)\s*(?::\s*i32\s*)?,\s*masked\s*=\s*(\d+)"
                        r"\s*(?::\s*i32\s*)?\)$")


@irdl_op_definition
class SetTransferMaskStateOp(WithDebugName):
    """`%mk = agen.set_transfer_mask_state mask_value(%c0) {num_slices = 8 : i32,
    slice_mask_map = "(A)(A)(A|B)(1)(0)(0)(0)(0)", maskA = "(unmasked = 6, masked = 2)",
    maskB = "(unmasked = 1, masked = 1)"} : index, vector<64xi1>`: the lane mask applied to this
    unit's transfers; slice k follows group k of `slice_mask_map` (0: none, 1: all, letters:
    masks, `|`: or). Not emitted; the emulator v1 does not run it. Builder:
    `SetTransferMaskStateOp(mask_value, num_slices, slice_mask_map, masks, result_type)` with
    `masks` a list of (unmasked, masked) pairs for A, B, ..."""

    name = "agen.set_transfer_mask_state"
    mask_value = operand_def(IndexType)
    num_slices = prop_def(IntegerAttr[I32])
    slice_mask_map = prop_def(StringAttr)
    num_unmasked_elements = opt_prop_def(ArrayAttr[IntegerAttr[I32]])
    num_masked_elements = opt_prop_def(ArrayAttr[IntegerAttr[I32]])
    result = result_def(VectorLike)
    traits = traits_def(MemoryWriteEffect())
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, mask_value: SSAValue, num_slices: int, slice_mask_map: str,
                 masks: Sequence[tuple[int, int]], result_type: Attribute):
        def arr(xs: Sequence[int]) -> ArrayAttr | None:
            return ArrayAttr([IntegerAttr(x, i32) for x in xs]) if masks else None

        super().__init__(operands=[mask_value], result_types=[result_type], properties=props({
            "num_slices": IntegerAttr(num_slices, i32),
            "slice_mask_map": StringAttr(slice_mask_map),
            "num_unmasked_elements": arr([u for u, _ in masks]),
            "num_masked_elements": arr([m for _, m in masks])}))

    @property
    def masks(self) -> list[tuple[int, int]]:
        """(unmasked, masked) element counts of masks A, B, ..."""
        if self.num_unmasked_elements is None or self.num_masked_elements is None:
            return []
        return [(u.value.data, m.value.data) for u, m in
                zip(self.num_unmasked_elements, self.num_masked_elements, strict=False)]

    @classmethod
    def parse(cls, parser: Parser) -> SetTransferMaskStateOp:
        """Hand-written: the dictionary's maskA, maskB, ... strings become two count arrays."""
        # attr-dict keeps a dictionary entry as it is; these turn into other properties

        parser.parse_keyword("mask_value")
        parser.parse_punctuation("(")
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        pos = parser.pos
        attrs = parser.parse_optional_attr_dict()
        specs: dict[str, tuple[int, int]] = {}
        for key in [k for k in attrs if re.fullmatch(r"mask[A-Z]", k)]:
            text = attrs.pop(key)
            m = _MASK_SPEC.match(text.data) if isinstance(text, StringAttr) else None
            if m is None:
                parser.raise_error(f"'{key}' must read \"(unmasked = N, masked = M)\"", pos,
                                   parser.pos)
            specs[key[4]] = (int(m.group(1)), int(m.group(2)))
        letters = sorted(specs)
        if letters != [chr(ord("A") + i) for i in range(len(letters))]:
            parser.raise_error("masks must be named maskA, maskB, ... without gaps", pos,
                               parser.pos)
        if letters:
            attrs["num_unmasked_elements"] = ArrayAttr([IntegerAttr(specs[k][0], i32)
                                                        for k in letters])
            attrs["num_masked_elements"] = ArrayAttr([IntegerAttr(specs[k][1], i32)
                                                      for k in letters])
        parser.parse_punctuation(":")
        parser.parse_type()  # the mask value is an index, whatever is written
        parser.parse_punctuation(",")
        rtype = parser.parse_type()
        return finish(cls, [parser.resolve_operand(value, IndexType())], attrs, [rtype])

    def print(self, printer: Printer) -> None:
        printer.print_string(" mask_value(")
        printer.print_ssa_value(self.mask_value)
        printer.print_string(")")
        masks = {f"mask{chr(ord('A') + i)}": StringAttr(f"(unmasked = {u}, masked = {m})")
                 for i, (u, m) in enumerate(self.masks)}
        printer.print_op_attributes(
            {**self.properties, **masks, **self.attributes},
            reserved_attr_names=("num_unmasked_elements", "num_masked_elements"))
        printer.print_string(" : index, ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        un, ma = self.num_unmasked_elements, self.num_masked_elements
        if (un is None) != (ma is None) or (un is not None and ma is not None
                                             and len(un) != len(ma)):
            raise VerifyException("num_unmasked_elements and num_masked_elements must both be "
                                  "present with equal lengths, or both absent")
        n = self.num_slices.value.data
        groups = _MASK_GROUP.findall(self.slice_mask_map.data)
        if n < 1 or "".join(f"({g})" for g in groups) != self.slice_mask_map.data \
                or len(groups) != n:
            raise VerifyException(f"slice_mask_map must be {n} groups like (0), (1), (A) or "
                                  "(A|B)")
        known = {chr(ord("A") + i) for i in range(len(self.masks))}
        for g in groups:
            if g not in ("0", "1") and not all(t in known for t in g.split("|")):
                raise VerifyException(f"slice mask '({g})' names a mask that is not defined")
        if any(u + m <= 0 for u, m in self.masks):
            raise VerifyException("each mask needs at least one element")


Agen = Dialect(
    "agen",
    [
        YieldOp,
        VectorLoadOp,
        VectorStoreOp,
        CompositeLoadAndStoreOp,
        CompositeLoadOp,
        CompositeStoreOp,
        CompositeIndirectLoadAndStoreOp,
        CompositeIndirectLoadOp,
        CompositeIndirectStoreOp,
        IndirectVectorLoadOp,
        IndirectVectorStoreOp,
        SymbolicVectorLoadOp,
        SymbolicVectorStoreOp,
        CompositeMemoryInterleaveOp,
        SetTransferMaskStateOp,
    ],
    [AgenDirectionAttr],
)
