"""How many columns (Nb) one instance of a resident-steps contraction covers, by predicted
cycles per tile.

A contraction whose k steps are no recurrence keeps every step's A (Mt x kc) and B (kc x Nb)
block resident in one instance (contraction_pipeline.py). The whole width in one instance
runs its DMA, the load unit's stream and the engine one after the other; several n blocks per
tile let `double-buffering` land block j+1 while block j is streamed and multiplied, at the
cost of reading A once per block. The cost model is schedule_model.py's first-order one,
written on the plan instead of the scheduled IR (the choice is made here, before the
schedule exists):

- per instance, each data-moving unit on an operand's route (`device.route`, e.g. DDR ->
  DMA_IN -> LX -> LX_LOAD -> PE) costs the operand's bytes over the narrowest of its two
  links (a DMA), or over each of them (a queue: one hop after the other), and at least the
  bytes times the tiles over a shared memory's bandwidth (spyre's DDR); a block that several
  steps read crosses a DMA once (path-expansion moves it into the scratchpad once) and the
  queues once per step; the unit's route latency once (all in flight, `max_outstanding`) or
  per transfer (a unit with several in flight hides it behind the previous instance after
  the first), and a handshake (two signal latencies) per instance;
- the compute unit costs each step's block product (`MatrixEngine.interval`) and each op of
  the stored function on the Mt x Nb block (its class's interval over the lanes), plus the
  engine's latency;
- a tile takes one instance through all its stages one after the other (the engine reads
  whole blocks from its queues and writes a whole result block: within an instance nothing
  overlaps) plus, per further instance, the period: the slowest stage when the buffers have
  two copies (they fit half the scratchpad), else the whole instance again.

Checked against the emulator on ktir-cpu's ffn_swiglu (one tile, Nb 128 / 64 / 32: predicted
1,515 / 1,195 / 1,163 against emulated 1,482 / 1,166 / 1,120 for its first group).

The widest Nb wins ties (fewer A reads). On spyre, ktir-cpu's ffn_swiglu_4core (M = 4,
256 x 256 weights per tile, 4 tiles): Nb 256 -> 32, 26,735 -> 16,517 cycles.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from scheduler.analysis.compute_ops import latency_class


@dataclass(frozen=True)
class Operand:
    """A block one instance moves between a memory and the compute unit (or back)."""

    memory: str                   # the memory kind of its view
    key: object                   # the same key: one block however many steps read it
    nbytes: Callable[[int], int]  # its bytes for a block width Nb
    into: bool = True             # towards the compute unit (else a result, out of it)


@dataclass(frozen=True)
class Compute:
    """The compute stage of one instance: `steps` products Mt x kc x Nb and the stored
    function's ops on the Mt x Nb block (latency class, element type)."""

    steps: int
    mt: int
    kc: int
    ops: tuple[tuple[str, str], ...]


def tail_ops(node, is_leaf: Callable[[object], bool], apply_type) -> tuple[tuple[str, str], ...]:
    """The ops of the stored function `node` (the tree above the contraction results,
    `is_leaf` nodes not entered), each once as `_TensorTail` emits them: (class, type)."""
    seen: dict[int, tuple[str, str]] = {}

    def walk(n) -> None:
        if id(n) in seen or is_leaf(n) or not isinstance(n, apply_type):
            return
        for a in n.args:
            walk(a)
        res = n.template.results[n.result].type
        elem = res.get_element_type() if hasattr(res, "get_element_type") else res
        seen[id(n)] = (latency_class(n.template), str(elem))

    walk(node)
    return tuple(seen.values())


def _unit_cost(device, route: list[str], i: int, nbytes: int, tiles: int
               ) -> tuple[float, float, bool]:
    """(cycles, latency, is a queue) of unit route[i] moving `nbytes` between its two
    neighbours on the route."""
    unit = route[i]
    dps = [dp for dp in (device.datapath(route[i - 1], unit), device.datapath(unit, route[i + 1]))
           if dp is not None]
    queue = any(dp.is_queue for dp in dps)
    if queue:
        cycles = sum(max(1.0, nbytes / (dp.bytes_per_cycle or 128)) for dp in dps)
    else:
        cycles = nbytes / (min((dp.bytes_per_cycle for dp in dps if dp.bytes_per_cycle),
                               default=128))
    for end in (route[i - 1], route[i + 1]):
        mem = device.memories.get(end)
        if mem is not None and mem.per_core == 0 and mem.bytes_per_cycle:
            cycles = max(cycles, nbytes * tiles / mem.bytes_per_cycle)
    return cycles, float(sum(dp.latency for dp in dps)), queue


def tile_cycles(device, tiles: int, n: int, nb: int, operands: list[Operand],
                compute: Compute, copies: int) -> float:
    """The predicted cycles of one tile's n / nb instances of width `nb` (module
    docstring)."""
    cycles: dict[str, float] = {}
    lats: dict[str, list[float]] = {}
    moved: set[tuple[str, object]] = set()
    pe = device.compute_kind
    for op in operands:
        route = device.route(op.memory, pe) if op.into else device.route(pe, op.memory)
        for i in range(1, len(route) - 1):
            unit = route[i]
            if unit not in device.units or unit == pe:
                continue
            c, lat, queue = _unit_cost(device, route, i, op.nbytes(nb), tiles)
            if not queue and (unit, op.key) in moved:  # one DMA however many steps read it
                continue
            moved.add((unit, op.key))
            cycles[unit] = cycles.get(unit, 0.0) + c
            lats.setdefault(unit, []).append(lat)
    unit = device.units[pe]
    engine = unit.matrix
    work = 0.0
    if engine is not None:
        work += compute.steps * engine.interval(compute.mt, compute.kc, nb) + engine.latency
    for cls, elem in compute.ops:
        beats = math.ceil(compute.mt * nb / max(1, unit.elements_per_cycle(elem)))
        work += unit.op_interval.get(cls, 1) * beats
    handshake = 2 * device.signal_latency
    first = dict(cycles)  # the first instance waits for its routes' latency
    for k, ls in lats.items():
        outstanding = getattr(device.units[k], "max_outstanding", 1) or 1
        first[k] += (max(ls) if outstanding > 1 else sum(ls)) + handshake
        # later ones: hidden behind the previous instance when the unit keeps several
        # transfers in flight, paid again when it keeps one
        cycles[k] += (0.0 if outstanding > 1 else sum(ls)) + handshake

    busy = work + handshake
    fill = sum(first.values()) + busy
    period = max([busy, *cycles.values()]) if copies >= 2 else sum(cycles.values()) + busy
    return fill + (n // nb - 1) * period


def choose_width(candidates: list[int], cost: Callable[[int], float]) -> int:
    """The candidate of the least cost; on a tie the widest."""
    return min(sorted(candidates, reverse=True), key=cost)


__all__ = ["Compute", "Operand", "choose_width", "tail_ops", "tile_cycles"]
