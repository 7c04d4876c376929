"""elide-copy-stages end to end: a plain copy skips the compute unit, still matches the
reference interpreter (race checking on), and takes fewer cycles."""

from __future__ import annotations

import pytest

from ktir_tools.run import run_and_check

COPY = """
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @copy(%A: index, %B: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Av = ktdp.construct_memory_view %A, sizes: [4, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x256xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x256xf16>
  %at = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_order = #id, access_tile_set = #all} : memref<4x256xf16> -> !ktdp.access_tile<4x256xindex>
  %bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_order = #id, access_tile_set = #all} : memref<4x256xf16> -> !ktdp.access_tile<4x256xindex>
  %a = ktdp.load %at : !ktdp.access_tile<4x256xindex> -> tensor<4x256xf16>
  ktdp.store %a, %bt : tensor<4x256xf16>, !ktdp.access_tile<4x256xindex>
  return
}
"""


@pytest.mark.parametrize("device", ["spyre", "sample_device"])
def test_copy_skips_the_compute_unit(tmp_path, device: str) -> None:
    kernel = tmp_path / "copy.mlir"
    kernel.write_text(COPY)
    on = run_and_check(kernel, device)
    off = run_and_check(kernel, device, disable=("elide-copy-stages",))
    assert on.match
    assert off.match
    assert on.emulation.cycles < off.emulation.cycles
    compute = {"spyre": "PE", "sample_device": "SFU"}[device]
    assert not any(compute in k for k, n in on.emulation.bytes_per_datapath.items() if n)
    assert any(compute in k for k, n in off.emulation.bytes_per_datapath.items() if n)
