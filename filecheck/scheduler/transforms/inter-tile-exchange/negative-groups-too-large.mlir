// RUN: not ktir-opt %s -p inter-tile-exchange 2>&1 | filecheck %s

/// A future whose groups the exchange cannot enumerate (here: bounds past 64 bits, which the
/// verifier leaves to whoever enumerates them) is refused, located, not an internal error.

#group = affine_set<(i)[g] : (i - 4 * g >= 0)>
#groups = affine_set<(g) : (g >= 0, -g + 1 >= 18446744073709551615)>

func.func @groups_too_large(%x: tensor<1x64xf32>) attributes {grid = [8]} {
  %zero = arith.constant dense<0.0> : tensor<1x64xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #group -> !ktdp.tile_future<(tensor<1x64xf32>), groups = #groups> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<1x64xf32>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #group, identity(%zero : tensor<1x64xf32>) : !ktdp.tile_future<(tensor<1x64xf32>), groups = #groups> -> tensor<1x64xf32> {
  ^bb0(%l: tensor<1x64xf32>, %r: tensor<1x64xf32>):
    %a = arith.addf %l, %r : tensor<1x64xf32>
    ktdp.yield_reduced %a : tensor<1x64xf32>
  }
  return
}
// CHECK: negative-groups-too-large.mlir:11:3: error: 'ktdp.inter_tile_produce' op the tile_future's groups cannot be enumerated: the set '{{.*}}' has bounds beyond 64 bits
// CHECK-NOT: internal error
