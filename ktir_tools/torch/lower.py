"""One fused FX graph (element-wise ops and last-dimension reductions) as one KTIR kernel.

Every tensor of the graph is seen in the space of its largest tensor F: R = prod(F[:-1])
rows of C = F[-1] elements. A tensor of shape F is (R, C) in the kernel, one broadcast
along the rows ((C,), (1, .., C)) is (1, C), a row statistic (F[:-1] + (1,), or F[:-1] for
a reduction without keepdim) is (R, 1), a one-element tensor is (1, 1). Any other shape (a
broadcast along a middle dimension) is not expressible this way and stays in eager PyTorch.
The rows are divided over the device's cores (`divide`), and the builder writes the kernel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

import torch
from torch.fx.node import map_arg
from torch.fx.passes.shape_prop import ShapeProp

from ktir.build import Kernel, Value
from ktir_tools.torch.ops import DTYPES, REDUCTIONS, Unsupported, lower_node, op_kind


@dataclass
class Plan:
    """A kernel for one input signature: which kernel tensor takes which graph input, and
    which kernel tensor holds which output (with its torch shape and dtype)."""

    kernel: Kernel
    inputs: list[tuple[str, tuple[int, ...]]]  # per placeholder: kernel tensor, its shape
    outputs: list[tuple[str, tuple[int, ...], torch.dtype]]  # per graph output
    tiles: int
    rows_per_tile: int


def meta(node: torch.fx.Node) -> tuple[tuple[int, ...], torch.dtype] | None:
    """The shape and dtype FX recorded for `node` (dynamo's example value, or ShapeProp's)."""
    for key in ("example_value", "val"):
        v = node.meta.get(key)
        if isinstance(v, torch.Tensor):
            try:
                return tuple(int(d) for d in v.shape), v.dtype
            except TypeError:  # a symbolic size
                return None
    tm = node.meta.get("tensor_meta")
    if tm is not None and hasattr(tm, "shape"):
        return tuple(int(d) for d in tm.shape), tm.dtype
    return None


def _propagated(node: torch.fx.Node) -> tuple[tuple[int, ...], torch.dtype] | None:
    tm = node.meta.get("tensor_meta")
    if tm is None or not hasattr(tm, "shape"):
        return None
    return tuple(int(d) for d in tm.shape), tm.dtype


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def divide(rows: int, row_bytes: int, cores: int, budget: int) -> tuple[int, int]:
    """(rows per tile, tiles): as many tiles as the cores allow with every tile taking as
    many row blocks (a constant-trip tile loop), then the largest blocks that fit `budget`
    bytes of scratchpad."""
    best: tuple[int, int] | None = None
    for rb in divisors(rows):
        if rb * row_bytes > budget:
            break
        g = max(d for d in divisors(rows // rb) if d <= cores)
        if best is None or (g, rb) > (best[1], best[0]):
            best = (rb, g)
    if best is None:
        raise Unsupported(f"one row ({row_bytes} B with its intermediates) does not fit the "
                          f"{budget} B of scratchpad the backend plans with")
    return best


def lower(gm: torch.fx.GraphModule, inputs: list[torch.Tensor], name: str, cores: int,
          scratchpad_bytes: int) -> Plan:
    """The kernel computing `gm` on inputs shaped like `inputs`; `Unsupported` or
    `BuildError` when it cannot be written."""
    for a in inputs:
        if not isinstance(a, torch.Tensor):
            raise Unsupported(f"a non-tensor input ({type(a).__name__})")
        if a.dtype not in DTYPES:
            raise Unsupported(f"dtype {a.dtype}")
    ShapeProp(gm).propagate(*[torch.empty(a.shape, dtype=a.dtype, device="meta")
                              for a in inputs])
    nodes = [n for n in gm.graph.nodes if n.op != "output"]
    shapes: dict[torch.fx.Node, tuple[tuple[int, ...], torch.dtype]] = {}
    for n in nodes:
        m = _propagated(n)
        if m is None:
            raise Unsupported(f"'{n.name}' is not a tensor of known shape")
        if m[1] not in DTYPES:
            raise Unsupported(f"dtype {m[1]} of '{op_kind(n)}'")
        shapes[n] = m
    full = max((m[0] for m in shapes.values() if m is not None),
               key=lambda s: (math.prod(s), len(s)))
    if not full:
        raise Unsupported("only 0-d tensors")
    rows, cols = math.prod(full[:-1]), full[-1]
    row_bytes = 3 * cols * sum(torch.empty((), dtype=m[1]).element_size()
                               for m in shapes.values() if m is not None and m[0] == full)
    rb, grid = divide(rows, max(row_bytes, 1), cores, scratchpad_bytes // 2)
    space = _Space(full, rb)

    k = Kernel(name, grid=grid)
    tensors = {}
    plan_in = []
    for n in nodes:
        if n.op == "placeholder":
            shape = space.kernel_shape(shapes[n][0], n)
            t = k.tensor(f"in{len(plan_in)}", shape, DTYPES[shapes[n][1]])
            tensors[n] = t
            plan_in.append((t.name, shape))
    out_node = next(n for n in gm.graph.nodes if n.op == "output")
    results = out_node.args[0]
    outs = list(results) if isinstance(results, tuple | list) else [results]
    plan_out = []
    layouts: dict[torch.fx.Node, str | None] = {}
    with k.tiles(rows=rb, total=rows) as tile:
        env: dict[torch.fx.Node, Value] = {}
        for n in nodes:
            layouts[n] = space.node_layout(shapes[n][0])
            if n.op == "placeholder":
                env[n] = tile.load(tensors[n])
                continue
            if n.op not in ("call_function", "call_method"):
                raise Unsupported(f"a {n.op} node")
            space.check_operands(n, shapes, layouts)
            args: Any = map_arg(n.args, lambda a: cast(Any, env[a]))
            kwargs: Any = map_arg(n.kwargs, lambda a: cast(Any, env[a]))
            first = n.args[0] if n.args else None
            rank = len(shapes[first][0]) if isinstance(first, torch.fx.Node) else len(full)
            v = lower_node(n, DTYPES[shapes[n][1]], tuple(args), dict(kwargs), rank)
            space.check_result(n, layouts[n], v)
            env[n] = v
        stored: dict[torch.fx.Node, str] = {}
        for i, o in enumerate(outs):
            if not isinstance(o, torch.fx.Node):
                raise Unsupported("an output that is not a tensor of the graph")
            shape, dtype = shapes[o]
            if o not in stored:
                lay = layouts[o]
                if lay not in ("full", "row"):
                    raise Unsupported(f"output '{o.name}' of shape {tuple(shape)} does not "
                                      "follow the divided rows")
                t = k.tensor(f"out{i}", (rows, space.handle(lay)[1]), DTYPES[dtype])
                tile.store(t, env[o])
                stored[o] = t.name
            plan_out.append((stored[o], shape, dtype))
    return Plan(k, plan_in, plan_out, grid, rb)


class _Space:
    """Layouts in the space of F: "full" (R, C), "row" (R, 1), "col" (1, C), "one" (1, 1)."""

    def __init__(self, full: tuple[int, ...], rb: int):
        self.full, self.rb = full, rb
        self.rows, self.cols = math.prod(full[:-1]), full[-1]

    def layout(self, s: tuple[int, ...]) -> str | None:
        """How torch broadcasts a tensor of shape `s` against F."""
        f = self.full
        if len(s) > len(f):
            return None
        p = (1,) * (len(f) - len(s)) + tuple(s)
        if p == f:
            return "full"
        if all(d == 1 for d in p[:-1]) and p[-1] == self.cols:
            return "col"
        if p[:-1] == f[:-1] and p[-1] == 1:
            return "row"
        if all(d == 1 for d in p):
            return "one"
        return None

    def node_layout(self, s: tuple[int, ...]) -> str | None:
        if self.reduced(s) and self.layout(s) is None:
            return "row"  # a reduction without keepdim, or an op on such
        return self.layout(s)

    def handle(self, layout: str) -> tuple[int, int]:
        return {"full": (self.rb, self.cols), "row": (self.rb, 1), "col": (1, self.cols),
                "one": (1, 1)}[layout]

    def kernel_shape(self, s: tuple[int, ...], n: torch.fx.Node) -> tuple[int, int]:
        lay = self.layout(s)
        if lay is None:
            raise Unsupported(f"input '{n.name}' of shape {tuple(s)} broadcasts against "
                              f"{self.full} along a middle dimension")
        return {"full": (self.rows, self.cols), "row": (self.rows, 1), "col": (1, self.cols),
                "one": (1, 1)}[lay]

    def reduced(self, s: tuple[int, ...]) -> bool:
        return len(self.full) >= 2 and tuple(s) == self.full[:-1]

    def check_operands(self, n: torch.fx.Node, shapes: dict, layouts: dict) -> None:
        """Each tensor operand lines up with the others as torch broadcasts them: its layout
        is the one torch gives its shape, except among row statistics without keepdim."""
        own = shapes[n][0]
        rowwise = self.layout(own) is None and self.reduced(own) and \
            op_kind(n) not in REDUCTIONS
        for a in n.all_input_nodes:
            s = shapes[a][0]
            if rowwise and (self.reduced(s) or math.prod(s) == 1):
                continue
            if self.layout(s) is None or self.layout(s) != layouts[a]:
                raise Unsupported(f"'{op_kind(n)}' combines '{a.name}' of shape {tuple(s)} "
                                  f"with a tensor of shape {tuple(own)}: a broadcast the "
                                  "backend does not line up")

    def check_result(self, n: torch.fx.Node, lay: str | None, v: Value) -> None:
        if lay is None or (tuple(v.shape) != self.handle(lay) and not (
                lay == "one" and v.shape == ())):
            raise Unsupported(f"'{op_kind(n)}' gives a tensor the backend does not lay out")
