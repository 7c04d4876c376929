"""End to end: dynamic views (`sizes: [%n]`, `memref<?xf16>`), runtime-argument sizes and
masked accesses. Each kernel is compiled once with its sizes symbolic and launched on the
emulator with several sizes; every launch matches the reference interpreter bit for bit
(loads outside a view's coordinate set read 0, stores outside it are dropped)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ktir.context import load_module
from ktir_tools.run import compare, launch_args

DEVICES = ["sample_device", "spyre"]

# Triton style: two programs of 512 elements over a vector of n (an i32 argument) elements;
# y = x * x + x, and z = x + x into a static buffer of 1024: the padding of x (0) shows in z.
TRITON = """
#id = affine_map<(d0) -> (d0)>
#n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#all = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
func.func @square_add(%x: index, %y: index, %z: index, %n: i32) attributes {grid = [2]} {
  %c512 = arith.constant 512 : index
  %pid = ktdp.get_compute_tile_id : index
  %start = arith.muli %pid, %c512 : index
  %len = arith.index_cast %n : i32 to index
  %xv = ktdp.construct_memory_view %x, sizes: [%len], strides: [1] {coordinate_set = #n, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [%len], strides: [1] {coordinate_set = #n, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  %zv = ktdp.construct_memory_view %z, sizes: [1024], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
  %xt = ktdp.construct_access_tile %xv[%start] {access_tile_order = #id, access_tile_set = #blk} : memref<?xf16> -> !ktdp.access_tile<512xindex>
  %yt = ktdp.construct_access_tile %yv[%start] {access_tile_order = #id, access_tile_set = #blk} : memref<?xf16> -> !ktdp.access_tile<512xindex>
  %zt = ktdp.construct_access_tile %zv[%start] {access_tile_order = #id, access_tile_set = #blk} : memref<1024xf16> -> !ktdp.access_tile<512xindex>
  %a = ktdp.load %xt : <512xindex> -> tensor<512xf16>
  %sq = arith.mulf %a, %a : tensor<512xf16>
  %r = arith.addf %sq, %a : tensor<512xf16>
  ktdp.store %r, %yt : tensor<512xf16>, <512xindex>
  %p = arith.addf %a, %a : tensor<512xf16>
  ktdp.store %p, %zt : tensor<512xf16>, <512xindex>
  return
}
"""

# Rows of a runtime-argument height M (a multiple of 4, at most 64): four tiles of 8 rows of
# 64 columns, the rows at M and beyond masked; C = A - B.
ROWS = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#m = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @sub_rows(%M_arg: !ktdp.runtime_arg<index, granularity=4, upperbound=64>, %A: index,
                    %B: index, %C: index) attributes {grid = [4]} {
  %M = ktdp.runtime_arg_extract value from %M_arg : <index, granularity=4, upperbound=64> -> index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %id = ktdp.get_compute_tile_id : index
  %row = arith.muli %id, %c8 : index
  %av = ktdp.construct_memory_view %A, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<?x64xf32>
  %bv = ktdp.construct_memory_view %B, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<?x64xf32>
  %cv = ktdp.construct_memory_view %C, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<?x64xf32>
  %at = ktdp.construct_access_tile %av[%row, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?x64xf32> -> !ktdp.access_tile<8x64xindex>
  %bt = ktdp.construct_access_tile %bv[%row, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?x64xf32> -> !ktdp.access_tile<8x64xindex>
  %ct = ktdp.construct_access_tile %cv[%row, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<?x64xf32> -> !ktdp.access_tile<8x64xindex>
  %a = ktdp.load %at : <8x64xindex> -> tensor<8x64xf32>
  %b = ktdp.load %bt : <8x64xindex> -> tensor<8x64xf32>
  %c = arith.subf %a, %b : tensor<8x64xf32>
  ktdp.store %c, %ct : tensor<8x64xf32>, <8x64xindex>
  return
}
"""

# A static view whose coordinate set covers 40 of its 48 columns: the last 8 columns of every
# row are masked (read 0 from A, not written in C, which keeps its seeded contents there).
COLUMNS = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#part = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 39 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 47 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 47 >= 0)>
func.func @neg_cols(%A: index, %C: index, %D: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %id = ktdp.get_compute_tile_id : index
  %row = arith.muli %id, %c2 : index
  %av = ktdp.construct_memory_view %A, sizes: [4, 48], strides: [48, 1] {coordinate_set = #part, memory_space = #ktdp.memory_space<global>} : memref<4x48xi32>
  %cv = ktdp.construct_memory_view %C, sizes: [4, 48], strides: [48, 1] {coordinate_set = #part, memory_space = #ktdp.memory_space<global>} : memref<4x48xi32>
  %dv = ktdp.construct_memory_view %D, sizes: [4, 48], strides: [48, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x48xi32>
  %at = ktdp.construct_access_tile %av[%row, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<4x48xi32> -> !ktdp.access_tile<2x48xindex>
  %ct = ktdp.construct_access_tile %cv[%row, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<4x48xi32> -> !ktdp.access_tile<2x48xindex>
  %dt = ktdp.construct_access_tile %dv[%row, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<4x48xi32> -> !ktdp.access_tile<2x48xindex>
  %a = ktdp.load %at : <2x48xindex> -> tensor<2x48xi32>
  %n = arith.subi %a, %a : tensor<2x48xi32>
  %m = arith.subi %n, %a : tensor<2x48xi32>
  ktdp.store %m, %ct : tensor<2x48xi32>, <2x48xindex>
  ktdp.store %m, %dt : tensor<2x48xi32>, <2x48xindex>
  return
}
"""


# Partial tiles of a static view (Triton's masks): 8 tiles of 4x64 over a 30x40 view; the
# last tile reaches rows 28 to 31 and every tile columns 40 to 63, outside the view.
PARTIAL = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 29 >= 0, d1 >= 0, -d1 + 39 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @halve(%A: index, %C: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %id = ktdp.get_compute_tile_id : index
  %row = arith.muli %id, %c4 : index
  %av = ktdp.construct_memory_view %A, sizes: [30, 40], strides: [40, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<30x40xf16>
  %cv = ktdp.construct_memory_view %C, sizes: [30, 40], strides: [40, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<30x40xf16>
  %at = ktdp.construct_access_tile %av[%row, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<30x40xf16> -> !ktdp.access_tile<4x64xindex>
  %ct = ktdp.construct_access_tile %cv[%row, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<30x40xf16> -> !ktdp.access_tile<4x64xindex>
  %a = ktdp.load %at : <4x64xindex> -> tensor<4x64xf16>
  %h = arith.addf %a, %a : tensor<4x64xf16>
  ktdp.store %h, %ct : tensor<4x64xf16>, <4x64xindex>
  return
}
"""


def _compile_once_launch_many(tmp_path: Path, text: str, device: str,
                              launches: list[dict[str, str]]) -> None:
    """Compile `text` without arguments (sizes symbolic), then emulate each launch and compare
    every buffer with the reference interpreter."""
    from emulator import emulate
    from ktir.interpreter import run_kernel
    from scheduler.driver import compile_module

    path = tmp_path / "kernel.mlir"
    path.write_text(text)
    source = load_module(path)
    compiled = compile_module(source.clone(), device)
    dev = compiled.device
    mem = dev.global_memory_kind
    for args in launches:
        ref = run_kernel(source, args=args, seed=7, scratchpad_bytes=dev.scratchpad_bytes)
        argv, init = launch_args(ref.specs, ref.inputs, mem, ref.fixed)
        em = emulate(compiled.module, dev, entry=ref.kernel, args=argv, memory_init=init)
        assert ref.outputs, args
        for name, want in ref.outputs.items():
            spec = ref.buffer(name)
            got = em.read(mem, spec.start, want.shape, spec.elem.storage)
            check = compare(name, got.view(want.dtype) if got.dtype != want.dtype else got,
                            want)
            assert check.match, (args, name, check)


@pytest.mark.parametrize("device", DEVICES)
def test_triton_style_dynamic_vector(tmp_path: Path, device: str) -> None:
    sizes = ["1024", "700", "512", "100", "1"]
    _compile_once_launch_many(tmp_path, TRITON, device,
                              [{"n": n, "x": f"{n}xf16", "y": f"{n}xf16"} for n in sizes])


@pytest.mark.parametrize("device", DEVICES)
def test_runtime_arg_rows(tmp_path: Path, device: str) -> None:
    _compile_once_launch_many(tmp_path, ROWS, device,
                              [{"M_arg": m, "A": f"{m}x64xf32", "B": f"{m}x64xf32",
                                "C": f"{m}x64xf32"} for m in ("64", "20", "8", "4")])


@pytest.mark.parametrize("device", DEVICES)
def test_masked_columns_of_a_static_view(tmp_path: Path, device: str) -> None:
    _compile_once_launch_many(tmp_path, COLUMNS, device, [{}])


@pytest.mark.parametrize("device", DEVICES)
def test_partial_tiles_of_a_static_view(tmp_path: Path, device: str) -> None:
    _compile_once_launch_many(tmp_path, PARTIAL, device, [{}])


def test_symbols_of_a_runtime_arg_kernel(tmp_path: Path) -> None:
    """The DataflowIR keeps M symbolic: the host takes it as an index argument that remembers
    its runtime_arg type, each group binds it to symbol -1 and reads it back in its
    programs, where the masks compare against it."""
    from scheduler.driver import compile_module
    from spyrecode.dialects.symbol import CreateIdOp, CreateSymbolOp

    path = tmp_path / "rows.mlir"
    path.write_text(ROWS)
    module = compile_module(load_module(path), "sample_device").module
    text = str(module)
    assert "func.func @sub_rows(%M_arg: index {ktdp.runtime_arg = !ktdp.runtime_arg<index, " \
           "granularity=4, upperbound=64>}" in text
    ids = [op.id for op in module.walk() if isinstance(op, CreateIdOp)]
    assert ids == [-1, -2, -3, -4]
    reads = {op.id for op in module.walk() if isinstance(op, CreateSymbolOp)}
    assert -1 in reads
    assert "runtime_arg_extract" not in text


def masked_vector_kernel(block: int, grid: int, elt: str, op: str) -> str:
    """`out = x op x` over a vector of %n elements (an i32 argument), `grid` programs of
    `block` elements each (Triton's masked loads and stores)."""
    return f"""
#id = affine_map<(d0) -> (d0)>
#n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + {block - 1} >= 0)>
func.func @k(%x: index, %out: index, %n: i32) attributes {{grid = [{grid}]}} {{
  %cb = arith.constant {block} : index
  %pid = ktdp.get_compute_tile_id : index
  %start = arith.muli %pid, %cb : index
  %len = arith.index_cast %n : i32 to index
  %xv = ktdp.construct_memory_view %x, sizes: [%len], strides: [1] {{coordinate_set = #n, memory_space = #ktdp.memory_space<global>}} : memref<?x{elt}>
  %ov = ktdp.construct_memory_view %out, sizes: [%len], strides: [1] {{coordinate_set = #n, memory_space = #ktdp.memory_space<global>}} : memref<?x{elt}>
  %xt = ktdp.construct_access_tile %xv[%start] {{access_tile_order = #id, access_tile_set = #blk}} : memref<?x{elt}> -> !ktdp.access_tile<{block}xindex>
  %ot = ktdp.construct_access_tile %ov[%start] {{access_tile_order = #id, access_tile_set = #blk}} : memref<?x{elt}> -> !ktdp.access_tile<{block}xindex>
  %a = ktdp.load %xt : <{block}xindex> -> tensor<{block}x{elt}>
  %r = arith.{op} %a, %a : tensor<{block}x{elt}>
  ktdp.store %r, %ot : tensor<{block}x{elt}>, <{block}xindex>
  return
}}
"""


@st.composite
def masked_vector_cases(draw):
    block = draw(st.sampled_from([32, 64, 96, 128, 256]))
    grid = draw(st.integers(1, 4))
    elt, op = draw(st.sampled_from([("f16", "mulf"), ("f32", "addf"), ("i32", "muli"),
                                    ("i8", "addi")]))
    sizes = draw(st.lists(st.integers(1, grid * block + 40), min_size=1, max_size=3))
    return block, grid, elt, op, sizes


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=masked_vector_cases(), device=st.sampled_from(DEVICES))
def test_random_masked_vectors_match(tmp_path_factory, case, device) -> None:
    block, grid, elt, op, sizes = case
    _compile_once_launch_many(tmp_path_factory.mktemp("k"),
                              masked_vector_kernel(block, grid, elt, op), device,
                              [{"n": str(n), "x": f"{n}x{elt}", "out": f"{n}x{elt}"}
                               for n in sizes])


@pytest.mark.parametrize("device", DEVICES)
def test_a_runtime_arg_without_a_value_runs_at_its_upper_bound(tmp_path: Path,
                                                               device: str) -> None:
    """`ktir run` with no value for M: the largest M the type admits (64), buffers of 64 rows,
    a match, and one note naming M and how to choose another value."""
    from ktir_tools.run import run_and_check

    path = tmp_path / "rows.mlir"
    path.write_text(ROWS)
    report = run_and_check(path, device)
    assert report.match
    assert [c.shape for c in report.checks if c.name == "C"] == [(64, 64)]
    assert report.notes == [
        "note: runtime_arg 'M_arg' (!ktdp.runtime_arg<index, granularity=4, upperbound=64>) "
        "has no value: using 64, the largest its type admits; choose another with --arg "
        "M_arg=VALUE"]
    assert report.to_json()["notes"] == report.notes
    assert not run_and_check(path, device, args={"M_arg": "8"}).notes
