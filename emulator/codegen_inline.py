"""The per-event work of the emulator, each kind written once, as a template of generated
code (shared/spec/dataflow-ir.md §7 E5-E9, E13): FIFO send and receive, signals, vector ops,
vector loads and stores, DMA.

An event happens millions of times per run; as a call of a `Process` method its argument
passing and attribute lookups would cost more than its work. So each function here emits that
work with the op's static facts folded in: plan sizes and strides become literals, a constant
base coordinate a constant address, and what depends only on the channel, signal or memory an
op uses (its FIFO, its route and the serialisation time over it, the race checker's pages) is
looked up again only when that object changes, which in practice is once per program. The
programs contain these templates; an access through a view known only at run time runs the
same template compiled for its plan (codegen_access.Generic), so there is no second
implementation to keep equal. The clock and counters are the program's locals `p_t`,
`p_busy`, ... (codegen.STATE); lines for the race checker and the trace appear only when the
run checks races / records a trace (`Codegen.races`, `Codegen.trace`).
"""

from __future__ import annotations

import re

from xdsl.ir import Operation

from emulator.access import Plan
from emulator.codegen import Gen, tuple_src
from emulator.races import PAGE_BITS

_LITERAL = re.compile(r"^-?\d+$")
_NAME = re.compile(r"^[A-Za-z_]\w*$")


def lines(g: Gen, op: Operation, src: str) -> None:
    """Emit a block of source (one statement per line, relative indentation kept)."""
    for line in src.splitlines():
        if line.strip():
            g.emit(line, op)


def _trace(g: Gen, src: str) -> str:
    """A trace record, when the run records a trace."""
    if not g.cg.trace:
        return ""
    g.use("TR")
    return src


def _when_changed(g: Gen, objs: list[str], stmts: list[str]) -> str:
    """Source that runs `stmts` when one of `objs` is not the object of the last time."""
    last = [g.tmp("_last") for _ in objs]
    g.prologue += [f"{x} = None" for x in last]
    cond = " or ".join(f"{o} is not {x}" for o, x in zip(objs, last, strict=True))
    return f"if {cond}: " + "; ".join([*(f"{x} = {o}" for o, x in zip(objs, last,
                                                                       strict=True)), *stmts])


def _reserve(g: Gen, links: str, s: str, ser: str, nb: int, usual: int) -> str:
    """Reserve a route's links first-come first-served from cycle `s` (updated), unrolled
    for routes of the `usual` number of links (1: memory and unit, 2: memory, unit, memory).
    `links` names the route's link list; its length and first and last links are
    `{links}_n`, `{links}_0`, `{links}_1` (see _route)."""
    lk, n, l0, l1 = g.tmp("_lk"), f"{links}_n", f"{links}_0", f"{links}_1"
    if usual == 1:
        unrolled = f"""
if {n} == 1:
    if {l0}.busy > {s}: p_st_link += {l0}.busy - {s}; {s} = {l0}.busy
    {l0}.busy = {s} + {ser}; {l0}.nbytes += {nb}"""
    else:
        unrolled = f"""
if {n} == 2:
    if {l0}.busy > {s}: p_st_link += {l0}.busy - {s}; {s} = {l0}.busy
    if {l1}.busy > {s}: p_st_link += {l1}.busy - {s}; {s} = {l1}.busy
    {l0}.busy = {l1}.busy = {s} + {ser}; {l0}.nbytes += {nb}; {l1}.nbytes += {nb}"""
    return unrolled + f"""
else:
    for {lk} in {links}:
        if {lk}.busy > {s}: p_st_link += {lk}.busy - {s}; {s} = {lk}.busy
    for {lk} in {links}:
        {lk}.busy = {s} + {ser}; {lk}.nbytes += {nb}
"""


def _slot(g: Gen, s: str, blocks: bool) -> tuple[str, str]:
    """(source before, source after the transfer of `{s}`): a unit has `max_outstanding`
    transfer slots (`SLOTS`, each holding the completion cycle of the last transfer in it),
    taken in turn, so a transfer starts no earlier than the one that many before it completed
    (`blocks`: the unit waits with it, for a transfer that does not hold the unit otherwise);
    after it, its completion `{done}` (a format field) fills the slot."""
    g.use("SLOTS", "NSLOTS")
    o = g.tmp("_o")
    move = f"p_t = {s} = {o}" if blocks else f"{s} = {o}"
    before = f"""
{o} = SLOTS[p_slot]
if {o} > {s}: p_st_dma += {o} - {s}; {move}"""
    after = """
SLOTS[p_slot] = {done}; p_slot += 1
if p_slot == NSLOTS: p_slot = 0"""
    return before, after


def _through(g: Gen, links: str, s: str, ser: str, nb: int | str) -> tuple[str, str]:
    """(source, name): the cycle a transfer of `nb` bytes started at `{s}` is through every
    resource on its route: its links after `ser`, each memory port on it (`{links}_p`) when
    it has had the time the bytes need of it (machine.Port)."""
    e, pt, f = g.tmp("_e"), g.tmp("_pt"), g.tmp("_f")
    return f"""
{e} = {s} + {ser}
for {pt} in {links}_p:
    {f} = {pt}.take({s}, {nb})
    if {f} > {e}: {e} = {f}""", e


def _wake(g: Gen, obj: str, field: str) -> str:
    """Wake the process parked on `obj`.`field`, if any."""
    g.use("WAKE")
    return f"""
if {obj}.{field} is not None: WAKE({obj}.{field}); {obj}.{field} = None
"""


# ---- FIFOs and signals ---------------------------------------------------------------------


def _peer(g: Gen, peer: str, method: str, fields: dict[str, str],
          wait: tuple[int, int] | None = None) -> tuple[str, dict[str, str], str]:
    """The channel or signal `P.<method>(peer)` and the names of `fields` of it (name ->
    source over `{0}`, the object), looked up again when `peer` changes; with `wait` (kind,
    index of the op), also the token it parks with. (object, names, source)."""
    obj = g.tmp("_ch" if method in ("rx", "tx") else "_sig")
    names = {f: g.tmp("_" + f) for f in fields}
    stmts = [f"{obj} = P.{method}({peer})"] + [f"{names[f]} = {src.format(obj)}"
                                              for f, src in fields.items()]
    if wait is not None:
        names["wait"] = g.tmp("_wt")
        stmts.append(f"{names['wait']} = ({wait[0]}, {obj}, {wait[1]})")
    return obj, names, _when_changed(g, [peer], stmts)


def send(g: Gen, op: Operation, peer: str, val: str, ready: str, tk: str, nb: int,
         k: int) -> None:
    """Wait while the FIFO to `peer` is full (`Channel.full`), then send: the sender holds
    for bytes / bandwidth from when the value is ready, a slot is free and the link is.
    With races checked, the send ends this unit's epoch and the message carries its token."""
    g.event()
    g.use("LIMIT")
    c, n, look = _peer(g, peer, "tx", {"q": "{0}.q", "dep": "{0}.depth", "sz": "{0}.size",
                                       "lk": "{0}.link", "ser": f"{nb} / {{0}}.link.bpc",
                                       "lat": "{0}.link.lat"}, (2, k))
    q, dep, sz, lk, ser, lat, wait = (n[f] for f in ("q", "dep", "sz", "lk", "ser", "lat",
                                                     "wait"))
    s, f, t = g.tmp("_s"), g.tmp("_f"), g.tmp("_t")
    # with races checked, the message carries the sender's token and ends its epoch, like a
    # signal: what the sender did before the send happened before what the receiver does
    # after taking it
    tok, races = "", ""
    if g.cg.races:
        g.use("VID", "RLOG")
        tok, races = ", (VID, p_epoch, len(RLOG))", "p_epoch += 1"
    lines(g, op, f"""
{look}
while len({q}) >= {dep} or {sz} is not None and {q} and {c}.inflight + {nb} > {sz}:
    {g.park_src(c, "sw", wait)}
{s} = p_t
if {ready} > {s}: p_st_data += {ready} - {s}; {s} = {ready}
if {c}.npush >= {dep}:
    {f} = {c}.pops.popleft()
    if {f} > {s}: p_st_send += {f} - {s}; {s} = {f}
if {lk}.busy > {s}: p_st_link += {lk}.busy - {s}; {s} = {lk}.busy
{lk}.busy = {t} = {s} + {ser}; {lk}.nbytes += {nb}
{races}
{q}.append(({val}, {s} + {lat} + {ser}, {tk}, {nb}{tok}))
{c}.npush += 1
if {sz} is not None: {c}.inflight += {nb}
p_t = {t}; p_busy += {ser}
{_trace(g, f"TR.append(('send', {s}, {ser}, {c}.dst.name))")}
if {t} > LIMIT: P._limit()
{_wake(g, c, "rw")}""")


def receive(g: Gen, op: Operation, peer: str, r: str, ready: str, tk: str, k: int) -> None:
    """Wait for a message from `peer`, take it (its type must be the expected one) at its
    arrival cycle, free its slot (with races checked: from now on this unit knows the
    sender's epoch the message carries)."""
    g.event()
    c, n, look = _peer(g, peer, "rx", {"q": "{0}.q", "pops": "{0}.pops", "sz": "{0}.size"},
                       (1, k))
    q, pops, sz, wait = n["q"], n["pops"], n["sz"], n["wait"]
    a, sent, nb = g.tmp("_a"), g.tmp("_k"), g.tmp("_n")
    tok, races = "", ""
    if g.cg.races:  # the receiver learns the sender's token the message carries (send)
        g.use("KNOWN", "RLOG")
        tk_, sq, se = g.tmp("_tok"), g.tmp("_q"), g.tmp("_e")
        tok = f", {tk_}"
        races = f"""
{sq}, {se}, _ = {tk_}
if KNOWN[{sq}] < {se}: KNOWN[{sq}] = {se}
RLOG.append({tk_})"""
    lines(g, op, f"""
{look}
while not {q}:
    {g.park_src(c, "rw", wait)}
{r}, {a}, {sent}, {nb}{tok} = {q}.popleft()
{races}
if {sent} is not {tk} and {sent} != {tk}: P.mismatch({c}, {tk}, {sent})
if {a} > p_t: p_st_recv += {a} - p_t; p_t = {a}
{ready} = p_t
{pops}.append(p_t)
if {sz} is not None: {c}.inflight -= {nb}
{_wake(g, c, "sw")}""")


def sync_send(g: Gen, op: Operation, peer: str, wait: bool) -> None:
    """Signal `peer` (after this unit's DMAs, with `wait`); it arrives after the signal
    latency. With races checked, the signal ends this unit's epoch and carries its token."""
    g.event()
    g.use("SL")
    s, n, look = _peer(g, peer, "so", {"ts": "{0}.times", "ck": "{0}.clocks"})
    ts, ck = n["ts"], n["ck"]
    hold = "if p_pend > p_t: p_st_dma += p_pend - p_t; p_t = p_pend" if wait else ""
    races = ""
    if g.cg.races:
        g.use("VID", "RLOG", "OPEN")
        close = g.tmp("_r")  # races.close: its DMAs end in this epoch
        races = (f"if OPEN:\n    for {close} in OPEN: {close}[4] = p_epoch\n    OPEN.clear()\n"
                 if wait else "") + \
            f"p_epoch += 1; {ck}.append((VID, p_epoch, len(RLOG)))"
    lines(g, op, f"""
{look}
{hold}
{ts}.append(p_t + SL)
{races}
{_trace(g, f"TR.append(('sync_send', p_t, 0.0, {s}.dst.name))")}
{_wake(g, s, "waiter")}""")


def sync_take(g: Gen, op: Operation, peer: str, k: int) -> None:
    """Wait for a signal from `peer` and consume it at its arrival cycle (with races
    checked: from now on this unit knows the sender's epoch)."""
    g.event()
    s, n, look = _peer(g, peer, "si", {"ts": "{0}.times", "ck": "{0}.clocks"}, (3, k))
    ts, ck, wait = n["ts"], n["ck"], n["wait"]
    a = g.tmp("_a")
    races = ""
    if g.cg.races:
        g.use("KNOWN", "RLOG")
        tok, q, e = g.tmp("_tok"), g.tmp("_q"), g.tmp("_e")
        races = f"""
{tok} = {ck}.popleft(); {q}, {e}, _ = {tok}
if KNOWN[{q}] < {e}: KNOWN[{q}] = {e}
RLOG.append({tok})"""
    lines(g, op, f"""
{look}
while not {ts}:
    {g.park_src(s, "waiter", wait)}
{a} = {ts}.popleft()
if {a} > p_t: p_st_signal += {a} - p_t; p_t = {a}
{races}""")


# ---- compute -------------------------------------------------------------------------------


def vop(g: Gen, op: Operation, site: int, ready: str, out: str) -> None:
    """A vector op issues when its operands are ready and holds the unit for its class
    interval; `out` gets the ready cycle of its result (after the class latency)."""
    g.event()
    g.use("SITES", "LIMIT")
    lat, ivl, name = f"_lat{site}", f"_ivl{site}", f"_nm{site}"
    g.prologue.append(f"{lat}, {ivl}, {name}, _ = T[{site}]")
    s, rd, t = g.tmp("_s"), g.tmp("_rd"), g.tmp("_t")
    lines(g, op, f"""
SITES[{site}] += 1
{s} = p_t; {rd} = {ready}
if {rd} > {s}: p_st_data += {rd} - {s}; {s} = {rd}
p_t = {t} = {s} + {ivl}; p_busy += {ivl}
{_trace(g, f"TR.append(({name}, {s}, {ivl}, None))")}
if {t} > LIMIT: P._limit()
{out} = {s} + {lat}""")


# ---- memory ---------------------------------------------------------------------------------


def _coords(g: Gen, op: Operation, comps: list[str]) -> list[str]:
    """Base coordinates as literals or names, each evaluated once."""
    names = []
    for c in comps:
        if _LITERAL.match(c) or _NAME.match(c):
            names.append(c)
        else:
            t = g.tmp("_b")
            g.emit(f"{t} = {c}", op)
            names.append(t)
    return names


def _plus(*terms: str | int) -> str:
    """Source of an integer sum, without zero terms."""
    kept = [str(t) for t in terms if str(t) != "0"]
    return " + ".join(kept) or "0"


def _addr(plan: Plan, names: list[str]) -> tuple[str, str]:
    """(view-shape condition, start-relative address of lane 0) of an access at `names`,
    folded to constants when every coordinate is a literal."""
    if all(_LITERAL.match(n) for n in names):
        a = plan.form.at(tuple(int(n) for n in names))
        return ("True", str(a)) if a is not None else ("False", "0")
    return plan.form.src(names)


def address(g: Gen, op: Operation, plan: Plan, pconst: str, comps: list[str]) -> str:
    """Emit the view-shape check of an access at base coordinates `comps` (failing as
    `Process._oob`); the source of lane 0's start-relative element address."""
    names = _coords(g, op, comps)
    cond, expr = _addr(plan, names)
    if cond != "True":
        g.emit(f"if not ({cond}): P._oob({tuple_src(names)}, {pconst})", op)
    return expr


def _race_check(g: Gen, m: str, lo: str, hi: str, write: bool, dma: bool, plan: Plan) -> str:
    """`RaceChecker.access` (races.py) with its common outcomes inline: a page no one has
    touched; a read after other units' ordered accesses of the same bytes; a write over
    ordered, finished accesses of the same bytes (which it supersedes). Anything else, and
    every race, goes through the checker."""
    if not g.cg.races:
        return ""
    g.use("RC", "VID", "KNOWN")
    pages, k, rs, x = (g.tmp(n) for n in ("_pg", "_k", "_rs", "_x"))
    q, rlo, rhi, rw, e, rr = (g.tmp(n) for n in ("_q", "_rl", "_rh", "_rw", "_e", "_rr"))
    end = "None" if dma else "p_epoch"
    runs = "None" if plan.runs is None else g.cg.const(plan.runs, "RUNS")
    new = f"{x} = [VID, {lo}, {hi}, {write}, {end}, P, {dma}, {runs}]"
    opened = f"; OPEN.append({x})" if dma else ""
    if dma:
        g.use("OPEN")
    slow = f"RC.access(P, {m}, {lo}, {hi}, {write}, {end}, {runs})"
    if _LITERAL.match(lo) and _LITERAL.match(hi):  # a constant byte range
        k = str(int(lo) >> PAGE_BITS)
        one_page = k == str((int(hi) - 1) >> PAGE_BITS)
        get = f"{rs} = {pages}.get({k})" if one_page else f"{rs} = False"
    else:
        one_page = False
        get = f"""{k} = {lo} >> {PAGE_BITS}
{rs} = {pages}.get({k}) if {k} == ({hi} - 1) >> {PAGE_BITS} else False"""
    several = "" if one_page else f"elif {rs} is False: {slow}\n"  # several pages
    src = f"""
{_when_changed(g, [m], [f"{pages} = RC.table({m})"])}
{get}
if {rs} is None: {new}; {pages}[{k}] = [{x}]{opened}
{several}"""
    if write:  # superseding every record of these bytes, each finished and ordered
        return src + f"""
else:
    for {q}, {rlo}, {rhi}, {rw}, {e}, _, _, {rr} in {rs}:
        if {rlo} != {lo} or {rhi} != {hi} or {rr} is not {runs} or {e} is None or \
                {q} != VID and KNOWN[{q}] <= {e}:
            {slow}; break
    else: {new}; {pages}[{k}] = [{x}]{opened}
"""
    # after one record of these bytes: another unit's read, or its write ordered before
    return src + f"""
elif len({rs}) == 1:
    {q}, {rlo}, {rhi}, {rw}, {e}, _, _, _ = {rs}[0]
    if {rlo} == {lo} and {rhi} == {hi} and {q} != VID and \\
            (not {rw} or {e} is not None and KNOWN[{q}] > {e}):
        {new}; {rs}.append({x}){opened}
    else: {slow}
else: {slow}
"""


def _span(g: Gen, view: tuple[str, str], addr: str, plan: Plan
          ) -> tuple[str, str, str, str, str]:
    """Memory, element address and byte range of an access through `view` (the sources of
    its memory and start address), memory-bounds-checked."""
    src = ""
    m = view[0]
    if not _NAME.match(m):
        m = g.tmp("_m")
        src += f"{m} = {view[0]}\n"
    a = _plus(addr, view[1])
    if _LITERAL.match(a):  # a constant address: a constant byte range
        lo, hi = str((int(a) + plan.lo) * plan.isz), str((int(a) + plan.hi) * plan.isz)
        return m, a, lo, hi, src + (f"if {hi} > {m}.limit: {m}.check({lo}, {hi})"
                                    if int(lo) >= 0 else f"{m}.check({lo}, {hi})")
    aname, lo, hi = g.tmp("_a"), g.tmp("_lo"), g.tmp("_hi")
    return m, aname, lo, hi, src + f"""
{aname} = {a}
{lo} = ({_plus(aname, plan.lo)}) * {plan.isz}; {hi} = ({_plus(aname, plan.hi)}) * {plan.isz}
if {lo} < 0 or {hi} > {m}.limit: {m}.check({lo}, {hi})"""


def _lanes(g: Gen, m: str, a: str, plan: Plan, pconst: str) -> tuple[str, str]:
    """(the lanes of an access as a numpy expression, source that prepares it): a slice or
    the plan's offsets of the memory's array of the plan's storage type, looked up again when
    the memory changes or grows (which replaces its arrays); the slice itself when the
    address is constant."""
    ty, st = g.tmp("_ty"), g.cg.const(plan.storage)
    get = [f"{ty} = {m}.typed({st})"]
    if not plan.contiguous:
        lanes = f"{ty}[{a} + {pconst}.offsets]"
    elif _LITERAL.match(a):
        lanes = g.tmp("_sl")
        get.append(f"{lanes} = {ty}[{a}: {int(a) + plan.n}]")
    else:
        lanes = f"{ty}[{a}: {a} + {plan.n}]"
    return lanes, _when_changed(g, [f"{m}.views"], get)


def _route(g: Gen, mems: list[str], route: str, nb: int | str) -> tuple[str, str, str, str]:
    """(links, latency, serialisation time of `nb` bytes, source): the route `route`,
    looked up again when one of the memories `mems` changes (and the time computed each
    time when `nb` is known only at run time). `{links}_p` names the ports on the route."""
    lks, lat, bpc, ser = (g.tmp(n) for n in ("_lks", "_lat", "_bpc", "_ser"))
    look = _when_changed(g, mems, [f"{lks}, {lat}, {bpc}, {lks}_p = {route}",
                                   *([f"{ser} = {nb} / {bpc}"] if _LITERAL.match(str(nb)) else []),
                                   f"{lks}_n = len({lks})", f"{lks}_0 = {lks}[0]",
                                   f"{lks}_1 = {lks}[-1]"])
    if not _LITERAL.match(str(nb)):
        look += f"\n{ser} = {nb} / {bpc}"
    return lks, lat, ser, look


def vload(g: Gen, op: Operation, view: tuple[str, str], addr: str, plan: Plan, pconst: str,
          r: str, ready: str) -> None:
    """Read the lanes now; the unit holds the route for bytes / bandwidth from when it is
    free (and a slot of its transfers in flight is), and the value is ready after the
    route's latency once the memory has served the bytes."""
    g.event()
    m, a, lo, hi, span = _span(g, view, addr, plan)
    lanes, typed = _lanes(g, m, a, plan, pconst)
    if plan.contiguous:
        lanes += ".copy()"
    dec = f"{r} = {g.cg.const(plan.dec, 'DECODE')}({r})" if plan.dec is not None else ""
    races = _race_check(g, m, lo, hi, False, False, plan)
    lks, lat, ser, look = _route(g, [m], f"P._route({m}, True)", plan.nbytes)
    s = g.tmp("_s")
    before, after = _slot(g, s, False)
    through, e = _through(g, lks, s, ser, plan.nbytes)
    lines(g, op, f"""
{span}
{typed}
{r} = {lanes}
{races}
{dec}
{look}
{s} = p_t
{before}
{_reserve(g, lks, s, ser, plan.nbytes, 1)}
{through}
p_t = {s} + {ser}; p_busy += {ser}
{_trace(g, f"TR.append(('vector_load', {s}, {ser}, {m}.name))")}
{ready} = {e} + {lat}
{after.format(done=ready)}""")


def vstore(g: Gen, op: Operation, view: tuple[str, str], addr: str, plan: Plan, pconst: str,
           v: str, ready: str) -> None:
    """Write the lanes now; the unit holds the route for bytes / bandwidth from when the
    value is ready and the route (and a slot of its transfers in flight) is free; the store
    completes after the route's latency once the memory has taken the bytes."""
    g.event()
    m, a, lo, hi, span = _span(g, view, addr, plan)
    dst, typed = _lanes(g, m, a, plan, pconst)
    raw = f"{g.cg.const(plan.enc, 'ENCODE')}({v})" if plan.enc is not None else v
    if _LITERAL.match(a) and plan.contiguous:
        dst += "[...]"
    races = _race_check(g, m, lo, hi, True, False, plan)
    lks, lat, ser, look = _route(g, [m], f"P._route({m}, False)", plan.nbytes)
    s, done = g.tmp("_s"), g.tmp("_d")
    before, after = _slot(g, s, False)
    through, e = _through(g, lks, s, ser, plan.nbytes)
    lines(g, op, f"""
{span}
if len({v}) != {plan.n}: P._lanes(len({v}), {pconst})
{typed}
{dst} = {raw}
{races}
{look}
{s} = p_t
if {ready} > {s}: p_st_data += {ready} - {s}; {s} = {ready}
{before}
{_reserve(g, lks, s, ser, plan.nbytes, 1)}
{through}
p_t = {s} + {ser}; p_busy += {ser}
{done} = {e} + {lat}
if {done} > p_pend: p_pend = {done}
{after.format(done=done)}
{_trace(g, f"TR.append(('vector_store', {s}, {ser}, {m}.name))")}""")


def _bound(g: Gen, op: Operation | None, src: str, prefix: str) -> str:
    """`src` as a name, evaluated once."""
    if _NAME.match(src):
        return src
    name = g.tmp(prefix)
    g.emit(f"{name} = {src}", op)
    return name


def _dma_step(g: Gen, op: Operation | None, sparts: tuple[str, str], scomps: list[str],
              dparts: tuple[str, str], dcomps: list[str], lp: Plan, sp: Plan, lconst: str,
              sconst: str) -> None:
    """Copy one step of a DMA now: bytes between contiguous runs of one storage type, else
    lanes read (decoded) and written (encoded) through the two plans."""
    names = _coords(g, op, [*scomps, *dcomps])
    sn, dn = names[:len(scomps)], names[len(scomps):]
    lcond, laddr = _addr(lp, sn)
    scond, saddr = _addr(sp, dn)
    conds = [c for c in (lcond, scond) if c != "True"]
    if conds:  # Process._span: the source's view and memory first, then the destination's
        g.emit(f"if not ({' and '.join(conds)}): "
               f"P._span({sparts[0]}, {sparts[1]}, {tuple_src(sn)}, {lconst}); "
               f"P._span({dparts[0]}, {dparts[1]}, {tuple_src(dn)}, {sconst})", op)
    # memory, element address and byte range [lo, hi) of the source and the destination
    sm, sa, slo, shi, sspan = _span(g, sparts, laddr, lp)
    dm, da, dlo, dhi, dspan = _span(g, dparts, saddr, sp)
    if lp.contiguous and sp.contiguous and lp.storage == sp.storage and lp.n == sp.n:
        copy = f"{dm}.mv[{dlo}: {dhi}] = {sm}.mv[{slo}: {shi}]"
    else:
        x = g.tmp("_x")
        src, styped = _lanes(g, sm, sa, lp, lconst)
        dst, dtyped = _lanes(g, dm, da, sp, sconst)
        dec = f"{x} = {g.cg.const(lp.dec, 'DECODE')}({x})" if lp.dec is not None else ""
        raw = f"{g.cg.const(sp.enc, 'ENCODE')}({x})" if sp.enc is not None else x
        if _LITERAL.match(da) and sp.contiguous:
            dst += "[...]"
        lanes = f"P._lanes({lp.n}, {sconst})" if lp.n != sp.n else ""
        copy = f"""
{styped}
{x} = {src}{".copy()" if lp.contiguous else ""}
{dec}
{lanes}
{dtyped}
{dst} = {raw}"""
    races = _race_check(g, sm, slo, shi, False, True, lp) + \
        _race_check(g, dm, dlo, dhi, True, True, sp)
    lines(g, op, f"""
{sspan}
{dspan}
{copy}
{races}""")


def dma(g: Gen, op: Operation | None, sparts: tuple[str, str], scomps: list[str],
        dparts: tuple[str, str], dcomps: list[str], lp: Plan, sp: Plan, lconst: str,
        sconst: str, steps: str | None = None, nsteps: int | None = None) -> None:
    """An asynchronous composite_load_and_store: the data is copied now, at each step's
    (load offset, store offset) from the source `steps` (None: one step at offset zero,
    `nsteps`: their number when known here); it waits (and the unit with it) while
    `max_outstanding` transfers of the unit are in flight, holds the route (memory -> unit
    -> memory) for all its bytes / lowest bandwidth, takes their time of each memory port on
    the way, and completes after its latency, in issue order."""
    g.event()
    sparts = (_bound(g, op, sparts[0], "_sm"), sparts[1])
    dparts = (_bound(g, op, dparts[0], "_dm"), dparts[1])
    sm, dm = sparts[0], dparts[0]
    if steps is None:
        _dma_step(g, op, sparts, scomps, dparts, dcomps, lp, sp, lconst, sconst)
        nb = str(lp.nbytes)
    else:
        st, lo, so, sb, db = (g.tmp(n) for n in ("_st", "_lo", "_so", "_sb", "_db"))
        g.emit(f"{st} = {steps}", op)
        g.emit(f"for {lo}, {so} in {st}:", op)
        g.ind += 1
        g.emit(f"{sb} = SHIFT({tuple_src(scomps)}, {lo}); "
               f"{db} = SHIFT({tuple_src(dcomps)}, {so})", op)
        _dma_step(g, op, sparts, [f"{sb}[{i}]" for i in range(len(scomps))], dparts,
                  [f"{db}[{i}]" for i in range(len(dcomps))], lp, sp, lconst, sconst)
        g.ind -= 1
        nb = str(nsteps * lp.nbytes) if nsteps is not None else g.tmp("_nb")
        if nsteps is None:
            g.emit(f"{nb} = len({st}) * {lp.nbytes}", op)
    lks, lat, ser, look = _route(g, [sm, dm], f"P._dma_route({sm}, {dm})", nb)
    g.use("LIMIT")
    s, d = g.tmp("_s"), g.tmp("_d")
    before, after = _slot(g, s, True)
    through, e = _through(g, lks, s, ser, nb)
    lines(g, op, f"""
{look}
{s} = p_t
{before}
{_reserve(g, lks, s, ser, nb, 2)}
{through}
{d} = {e} + {lat}
if {d} < p_dmadone: {d} = p_dmadone
p_dmadone = {d}
{after.format(done=d)}
if {d} > p_pend: p_pend = {d}
p_busy += {ser}
{_trace(g, f"TR.append(('dma', {s}, {d} - {s}, {sm}.name + '->' + {dm}.name))")}
if {d} > LIMIT: P._limit()""")
