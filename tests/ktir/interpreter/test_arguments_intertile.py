"""Argument planning (shapes from views, offsets over tiles and loops, placement, overrides,
seeded inputs) and the inter-tile ops beyond the example all-reduce."""

import itertools

import numpy as np

from ktir.context import parse_module
from ktir.interpreter import make_inputs, plan_arguments, select_kernel
from tests.ktir.interpreter.kernels import run_text

ROWS = """#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows(%In: index, %Out: index, %Fixed: index, %n: index, %flag: i1, %s: f32) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %pid = ktdp.get_compute_tile_id : index
  %off = arith.muli %pid, %c128 : index
  %p = arith.addi %In, %off : index
  %v = ktdp.construct_memory_view %p, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
  %k = arith.constant 4096 : index
  %fv = ktdp.construct_memory_view %k, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x128xf32>
  scf.for %i = %c0 to %n step %c128 {
    %q = arith.addi %Out, %i : index
    %o = ktdp.construct_memory_view %q, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x128xi32>
  }
  %w = ktdp.construct_memory_view %Fixed, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x128xi8>
  return
}
"""


def plan(**overrides):
    return {s.name: s for s in plan_arguments(select_kernel(parse_module(ROWS, "rows.mlir")),
                                               overrides)}


def test_pointer_buffers_span_every_tile_and_iteration():
    specs = plan(n="0x180", flag="true", s="2.5")
    assert specs["In"].shape == (4, 128)  # 4 tiles at In + pid * 128
    assert specs["Out"].shape == (3, 128)  # loop iterations at Out + 0, 128, 256
    assert specs["In"].element_type == "f16"
    assert specs["Out"].element_type == "i32"
    assert [specs[k].kind for k in ("n", "flag", "s")] == ["scalar"] * 3
    assert (specs["n"].value, specs["flag"].value, specs["s"].value) == (384, 1, 2.5)


def test_buffers_are_stick_aligned_and_clear_of_constant_addresses():
    specs = plan(n="256", flag="false", s="0")
    ends = []
    for name in ("In", "Out", "Fixed"):
        s = specs[name]
        start_byte = s.address * s.elem.itemsize
        assert start_byte % 128 == 0
        assert start_byte >= (4096 + 128) * 4  # after the view at constant address 4096 (f32)
        ends.append((start_byte, start_byte + s.count * s.elem.itemsize))
    ends.sort()
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(ends))  # no overlap


def test_overrides_and_seeded_inputs():
    specs = plan(n="256", flag="1", s="-1e-3", Out="16x32xi32", Fixed=(2, 64))
    assert specs["Out"].shape == (16, 32)
    assert specs["Fixed"].shape == (2, 64)
    inputs = make_inputs(list(specs.values()), seed=5)
    assert set(inputs) == {"In", "Out", "Fixed"}
    assert inputs["Fixed"].dtype == np.int8
    assert inputs["Out"].min() >= 0
    assert inputs["Out"].max() <= 15
    again = make_inputs(list(specs.values()), seed=5)
    np.testing.assert_array_equal(inputs["In"], again["In"])


CONSUME = """#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 7 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#first = affine_set<(i)[g] : (i == 0, g == 0)>
#next = affine_set<(p)[c] : ((p - c - 1) mod 4 == 0)>
#one = affine_set<(g) : (g == 0)>
func.func @k(%X: index, %R: index, %S: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.000000e+00> : tensor<1x8xf32>
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 8], strides: [8, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x8xf32>
  %Rv = ktdp.construct_memory_view %R, sizes: [4, 8], strides: [8, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x8xf32>
  %Sv = ktdp.construct_memory_view %S, sizes: [4, 8], strides: [8, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x8xf32>
  %xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x8xf32> -> !ktdp.access_tile<1x8xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf32>
  %f1 = ktdp.inter_tile_produce producer_tiles_per_group = #all -> !ktdp.tile_future<(tensor<1x8xf32>), groups = #one> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x8xf32>
  }
  %rot = ktdp.inter_tile_consume(%f1) consumer_tiles_per_group = #all, producer_dependency_per_consumer = #next : !ktdp.tile_future<(tensor<1x8xf32>), groups = #one> -> tensor<1x8xf32>
  %f2 = ktdp.inter_tile_produce producer_tiles_per_group = #all -> !ktdp.tile_future<(tensor<1x8xf32>), groups = #one> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x8xf32>
  }
  %m = ktdp.inter_tile_reduce(%f2) consumer_tiles_per_group = #first, identity(%zero : tensor<1x8xf32>) : !ktdp.tile_future<(tensor<1x8xf32>), groups = #one> -> tensor<1x8xf32> {
  ^bb0(%l: tensor<1x8xf32>, %r: tensor<1x8xf32>):
    %a = arith.maximumf %l, %r : tensor<1x8xf32>
    ktdp.yield_reduced %a : tensor<1x8xf32>
  }
  %rt = ktdp.construct_access_tile %Rv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x8xf32> -> !ktdp.access_tile<1x8xindex>
  %st = ktdp.construct_access_tile %Sv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x8xf32> -> !ktdp.access_tile<1x8xindex>
  ktdp.store %rot, %rt : tensor<1x8xf32>, !ktdp.access_tile<1x8xindex>
  ktdp.store %m, %st : tensor<1x8xf32>, !ktdp.access_tile<1x8xindex>
  return
}
"""


def test_consume_with_dependencies_and_single_consumer_reduce():
    r = run_text(CONSUME)
    x = r.inputs["X"]
    np.testing.assert_array_equal(r.outputs["R"], np.roll(x, -1, axis=0))  # tile c gets c + 1
    expected = np.zeros_like(x)  # tiles outside the consumer set receive the identity
    expected[0] = np.maximum(0, x.max(axis=0))
    np.testing.assert_array_equal(r.outputs["S"], expected)
