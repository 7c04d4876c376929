"""`address-assignment`: give every buffer in a device memory its address.

Each `memref.alloc` whose memory space is a device memory kind (`"L1"`, `"SFU_REG"`) gets an
address in that memory: a bump allocation per kind and per compute group, aligned to a stick
(128 bytes, or the memory's access granularity when larger). Addresses count elements of the
buffer's element type (ktir.md D1). The alloc becomes
    %a = arith.constant <address> : index
    %buf = builtin.unrealized_conversion_cast %a : index to memref<..., "L1">
and deallocs are erased. A memory that cannot hold its buffers is a located error naming every
buffer and its size, and so is a view of a device memory larger than that memory (a kernel
buffer in global memory). Capacities come from the device model (`size` of the memory kind).
A scratchpad's buffers start after the ranges its constant-address views name (data left
on chip by an earlier operator: `reserved_bytes`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
    StringAttr,
    UnrealizedConversionCastOp,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir.diagnostics import op_error, op_location
from ktir.dialects import ktdp
from ktir.dialects.ktdp_types import int_list
from scheduler.analysis.device import device_of
from scheduler.analysis.index_exprs import index_constant
from scheduler.dialects.ktdf_types import const_int
from scheduler.rewriting import apply_patterns, replace_keeping_names

STICK_BYTES = 128


def element_bytes(t: MemRefType) -> int:
    """Bytes per element; an i1 takes a byte, as the interpreter and emulator store it."""
    width = getattr(t.element_type, "bitwidth", None)
    if width == 1:
        return 1
    if width is None or width % 8:
        raise ValueError(f"cannot size elements of {t.element_type}")
    return width // 8


def buffer_bytes(t: MemRefType) -> int:
    shape = t.get_shape()
    if any(d < 0 for d in shape):
        raise ValueError(f"cannot place a buffer of dynamic shape {t}")
    return math.prod(shape) * element_bytes(t)


def _align_up(x: int, a: int) -> int:
    return -(-x // a) * a


@dataclass
class _Placed:
    op: memref.AllocOp
    offset: int  # bytes
    size: int


def _describe(p: _Placed) -> str:
    name = p.op.memref.name_hint or "buffer"
    loc = op_location(p.op)
    where = f" at {loc[0]}:{loc[1]}:{loc[2]}" if loc else ""
    return f"%{name} ({p.size} B{where})"


def check_views(fn: func.FuncOp, device) -> None:
    """A view of a device memory (the kernel's buffers in global memory) holds at least its
    shape's elements: one larger than its memory can never be placed."""
    for op in fn.walk():
        for r in op.results:
            t = r.type
            if not (isinstance(t, MemRefType) and isinstance(t.memory_space, StringAttr)):
                continue
            mem = device.memories.get(t.memory_space.data)
            if mem is None or mem.size is None or any(d < 0 for d in t.get_shape()):
                continue
            size = math.prod(t.get_shape()) * element_bytes(t)
            if size > mem.size:
                raise op_error(op, f'a view of {size} B ({t}) does not fit in memory '
                               f'"{mem.kind}" of device @{device.name}, which holds '
                               f"{mem.size} B")


def reserved_bytes(module: ModuleOp, device) -> dict[str, int]:
    """Per scratchpad kind, the end (bytes) of the ranges the kernel's constant-address views
    name there (data an earlier operator left on chip, `<ct_local, ct_id = k>` at element
    12288): buffers are placed after them, in every compute group (a later group may read
    what an earlier one must not overwrite). Global memory holds the kernel's buffers at
    addresses the host chooses and reserves nothing here."""
    out: dict[str, int] = {}
    for cast in module.walk():
        if not isinstance(cast, memref.MemorySpaceCastOp):
            continue
        t = cast.dest.type
        view = cast.source.owner
        if not isinstance(view, ktdp.ConstructMemoryViewOp) or not isinstance(
                t, MemRefType) or not isinstance(t.memory_space, StringAttr):
            continue
        mem = device.memories.get(t.memory_space.data)
        offset = const_int(view.offset)
        sizes, strides = int_list(view.static_sizes), int_list(view.static_strides)
        if mem is None or mem.depth == 0 or offset is None or view.sizes or view.strides:
            continue
        last = offset + sum((n - 1) * st for n, st in zip(sizes, strides) if n > 0)
        end = (last + 1) * element_bytes(t)
        out[mem.kind] = max(out.get(mem.kind, 0), end)
    return out


def bump(used: dict[str, int], t: MemRefType) -> tuple[int, int]:
    """Place a buffer of type `t` after the `used` bytes of its memory (stick-aligned):
    its offset and size in bytes, `used` advanced past it."""
    kind = t.memory_space.data  # type: ignore[union-attr]
    offset = _align_up(used.get(kind, 0), max(STICK_BYTES, element_bytes(t)))
    size = buffer_bytes(t)
    used[kind] = offset + size
    return offset, size


def plan_function(fn: func.FuncOp, device, reserved: dict[str, int] | None = None
                  ) -> dict[memref.AllocOp, int]:
    """The element address of each of the function's device-memory buffers: the bump
    allocation sees every buffer of a memory at once (offsets follow one another, and a full
    memory is reported with all its buffers), from the end of the memory's `reserved`
    bytes on."""
    check_views(fn, device)
    used: dict[str, int] = dict(reserved or {})
    placed: dict[str, list[_Placed]] = {}
    for alloc in [o for o in fn.walk() if isinstance(o, memref.AllocOp)]:
        t = alloc.memref.type
        if not isinstance(t.memory_space, StringAttr):
            continue
        kind = t.memory_space.data
        mem = device.memories.get(kind)
        if mem is None:
            raise op_error(alloc, f'memory space "{kind}" is not a memory of device '
                                  f"@{device.name} ({', '.join(device.memories)})")
        if alloc.dynamic_sizes:
            raise op_error(alloc, "buffers with dynamic sizes cannot be placed yet")
        offset, size = bump(used, t)
        placed.setdefault(kind, []).append(_Placed(alloc, offset, size))
        if mem.size is not None and used[kind] > mem.size:
            listing = ", ".join(_describe(p) for p in placed[kind])
            raise op_error(alloc, f'memory "{kind}" of device @{device.name} is full: the '
                                  f"buffers of this compute group need {used[kind]} B of its "
                                  f"{mem.size} B ({listing})")
    return {p.op: p.offset // element_bytes(p.op.memref.type)
            for items in placed.values() for p in items}


class PlaceBuffer(RewritePattern):
    """A planned `memref.alloc` becomes its address and a cast of it to the buffer type."""

    def __init__(self, plan: dict[memref.AllocOp, int]):
        self.plan = plan

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.AllocOp, rewriter: PatternRewriter) -> None:
        address = self.plan.get(op)
        if address is None:
            return
        addr = index_constant(address)
        cast = UnrealizedConversionCastOp.get([addr.result], [op.memref.type])
        cast.results[0].name_hint = op.memref.name_hint
        addr.location = cast.location = op.location
        replace_keeping_names(rewriter, op, [addr, cast])


class EraseDealloc(RewritePattern):
    """Placed buffers live as long as the program: their deallocs go."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DeallocOp, rewriter: PatternRewriter) -> None:
        rewriter.erase(op)


class AddressAssignmentPass(ModulePass):
    """Place every device-memory buffer (`memref.alloc` in `"L1"`, ...) at an address.

    Before:  %buf = memref.alloc() : memref<1x64xf16, "L1">
    After:   %c = arith.constant 0 : index
             %buf = builtin.unrealized_conversion_cast %c : index to memref<1x64xf16, "L1">
    A module pass around two patterns: the plan is a whole-function analysis (a bump
    allocation over all buffers of a memory, and a full memory reported with all of them),
    then `PlaceBuffer` and `EraseDealloc` rewrite. Idempotent: once no alloc is left,
    nothing changes.
    """

    name = "address-assignment"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, self.name)
        plan: dict[memref.AllocOp, int] = {}
        reserved = reserved_bytes(op, device)
        for fn in op.walk():
            if isinstance(fn, func.FuncOp) and not fn.is_declaration:
                plan |= plan_function(fn, device, reserved)
        apply_patterns(op, [PlaceBuffer(plan), EraseDealloc()])
