// RUN: not ktir-opt %s -p 'ensure-device-declaration{device=sample_device},inter-tile-exchange' 2>&1 | filecheck %s

/// The device-memory workspace is one kernel argument, an element address: partials of
/// different element widths (f16 and f32) would need one per width, and are refused.

#group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#groups = affine_set<(g) : (g == 0)>

func.func @two_widths() attributes {grid = [2]} {
  %h = arith.constant dense<0.0> : tensor<1x64xf16>
  %w = arith.constant dense<0.0> : tensor<1x64xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #group -> !ktdp.tile_future<(tensor<1x64xf16>, tensor<1x64xf32>), groups = #groups> {
  ^bb0(%gid: index):
    ktdp.yield_partial %h, %w : tensor<1x64xf16>, tensor<1x64xf32>
  }
  %c:2 = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #group, producer_dependency_per_consumer = affine_set<(p)[c] : (p - c == 0)> : !ktdp.tile_future<(tensor<1x64xf16>, tensor<1x64xf32>), groups = #groups> -> tensor<1x64xf16>, tensor<1x64xf32>
  return
}
// CHECK: negative-workspace-widths.mlir:12:3: error: 'ktdp.inter_tile_produce' op partials of different element widths in one kernel on a device whose cores share only device memory (one workspace, addressed in elements): not supported by the scheduler yet
