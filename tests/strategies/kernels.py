"""KTIR text for element-wise kernels, and hypothesis strategies over them.

`elementwise_kernel` writes a kernel over 2-D tensors: `grid` tiles split the rows, each tile
loads its rows of every input (and, for a row broadcast, the one row of a 1xN input), applies a
chain of element-wise ops in one of three spellings (named linalg ops, one `linalg.generic`,
`arith` on tensors) and stores the result. With `loop` a tile takes its rows one per
iteration of an `scf.for` whose bounds depend on the tile id (`block`: rows [r t, r t + r);
`cyclic`, Triton's pid-strided loop: rows t, t + grid, ...); with `carry` the result goes
through a loop with iter_args that combines it K times with the first input. `reference`
computes the same thing with numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

OPS = {"add": ("linalg.add", "arith.addf", np.add),
       "sub": ("linalg.sub", "arith.subf", np.subtract),
       "mul": ("linalg.mul", "arith.mulf", np.multiply),
       "max": ("linalg.max", "arith.maximumf", np.maximum),
       "min": ("linalg.min", "arith.minimumf", np.minimum)}


@dataclass(frozen=True)
class ElementwiseSpec:
    rows: int
    cols: int
    grid: int
    chain: tuple[tuple[str, int, int], ...]  # (op, lhs, rhs); operands index values so far
    n_inputs: int = 2
    broadcast_last: bool = False  # the last input is a 1 x cols row broadcast over rows
    form: str = "named"  # named | generic | arith
    name: str = "eltwise"
    loop: str = "none"  # none | block | cyclic: a tile's rows one per scf.for iteration
    carry: tuple[str, int] | None = None  # (op, K): acc = op(acc, input 0) K times (iter_args)

    @property
    def rows_per_tile(self) -> int:
        return self.rows // self.grid


def elementwise_kernel(s: ElementwiseSpec) -> str:
    n = s.cols
    r = 1 if s.loop != "none" else s.rows_per_tile  # rows of the tiles loaded and stored
    args = ", ".join(f"%in{i}: index" for i in range(s.n_inputs)) + ", %out: index"
    lines = [
        f"#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + {s.rows - 1} >= 0, d1 >= 0, -d1 + {n - 1} >= 0)>",
        f"#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + {n - 1} >= 0)>",
        f"#slab = affine_set<(d0, d1) : (d0 >= 0, -d0 + {r - 1} >= 0, d1 >= 0, -d1 + {n - 1} >= 0)>",
        "#id = affine_map<(d0, d1) -> (d0, d1)>",
        "#bcast = affine_map<(d0, d1) -> (0, d1)>",
        f"func.func @{s.name}({args}) attributes {{grid = [{s.grid}]}} {{",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        f"  %cr = arith.constant {s.rows_per_tile} : index",
        "  %tid = ktdp.get_compute_tile_id : index",
        "  %row0 = arith.muli %tid, %cr : index",
    ]
    for i in range(s.n_inputs):
        rows = 1 if s.broadcast_last and i == s.n_inputs - 1 else s.rows
        cset = f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, -d1 + {n - 1} >= 0)>"
        lines.append(f"  %v{i} = ktdp.construct_memory_view %in{i}, sizes: [{rows}, {n}], strides: [{n}, 1] "
                     f"{{coordinate_set = {cset}, memory_space = #ktdp.memory_space<global>}} : memref<{rows}x{n}xf16>")
    lines.append(f"  %vo = ktdp.construct_memory_view %out, sizes: [{s.rows}, {n}], strides: [{n}, 1] "
                 f"{{coordinate_set = #full, memory_space = #ktdp.memory_space<global>}} : memref<{s.rows}x{n}xf16>")
    at = "%row0"
    if s.loop == "block":  # rows [row0, row0 + r): bounds from the tile id
        lines.append("  %end = arith.addi %row0, %cr : index")
        lines.append("  scf.for %row = %row0 to %end step %c1 {")
        at = "%row"
    elif s.loop == "cyclic":  # rows tid, tid + grid, ...: Triton's pid-strided loop
        lines.append(f"  %crows = arith.constant {s.rows} : index")
        lines.append(f"  %cgrid = arith.constant {s.grid} : index")
        lines.append("  scf.for %row = %tid to %crows step %cgrid {")
        at = "%row"
    body = _chain_body(s, r, at)
    pad = "  " if s.loop != "none" else ""
    lines += [pad + line for line in body]
    if s.loop != "none":
        lines.append("  }")
    lines.append("  return")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _combine(s: ElementwiseSpec, op: str, a: str, b: str, res: str, t: str) -> list[str]:
    """`res = op(a, b)` on tensors of type `t` in the spec's spelling (a generic kernel's
    carried loop uses arith)."""
    if s.form == "named":
        return [f"  {res}_e = tensor.empty() : {t}",
                f"  {res} = {OPS[op][0]} ins({a}, {b} : {t}, {t}) outs({res}_e : {t}) -> {t}"]
    return [f"  {res} = {OPS[op][1]} {a}, {b} : {t}"]


def _chain_body(s: ElementwiseSpec, r: int, at: str) -> list[str]:
    """Load the tiles of rows [at, at + r) (the broadcast row whole), apply the chain (and the
    carried loop), store the result's tile."""
    n = s.cols
    t = f"tensor<{r}x{n}xf16>"
    lines: list[str] = []
    values: list[tuple[str, str]] = []  # (ssa, type)
    for i in range(s.n_inputs):
        bcast = s.broadcast_last and i == s.n_inputs - 1
        rows = 1 if bcast else s.rows
        shape = f"{rows}x{n}xf16"
        tset, tshape, tat = ("#row", f"1x{n}", "%c0") if bcast else ("#slab", f"{r}x{n}", at)
        lines.append(f"  %t{i} = ktdp.construct_access_tile %v{i}[{tat}, %c0] {{access_tile_order = #id, "
                     f"access_tile_set = {tset}}} : memref<{shape}> -> !ktdp.access_tile<{tshape}xindex>")
        lines.append(f"  %x{i} = ktdp.load %t{i} : !ktdp.access_tile<{tshape}xindex> -> tensor<{tshape}xf16>")
        if bcast:
            lines.append(f"  %be{i} = tensor.empty() : {t}")
            lines.append(f"  %b{i} = linalg.generic {{indexing_maps = [#bcast, #id], iterator_types = "
                         f"[\"parallel\", \"parallel\"]}} ins(%x{i} : tensor<1x{n}xf16>) outs(%be{i} : {t}) {{")
            lines.append("  ^bb0(%bi: f16, %bo: f16):")
            lines.append("    linalg.yield %bi : f16")
            lines.append(f"  }} -> {t}")
            values.append((f"%b{i}", t))
        else:
            values.append((f"%x{i}", t))
    if s.form == "generic":
        ins = [v for v, _ in values]
        lines.append(f"  %e = tensor.empty() : {t}")
        maps = ", ".join(["#id"] * (len(ins) + 1))
        lines.append(f"  %res = linalg.generic {{indexing_maps = [{maps}], iterator_types = "
                     f"[\"parallel\", \"parallel\"]}} ins({', '.join(ins)} : {', '.join([t] * len(ins))}) "
                     f"outs(%e : {t}) {{")
        names = [f"%a{i}" for i in range(len(ins))]
        lines.append(f"  ^bb0({', '.join(f'{a}: f16' for a in names)}, %o: f16):")
        for k, (op, a, b) in enumerate(s.chain):
            names.append(f"%s{k}")
            lines.append(f"    %s{k} = {OPS[op][1]} {names[a]}, {names[b]} : f16")
        lines.append(f"    linalg.yield {names[-1]} : f16")
        lines.append(f"  }} -> {t}")
        result = "%res"
    else:
        for k, (op, a, b) in enumerate(s.chain):
            va, vb = values[a][0], values[b][0]
            if s.form == "named":
                lines.append(f"  %e{k} = tensor.empty() : {t}")
                lines.append(f"  %r{k} = {OPS[op][0]} ins({va}, {vb} : {t}, {t}) outs(%e{k} : {t}) -> {t}")
            else:
                lines.append(f"  %r{k} = {OPS[op][1]} {va}, {vb} : {t}")
            values.append((f"%r{k}", t))
        result = values[-1][0]
    if s.carry is not None:
        op, k = s.carry
        lines.append(f"  %ck = arith.constant {k} : index")
        lines.append(f"  %car = scf.for %ci = %c0 to %ck step %c1 iter_args(%acc = {result}) -> ({t}) {{")
        lines += ["  " + line for line in _combine(s, op, "%acc", values[0][0], "%cn", t)]
        lines.append(f"    scf.yield %cn : {t}")
        lines.append("  }")
        result = "%car"
    lines.append(f"  %to = ktdp.construct_access_tile %vo[{at}, %c0] {{access_tile_order = #id, "
                 f"access_tile_set = #slab}} : memref<{s.rows}x{n}xf16> -> !ktdp.access_tile<{r}x{n}xindex>")
    lines.append(f"  ktdp.store {result}, %to : {t}, !ktdp.access_tile<{r}x{n}xindex>")
    return lines


def input_shapes(s: ElementwiseSpec) -> dict[str, tuple[int, int]]:
    return {f"in{i}": ((1 if s.broadcast_last and i == s.n_inputs - 1 else s.rows), s.cols)
            for i in range(s.n_inputs)}


def reference(s: ElementwiseSpec, inputs: dict[str, np.ndarray]) -> np.ndarray:
    """numpy, op by op in fp16 (each op rounds to fp16 like the kernel's fp16 tensors)."""
    vals = [np.broadcast_to(inputs[f"in{i}"], (s.rows, s.cols)).astype(np.float16)
            for i in range(s.n_inputs)]
    for op, a, b in s.chain:
        vals.append(OPS[op][2](vals[a], vals[b]).astype(np.float16))
    out = vals[-1]
    if s.carry is not None:
        for _ in range(s.carry[1]):
            out = OPS[s.carry[0]][2](out, vals[0]).astype(np.float16)
    return out


@st.composite
def elementwise_specs(draw, max_grid: int = 32, loops: bool = False) -> ElementwiseSpec:
    """Random shapes in multiples of 64 columns, grids 1..max_grid, random op chains; with
    `loops` also tile-strided row loops and carried loops (iter_args)."""
    grid = draw(st.sampled_from([g for g in (1, 2, 4, 8, 16, 32) if g <= max_grid]))
    rows = grid * draw(st.integers(1, 3))
    cols = 64 * draw(st.integers(1, 3))
    n_inputs = draw(st.integers(1, 3))
    broadcast = n_inputs > 1 and draw(st.booleans())
    chain = []
    for k in range(draw(st.integers(1, 4))):
        avail = n_inputs + k
        chain.append((draw(st.sampled_from(sorted(OPS))), draw(st.integers(0, avail - 1)),
                      draw(st.integers(0, avail - 1))))
    form = draw(st.sampled_from(["named", "generic", "arith"]))
    loop, carry = "none", None
    if loops:
        loop = draw(st.sampled_from(["block", "cyclic", "none"]))
        if loop == "none" or draw(st.booleans()):
            carry = (draw(st.sampled_from(sorted(OPS))), draw(st.integers(1, 3)))
    return ElementwiseSpec(rows, cols, grid, tuple(chain), n_inputs, broadcast, form,
                           loop=loop, carry=carry)


# ---- typed element-wise kernels: every op family and element type ----------------------------


@dataclass(frozen=True)
class TypedSpec:
    """A kernel computing one value from same-shaped inputs with scalar statements.

    `body` holds MLIR statements over the inputs `%a0, %a1, ...` ending in `%r`; types are
    written `{f16}` (the element type in a `linalg.generic` body, the tensor type on tensors)
    `{sel_f16}` for `arith.select`'s type list and `{lit_i8_1}` for the literal of a constant
    (`1 : i8`, or `dense<1> : tensor<...xi8>`). With `in_shapes` the inputs have shapes of their
    own, loaded whole (grid 1), and the tensor-form statements spell their types out. `form` is "generic" (one linalg.generic) or
    "tensor" (the statements on whole tensors). The first dimension is split over `grid`
    tiles."""

    inputs: tuple[str, ...]
    output: str
    body: tuple[str, ...]
    shape: tuple[int, ...] = (4, 64)
    grid: int = 2
    form: str = "generic"
    name: str = "typed"
    in_shapes: tuple[tuple[int, ...], ...] | None = None  # inputs of other shapes (grid 1)


class _Types(dict):
    def __init__(self, tile: tuple[int, ...], tensor: bool):
        super().__init__()
        self.tile, self.tensor = tile, tensor

    def __missing__(self, key: str) -> str:
        if key.startswith("lit_"):
            elt, value = key[4:].rsplit("_", 1)
            return f"dense<{value}> : {self[elt]}" if self.tensor else f"{value} : {elt}"
        sel = key.startswith("sel_")
        elt = key[4:] if sel else key
        elt = "!spyreop.df16" if elt == "df16" else elt  # `{df16}`: "!" cannot start a field
        if not self.tensor:
            return elt
        t = f"tensor<{'x'.join(map(str, self.tile))}x{elt}>"
        return f"{t.replace(elt + '>', 'i1>')}, {t}" if sel else t


def _box(shape: tuple[int, ...]) -> str:
    dims = ", ".join(f"d{k}" for k in range(len(shape)))
    cons = ", ".join(f"d{k} >= 0, -d{k} + {n - 1} >= 0" for k, n in enumerate(shape))
    return f"affine_set<({dims}) : ({cons})>"


def box_set(*extents: int) -> str:
    """`affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, ...)>`: the box of `extents`."""
    return _box(extents)


def row_major_view(name: str, rows: int, cols: int, memref: str) -> str:
    """A global `rows x cols` row-major `ktdp.construct_memory_view` of argument `%name`,
    over its box."""
    return (f"ktdp.construct_memory_view %{name}, sizes: [{rows}, {cols}], strides: [{cols}, 1] "
            f"{{coordinate_set = {box_set(rows, cols)}, memory_space = "
            f"#ktdp.memory_space<global>}} : {memref}")


def typed_kernel(s: TypedSpec) -> str:
    rank = len(s.shape)
    tile = (s.shape[0] // s.grid, *s.shape[1:])
    dims = ", ".join(f"d{k}" for k in range(rank))
    ident = f"affine_map<({dims}) -> ({dims})>"
    tshape = "x".join(map(str, tile))
    args = ", ".join([f"%in{i}: index" for i in range(len(s.inputs))] + ["%out: index"])
    lines = [f"func.func @{s.name}({args}) attributes {{grid = [{s.grid}]}} {{",
             "  %c0 = arith.constant 0 : index",
             f"  %rows = arith.constant {tile[0]} : index",
             "  %tid = ktdp.get_compute_tile_id : index",
             "  %row0 = arith.muli %tid, %rows : index"]

    def view(name: str, arg: str, elt: str, shape: tuple[int, ...] = s.shape,
             part: tuple[int, ...] = tile) -> str:
        n = len(shape)
        mt = f"memref<{'x'.join(map(str, shape))}x{elt}>"
        st = [int(np.prod(shape[k + 1:])) for k in range(n)]
        ds = ", ".join(f"d{k}" for k in range(n))
        at = ", ".join(["%row0" if shape == s.shape else "%c0"] + ["%c0"] * (n - 1))
        lines.append(f"  %{name}v = ktdp.construct_memory_view %{arg}, sizes: "
                     f"[{', '.join(map(str, shape))}], strides: [{', '.join(map(str, st))}] "
                     f"{{coordinate_set = {_box(shape)}, memory_space = "
                     f"#ktdp.memory_space<global>}} : {mt}")
        lines.append(f"  %{name}t = ktdp.construct_access_tile %{name}v[{at}] "
                     f"{{access_tile_order = affine_map<({ds}) -> ({ds})>, access_tile_set = "
                     f"{_box(part)}}} : {mt} -> !ktdp.access_tile<{'x'.join(map(str, part))}"
                     "xindex>")
        return f"%{name}t"

    for i, elt in enumerate(s.inputs):
        shape = s.in_shapes[i] if s.in_shapes else s.shape
        part = shape if s.in_shapes else tile
        pt = "x".join(map(str, part))
        t = view(f"x{i}", f"in{i}", elt, shape, part)
        lines.append(f"  %x{i} = ktdp.load {t} : !ktdp.access_tile<{pt}xindex> -> "
                     f"tensor<{pt}x{elt}>")
    out_t = f"tensor<{tshape}x{s.output}>"
    if s.form == "generic":
        ins = ", ".join(f"%x{i}" for i in range(len(s.inputs)))
        in_types = ", ".join(f"tensor<{tshape}x{e}>" for e in s.inputs)
        maps = ", ".join([ident] * (len(s.inputs) + 1))
        lines.append(f"  %e = tensor.empty() : {out_t}")
        iters = ", ".join(['"parallel"'] * rank)
        lines.append(f"  %res = linalg.generic {{indexing_maps = [{maps}], iterator_types = "
                     f"[{iters}]}} ins({ins} : {in_types}) outs(%e : {out_t}) {{")
        block = ", ".join(f"%a{i}: {e}" for i, e in enumerate(s.inputs))
        lines.append(f"  ^bb0({block}, %o: {s.output}):")
        types = _Types(tile, tensor=False)
        lines += [f"    {stmt.format_map(types)}" for stmt in s.body]
        lines.append(f"    linalg.yield %r : {s.output}")
        lines.append(f"  }} -> {out_t}")
        result = "%res"
    else:
        types = _Types(tile, tensor=True)
        renames = {f"%a{i}": f"%x{i}" for i in range(len(s.inputs))}
        for stmt in s.body:
            text = stmt.format_map(types)
            for a, x in sorted(renames.items(), reverse=True):
                text = text.replace(a, x)
            lines.append(f"  {text}")
        result = "%r"
    t = view("o", "out", s.output)
    lines.append(f"  ktdp.store {result}, {t} : {out_t}, !ktdp.access_tile<{tshape}xindex>")
    lines.append("  return")
    lines.append("}")
    return "\n".join(lines) + "\n"


_TYPED_UNARY = {"float": ("arith.negf", "math.exp", "math.exp2", "math.log", "math.log2",
                          "math.sqrt", "math.rsqrt", "math.tanh", "math.erf", "math.absf",
                          "math.sin", "math.cos", "math.floor", "math.ceil"),
                "int": ()}
_TYPED_BINARY = {"float": ("arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf",
                           "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf",
                           "math.powf"),
                 "int": ("arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori",
                         "arith.xori", "arith.maxsi", "arith.minsi", "arith.maxui",
                         "arith.minui", "arith.shli", "arith.shrsi", "arith.shrui",
                         "arith.divsi", "arith.divui", "arith.remsi", "arith.remui")}
_TYPED_COMPARE = {"float": ("arith.cmpf", ("oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                           "ueq", "ugt", "uge", "ult", "ule", "une", "uno")),
                  "int": ("arith.cmpi", ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule",
                                         "ugt", "uge"))}
# a round trip through another type: (there, back) casts
_TYPED_ROUND_TRIP = {"f16": ("arith.extf", "f32", "arith.truncf"),
                     "bf16": ("arith.extf", "f32", "arith.truncf"),
                     "f32": ("arith.fptosi", "i32", "arith.sitofp"),
                     "i8": ("arith.extsi", "i32", "arith.trunci"),
                     "i16": ("arith.sitofp", "f32", "arith.fptosi"),
                     "i32": ("arith.trunci", "i8", "arith.extsi")}


@st.composite
def typed_elementwise_specs(draw, types: tuple[str, ...] = ("f16", "bf16", "f32", "i8", "i16",
                                                             "i32")) -> TypedSpec:
    """Random `TypedSpec`s: an element type, a view of rank 1 to 4 split over 1, 2 or 4 tiles,
    and a chain of its unary and binary ops, compare-and-select and cast round trips, in a
    `linalg.generic` or on tensors. Integer divisors are made odd (never zero)."""
    t = draw(st.sampled_from(types))
    kind = "int" if t.startswith("i") else "float"
    grid = draw(st.sampled_from([1, 2, 4]))
    rank = draw(st.integers(1, 4))
    inner = [draw(st.sampled_from([1, 2, 3])) for _ in range(rank - 2)]
    last = draw(st.sampled_from([32, 64, 128]))
    shape = (grid * draw(st.integers(1, 3)), *inner, last) if rank > 1 else (grid * last,)
    n_inputs = draw(st.integers(1, 3))
    values = [f"%a{i}" for i in range(n_inputs)]
    body: list[str] = []
    if kind == "int":
        body.append(f"%one = arith.constant {{lit_{t}_1}}")
    for k in range(draw(st.integers(1, 4))):
        x, y = draw(st.sampled_from(values)), draw(st.sampled_from(values))
        choice = draw(st.sampled_from(["unary", "binary", "select", "round"]
                                      if _TYPED_UNARY[kind] else ["binary", "select", "round"]))
        v = f"%v{k}"
        if choice == "unary":
            body.append(f"{v} = {draw(st.sampled_from(_TYPED_UNARY[kind]))} {x} : {{{t}}}")
        elif choice == "binary":
            op = draw(st.sampled_from(_TYPED_BINARY[kind]))
            if op.split(".")[1] in ("divsi", "divui", "remsi", "remui"):
                body.append(f"%d{k} = arith.ori {y}, %one : {{{t}}}")
                y = f"%d{k}"
            body.append(f"{v} = {op} {x}, {y} : {{{t}}}")
        elif choice == "select":
            cmp, preds = _TYPED_COMPARE[kind]
            body.append(f"%c{k}x = {cmp} {draw(st.sampled_from(preds))}, {x}, {y} : {{{t}}}")
            body.append(f"{v} = arith.select %c{k}x, {x}, {y} : {{sel_{t}}}")
        else:
            there, mid, back = _TYPED_ROUND_TRIP[t]
            body.append(f"%w{k} = {there} {x} : {{{t}}} to {{{mid}}}")
            body.append(f"{v} = {back} %w{k} : {{{mid}}} to {{{t}}}")
        values.append(v)
    last_op = "arith.addf" if kind == "float" else "arith.xori"  # the result is named %r
    body.append(f"%r = {last_op} {values[-1]}, {values[0]} : {{{t}}}")
    form = draw(st.sampled_from(["generic", "tensor"]))
    return TypedSpec(tuple([t] * n_inputs), t, tuple(body), shape=shape, grid=grid, form=form,
                     name="random_typed")
