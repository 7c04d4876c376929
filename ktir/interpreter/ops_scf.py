"""`scf` control flow and `func.call`.

Each region op has a plain form and, when its body may suspend (it holds an inter-tile
reduce/consume), a generator form that forwards the body's `Wait`s to the grid scheduler.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from xdsl.dialects import func, scf

from ktir.interpreter.core import Body, Compiler, Fn, Wait, compile_error, fail, handles


def _bind(body: Body, r: list[Any], values: list[Any]) -> None:
    for s, v in zip(body.arg_slots, values):
        r[s] = v


@handles(scf.ForOp)
def _for(c: Compiler, op: scf.ForOp) -> Fn:
    return for_loop(c, op, c.compile_region(op.body))


def for_loop(c: Compiler, op: scf.ForOp, body: Body) -> Fn:
    """The loop of `op` around its compiled body."""
    lb, ub, st = c.slot(op.lb), c.slot(op.ub), c.slot(op.step)
    inits = c.slots_of(op.iter_args)
    outs = c.slots_of(op.res)
    iv = body.arg_slots[0]
    carried = body.arg_slots[1:]
    ys = body.term_slots
    fns = body.fns

    def bounds(r: list[Any]) -> range:
        step = r[st]
        if step <= 0:
            raise fail(op, r, f"has a non-positive step {step}")
        return range(r[lb], r[ub], step)

    if body.gen:
        def run_gen(r: list[Any]) -> Iterator[Wait]:
            vals = [r[i] for i in inits]
            for i in bounds(r):
                r[iv] = i
                for s, v in zip(carried, vals):
                    r[s] = v
                yield from body.run_gen(r)
                vals = [r[y] for y in ys]
            for s, v in zip(outs, vals):
                r[s] = v

        return run_gen

    if not inits:
        def run_simple(r: list[Any]) -> None:
            for i in bounds(r):
                r[iv] = i
                for f in fns:
                    f(r)

        return run_simple

    if len(inits) == 1:
        (i0,), (c0,), (y0,), (o0,) = inits, carried, ys, outs

        def run_one(r: list[Any]) -> None:
            v = r[i0]
            for i in bounds(r):
                r[iv] = i
                r[c0] = v
                for f in fns:
                    f(r)
                v = r[y0]
            r[o0] = v

        return run_one

    def run(r: list[Any]) -> None:
        vals = [r[i] for i in inits]
        for i in bounds(r):
            r[iv] = i
            for s, v in zip(carried, vals):
                r[s] = v
            for f in fns:
                f(r)
            vals = [r[y] for y in ys]
        for s, v in zip(outs, vals):
            r[s] = v

    return run


def _run_chosen(outs: tuple[int, ...], bodies: list[Body],
                choose: Callable[[list[Any]], Body | None]) -> Fn:
    """Run the body `choose` picks (none: nothing) and copy what it yields to `outs`."""

    def finish(r: list[Any], b: Body) -> None:
        for s, y in zip(outs, b.term_slots):
            r[s] = r[y]

    if any(b.gen for b in bodies):
        def run_gen(r: list[Any]) -> Iterator[Wait]:
            b = choose(r)
            if b is not None:
                yield from b.run_gen(r)
                finish(r, b)

        return run_gen

    def run(r: list[Any]) -> None:
        b = choose(r)
        if b is not None:
            for f in b.fns:
                f(r)
            finish(r, b)

    return run


@handles(scf.IfOp)
def _if(c: Compiler, op: scf.IfOp) -> Fn:
    k = c.slot(op.cond)
    then = c.compile_region(op.true_region)
    other = c.compile_region(op.false_region) if op.false_region.blocks else None
    return _run_chosen(c.slots_of(op.output), [then] + ([other] if other else []),
                       lambda r: then if r[k] else other)


@handles(scf.WhileOp)
def _while(c: Compiler, op: scf.WhileOp) -> Fn:
    inits = c.slots_of(op.arguments)
    outs = c.slots_of(op.res)
    before = c.compile_region(op.before_region)
    after = c.compile_region(op.after_region)
    cond_op = before.term
    if not isinstance(cond_op, scf.ConditionOp):
        raise compile_error(op, "expects its 'before' region to end in scf.condition")
    k = c.slot(cond_op.condition)
    fwd = c.slots_of(cond_op.args)

    if before.gen or after.gen:
        def run_gen(r: list[Any]) -> Iterator[Wait]:
            vals = [r[i] for i in inits]
            while True:
                _bind(before, r, vals)
                yield from before.run_gen(r)
                vals = [r[s] for s in fwd]
                if not r[k]:
                    break
                _bind(after, r, vals)
                yield from after.run_gen(r)
                vals = after.results(r)
            for s, v in zip(outs, vals):
                r[s] = v

        return run_gen

    def run(r: list[Any]) -> None:
        vals = [r[i] for i in inits]
        while True:
            _bind(before, r, vals)
            before.run(r)
            vals = [r[s] for s in fwd]
            if not r[k]:
                break
            _bind(after, r, vals)
            after.run(r)
            vals = after.results(r)
        for s, v in zip(outs, vals):
            r[s] = v

    return run


@handles(scf.ExecuteRegionOp)
def _execute_region(c: Compiler, op: scf.ExecuteRegionOp) -> Fn:
    body = c.compile_region(op.region)
    return _run_chosen(c.slots_of(op.outs), [body], lambda r: body)


@handles(scf.IndexSwitchOp)
def _index_switch(c: Compiler, op: scf.IndexSwitchOp) -> Fn:
    k = c.slot(op.arg)
    cases = {int(v): c.compile_region(reg)
             for v, reg in zip(op.cases.get_values(), op.case_regions)}
    default = c.compile_region(op.default_region)
    return _run_chosen(c.slots_of(op.output), [default, *cases.values()],
                       lambda r: cases.get(r[k], default))


@handles(scf.ParallelOp)
def _parallel(c: Compiler, op: scf.ParallelOp) -> Fn:
    """Iterations run one after another in lexicographic order (no reductions)."""
    if op.initVals:
        raise compile_error(op, "with reductions is not supported by the interpreter")
    lbs, ubs, steps = c.slots_of(op.lowerBound), c.slots_of(op.upperBound), c.slots_of(op.step)
    body = c.compile_region(op.body)
    if body.gen:
        raise compile_error(op, "may not contain inter-tile communication")
    ivs = body.arg_slots

    def run(r: list[Any]) -> None:
        ranges = []
        for lo, hi, st in zip(lbs, ubs, steps):
            if r[st] <= 0:
                raise fail(op, r, f"has a non-positive step {r[st]}")
            ranges.append(range(r[lo], r[hi], r[st]))

        def nest(d: int) -> None:
            if d == len(ranges):
                body.run(r)
                return
            for i in ranges[d]:
                r[ivs[d]] = i
                nest(d + 1)

        nest(0)

    return run


@handles(func.CallOp)
def _call(c: Compiler, op: func.CallOp) -> Fn:
    prog = c.function(op.callee.string_value(), op)
    ins = c.slots_of(op.arguments)
    outs = c.slots_of(op.res)
    if not hasattr(prog, "body"):
        raise compile_error(op, "is a recursive call, which the interpreter does not support")
    if prog.suspends:
        raise compile_error(op, "calls a function with inter-tile communication, which the "
                            "interpreter does not support")

    def run(r: list[Any]) -> None:
        frame = prog.frame(r[0], [r[i] for i in ins])
        prog.body.run(frame)
        for s, v in zip(outs, prog.body.results(frame)):
            r[s] = v

    return run
