"""The unsynchronised-access checker (shared/spec/dataflow-ir.md §7 E9, E14).

Happens-before comes from signals only. A `sync_send` ends the sender's epoch and carries the
token (sender, epoch, length of the sender's receive log); a `sync_recv` appends that token to
the receiver's log and raises the receiver's known epoch of the sender. "Did epoch k of Q
happen before now in P" is answered from those known epochs, and only when that fails by a
search back through the receive logs (transitive ordering through third units), whose answer
then raises the known epoch too. Every memory access is recorded per 128-byte page (one
vector of 64 fp16) as (process, byte range, read/write, end epoch); an asynchronous DMA's
accesses stay open ("in flight") until its unit waits for them (a `sync_send` with
`wait_immediately_for_async_transfers`, or the end of its program). An access races with a
recorded one of another process when their bytes overlap, one of them writes, and the recorded
one is still in flight or its epoch has not reached the accessing process through signals.
Records superseded by a later, ordered write over the same bytes are dropped, so buffers
reused every iteration keep a handful of records.

The generated programs do the per-signal bookkeeping and the common outcomes of an access
themselves (codegen_inline.py: a page no one touched, a read after ordered accesses of the
same bytes, a write superseding them); every other access, and every race, comes here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from emulator.errors import RaceError

if TYPE_CHECKING:
    from emulator.machine import Mem
    from emulator.runtime import Process

PAGE_BITS = 7

# record fields
_VID, _LO, _HI, _WRITE, _END, _PROC, _DMA = range(7)


class RaceChecker:
    def __init__(self) -> None:
        self.pages: dict[Mem, dict[int, list[list]]] = {}
        self.procs: list[Process] = []
        self.logs: list[list[tuple[int, int, int]]] = []

    def register(self, p: Process) -> None:
        p.vid = len(self.procs)
        p.epoch = 0
        p.rlog = []
        p.open = []
        self.procs.append(p)
        self.logs.append(p.rlog)

    def start(self) -> None:
        """Every process is registered: size the known-epoch tables."""
        n = len(self.procs)
        for p in self.procs:
            p.known = [0] * n

    def ordered(self, p: Process, q: int, end: int) -> bool:
        """Whether epoch `end` of process q happened before p's present (through signals)."""
        known = p.known
        if known[q] > end:
            return True
        # The tokens p has seen, directly or through senders' logs as they were when they
        # signalled: per unit, the longest such prefix of its log (shorter ones are inside).
        logs = self.logs
        reach = {p.vid: len(p.rlog)}
        scanned: dict[int, int] = {}
        todo = [p.vid]
        while todo:
            vid = todo.pop()
            n, start = reach[vid], scanned.get(vid, 0)
            if n <= start:
                continue
            scanned[vid] = n
            log = logs[vid]
            for i in range(n - 1, start - 1, -1):
                sender, epoch, before = log[i]
                if sender == q and epoch > end:
                    known[q] = epoch  # p knows it from now on
                    return True
                if before > reach.get(sender, 0):
                    reach[sender] = before
                    todo.append(sender)
        return False

    def table(self, mem: Mem) -> dict[int, list[list]]:
        """The pages of a memory (generated code keeps it per access site)."""
        pages = self.pages.get(mem)
        if pages is None:
            pages = self.pages[mem] = {}
        return pages

    def access(self, p: Process, mem: Mem, lo: int, hi: int, write: bool,
               end: int | None) -> None:
        """Record p's access to bytes [lo, hi) of `mem` in epoch `end` (None: by a DMA, in
        flight until p waits for it), failing if it races."""
        pages = self.table(mem)
        me = p.vid
        dma = end is None
        rec = [me, lo, hi, write, end, p, dma]
        pg, last = lo >> PAGE_BITS, (hi - 1) >> PAGE_BITS
        while pg <= last:
            recs = pages.get(pg)
            if recs is None:
                pages[pg] = [rec]
                pg += 1
                continue
            kept = []
            for r in recs:
                if r[_LO] >= hi or lo >= r[_HI]:
                    kept.append(r)
                elif r[_VID] != me:
                    if write or r[_WRITE]:
                        end = r[_END]
                        if end is None or (p.known[r[_VID]] <= end
                                           and not self.ordered(p, r[_VID], end)):
                            self._race(p, mem, lo, hi, write, dma, r)
                        if write and lo <= r[_LO] and r[_HI] <= hi:
                            continue  # ordered before this covering write
                    kept.append(r)
                elif lo <= r[_LO] and r[_HI] <= hi and (write or not r[_WRITE]) \
                        and r[_END] is not None:
                    continue  # superseded by this unit's own later access
                else:
                    kept.append(r)
            kept.append(rec)
            pages[pg] = kept
            pg += 1
        if dma:
            p.open.append(rec)

    def _race(self, p: Process, mem: Mem, lo: int, hi: int, write: bool, dma: bool,
              r: list) -> None:
        mine = f"{'a DMA that ' if dma else ''}{'writes' if write else 'reads'}"
        theirs = f"{'a DMA of ' if r[_DMA] else ''}{r[_PROC].name}"
        state = "still in flight" if r[_END] is None else "not ordered before it by any signal"
        raise RaceError(f"unsynchronised access: {p.name} {mine} bytes [{lo}, {hi}) of "
                        f"{mem.name}, which {theirs} {'wrote' if r[_WRITE] else 'read'} "
                        f"(bytes [{r[_LO]}, {r[_HI]})), {state}")


def close(p: Process, epoch: int) -> None:
    """p waits for its asynchronous DMAs: their accesses end in its current epoch."""
    for r in p.open:
        r[_END] = epoch
    p.open.clear()
