"""The read-only device model: what the scheduler and the emulator ask about a machine.

A `Device` is built once per description (`arch_descriptions.model.load_device`) and never
changes. Everything is keyed by *kind* (the `kind` of a resource: "DDR", "L1", "SFU"), as in
the upstream scheduler: resources of one kind are copies of one exemplar. Instances are named
by resource ids `C<core>-<KIND>[-CL<corelet>]` (global memory and other resources outside the
cores: just the kind).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from ktir.diagnostics import KtirDiagnostic, op_error

if TYPE_CHECKING:
    from xdsl.ir import Attribute, Operation

    from arch_descriptions.dialects.ktdf_arch import DeviceOp
    from arch_descriptions.model.roofline import Resource, Roofline, Work

# shared/spec/arch.md §8
DEFAULT_CLOCK_GHZ = 1.0
DEFAULT_SIGNAL_LATENCY = 1
DEFAULT_BYTES_PER_CYCLE = 64
DEFAULT_QUEUE_DEPTH = 2
DEFAULT_LATENCY_QUEUE, DEFAULT_LATENCY_OFFCHIP, DEFAULT_LATENCY_OTHER = 1, 100, 8
DEFAULT_OP_LATENCY = MappingProxyType({"simple": 2, "mul": 3, "fma": 4, "reduce": 4,
                                       "divide": 8, "transcendental": 8, "opaque": 16})
DEFAULT_OP_INTERVAL = MappingProxyType({"simple": 1, "mul": 1, "fma": 1, "reduce": 1,
                                        "divide": 4, "transcendental": 4, "opaque": 1})


def _ro(d: Mapping) -> Mapping:
    return MappingProxyType(dict(d))


@dataclass(frozen=True, eq=False)
class Memory:
    """A memory kind. `depth` in the memory tree: 0 global, 1 per-core scratchpad, 2+ unit-local."""

    kind: str
    size: int | None           # bytes (None: not stated)
    latency: int               # cycles added to each vector access
    bytes_per_cycle: int | None  # its own bandwidth, shared by every access (None: no limit)
    depth: int
    parent: str | None         # kind of the parent memory in the tree
    per_core: int              # instances inside one core (0: outside the cores)
    shared: int                # instances outside the cores (the global memory: 1)
    op: Operation = field(repr=False)


@dataclass(frozen=True)
class MatrixEngine:
    """A compute unit's matrix engine (`ktdf_arch.feature.matrix`, this project's extension):
    a `rows` x `cols` array of multiply-accumulators taking `depth` steps of k per pass.
    A block product C[m, n] += A[m, k] B[k, n] runs in passes of at most rows x depth x cols
    (a smaller block still takes a whole pass), each pass holding the engine
    ceil(rows x cols x depth / macs_per_cycle) cycles; the result is ready `latency` cycles
    after the passes end."""

    rows: int
    cols: int
    depth: int
    inputs: tuple[str, ...]          # element types it multiplies ("f16", "bf16")
    accumulator: str                 # element type it sums in ("f32")
    macs_per_cycle: int
    latency: int

    def accepts(self, element_type: str) -> bool:
        return element_type in self.inputs

    def passes(self, m: int, k: int, n: int) -> int:
        return (-(-m // self.rows)) * (-(-n // self.cols)) * (-(-k // self.depth))

    def interval(self, m: int, k: int, n: int) -> int:
        """Cycles the engine is busy with one m x k x n block product."""
        per_pass = -(-(self.rows * self.cols * self.depth) // self.macs_per_cycle)
        return self.passes(m, k, n) * per_pass


@dataclass(frozen=True, eq=False)
class Unit:
    """An execution-unit kind with its features and timing."""

    kind: str
    is_compute: bool
    can_load: bool
    can_store: bool
    simd_lanes: Mapping[str, int]        # element type name -> lanes
    lanes_per_cycle: Mapping[str, int]   # elements completed per cycle (absent type: 1)
    op_latency: Mapping[str, int]        # latency class -> cycles
    op_interval: Mapping[str, int]       # latency class -> initiation interval
    issue_cycles: int
    max_outstanding: int                 # transfers it keeps in flight at once
    word_size: Mapping[str, int]         # memory kind -> bytes per word (absent: 1)
    access_granularity: Mapping[str, tuple[tuple[int, int], ...]]  # memory -> (size, align)
    splat: bool
    zero_pad: bool
    per_core: int
    shared: int
    is_corelet: bool
    features: Mapping[str, Attribute] = field(repr=False)
    op: Operation = field(repr=False)
    matrix: MatrixEngine | None = None   # ktdf_arch.feature.matrix (compute units only)

    @property
    def moves_data(self) -> bool:
        return self.can_load or self.can_store

    def elements_per_cycle(self, element_type: str) -> int:
        """`lanes_per_cycle[T]`; a type the map does not list completes as many elements as
        fit the bits per cycle of the listed ones (1 when none is listed)."""
        if element_type in self.lanes_per_cycle:
            return self.lanes_per_cycle[element_type]
        return _by_width(self.lanes_per_cycle, element_type) or 1

    def words(self, memory_kind: str) -> int:
        return self.word_size.get(memory_kind, 1)


@dataclass(frozen=True, eq=False)
class Datapath:
    """A directed link between two kinds (memory, exec unit or switch)."""

    src: str
    dst: str
    bytes_per_cycle: int
    latency: int
    is_queue: bool
    queue_depth: int            # transfers in flight (queue links without depth: 2)
    queue_size: int | None      # bytes in flight (None: unbounded)
    ordered: bool
    granularity: tuple[int, ...]
    per_core: int
    shared: int
    op: Operation = field(repr=False)


@dataclass(frozen=True, eq=False)
class Group:
    """A group kind: where it sits, how many sibling copies of it there are."""

    kind: str | None
    role: str                   # "core", "corelet", "alias" (names one unit) or "group"
    nesting: int                # 1 = directly in the device
    siblings: int               # groups of the same kind under the same parent
    op: Operation = field(repr=False)


@dataclass(frozen=True, eq=False)
class Link:
    """One instance of a datapath between two resource instances (emulator wiring)."""

    src: str
    dst: str
    datapath: Datapath


MAX_TEMPLATE_CORES = 1 << 14
"""cores a template device (one core written out, replicated per tile) is instantiated for,
by the scheduler and the emulator: each costs its core's units, memories and datapaths (the
scheduler a handful of ops, the emulator their instances), so a grid of millions of tiles would
take minutes or hours"""


class Device:
    """A described machine. Built by `arch_descriptions.model.build`; read-only afterwards."""

    def __init__(self, *, name: str, definition: DeviceOp, declaration: DeviceOp,
                 attributes: Mapping[str, Attribute], source_path: Path | None,
                 clock_ghz: float, signal_latency: int, memories: dict[str, Memory],
                 units: dict[str, Unit], datapaths: list[Datapath], groups: list[Group],
                 global_memory_kind: str, compute_kind: str, corelets_per_core: int,
                 max_cores: int | None, space_mapping: dict[str, str],
                 defaults_used: list[str], links: list[tuple[str, str, Datapath]],
                 core_local_ids: frozenset[str], warnings: list[str]):
        self.name = name
        self.definition = definition
        self.declaration = declaration
        self.attributes = _ro(attributes)
        self.source_path = source_path
        self.clock_ghz = clock_ghz
        self.signal_latency = signal_latency
        self.memories: Mapping[str, Memory] = _ro(memories)
        self.units: Mapping[str, Unit] = _ro(units)
        self.datapaths: tuple[Datapath, ...] = tuple(datapaths)
        self.groups: tuple[Group, ...] = tuple(groups)
        self.global_memory_kind = global_memory_kind
        self.compute_kind = compute_kind
        self.corelets_per_core = corelets_per_core
        self.max_cores = max_cores
        self.defaults_used: tuple[str, ...] = tuple(defaults_used)
        self.warnings: tuple[str, ...] = tuple(warnings)  # legal, but the scheduler will refuse
        self._space_mapping = dict(space_mapping)
        self._links = tuple(links)
        self._core_local = core_local_ids
        self._by_pair = {}
        for dp in self.datapaths:
            self._by_pair.setdefault((dp.src, dp.dst), dp)
        self._succ: dict[str, list[str]] = {}
        for dp in self.datapaths:
            if dp.src != dp.dst and dp.dst not in self._succ.setdefault(dp.src, []):
                self._succ[dp.src].append(dp.dst)
        self._routes: dict[tuple[str, str], tuple[str, ...]] = {}

    def __repr__(self) -> str:
        return f"<Device @{self.name} from {self.source_path}>"

    # ---- lookups ----------------------------------------------------------------------------

    def datapath(self, src: str, dst: str) -> Datapath | None:
        return self._by_pair.get((src, dst))

    def vector_lanes(self, element_type: str) -> int:
        """SIMD lanes of the compute unit for an element type name ("f16"). A type that
        `simd.lanes` does not list gets as many lanes as fit the widest listed vector
        (lanes x bits): f32 on a unit of 64 f16 lanes has 32, i8 has 128."""
        unit = self.units[self.compute_kind]
        if element_type in unit.simd_lanes:
            return unit.simd_lanes[element_type]
        derived = _by_width(unit.simd_lanes, element_type)
        if not derived:
            have = ", ".join(unit.simd_lanes) or "none"
            raise op_error(unit.op, f'compute unit "{unit.kind}" has no SIMD lanes for '
                                    f"{element_type} (feature.simd lanes: {have})")
        return derived

    @property
    def matrix_engine(self) -> MatrixEngine | None:
        """The compute unit's matrix engine (None: SIMD only)."""
        return self.units[self.compute_kind].matrix

    def memory_for_space(self, space: str) -> str:
        """The memory kind behind a KTIR memory space ("global" or "ct_local")."""
        if space in self._space_mapping:
            return self._space_mapping[space]
        if space == "global":
            return self.global_memory_kind
        if space == "ct_local":
            return self.scratchpad_kind()
        raise KtirDiagnostic(f"error: unknown KTIR memory space '{space}' (expected 'global' "
                             "or 'ct_local')")

    def scratchpad_kind(self) -> str:
        """The per-core scratchpad: the depth-1 memory on the route from global memory to the
        compute unit (else the first depth-1 memory)."""
        level1 = [m.kind for m in self.memories.values() if m.depth == 1]
        if not level1:
            raise op_error(self.definition, f"device @{self.name} has no per-core scratchpad "
                                            "(no memory below the global memory)")
        on_route = [k for k in self.route(self.global_memory_kind, self.compute_kind)
                    if k in level1]
        return on_route[0] if on_route else level1[0]

    @property
    def scratchpad_bytes(self) -> int | None:
        """The size of one core's scratchpad (`scratchpad_kind`)."""
        return self.memories[self.scratchpad_kind()].size

    def route(self, src_kind: str, dst_kind: str) -> list[str]:
        """Shortest path (BFS over datapaths, cost 1 each) from one kind to another, both ends
        included; [] when none exists."""
        for k in (src_kind, dst_kind):
            if k not in self.memories and k not in self.units and k not in self._succ:
                raise ValueError(f"device @{self.name} has no resource of kind '{k}'")
        key = (src_kind, dst_kind)
        if key not in self._routes:
            self._routes[key] = self._bfs(src_kind, dst_kind)
        return list(self._routes[key])

    def _bfs(self, src: str, dst: str) -> tuple[str, ...]:
        prev: dict[str, str | None] = {src: None}
        todo = deque([src])
        while todo:
            cur = todo.popleft()
            if cur == dst:
                path = [cur]
                while (p := prev[path[-1]]) is not None:
                    path.append(p)
                return tuple(reversed(path))
            for nxt in self._succ.get(cur, ()):
                if nxt not in prev:
                    prev[nxt] = cur
                    todo.append(nxt)
        return ()

    def readers(self, memory_kind: str) -> set[str]:
        """Unit kinds with a datapath memory -> unit."""
        return {dp.dst for dp in self.datapaths if dp.src == memory_kind and dp.dst in self.units}

    def writers(self, memory_kind: str) -> set[str]:
        """Unit kinds with a datapath unit -> memory."""
        return {dp.src for dp in self.datapaths if dp.dst == memory_kind and dp.src in self.units}

    def local_memory(self, unit_kind: str) -> str | None:
        """The memory kind private to a unit's group (SFU -> SFU_REG), if exactly one."""
        unit = self.units[unit_kind]
        group = unit.op.parent_op()
        kinds = {m.kind for m in self.memories.values() if m.op.parent_op() is group
                 and group is not self.definition}
        return kinds.pop() if len(kinds) == 1 else None

    def is_corelet_unit(self, kind: str) -> bool:
        return self.units[kind].is_corelet

    def patterns(self, checkpoint: str) -> list[Operation]:
        """The `pdl.pattern` ops of `patterns [...]` blocks that are always on (empty group
        list) or name `checkpoint`."""
        from arch_descriptions.dialects.ktdf_arch import PatternsOp

        out: list[Operation] = []
        for op in self.definition.body.ops if not self.definition.is_imported else ():
            if isinstance(op, PatternsOp) and (not op.group_names
                                               or checkpoint in op.group_names):
                out.extend(child for child in op.body.ops if child.name == "pdl.pattern")
        return out

    # ---- instances ---------------------------------------------------------------------------

    def resource_id(self, kind: str, core: int, corelet: int | None = None) -> str:
        """`C<core>-<KIND>[-CL<k>]`; resources outside the cores (global memory) are the kind."""
        known = self.memories.get(kind) or self.units.get(kind)
        if known is None:
            raise ValueError(f"device @{self.name} has no memory or unit of kind '{kind}'")
        if core < 0 or (self.max_cores is not None and core >= self.max_cores):
            raise ValueError(f"core {core} out of range for device @{self.name}"
                             + (f" ({self.max_cores} cores)" if self.max_cores else ""))
        if known.per_core == 0:
            return kind
        if corelet is None:
            return f"C{core}-{kind}"
        if kind not in self._core_local or not 0 <= corelet < self.corelets_per_core:
            raise ValueError(f"'{kind}' has no corelet {corelet} on device @{self.name} "
                             f"({self.corelets_per_core} corelet(s); corelet kinds: "
                             + ", ".join(sorted(self._core_local)) + ")")
        return f"C{core}-{kind}-CL{corelet}"

    def links(self, cores: int | None = None) -> list[Link]:
        """Every datapath instance between resource instances, for `cores` cores (default: the
        cores the file writes out, else 1). Template devices replicate their one core."""
        n = (self.max_cores or 1) if cores is None else cores
        if self.max_cores is not None and n != self.max_cores:
            raise ValueError(f"device @{self.name} writes out {self.max_cores} cores; "
                             f"cannot instantiate {n}")
        out: list[Link] = []
        for src, dst, dp in self._links:
            if self.max_cores is None and (src.startswith("C0-") or dst.startswith("C0-")):
                for c in range(n):
                    out.append(Link(_recore(src, c), _recore(dst, c), dp))
            else:
                out.append(Link(src, dst, dp))
        return out

    def roofline(self, work: Work) -> Roofline:
        """The bound on cycles of a kernel's `work` (arch_descriptions.model.roofline)."""
        from arch_descriptions.model.roofline import roofline

        return roofline(self, work)

    def resources(self, cores: int) -> list[Resource]:
        """The resources the bound charges on `cores` cores, with their rates."""
        from arch_descriptions.model.roofline import resources

        return resources(self, cores)

    def round_trip(self) -> tuple[int, tuple[str, ...]]:
        """Latency and resources of one trip global memory -> compute unit -> back."""
        from arch_descriptions.model.roofline import round_trip

        return round_trip(self)


_BITS = {"f16": 16, "bf16": 16, "!spyreop.df16": 16, "f32": 32, "f64": 64, "index": 64}


def element_bits(name: str) -> int | None:
    """Bits of an element type given by name ("f16", "i8"), None if unknown."""
    if name in _BITS:
        return _BITS[name]
    if name.startswith("i") and name[1:].isdigit():
        return int(name[1:])
    return None


def _by_width(per_type: Mapping[str, int], element_type: str) -> int:
    """Lanes of `element_type` in the widest vector of `per_type` (0 when unknown)."""
    bits = element_bits(element_type)
    widths = [n * b for t, n in per_type.items() if (b := element_bits(t))]
    return max(widths) // bits if bits and widths else 0


def _recore(rid: str, core: int) -> str:
    return f"C{core}-{rid[3:]}" if rid.startswith("C0-") else rid
