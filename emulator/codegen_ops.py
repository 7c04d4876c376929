"""Code generation for the DataflowIR ops: `dataflow` (units, views, FIFOs, signals),
`agen` (vector access, DMA), `vectorchain` (compute), `uniform`, `symbol` and the view ops of
`memref` (shared/spec/dataflow-ir.md §2-§7). Every static fact is computed here once per op
site and bound as a constant of the generated module."""

from __future__ import annotations

import sys
from collections.abc import Iterable

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue

from emulator import codegen_inline as inline
from emulator.access import Access, Plan, ViewSpec
from emulator.codegen import Gen, handles, map_py, tuple_src
from emulator.errors import UnsupportedOpError
from emulator.numerics import constant_lanes, etype, type_key, vector_kernel
from ktir import affine
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
    g.helper(f"{g.cg.const(fn)}(P); P.vop(P.t, T[{site}])", op)


# ---- agen -------------------------------------------------------------------------------------


def _comps(g: Gen, amap: object, operands: Iterable[SSAValue]) -> list[str]:
    """Sources of the base coordinates an agen op's map gives."""
    return map_py(amap, [g.v(x) for x in operands])


def plan(g: Gen, view: SSAValue, acc: Access) -> str:
    """The access plan through a view: a constant when the view's layout is known here."""
    spec = view_spec(g, view)
    if spec is not None:
        return g.cg.const(acc.plan(spec))
    return f"PLANOF({g.cg.const(acc)}, {g.v(view)})"


def parts(g: Gen, view: SSAValue) -> tuple[str, str]:
    """Sources of a view's memory and start address."""
    return g.viewparts.get(view) or (f"{g.v(view)}[0]", f"{g.v(view)}[1]")


def static_plan(g: Gen, pconst: str) -> Plan | None:
    p = g.cg.g.get(pconst)
    return p if isinstance(p, Plan) else None


def _no_multicast(op: Operation) -> None:
    if getattr(op, "multicast_info", None) is not None:
        raise UnsupportedOpError("multicast transfers are not supported by the emulator", op=op)


def _rank(v: SSAValue) -> int:
    assert isinstance(v.type, MemRefType)
    return v.type.get_num_dims()


@handles("agen.vector_load")
def _vector_load(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.vector_load")
    _no_multicast(op)
    acc = Access(op.load_set.data, op.load_order.data, _rank(op.mem_ref), op)  # type: ignore
    comps = _comps(g, op.affine_map.data, op.map_operands)  # type: ignore[attr-defined]
    pc = plan(g, op.mem_ref, acc)  # type: ignore[attr-defined]
    view = g.v(op.mem_ref)  # type: ignore[attr-defined]
    r = g.define(op.results[0])
    p = static_plan(g, pc)
    if p is None:
        g.helper(f"{r}, w{r[1:]} = P.vload({view}, {tuple_src(comps)}, {pc})", op)
        return
    inline.vload(g, op, parts(g, op.mem_ref), inline.address(g, op, p, pc, comps), p, pc, r,
                 "w" + r[1:])  # type: ignore[attr-defined]


@handles("agen.vector_store")
def _vector_store(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.vector_store")
    acc = Access(op.store_set.data, op.store_order.data, _rank(op.mem_ref), op)  # type: ignore
    comps = _comps(g, op.affine_map.data, op.map_operands)  # type: ignore[attr-defined]
    pc = plan(g, op.mem_ref, acc)  # type: ignore[attr-defined]
    view = g.v(op.mem_ref)  # type: ignore[attr-defined]
    v = op.value_to_store  # type: ignore[attr-defined]
    p = static_plan(g, pc)
    if p is None:
        g.helper(f"P.vstore({view}, {tuple_src(comps)}, {pc}, {g.v(v)}, {g.w(v)})", op)
        return
    inline.vstore(g, op, parts(g, op.mem_ref), inline.address(g, op, p, pc, comps), p, pc,
                  g.v(v), g.w(v))  # type: ignore[attr-defined]


class Steps:
    """(load offset, store offset) per time point, in time order; () stands for zero."""

    def __init__(self, op: Operation, lmap: object, smap: object):
        self.op, self.lmap, self.smap = op, lmap, smap
        self.cache: dict[tuple[int, ...], list] = {}

    def __call__(self, syms: tuple[int, ...]) -> list:
        out = self.cache.get(syms)
        if out is None:
            ts = self.op.time_set.data  # type: ignore[attr-defined]
            to = self.op.time_order.data  # type: ignore[attr-defined]
            pts, _, _ = affine.enumerate_points(ts, to, syms)
            out = [(self._off(self.lmap, p, syms), self._off(self.smap, p, syms)) for p in pts]
            self.cache[syms] = out
        return out

    @staticmethod
    def _off(amap: object, p: object, syms: tuple[int, ...]) -> tuple[int, ...]:
        if amap is None:
            return ()
        vals = tuple(int(x) for x in affine.eval_map_np(amap.data, list(p), syms))  # type: ignore
        return vals if any(vals) else ()


def _steps(g: Gen, op: Operation, lmap: object, smap: object) -> str:
    st = Steps(op, lmap, smap)
    syms = [g.v(x) for x in op.time_symbols]  # type: ignore[attr-defined]
    if not syms:
        return g.cg.const(st(()))
    return f"{g.cg.const(st)}({tuple_src(syms)})"


def _async(op: Operation) -> bool:
    """A region that does nothing but yield: an asynchronous DMA (E9)."""
    ops = list(op.regions[0].block.ops)
    return len(ops) == 1 and ops[0].name == "agen.yield" and not ops[0].operands


def _shift(base: str, off: str) -> str:
    return f"SHIFT({base}, {off})"


def _region_step(g: Gen, op: Operation, iv: SSAValue | None, names: tuple[str, str] | None
                 ) -> tuple[str, str] | None:
    """Run the composite op's region once; returns (value, ready) it yields, if any."""
    block = op.regions[0].block
    if iv is not None and names is not None:
        g.names[iv] = names[0]
    term = block.last_op
    out = None
    target: list = []
    if term is not None and term.name == "agen.yield" and term.operands:
        y = g.tmp("v")
        out = (y, "w" + y[1:])
        target = [out]
    g.ind += 1
    g.targets.append(target)
    g.block(block)
    g.targets.pop()
    g.ind -= 1
    return out


@handles("agen.composite_load_and_store")
def _composite_ls(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.composite_load_and_store")
    _no_multicast(op)
    lacc = Access(op.load_set.data, op.load_order.data, _rank(op.src_mem_ref), op)  # type: ignore
    sacc = Access(op.store_set.data, op.store_order.data, _rank(op.dst_mem_ref), op)  # type: ignore
    scomps = _comps(g, op.src_map.data, op.src_map_operands)  # type: ignore[attr-defined]
    dcomps = _comps(g, op.dst_map.data, op.dst_map_operands)  # type: ignore[attr-defined]
    sbase, dbase = tuple_src(scomps), tuple_src(dcomps)
    steps = _steps(g, op, op.load_time_addr_map, op.store_time_addr_map)  # type: ignore
    sv, dv = g.v(op.src_mem_ref), g.v(op.dst_mem_ref)  # type: ignore[attr-defined]
    la = plan(g, op.src_mem_ref, lacc)  # type: ignore[attr-defined]
    sa = plan(g, op.dst_mem_ref, sacc)  # type: ignore[attr-defined]
    if _async(op):
        lp, sp = static_plan(g, la), static_plan(g, sa)
        if lp is not None and sp is not None and lp.contiguous and sp.contiguous \
                and lp.storage == sp.storage and lp.n == sp.n and steps in g.cg.g \
                and g.cg.g[steps] == [((), ())]:
            inline.dma1(g, op, parts(g, op.src_mem_ref), scomps,  # type: ignore[attr-defined]
                        parts(g, op.dst_mem_ref), dcomps, lp, sp, la, sa)  # type: ignore
        else:
            g.helper(f"P.dma({sv}, {sbase}, {dv}, {dbase}, {steps}, {la}, {sa})", op)
        return
    lo, so, iv = g.tmp("_lo"), g.tmp("_so"), g.tmp("v")
    g.emit(f"for {lo}, {so} in {steps}:", op)
    g.helper(f"{iv}, w{iv[1:]} = P.vload({sv}, {_shift(sbase, lo)}, {la})", op, "    ")
    out = _region_step(g, op, op.load_iv, (iv, "w" + iv[1:]))  # type: ignore[attr-defined]
    val = out or (iv, "w" + iv[1:])
    g.helper(f"P.vstore({dv}, {_shift(dbase, so)}, {sa}, {val[0]}, {val[1]})", op, "    ")


@handles("agen.composite_load")
def _composite_load(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.composite_load")
    _no_multicast(op)
    acc = Access(op.load_set.data, op.load_order.data, _rank(op.mem_ref), op)  # type: ignore
    base = tuple_src(_comps(g, op.affine_map.data, op.map_operands))  # type: ignore
    steps = _steps(g, op, op.time_addr_map, None)  # type: ignore[attr-defined]
    lo, so, iv = g.tmp("_lo"), g.tmp("_so"), g.tmp("v")
    g.emit(f"for {lo}, {so} in {steps}:", op)
    g.helper(f"{iv}, w{iv[1:]} = P.vload({g.v(op.mem_ref)}, {_shift(base, lo)}, "  # type: ignore
             f"{plan(g, op.mem_ref, acc)})", op, "    ")  # type: ignore[attr-defined]
    _region_step(g, op, op.load_iv, (iv, "w" + iv[1:]))  # type: ignore[attr-defined]


@handles("agen.composite_store")
def _composite_store(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.composite_store")
    rank = _rank(op.mem_ref)  # type: ignore[attr-defined]
    vec = op.input_vector  # type: ignore[attr-defined]
    if vec is not None:
        acc = Access(None, None, rank, op, count=lanes(vec.type)) if rank == 1 else None
        if acc is None:
            raise UnsupportedOpError("composite_store with input_vector needs a 1-D memref",
                                     op=op)
    else:
        acc = Access(op.store_set.data, op.store_order.data, rank, op)  # type: ignore
    base = tuple_src(_comps(g, op.affine_map.data, op.map_operands))  # type: ignore
    steps = _steps(g, op, None, op.time_addr_map)  # type: ignore[attr-defined]
    lo, so = g.tmp("_lo"), g.tmp("_so")
    g.emit(f"for {lo}, {so} in {steps}:", op)
    if vec is not None:
        val: tuple[str, str] | None = (g.v(vec), g.w(vec))
        g.emit("    pass", op)
    else:
        val = _region_step(g, op, None, None)
        if val is None:
            raise UnsupportedOpError("the region must yield the vector to store", op=op)
    g.helper(f"P.vstore({g.v(op.mem_ref)}, {_shift(base, so)}, "  # type: ignore
             f"{plan(g, op.mem_ref, acc)}, {val[0]}, {val[1]})", op, "    ")  # type: ignore


@handles("agen.yield")
def _agen_yield(g: Gen, op: Operation) -> None:
    target = g.targets[-1] if g.targets else None
    if target and op.operands:
        g.assign(target, list(op.operands), op)


@handles("agen.composite_memory_interleave")
def _interleave(g: Gen, op: Operation) -> None:
    g.targets.append([])
    g.block(op.regions[0].block)
    g.targets.pop()


def _symbolic(g: Gen, op: Operation, kind: str, value: SSAValue) -> tuple[str, str]:
    aset = getattr(op, f"{kind}_set")
    order = getattr(op, f"{kind}_order")
    acc = Access(aset.data if aset else None, order.data if order else None, 1, op,
                 count=lanes(value.type))
    terms = [f"{g.v(i)} * {g.v(s)}" for i, s in zip(op.indices, op.strides,  # type: ignore
                                                     strict=True)]
    return f"({' + '.join(terms)},)", plan(g, op.memref, acc)  # type: ignore[attr-defined]


@handles("agen.symbolic_vector_load")
def _symbolic_load(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.symbolic_vector_load")
    _no_multicast(op)
    base, acc = _symbolic(g, op, "load", op.results[0])
    r = g.define(op.results[0])
    g.helper(f"{r}, w{r[1:]} = P.vload({g.v(op.memref)}, {base}, {acc})", op)  # type: ignore


@handles("agen.symbolic_vector_store")
def _symbolic_store(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.symbolic_vector_store")
    v = op.value_to_store  # type: ignore[attr-defined]
    base, acc = _symbolic(g, op, "store", v)
    g.helper(f"P.vstore({g.v(op.memref)}, {base}, {acc}, {g.v(v)}, {g.w(v)})", op)  # type: ignore


# ---- vectorchain ------------------------------------------------------------------------------


def _vector_op(g: Gen, op: Operation) -> None:
    res = op.results[0]
    if op.name == "vectorchain.constant_bitstream":
        fn, cls, args = (lambda c=constant_lanes(op): c), "simple", []
    else:
        fn, cls = vector_kernel(op)
        args = list(op.operands)
    r = g.define(res)
    call = f"{g.cg.const(fn)}({', '.join(g.v(a) for a in args)})"
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
              "tanh_estimate", "cast", "constant_bitstream", "shuffle", "rotate",
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


@handles("memref.load")
def _mload(g: Gen, op: Operation) -> None:
    g.need_program(op, "memref.load")
    acc = plan(g, op.operands[0], Access.single(_rank(op.operands[0]), op))
    idx = tuple_src(g.v(i) for i in op.operands[1:])
    r = g.define(op.results[0])
    etype(op.results[0].type, op)
    g.helper(f"{r} = P.scalar_load({g.v(op.operands[0])}, {idx}, {acc})", op)


@handles("memref.store")
def _mstore(g: Gen, op: Operation) -> None:
    g.need_program(op, "memref.store")
    acc = plan(g, op.operands[1], Access.single(_rank(op.operands[1]), op))
    idx = tuple_src(g.v(i) for i in op.operands[2:])
    g.helper(f"P.scalar_store({g.v(op.operands[1])}, {idx}, {acc}, {g.v(op.operands[0])})",
             op)
