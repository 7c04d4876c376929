"""normalize-scf-for-loops end to end: a normalisation, so the Inductor-style add (an scf.for
over rows strided by the tile id) runs the same schedule with it and without it, both
matching the reference, on a device with scratchpads (stage-coarsening reads the scaled
subscripts) and one without."""

from __future__ import annotations

from pathlib import Path

import pytest

from ktir_tools.run import run_and_check


def _tiled_add(n: int, tiles: int) -> str:
    full = f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {n - 1} >= 0, d1 >= 0, -d1 + {n - 1} >= 0)>"
    row = f"affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + {n - 1} >= 0)>"
    mem, at, t = f"memref<{n}x{n}xf16>", f"!ktdp.access_tile<1x{n}xindex>", f"tensor<1x{n}xf16>"
    views = "".join(f"  %{x}v = ktdp.construct_memory_view %{x}, sizes: [{n}, {n}], strides: "
                    f"[{n}, 1] {{coordinate_set = #full, memory_space = "
                    f"#ktdp.memory_space<global>}} : {mem}\n" for x in "ABC")
    tiles_ = "".join(f"    %{x}t = ktdp.construct_access_tile %{x}v[%i, %c0] {{access_tile_order"
                     f" = #id, access_tile_set = #row}} : {mem} -> {at}\n" for x in "ABC")
    return (f"#full = {full}\n#row = {row}\n#id = affine_map<(d0, d1) -> (d0, d1)>\n"
            f"func.func @add(%A: index, %B: index, %C: index) attributes {{grid = [{tiles}]}} {{\n"
            f"  %c0 = arith.constant 0 : index\n  %step = arith.constant {tiles} : index\n"
            f"  %n = arith.constant {n} : index\n  %t = ktdp.get_compute_tile_id : index\n"
            + views + "  scf.for %i = %t to %n step %step {\n" + tiles_ +
            f"    %a = ktdp.load %At : {at} -> {t}\n    %b = ktdp.load %Bt : {at} -> {t}\n"
            f"    %e = tensor.empty() : {t}\n"
            f"    %c = linalg.add ins(%a, %b : {t}, {t}) outs(%e : {t}) -> {t}\n"
            f"    ktdp.store %c, %Ct : {t}, {at}\n  }}\n  return\n}}\n")


@pytest.mark.parametrize("device", ["sample_device", "stream_device"])
def test_same_schedule_with_and_without(tmp_path: Path, device: str) -> None:
    kernel = tmp_path / "tiled_add.mlir"
    kernel.write_text(_tiled_add(128, 4))
    on = run_and_check(kernel, device)
    off = run_and_check(kernel, device, disable=("normalize-scf-for-loops",))
    assert on.match
    assert off.match
    assert on.emulation.cycles == off.emulation.cycles
