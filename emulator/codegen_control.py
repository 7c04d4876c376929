"""Control flow for the code generator: `scf.for/if/while`, `affine.for/if`, calls and
returns (shared/spec/dataflow-ir.md §7 E10). `loop_type` attributes are ignored."""

from __future__ import annotations

from xdsl.ir import Operation

from emulator.codegen import STATE_OUT, Gen, handles, map_py, set_py, tuple_src
from emulator.errors import UnsupportedOpError


def _region(g: Gen, op: Operation, index: int, targets: list) -> None:
    g.ind += 1
    g.targets.append(targets)
    g.block(op.regions[index].block)
    g.targets.pop()
    g.ind -= 1


def _loop(g: Gen, op: Operation, lb: str, ub: str, step: str, inits: list) -> None:
    """`for iv in range(lb, ub, step)` over the body, with loop-carried values `inits`."""
    body = op.regions[0].block
    carried = g.carried(list(body.args[1:]))
    g.assign(carried, inits, op)
    rng = g.tmp("_r")
    g.emit(f"{rng} = range({lb}, {ub}, {step})", op)
    guard = g.guard(f"len({rng})", op)
    iv = g.define(body.args[0])
    g.emit(f"for {iv} in {rng}:", op)
    _region(g, op, 0, carried)
    g.settle(guard)
    for res, (name, _) in zip(op.results, carried, strict=True):
        g.names[res] = name


@handles("scf.for")
def _for(g: Gen, op: Operation) -> None:
    lb, ub, step = (g.v(x) for x in op.operands[:3])
    _loop(g, op, lb, ub, step, list(op.operands[3:]))


@handles("affine.for")
def _affine_for(g: Gen, op: Operation) -> None:
    lmap = op.properties["lowerBoundMap"].data  # type: ignore[attr-defined]
    umap = op.properties["upperBoundMap"].data  # type: ignore[attr-defined]
    step = op.properties["step"].value.data  # type: ignore[attr-defined]
    ops = [g.v(x) for x in op.operands]
    nl = lmap.num_dims + lmap.num_symbols
    nu = umap.num_dims + umap.num_symbols
    lo, hi = map_py(lmap, ops[:nl]), map_py(umap, ops[nl: nl + nu])
    lb = f"max({', '.join(lo)})" if len(lo) > 1 else lo[0]
    ub = f"min({', '.join(hi)})" if len(hi) > 1 else hi[0]
    _loop(g, op, lb, ub, str(step), list(op.operands[nl + nu:]))


@handles("scf.yield", "affine.yield")
def _yield(g: Gen, op: Operation) -> None:
    target = g.targets[-1] if g.targets else None
    if not isinstance(target, list):
        raise UnsupportedOpError("yield outside a region the emulator runs", op=op)
    g.assign(target, list(op.operands), op)


def _if(g: Gen, op: Operation, cond: str) -> None:
    res = g.results(op)
    g.emit(f"if {cond}:", op)
    _region(g, op, 0, res)
    other = op.regions[1]
    if other.blocks and (len(other.block.ops) > 1 or res or
                         (other.block.ops and other.block.last_op.name not in
                          ("scf.yield", "affine.yield"))):
        g.emit("else:", op)
        _region(g, op, 1, res)


@handles("scf.if")
def _scf_if(g: Gen, op: Operation) -> None:
    g.flush()
    _if(g, op, g.v(op.operands[0]))


@handles("affine.if")
def _affine_if(g: Gen, op: Operation) -> None:
    g.flush()
    cond = set_py(op.properties["condition"].data,  # type: ignore[attr-defined]
                  [g.v(x) for x in op.operands])
    _if(g, op, f"({cond})")


@handles("scf.while")
def _while(g: Gen, op: Operation) -> None:
    g.flush()
    before, after = op.regions[0].block, op.regions[1].block
    bargs = g.carried(list(before.args))
    g.assign(bargs, list(op.operands), op)
    res = g.results(op)
    aargs = g.carried(list(after.args))
    g.emit("while True:", op)
    g.ind += 1
    guard = g.guard("1", op)
    g.targets.append(("condition", res, aargs))  # type: ignore[arg-type]
    g.block(before)
    g.targets[-1] = bargs
    g.block(after)
    g.targets.pop()
    g.settle(guard)
    g.ind -= 1


@handles("scf.condition")
def _condition(g: Gen, op: Operation) -> None:
    target = g.targets[-1] if g.targets else None
    if not (isinstance(target, tuple) and target[0] == "condition"):
        raise UnsupportedOpError("scf.condition outside an scf.while", op=op)
    _, res, aargs = target
    args = list(op.operands[1:])
    g.flush()
    g.emit(f"if not {g.v(op.operands[0])}:", op)
    g.ind += 1
    g.assign(res, args, op)
    g.emit("break", op)
    g.ind -= 1
    g.assign(aargs, args, op)


@handles("func.call")
def _call(g: Gen, op: Operation) -> None:
    callee = op.callee.root_reference.data  # type: ignore[attr-defined]
    if g.mode == "host":
        args = [g.v(x) for x in op.operands]
        res = [g.define(r) for r in op.results]
        lhs = f"{', '.join(res)}, = " if res else ""
        g.emit(f"{lhs}CALL({callee!r}, {tuple_src(args)}, S)", op)
        return
    # a program's functions take and return vectors with their ready cycles
    args = g.with_ready(list(op.operands))
    res = [n for r in op.results for n in g.with_ready_names(r, g.define(r))]
    lhs = f"{', '.join(res)}, = " if res else ""
    fn, blocks = g.cg.function(callee, op)
    call = f"{fn}(P, T, S, IC{''.join(', ' + a for a in args)})"
    if blocks:
        g.need_program(op, f"a call of @{callee}, which waits on FIFOs or signals,")
        g.has_yield = True
        g.helper(f"{lhs}yield from {call}", op)
    elif g.mode == "program":
        g.helper(f"{lhs}{call}", op)
    else:
        g.emit(f"{lhs}{call}", op)


@handles("func.return")
def _return(g: Gen, op: Operation) -> None:
    if g.mode == "prelude":
        return
    vals = g.with_ready(list(op.operands)) if g.mode == "program" else \
        [g.v(x) for x in op.operands]
    g.flush()
    if g.mode == "program":
        g.emit(STATE_OUT, op)
    g.emit(f"return {tuple_src(vals)}", op)


@handles("dataflow.return")
def _dataflow_return(g: Gen, op: Operation) -> None:
    return
