"""broadcast-promotion end to end: the hoisted loads still give the reference interpreter's
results (emulated with race checking on), and the device-memory bytes drop by the loads
no longer repeated."""

from __future__ import annotations

from pathlib import Path

from ktir_tools.run import run_and_check

EXAMPLES = Path(__file__).parents[3] / "examples" / "kernels"


def _dma_in(r) -> int:
    return sum(n for k, n in r.emulation.bytes_per_datapath.items() if k.startswith("DDR->"))


def test_layernorm_loads_weights_once_per_tile() -> None:
    """M=100, N=2048 on spyre: 32 tiles, 4 rows each (the last masked on most tiles). X is
    read once (409,600 B); W and B (2 x 4,096 B) were read in every row, now once per tile
    (share-invariant-loads, which reads them once in all, is off to see this pass alone)."""
    args = {"M": "100", "N": "2048", "eps": "1e-5"}
    kernel = EXAMPLES / "layernorm.mlir"
    on = run_and_check(kernel, "spyre", args=args, rtol=1e-3, atol=1e-5,
                       disable=("share-invariant-loads",))
    off = run_and_check(kernel, "spyre", args=args, rtol=1e-3, atol=1e-5,
                        disable=("share-invariant-loads", "broadcast-promotion"))
    assert on.match
    assert off.match
    assert _dma_in(off) == 409_600 + 32 * 4 * 8_192
    assert _dma_in(on) == 409_600 + 32 * 8_192
    assert on.emulation.cycles < off.emulation.cycles


ROWBIAS = """
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#sfull = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#wfull = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rowbias(%X: index, %S: index, %W: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 256], strides: [256, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 256], strides: [256, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
  %Sv = ktdp.construct_memory_view %S, sizes: [8, 64], strides: [64, 1] {coordinate_set = #sfull, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [1, 64], strides: [64, 1] {coordinate_set = #wfull, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  scf.for %i = %t to %c8 step %c2 {
    scf.for %j = %c0 to %c256 step %c64 {
      %xt = ktdp.construct_access_tile %Xv[%i, %j] {access_tile_order = #id, access_tile_set = #blk} : memref<8x256xf16> -> !ktdp.access_tile<1x64xindex>
      %st = ktdp.construct_access_tile %Sv[%i, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
      %wt = ktdp.construct_access_tile %Wv[%c0, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
      %yt = ktdp.construct_access_tile %Yv[%i, %j] {access_tile_order = #id, access_tile_set = #blk} : memref<8x256xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %s = ktdp.load %st : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %w = ktdp.load %wt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %a = linalg.add ins(%x, %s : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
      %e2 = tensor.empty() : tensor<1x64xf16>
      %y = linalg.add ins(%a, %w : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e2 : tensor<1x64xf16>) -> tensor<1x64xf16>
      ktdp.store %y, %yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    }
  }
  return
}
"""


def test_nested_loops_hoist_only_what_runs_once(tmp_path: Path) -> None:
    """Rows %i (4 per tile) x column blocks %j (4): W (the same everywhere) is loaded once
    per tile instead of 16 times; S[%i] is invariant in %j only and stays (its sibling
    would run once per row). Double-buffered on sample_device, race checking on."""
    kernel = tmp_path / "rowbias.mlir"
    kernel.write_text(ROWBIAS)
    on = run_and_check(kernel, "sample_device")
    off = run_and_check(kernel, "sample_device", disable=("broadcast-promotion",))
    assert on.match
    assert off.match
    assert _dma_in(off) - _dma_in(on) == 2 * 15 * 128  # 2 tiles, 15 W loads of 128 B saved
