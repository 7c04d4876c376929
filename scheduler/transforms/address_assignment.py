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
from xdsl.rewriter import InsertPoint, Rewriter

from ktir.diagnostics import op_error, op_location
from scheduler.analysis.device import device_of
from scheduler.analysis.index_exprs import index_constant

STICK_BYTES = 128


def element_bytes(t: MemRefType) -> int:
    width = getattr(t.element_type, "bitwidth", None)
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


def assign_function(fn: func.FuncOp, device) -> dict[str, int]:
    """Place the function's buffers; returns the bytes used per memory kind."""
    check_views(fn, device)
    used: dict[str, int] = {}
    placed: dict[str, list[_Placed]] = {}
    allocs = [o for o in fn.walk() if isinstance(o, memref.AllocOp)]
    for alloc in allocs:
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
        align = max(STICK_BYTES, element_bytes(t))
        offset = _align_up(used.get(kind, 0), align)
        size = buffer_bytes(t)
        used[kind] = offset + size
        placed.setdefault(kind, []).append(_Placed(alloc, offset, size))
        if mem.size is not None and used[kind] > mem.size:
            listing = ", ".join(_describe(p) for p in placed[kind])
            raise op_error(alloc, f'memory "{kind}" of device @{device.name} is full: the '
                                  f"buffers of this compute group need {used[kind]} B of its "
                                  f"{mem.size} B ({listing})")
    for kind, items in placed.items():
        for p in items:
            t = p.op.memref.type
            addr = index_constant(p.offset // element_bytes(t))
            cast = UnrealizedConversionCastOp.get([addr.result], [t])
            cast.results[0].name_hint = p.op.memref.name_hint
            addr.location = cast.location = p.op.location
            Rewriter.insert_op([addr, cast], InsertPoint.before(p.op))
            p.op.memref.replace_all_uses_with(cast.results[0])
            Rewriter.erase_op(p.op)
    for dealloc in [o for o in fn.walk() if isinstance(o, memref.DeallocOp)]:
        Rewriter.erase_op(dealloc)
    return used


class AddressAssignmentPass(ModulePass):
    """Place every device-memory buffer (`memref.alloc` in `"L1"`, ...) at an address.

    Before:  %buf = memref.alloc() : memref<1x64xf16, "L1">
    After:   %c = arith.constant 0 : index
             %buf = builtin.unrealized_conversion_cast %c : index to memref<1x64xf16, "L1">
    Idempotent: once no alloc is left, nothing changes.
    """

    name = "address-assignment"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, self.name)
        for fn in list(op.walk()):
            if isinstance(fn, func.FuncOp) and not fn.is_declaration:
                assign_function(fn, device)


