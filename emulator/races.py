"""The unsynchronised-access checker (shared/spec/dataflow-ir.md §7 E9, E14).

Happens-before comes from the two ways a unit hears from another: signals and FIFO messages.
A `sync_send` or a FIFO `send` ends the sender's epoch and carries the token (sender, epoch,
length of the sender's receive log) -- a FIFO message carries it with the element, so a
`receive` happens after the send of the element it takes, whatever unit kinds or datapath the
FIFO joins; a `sync_recv` or a FIFO `receive` appends that token to the receiver's log and
raises the receiver's known epoch of the sender. (So the pipeline DMA in -signal-> load unit
-FIFO-> compute -FIFO-> store unit -signal-> DMA out orders an in-place kernel's store after
its load, as on the hardware.) "Did epoch k of Q happen before now in P" is answered from
those known epochs, and only when that fails by a search back through the receive logs
(transitive ordering through third units): per unit reached, only the last token of each of
its senders inside the reached prefix of its log matters (a later token of a sender dominates
its earlier ones), found by bisection in a per-sender index of the log built on demand, so a
search costs a few steps per unit however many messages the logs hold; its answer then raises
the known epoch too. Every memory access is recorded per 128-byte page (one
vector of 64 fp16) as (process, byte range, read/write, end epoch, the bytes touched in the
range: all, or the runs of a strided access); an asynchronous DMA's
accesses stay open ("in flight") until its unit waits for them (a `sync_send` with
`wait_immediately_for_async_transfers`, or the end of its program). An access races with a
recorded one of another process when they touch a common byte (exactly: the tiles of a
column split interleave their ranges but share no byte), one of them writes, and the recorded
one is still in flight or its epoch has not reached the accessing process through signals or
messages.
Records superseded by a later, ordered write over the same bytes are dropped, so buffers
reused every iteration keep a handful of records.

The generated programs do the per-signal and per-message bookkeeping and the common outcomes of an access
themselves (codegen_inline.py: a page no one touched, a read after ordered accesses of the
same bytes, a write superseding them); every other access, and every race, comes here.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import itemgetter
from typing import TYPE_CHECKING

from emulator.errors import RaceError

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from emulator.machine import Mem
    from emulator.runtime import Process

PAGE_BITS = 7

# record fields (RUNS: None, every byte of [LO, HI); else (start, end) byte runs from LO)
_VID, _LO, _HI, _WRITE, _END, _PROC, _DMA, _RUNS = range(8)

Runs = tuple[tuple[int, int], ...] | None


def _within(lo: int, hi: int, runs: Runs, wlo: int, whi: int) -> Iterator[tuple[int, int]]:
    """The bytes of access [lo, hi) (with its runs) inside the window [wlo, whi), as absolute
    runs; a strided access's runs are found by bisection, so a window costs what it holds."""
    if runs is None:
        if max(lo, wlo) < min(hi, whi):
            yield max(lo, wlo), min(hi, whi)
        return
    i = bisect_right(runs, wlo - lo, key=itemgetter(1))
    while i < len(runs) and lo + runs[i][0] < whi:
        yield max(lo + runs[i][0], wlo), min(lo + runs[i][1], whi)
        i += 1


def _absolute(lo: int, hi: int, runs: Runs) -> list[tuple[int, int]] | tuple[tuple[int, int]]:
    return ((lo, hi),) if runs is None else [(lo + a, lo + b) for a, b in runs]


def shared_byte(lo: int, hi: int, runs: Runs, rlo: int, rhi: int, rruns: Runs,
                page: int | None = None) -> int | None:
    """The first byte that accesses [lo, hi) and [rlo, rhi) (with their runs) both touch (on
    `page` only, when given: the checker looks at one page of a long strided access at a time)."""
    wlo, whi = max(lo, rlo), min(hi, rhi)
    if page is not None:
        wlo, whi = max(wlo, page << PAGE_BITS), min(whi, (page + 1) << PAGE_BITS)
    a, b = _within(lo, hi, runs, wlo, whi), _within(rlo, rhi, rruns, wlo, whi)
    x, y = next(a, None), next(b, None)
    while x is not None and y is not None:
        first = max(x[0], y[0])
        if first < min(x[1], y[1]):
            return first
        if x[1] <= y[1]:
            x = next(a, None)
        else:
            y = next(b, None)
    return None


def covers(lo: int, hi: int, runs: Runs, rlo: int, rhi: int, rruns: Runs) -> bool:
    """Whether access [lo, hi) (with its runs) touches every byte record [rlo, rhi) does."""
    if not (lo <= rlo and rhi <= hi):
        return False
    if runs is None:
        return True
    if runs is rruns:  # one pattern (runs are interned): a shifted copy covers only itself
        return lo == rlo
    a, i = _absolute(lo, hi, runs), 0
    for x, y in _absolute(rlo, rhi, rruns):
        while i < len(a) and a[i][1] <= x:
            i += 1
        if i == len(a) or a[i][0] > x or a[i][1] < y:
            return False
    return True


def pages_of(lo: int, hi: int, runs: Runs) -> range | list[int]:
    """The pages holding the bytes an access touches."""
    if runs is None:
        return range(lo >> PAGE_BITS, ((hi - 1) >> PAGE_BITS) + 1)
    out: list[int] = []
    for a, b in runs:
        first, last = (lo + a) >> PAGE_BITS, (lo + b - 1) >> PAGE_BITS
        if out and out[-1] >= first:
            first = out[-1] + 1
        out.extend(range(first, last + 1))
    return out


class RaceChecker:
    def __init__(self) -> None:
        self.pages: dict[Mem, dict[int, list[list]]] = {}
        self.procs: list[Process] = []
        self.logs: list[list[tuple[int, int, int]]] = []
        self.index: list[dict[int, list[int]]] = []  # see _by_sender
        self.indexed: list[int] = []

    def register(self, p: Process) -> None:
        p.vid = len(self.procs)
        p.epoch = 0
        p.rlog = []
        p.open = []
        self.procs.append(p)
        self.logs.append(p.rlog)
        self.index.append({})
        self.indexed.append(0)

    def start(self) -> None:
        """Every process is registered: size the known-epoch tables."""
        n = len(self.procs)
        for p in self.procs:
            p.known = [0] * n

    def ordered(self, p: Process, q: int, end: int) -> bool:
        """Whether epoch `end` of process q happened before p's present (through signals and
        messages)."""
        known = p.known
        if known[q] > end:
            return True
        # The tokens p has seen, directly or through senders' logs as they were when they
        # signalled: per unit, the longest such prefix of its log (shorter ones are inside),
        # and in it per sender only its last token (which dominates its earlier ones).
        logs = self.logs
        reach = {p.vid: len(p.rlog)}
        todo = [p.vid]
        while todo:
            vid = todo.pop()
            n, log = reach[vid], logs[vid]
            for pos in self._by_sender(vid):
                i = bisect_left(pos, n) - 1
                if i < 0:
                    continue
                sender, epoch, before = log[pos[i]]
                if sender == q and epoch > end:
                    known[q] = epoch  # p knows it from now on
                    return True
                if before > reach.get(sender, 0):
                    reach[sender] = before
                    todo.append(sender)
        return False

    def _by_sender(self, vid: int) -> Iterable[list[int]]:
        """Per sender, the positions of its tokens in the receive log of process `vid`
        (indexed on demand, from where the last search left off)."""
        log, index = self.logs[vid], self.index[vid]
        for i in range(self.indexed[vid], len(log)):
            pos = index.get(log[i][0])
            if pos is None:
                index[log[i][0]] = [i]
            else:
                pos.append(i)
        self.indexed[vid] = len(log)
        return index.values()

    def table(self, mem: Mem) -> dict[int, list[list]]:
        """The pages of a memory (generated code keeps it per access site)."""
        pages = self.pages.get(mem)
        if pages is None:
            pages = self.pages[mem] = {}
        return pages

    def access(self, p: Process, mem: Mem, lo: int, hi: int, write: bool,
               end: int | None, runs: Runs = None) -> None:
        """Record p's access to bytes [lo, hi) of `mem` (those of `runs` when strided) in
        epoch `end` (None: by a DMA, in flight until p waits for it), failing if it races."""
        pages = self.table(mem)
        me = p.vid
        dma = end is None
        rec = [me, lo, hi, write, end, p, dma, runs]
        for pg in pages_of(lo, hi, runs):
            recs = pages.get(pg)
            if recs is None:
                pages[pg] = [rec]
                continue
            kept = []
            for r in recs:
                rlo = r[_LO]
                if rlo >= hi or lo >= r[_HI]:
                    kept.append(r)
                elif r[_VID] == me:  # kept unless superseded by this later access of its unit
                    rr = r[_RUNS]  # (a shifted copy of one interned pattern never covers:
                    if (r[_END] is None or r[_WRITE] and not write  # `covers`, without a call)
                            or rr is runs and rr is not None and rlo != lo
                            or not covers(lo, hi, runs, rlo, r[_HI], rr)):
                        kept.append(r)
                elif not (write or r[_WRITE]) or (
                        (runs is not None or r[_RUNS] is not None)
                        and shared_byte(lo, hi, runs, r[_LO], r[_HI], r[_RUNS], pg) is None):
                    kept.append(r)  # reads of two units never race; nor do disjoint bytes
                else:
                    rend = r[_END]
                    if rend is None or (p.known[r[_VID]] <= rend
                                        and not self.ordered(p, r[_VID], rend)):
                        self._race(p, mem, lo, hi, write, dma, runs, r)
                    if not (write and covers(lo, hi, runs, r[_LO], r[_HI], r[_RUNS])):
                        kept.append(r)  # (else ordered before this covering write)
            kept.append(rec)
            pages[pg] = kept
        if dma:
            p.open.append(rec)

    def _race(self, p: Process, mem: Mem, lo: int, hi: int, write: bool, dma: bool,
              runs: Runs, r: list) -> None:
        mine = f"{'a DMA that ' if dma else ''}{'writes' if write else 'reads'}"
        theirs = f"{'a DMA of ' if r[_DMA] else ''}{r[_PROC].name}"
        state = ("still in flight" if r[_END] is None
                 else "not ordered before it by any signal or message")
        shared = ""
        if runs is not None or r[_RUNS] is not None:  # strided: name a byte both touch
            shared = f"; both touch byte {shared_byte(lo, hi, runs, r[_LO], r[_HI], r[_RUNS])}"
        raise RaceError(f"unsynchronised access: {p.name} {mine} bytes [{lo}, {hi}) of "
                        f"{mem.name}, which {theirs} {'wrote' if r[_WRITE] else 'read'} "
                        f"(bytes [{r[_LO]}, {r[_HI]})), {state}{shared}")


def close(p: Process, epoch: int) -> None:
    """p waits for its asynchronous DMAs: their accesses end in its current epoch."""
    for r in p.open:
        r[_END] = epoch
    p.open.clear()
