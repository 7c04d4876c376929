"""Code generation for the DataflowIR ops: `dataflow` (units, views, FIFOs, signals, opaque),
`vectorchain` (compute), `uniform`, `symbol` and the view ops of `memref`
(shared/spec/dataflow-ir.md §2-§7); memory accesses are in codegen_access.py. Every static fact is computed here once per op
site and bound as a constant of the generated module."""

from __future__ import annotations

import sys

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue

from emulator import codegen_inline as inline
from emulator.access import ViewSpec
from emulator.codegen import Gen, handles
from emulator.errors import UnsupportedOpError
from emulator.numerics import constant_lanes, type_key, vector_kernel
from spyrecode.dialects.dataflow_types import element_bit_width, element_type, is_vector_like, lanes

# ---- units, views, channels, signals -------------------------------------------------------


@handles("dataflow.get_unit")
def _get_unit(g: Gen, op: Operation) -> None:
    r = g.define(op.results[0])
    g.emit(f"{r} = M.handle({op.unit_name!r}, {op.kind!r}, {op.core!r}, "  # type: ignore
           f"{op.corelet!r})", op)  # type: ignore[attr-defined]


def view_spec(g: Gen, value: SSAValue) -> ViewSpec | None:
    return g.cg.specs.get(value)


@handles("dataflow.get_logical_memory_view")
def _view(g: Gen, op: Operation) -> None:
    t = op.results[0].type
    assert isinstance(t, MemRefType)
    spec = ViewSpec.of_map(op.layout, t, op)  # type: ignore[attr-defined]
    g.cg.specs[op.results[0]] = spec
    r = g.define(op.results[0])
    u, start = g.v(op.operands[0]), g.v(op.operands[1])
    mem = f"{r}_m = {u}.mem or NOMEM({u})"
    g.emit_optional(f"{mem}; {r} = ({r}_m, {start}, {g.cg.const(spec)})", r, mem, op)
    g.viewparts[op.results[0]] = (f"{r}_m", start)
    g.scalar()


def _nbytes(t: object, op: Operation) -> int:
    bits = element_bit_width(t)  # type: ignore[arg-type]
    n = lanes(t)  # type: ignore[arg-type]
    if bits is None or n is None:
        raise UnsupportedOpError(f"cannot size a message of type {t}", op=op)
    return max(1, n * bits // 8)


@handles("dataflow.send")
def _send(g: Gen, op: Operation) -> None:
    g.need_program(op, "dataflow.send")
    peer, val = op.operands
    inline.send(g, op, g.v(peer), g.v(val), g.w(val), g.cg.const(sys.intern(type_key(val.type))),
                _nbytes(val.type, op), g.cg.opindex(op))


@handles("dataflow.receive")
def _receive(g: Gen, op: Operation) -> None:
    g.need_program(op, "dataflow.receive")
    res = op.results[0]
    tk = g.cg.const(sys.intern(type_key(res.type)))
    k = g.cg.opindex(op)
    r = g.define(res)
    inline.receive(g, op, g.v(op.operands[0]), r, "w" + r[1:], tk, k)


@handles("dataflow.sync_send")
def _sync_send(g: Gen, op: Operation) -> None:
    g.need_program(op, "dataflow.sync_send")
    inline.sync_send(g, op, g.v(op.operands[0]), op.waits_for_transfers)  # type: ignore


@handles("dataflow.sync_recv")
def _sync_recv(g: Gen, op: Operation) -> None:
    g.need_program(op, "dataflow.sync_recv")
    inline.sync_take(g, op, g.v(op.operands[0]), g.cg.opindex(op))


@handles("dataflow.opaque")
def _opaque(g: Gen, op: Operation) -> None:
    from emulator.runtime import OPAQUE

    g.need_program(op, "dataflow.opaque")
    fn = OPAQUE.get(op.routine)  # type: ignore[attr-defined]
    if fn is None:
        raise UnsupportedOpError(f"no Python implementation is registered for routine "
                                 f"'{op.routine}' (emulator.register_opaque)", op=op)  # type: ignore
    site = g.cg.site("opaque", 1, "f16", f"opaque {op.routine}")  # type: ignore[attr-defined]
    g.helper(f"{g.cg.const(fn, 'OPAQUE')}(P)", op)
    inline.vop(g, op, site, "p_t", g.tmp("_w"))


# ---- vectorchain ------------------------------------------------------------------------------


def _vector_op(g: Gen, op: Operation) -> None:
    res = op.results[0]
    if op.name == "vectorchain.constant_bitstream":
        fn, cls, args = (lambda c=constant_lanes(op): c), "simple", []
    else:
        fn, cls = vector_kernel(op)
        args = list(op.operands)
    r = g.define(res)
    call = f"{g.cg.const(fn, 'KERNEL')}({', '.join(g.v(a) for a in args)})"
    readies = [g.w(a) for a in args if is_vector_like(a.type)]
    if len(readies) == 2:
        ready = f"({readies[0]} if {readies[0]} > {readies[1]} else {readies[1]})"
    else:
        ready = "0.0" if not readies else readies[0] if len(readies) == 1 else \
            f"max({', '.join(readies)})"
    if g.mode != "program":
        g.emit(f"{r} = {call}; w{r[1:]} = 0.0", op)
        return
    site = g.cg.site(cls, lanes(res.type) or 1, str(element_type(res.type)),
                     op.name.split(".")[1])
    g.emit(f"{r} = {call}", op)
    inline.vop(g, op, site, ready, "w" + r[1:])


for _name in ("binary", "multiply", "multiply_and_accumulate", "element_wise_compare",
              "element_wise_selection", "fast_exp", "floor", "neg", "rec_estimate",
              "ln_estimate", "rsqrt_estimate", "exp_estimate", "sigmoid_estimate",
              "tanh_estimate", "cast", "lane_function", "constant_bitstream", "shuffle", "rotate",
              "scan_with_gap", "create_affine_mask"):
    handles(f"vectorchain.{_name}")(_vector_op)


# ---- uniform and symbol -----------------------------------------------------------------------


@handles("uniform.def_immutable_mapping", "symbol.symbol_immutable_mapping")
def _mapping(g: Gen, op: Operation) -> None:
    pairs = ", ".join(f"{g.v(k)}: {g.v(v)}" for k, v in op.pairs)  # type: ignore
    r = g.define(op.results[0])
    g.emit(f"{r} = {{{pairs}}}", op)


@handles("uniform.query_map", "symbol.query_map")
def _query(g: Gen, op: Operation) -> None:
    r = g.define(op.results[0])
    g.emit(f"{r} = QM({g.v(op.operands[0])}, {g.v(op.operands[1])})", op)
    g.scalar()


@handles("uniform.uniformize_regions", "uniform.equalize_pattern")
def _uniformize(g: Gen, op: Operation) -> None:
    g.need_program(op, op.name)
    res = g.results(op)
    lists = op.unit_lists()  # type: ignore[attr-defined]
    for i, units in enumerate(lists):
        cond = " or ".join(f"P.unit is {g.v(u)}" for u in units) or "False"
        g.emit(f"{'if' if i == 0 else 'elif'} {cond}:", op)
        region = op.regions[i].block
        if region.args:
            g.names[region.args[0]] = "P.unit"
        g.ind += 1
        g.targets.append(res)
        g.block(region)
        g.targets.pop()
        g.ind -= 1
    g.emit("else:", op)
    g.emit("    NOREGION(P.unit)", op)


@handles("uniform.yield")
def _uniform_yield(g: Gen, op: Operation) -> None:
    if g.targets and g.targets[-1]:
        g.assign(g.targets[-1], list(op.operands), op)


@handles("symbol.create_id")
def _create_id(g: Gen, op: Operation) -> None:
    g.emit(f"S[{op.id}] = {g.v(op.operands[0])}", op)  # type: ignore[attr-defined]


@handles("symbol.create_symbol")
def _create_symbol(g: Gen, op: Operation) -> None:
    r = g.define(op.results[0])
    g.emit(f"{r} = SYM(S, {op.id})", op)  # type: ignore[attr-defined]


# ---- memref views -----------------------------------------------------------------------------


def _static_spec(g: Gen, value: SSAValue, op: Operation) -> ViewSpec:
    spec = view_spec(g, value)
    if spec is None:
        raise UnsupportedOpError("the emulator needs the view this op reads to come from a "
                                 "dataflow.get_logical_memory_view (or a view op over one)",
                                 op=op)
    return spec


@handles("memref.cast", "memref.memory_space_cast")
def _cast(g: Gen, op: Operation) -> None:
    g.names[op.results[0]] = g.v(op.operands[0])
    if op.operands[0] in g.viewparts:
        g.viewparts[op.results[0]] = g.viewparts[op.operands[0]]
    g.cg.specs[op.results[0]] = _static_spec(g, op.operands[0], op)


def _static(op: Operation, what: str) -> tuple[int, ...]:
    vals = tuple(int(x) for x in op.properties[f"static_{what}"].get_values())  # type: ignore
    if any(x < -(1 << 62) for x in vals) or getattr(op, what):
        raise UnsupportedOpError(f"dynamic {what} are not supported by the emulator", op=op)
    return vals


@handles("memref.subview", "memref.reinterpret_cast")
def _respec(g: Gen, op: Operation) -> None:
    src = _static_spec(g, op.operands[0], op)
    t = op.results[0].type
    assert isinstance(t, MemRefType)
    offs, strides = _static(op, "offsets"), _static(op, "strides")
    if op.name == "memref.subview":
        spec = src.compose(offs, strides, t, op)
    else:
        spec = ViewSpec(strides, offs[0] if offs else 0, t, op)
    g.cg.specs[op.results[0]] = spec
    r = g.define(op.results[0])
    src_v = g.v(op.operands[0])
    g.emit(f"{r} = ({src_v}[0], {src_v}[1], {g.cg.const(spec)})", op)
