// RUN: not ktir-opt %s -p 'ensure-device-declaration{device=sample_device},inter-tile-exchange' 2>&1 | filecheck %s

/// The slots are read from the producers' scratchpads: a device whose cores share nothing
/// but device memory (sample_device: no ring) cannot run the exchange, and says so at the
/// produce.

#group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#groups = affine_set<(g) : (g == 0)>

func.func @no_ring() attributes {grid = [2]} {
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #group -> !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> {
  ^bb0(%gid: index):
    ktdp.yield_partial %zero : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #group, identity(%zero : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    %a = arith.addf %l, %r : tensor<1x64xf16>
    ktdp.yield_reduced %a : tensor<1x64xf16>
  }
  return
}
// CHECK: negative-no-ring.mlir:12:3: error: 'ktdp.inter_tile_produce' op inter-tile communication goes through the producers' scratchpads, but device @sample_device has no inter-core path for memory 'L1' (a unit with datapaths from and to it and links between its own instances, like a ring): not supported by the scheduler yet
