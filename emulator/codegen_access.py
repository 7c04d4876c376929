"""Code generation for memory accesses: `agen` (vector loads and stores, composite and
symbolic accesses, DMA) and `memref.load/store` (shared/spec/dataflow-ir.md §3, §5, §7
E5-E9).

Each kind of access has one template (codegen_inline.py). Through a view whose layout is
known here the template is written into the program with the access plan folded in. Through a
view known only when the program runs (one passed to a function), the access calls `GEN`
(`Generic`), which compiles the same template for the plan the access meets, once per plan,
into a function of its own: so every access runs the code of its one template.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue

from emulator import codegen_inline as inline
from emulator.access import Access, Plan
from emulator.codegen import STATE_OUT, Codegen, Gen, handles, map_py, tuple_src
from emulator.codegen_ops import view_spec
from emulator.errors import UnsupportedOpError
from emulator.numerics import etype
from ktir import affine
from spyrecode.dialects.dataflow_types import lanes


class Generic:
    """Accesses through views known only at run time: the templates compiled per plan (and
    kind), on first use. Each function takes the process and the run-time values: the view
    (`V`: memory, start, spec), the base coordinates (`B`) and, to store, the value and its
    ready cycle (`X`, `W`); a DMA takes two views and bases and its steps (`ST`)."""

    def __init__(self, cg: Codegen):
        self.cg = cg
        self.fns: dict[tuple, Callable] = {}

    def _fn(self, kind: str, plans: tuple[Plan, ...], params: str,
            body: Callable[[Gen, list[str]], str | None]) -> Callable:
        fn = self.fns.get((kind, *plans))
        if fn is not None:
            return fn
        g = Gen(self.cg, "program")
        ret = body(g, [self.cg.const(p) for p in plans])
        g.flush_events()
        g.emit(STATE_OUT)
        g.emit(f"return {ret}" if ret else "return")
        n = len(self.fns) + 1
        about = (f"{kind} through a view known only at run time, for "
                 + " to ".join(repr(p) for p in plans))
        fn = self.fns[(kind, *plans)] = self.cg.build(f"{kind}_{n}", params, g,
                                                      f"generic.{kind}.{n}", about)
        return fn

    @staticmethod
    def _base(g: Gen, tup: str, plan: Plan) -> list[str]:
        names = [f"{tup.lower()}{d}" for d in range(len(plan.form.coeffs))]
        if names:
            g.emit(f"{', '.join(names)}, = {tup}")
        return names

    def _load(self, g: Gen, pc: str, plan: Plan) -> None:
        addr = inline.address(g, None, plan, pc, self._base(g, "B", plan))
        inline.vload(g, None, ("V[0]", "V[1]"), addr, plan, pc, "x", "w")

    def vload(self, plan: Plan) -> Callable:
        def body(g: Gen, pcs: list[str]) -> str:
            self._load(g, pcs[0], plan)
            return "x, w"
        return self._fn("vector_load", (plan,), "P, V, B", body)

    def vstore(self, plan: Plan) -> Callable:
        def body(g: Gen, pcs: list[str]) -> None:
            addr = inline.address(g, None, plan, pcs[0], self._base(g, "B", plan))
            inline.vstore(g, None, ("V[0]", "V[1]"), addr, plan, pcs[0], "X", "W")
        return self._fn("vector_store", (plan,), "P, V, B, X, W", body)

    def sload(self, plan: Plan) -> Callable:
        def body(g: Gen, pcs: list[str]) -> str:
            self._load(g, pcs[0], plan)
            scalar_loaded(g, None, "x", "w")
            return "x"
        return self._fn("scalar_load", (plan,), "P, V, B", body)

    def sstore(self, plan: Plan) -> Callable:
        def body(g: Gen, pcs: list[str]) -> None:
            x = scalar_lanes(g, None, "X", plan)
            addr = inline.address(g, None, plan, pcs[0], self._base(g, "B", plan))
            inline.vstore(g, None, ("V[0]", "V[1]"), addr, plan, pcs[0], x, "p_t")
        return self._fn("scalar_store", (plan,), "P, V, B, X", body)

    def dma(self, lp: Plan, sp: Plan) -> Callable:
        def body(g: Gen, pcs: list[str]) -> None:
            sb, db = self._base(g, "SB", lp), self._base(g, "DB", sp)
            inline.dma(g, None, ("SV[0]", "SV[1]"), sb, ("DV[0]", "DV[1]"), db, lp, sp,
                       pcs[0], pcs[1], "ST")
        return self._fn("dma", (lp, sp), "P, SV, SB, DV, DB, ST", body)


def generic(g: Gen) -> str:
    """The name of the compilation's `Generic` in the generated code."""
    if "GEN" not in g.cg.g:
        g.cg.g["GEN"] = Generic(g.cg)
    return "GEN"


def scalar_loaded(g: Gen, op: Operation | None, x: str, ready: str) -> None:
    """After a one-lane load into `x`: the unit waits for it; `x` becomes its scalar."""
    g.emit(f"if {ready} > p_t: p_t = {ready}", op)
    g.emit(f"{x} = {x}[0].item()", op)


def scalar_lanes(g: Gen, op: Operation | None, value: str, plan: Plan) -> str:
    """The one-lane vector of a scalar to store through `plan`."""
    x = g.tmp("_x")
    g.emit(f"{x} = np.asarray([{value}]).astype({g.cg.const(plan.compute, 'DTYPE')})", op)
    return x


# ---- plans and views ---------------------------------------------------------------------------


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


def load(g: Gen, op: Operation, view: SSAValue, comps: list[str], pc: str, r: str,
         ready: str) -> None:
    """`r`, `ready` = the lanes read through `view` at base `comps` by plan `pc`."""
    p = static_plan(g, pc)
    if p is None:
        g.helper(f"{r}, {ready} = {generic(g)}.vload({pc})(P, {g.v(view)}, "
                 f"{tuple_src(comps)})", op)
    else:
        inline.vload(g, op, parts(g, view), inline.address(g, op, p, pc, comps), p, pc, r,
                     ready)


def store(g: Gen, op: Operation, view: SSAValue, comps: list[str], pc: str, v: str,
          ready: str) -> None:
    """Write the lanes `v` (ready at cycle `ready`) through `view` at base `comps`."""
    p = static_plan(g, pc)
    if p is None:
        g.helper(f"{generic(g)}.vstore({pc})(P, {g.v(view)}, {tuple_src(comps)}, {v}, "
                 f"{ready})", op)
    else:
        inline.vstore(g, op, parts(g, view), inline.address(g, op, p, pc, comps), p, pc, v,
                      ready)


# ---- agen ---------------------------------------------------------------------------------------


@handles("agen.vector_load")
def _vector_load(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.vector_load")
    _no_multicast(op)
    acc = Access(op.load_set.data, op.load_order.data, _rank(op.mem_ref), op)  # type: ignore
    comps = _comps(g, op.affine_map.data, op.map_operands)  # type: ignore[attr-defined]
    pc = plan(g, op.mem_ref, acc)  # type: ignore[attr-defined]
    r = g.define(op.results[0])
    load(g, op, op.mem_ref, comps, pc, r, "w" + r[1:])  # type: ignore[attr-defined]
    if op.repeats > 1:  # type: ignore[attr-defined]  # the load unit's splat
        g.emit(f"{r} = np.repeat({r}, {op.repeats})")  # type: ignore[attr-defined]


@handles("agen.vector_store")
def _vector_store(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.vector_store")
    acc = Access(op.store_set.data, op.store_order.data, _rank(op.mem_ref), op)  # type: ignore
    comps = _comps(g, op.affine_map.data, op.map_operands)  # type: ignore[attr-defined]
    pc = plan(g, op.mem_ref, acc)  # type: ignore[attr-defined]
    v = op.value_to_store  # type: ignore[attr-defined]
    store(g, op, op.mem_ref, comps, pc, g.v(v), g.w(v))  # type: ignore[attr-defined]


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
            try:
                pts, _, _ = affine.enumerate_points(ts, to, syms)
            except affine.UnboundedSetError as e:
                raise UnsupportedOpError(f"time_set: {e}", op=self.op) from None
            out = [(self._off(self.lmap, p, syms), self._off(self.smap, p, syms)) for p in pts]
            self.cache[syms] = out
        return out

    @staticmethod
    def _off(amap: object, p: object, syms: tuple[int, ...]) -> tuple[int, ...]:
        if amap is None:
            return ()
        vals = tuple(int(x) for x in affine.eval_map_np(amap.data, list(p), syms))  # type: ignore
        return vals if any(vals) else ()


def _steps(g: Gen, op: Operation, lmap: object, smap: object) -> tuple[str, list | None]:
    """(source of the steps, the steps when known here)."""
    st = Steps(op, lmap, smap)
    syms = [g.v(x) for x in op.time_symbols]  # type: ignore[attr-defined]
    if not syms:
        steps = st(())
        return g.cg.const(steps), steps
    return f"{g.cg.const(st, 'STEPS')}({tuple_src(syms)})", None


def _async(op: Operation) -> bool:
    """A region that does nothing but yield: an asynchronous DMA (E9)."""
    ops = list(op.regions[0].block.ops)
    return len(ops) == 1 and ops[0].name == "agen.yield" and not ops[0].operands


def _shifted(g: Gen, op: Operation, comps: list[str], off: str) -> list[str]:
    """The base coordinates `comps` moved by a step's offset `off`."""
    b = g.tmp("_b")
    g.emit(f"{b} = SHIFT({tuple_src(comps)}, {off})", op)
    return [f"{b}[{i}]" for i in range(len(comps))]


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
    g.targets.append(target)
    g.block(block)
    g.targets.pop()
    return out


def _each_step(g: Gen, op: Operation, steps: str, body: Callable[[str, str], None]) -> None:
    """`for (load offset, store offset) in steps: body`, counting its events per step."""
    lo, so = g.tmp("_lo"), g.tmp("_so")
    g.emit(f"for {lo}, {so} in {steps}:", op)
    g.ind += 1
    body(lo, so)
    g.flush_events()
    g.ind -= 1


@handles("agen.composite_load_and_store")
def _composite_ls(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.composite_load_and_store")
    _no_multicast(op)
    src, dst = op.src_mem_ref, op.dst_mem_ref  # type: ignore[attr-defined]
    lacc = Access(op.load_set.data, op.load_order.data, _rank(src), op)  # type: ignore
    sacc = Access(op.store_set.data, op.store_order.data, _rank(dst), op)  # type: ignore
    scomps = _comps(g, op.src_map.data, op.src_map_operands)  # type: ignore[attr-defined]
    dcomps = _comps(g, op.dst_map.data, op.dst_map_operands)  # type: ignore[attr-defined]
    steps, known = _steps(g, op, op.load_time_addr_map, op.store_time_addr_map)  # type: ignore
    la, sa = plan(g, src, lacc), plan(g, dst, sacc)
    if _async(op):
        lp, sp = static_plan(g, la), static_plan(g, sa)
        if lp is None or sp is None:
            g.helper(f"{generic(g)}.dma({la}, {sa})(P, {g.v(src)}, {tuple_src(scomps)}, "
                     f"{g.v(dst)}, {tuple_src(dcomps)}, {steps})", op)
        elif known == [((), ())]:
            inline.dma(g, op, parts(g, src), scomps, parts(g, dst), dcomps, lp, sp, la, sa)
        else:
            inline.dma(g, op, parts(g, src), scomps, parts(g, dst), dcomps, lp, sp, la, sa,
                       steps, len(known) if known is not None else None)
        return

    def step(lo: str, so: str) -> None:
        iv = g.tmp("v")
        load(g, op, src, _shifted(g, op, scomps, lo), la, iv, "w" + iv[1:])
        out = _region_step(g, op, op.load_iv, (iv, "w" + iv[1:]))  # type: ignore
        val = out or (iv, "w" + iv[1:])
        store(g, op, dst, _shifted(g, op, dcomps, so), sa, val[0], val[1])
    _each_step(g, op, steps, step)


@handles("agen.composite_load")
def _composite_load(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.composite_load")
    _no_multicast(op)
    view = op.mem_ref  # type: ignore[attr-defined]
    acc = Access(op.load_set.data, op.load_order.data, _rank(view), op)  # type: ignore
    comps = _comps(g, op.affine_map.data, op.map_operands)  # type: ignore[attr-defined]
    steps, _ = _steps(g, op, op.time_addr_map, None)  # type: ignore[attr-defined]
    pc = plan(g, view, acc)

    def step(lo: str, so: str) -> None:
        iv = g.tmp("v")
        load(g, op, view, _shifted(g, op, comps, lo), pc, iv, "w" + iv[1:])
        _region_step(g, op, op.load_iv, (iv, "w" + iv[1:]))  # type: ignore[attr-defined]
    _each_step(g, op, steps, step)


@handles("agen.composite_store")
def _composite_store(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.composite_store")
    view = op.mem_ref  # type: ignore[attr-defined]
    rank = _rank(view)
    vec = op.input_vector  # type: ignore[attr-defined]
    if vec is not None:
        acc = Access(None, None, rank, op, count=lanes(vec.type)) if rank == 1 else None
        if acc is None:
            raise UnsupportedOpError("composite_store with input_vector needs a 1-D memref",
                                     op=op)
    else:
        acc = Access(op.store_set.data, op.store_order.data, rank, op)  # type: ignore
    comps = _comps(g, op.affine_map.data, op.map_operands)  # type: ignore[attr-defined]
    steps, _ = _steps(g, op, None, op.time_addr_map)  # type: ignore[attr-defined]
    pc = plan(g, view, acc)

    def step(lo: str, so: str) -> None:
        val = (g.v(vec), g.w(vec)) if vec is not None else _region_step(g, op, None, None)
        if val is None:
            raise UnsupportedOpError("the region must yield the vector to store", op=op)
        store(g, op, view, _shifted(g, op, comps, so), pc, val[0], val[1])
    _each_step(g, op, steps, step)


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


def _symbolic(g: Gen, op: Operation, kind: str, value: SSAValue) -> tuple[list[str], str]:
    aset = getattr(op, f"{kind}_set")
    order = getattr(op, f"{kind}_order")
    acc = Access(aset.data if aset else None, order.data if order else None, 1, op,
                 count=lanes(value.type))
    terms = [f"{g.v(i)} * {g.v(s)}" for i, s in zip(op.indices, op.strides,  # type: ignore
                                                     strict=True)]
    return [" + ".join(terms)], plan(g, op.memref, acc)  # type: ignore[attr-defined]


@handles("agen.symbolic_vector_load")
def _symbolic_load(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.symbolic_vector_load")
    _no_multicast(op)
    comps, pc = _symbolic(g, op, "load", op.results[0])
    r = g.define(op.results[0])
    load(g, op, op.memref, comps, pc, r, "w" + r[1:])  # type: ignore[attr-defined]


@handles("agen.symbolic_vector_store")
def _symbolic_store(g: Gen, op: Operation) -> None:
    g.need_program(op, "agen.symbolic_vector_store")
    v = op.value_to_store  # type: ignore[attr-defined]
    comps, pc = _symbolic(g, op, "store", v)
    store(g, op, op.memref, comps, pc, g.v(v), g.w(v))  # type: ignore[attr-defined]


# ---- memref scalars ---------------------------------------------------------------------------


@handles("memref.load")
def _mload(g: Gen, op: Operation) -> None:
    g.need_program(op, "memref.load")
    view = op.operands[0]
    pc = plan(g, view, Access.single(_rank(view), op))
    idx = [g.v(i) for i in op.operands[1:]]
    r = g.define(op.results[0])
    etype(op.results[0].type, op)
    p = static_plan(g, pc)
    if p is None:
        g.helper(f"{r} = {generic(g)}.sload({pc})(P, {g.v(view)}, {tuple_src(idx)})", op)
        return
    w = g.tmp("_w")
    inline.vload(g, op, parts(g, view), inline.address(g, op, p, pc, idx), p, pc, r, w)
    scalar_loaded(g, op, r, w)


@handles("memref.store")
def _mstore(g: Gen, op: Operation) -> None:
    g.need_program(op, "memref.store")
    view = op.operands[1]
    pc = plan(g, view, Access.single(_rank(view), op))
    idx = [g.v(i) for i in op.operands[2:]]
    value = g.v(op.operands[0])
    p = static_plan(g, pc)
    if p is None:
        g.helper(f"{generic(g)}.sstore({pc})(P, {g.v(view)}, {tuple_src(idx)}, {value})", op)
        return
    x = scalar_lanes(g, op, value, p)
    inline.vstore(g, op, parts(g, view), inline.address(g, op, p, pc, idx), p, pc, x, "p_t")
