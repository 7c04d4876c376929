"""What a kernel must do (ktir_tools/work.py): the buffers it reads and writes, once each, and
its element operations, counted in the kernel over every tile and loop iteration."""

from __future__ import annotations

from pathlib import Path

import pytest

from arch_descriptions.model import load_device
from ktir.context import load_module, parse_module
from ktir.interpreter import plan_arguments
from ktir.interpreter.arguments import kernel_grid_of
from ktir.interpreter.runner import select_kernel
from ktir_tools.work import element_ops, kernel_work

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "kernels"


def work(kernel: str, written: list[str], args: dict[str, str] | None = None,
         device: str = "spyre"):
    fn = select_kernel(load_module(EXAMPLES / f"{kernel}.mlir"))
    return kernel_work(fn, plan_arguments(fn, args or {}), written, kernel_grid_of(fn),
                       load_device(device))


def test_elementwise_examples() -> None:
    w = work("add_96x64", ["C"])
    assert (w.reads, w.writes, w.element_ops, w.cores) == \
        ({"DDR": 2 * 96 * 64 * 2}, {"DDR": 96 * 64 * 2}, {"f16": 96 * 64}, 32)
    # the bias row is read once, whatever the schedule; its broadcast computes nothing
    w = work("bias_add", ["Y"])
    assert (w.reads, w.element_ops) == ({"DDR": (128 * 256 + 256) * 2}, {"f16": 128 * 256})
    # a generic body of two ops, on every point
    assert work("eltwise_chain", ["D"]).element_ops == {"f16": 2 * 64 * 128}
    assert work("mul_max", ["Z"]).element_ops == {"f16": 2 * 32 * 192}
    assert work("add_96x64", ["C"], device="sample_device").reads == {"DDR": 2 * 96 * 64 * 2}


def test_loops_count_every_iteration_of_every_tile() -> None:
    # each of 32 tiles walks rows tile, tile + 32, ... < M: max, sub, exp, sum, div per element
    w = work("softmax", ["Y"], {"M": "4096"})
    assert w.element_ops == {"f16": 5 * 4096 * 1024}
    assert (w.reads, w.writes) == ({"DDR": 4096 * 1024 * 2}, {"DDR": 4096 * 1024 * 2})
    # K / 128 steps of a 32 x 512 x 128 matmul on each of 2 x 16 tiles: M x N x K in all
    w = work("matmul", ["C"], {"K": "1024"})
    # an f16 matmul accumulates in f32 (the interpreter's precision): f32 operations
    assert w.element_ops == {"f32": 64 * 8192 * 1024}
    # the matmul's MACs are listed apart for a matrix engine: f16 in, counted as f32 ops
    assert w.contractions == (("f16", "f32", 64 * 8192 * 1024),)
    assert work("softmax", ["Y"], {"M": "4096"}).contractions == ()


KERNEL = """
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%X: index, %Y: index, %n: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %id = ktdp.get_compute_tile_id : index
  %vy = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %ty = ktdp.construct_access_tile %vy[%c0, %c0] {access_tile_order = #id, access_tile_set = #set} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %vz = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %tz = ktdp.construct_access_tile %vz[%c0, %c0] {access_tile_order = #id, access_tile_set = #set} : memref<8x64xf32> -> !ktdp.access_tile<8x64xindex>
  %t = tensor.empty() : tensor<8x64xf16>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %id to %n step %c1 {
      %a = arith.addf %t, %t : tensor<8x64xf16>
      ktdp.store %a, %ty : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
    }
  }
  %f = arith.extf %t : tensor<8x64xf16> to tensor<8x64xf32>
  %g = math.exp %f : tensor<8x64xf32>
  ktdp.store %g, %tz : tensor<8x64xf32>, !ktdp.access_tile<8x64xindex>
  return
}
"""


@pytest.mark.parametrize(("n", "bound"), [(6, True), (None, False)])
def test_trip_counts_depend_on_the_tile_and_the_arguments(n: int | None, bound: bool) -> None:
    fn = select_kernel(parse_module(KERNEL, "k.mlir"))
    scalars = {fn.args[2]: n} if bound else {}
    ops = element_ops(fn, (4,), scalars, fn.args[:2])
    # the inner loop runs n - id times on tile id: 6 + 5 + 4 + 3, three times over; unknown
    # n: one iteration (a lower bound)
    inner = 3 * (6 + 5 + 4 + 3) if bound else 3 * 4
    assert ops == {"f16": inner * 8 * 64, "f32": 2 * 4 * 8 * 64}


def test_a_buffer_whose_loaded_data_is_dead_is_not_compulsory() -> None:
    from tests.strategies.kernels import ElementwiseSpec, elementwise_kernel

    # three inputs loaded, only the first used (out = in0 + in0): the schedule drops the
    # other loads, and so does the bound
    spec = ElementwiseSpec(8, 64, 8, (("add", 0, 0),), 3, False, "named")
    fn = select_kernel(parse_module(elementwise_kernel(spec), "k.mlir"))
    w = kernel_work(fn, plan_arguments(fn), ["out"], kernel_grid_of(fn), load_device("spyre"))
    assert (w.reads, w.writes) == ({"DDR": 8 * 64 * 2}, {"DDR": 8 * 64 * 2})


@pytest.mark.parametrize("form", ["named", "generic"])
def test_repeated_and_unread_work_is_not_compulsory(form: str) -> None:
    from tests.strategies.kernels import ElementwiseSpec, elementwise_kernel

    # in0 + in0 four times over (CSE keeps one add), and a second input the generic's body
    # never reads (the compiler drops it and its load): found by the device-variant property
    # test, whose emulated cycles fell below a bound that counted them
    spec = ElementwiseSpec(1, 128, 1, (("add", 0, 0),) * 4, 2, False, form)
    fn = select_kernel(parse_module(elementwise_kernel(spec), "k.mlir"))
    w = kernel_work(fn, plan_arguments(fn), ["out"], kernel_grid_of(fn), load_device("spyre"))
    assert (w.reads, w.element_ops) == ({"DDR": 128 * 2}, {"f16": 128})


def test_a_gathered_table_is_charged_its_gathered_rows() -> None:
    # gather_add: 4 tiles gather 16 of the table's 100 rows each (64 f16); the index view
    # (64 i32) and Pos are read whole
    w = work("gather_add", ["Out"])
    assert w.reads == {"DDR": 4 * 16 * 64 * 2 + 64 * 4 + 64 * 64 * 2}
    # paged_gather: every tile gathers 32 tokens of 64 features from a 16-page cache of
    # 8 x 64, i.e. 4 x 32 x 64 elements of the 16 x 8 x 64 cache: all of it, so no more
    w = work("paged_gather", ["Out"])
    assert w.reads == {"DDR": 16 * 8 * 64 * 2 + 4 * 4 * 4}


def test_a_scattered_table_is_charged_its_scattered_rows() -> None:
    # scatter_add: 64 rows of 64 f16 stored into a 100-row table; X, Y and the index view
    # (64 i32: read by the scatter, though no load reads it) are read whole
    w = work("scatter_add", ["Out"])
    assert w.writes == {"DDR": 64 * 64 * 2}
    assert w.reads == {"DDR": 2 * 64 * 64 * 2 + 64 * 4}
