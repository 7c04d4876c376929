// RUN: ktir-opt %s --split-input-file -p inter-tile-exchange --verify-diagnostics | filecheck %s

/// What stays refused, with the reason: a produce region that reads its group id (the slots
/// hold one partial per tile, computed the same way on every tile), and an identity computed
/// from the tile id, and a combiner reading one (the fold of each consumer runs once, on one
/// core, for all of them).

#group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#groups = affine_set<(g) : (g == 0)>

func.func @negative_group_id() attributes {grid = [2]} {
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #group -> !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> {
  ^bb0(%gid: index):
    %g = arith.index_cast %gid : index to i64
    %gf = arith.sitofp %g : i64 to f16
    %p = tensor.splat %gf : tensor<1x64xf16>
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #group, identity(%zero : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    %a = arith.addf %l, %r : tensor<1x64xf16>
    ktdp.yield_reduced %a : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}'ktdp.inter_tile_produce' op a produce region that reads its group id (the tiles of the grid would compute different partials per group): not supported by the scheduler yet

// -----

#group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#groups = affine_set<(g) : (g == 0)>

func.func @negative_tile_identity() attributes {grid = [2]} {
  %t = ktdp.get_compute_tile_id : index
  %ti = arith.index_cast %t : index to i64
  %tf = arith.sitofp %ti : i64 to f16
  %id = tensor.splat %tf : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #group -> !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> {
  ^bb0(%gid: index):
    ktdp.yield_partial %id : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #group, identity(%id : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    %a = arith.addf %l, %r : tensor<1x64xf16>
    ktdp.yield_reduced %a : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}'ktdp.inter_tile_reduce' op an identity that depends on the compute tile id: not supported by the scheduler yet

// -----

#group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#groups = affine_set<(g) : (g == 0)>

func.func @negative_tile_combiner() attributes {grid = [2]} {
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %t = ktdp.get_compute_tile_id : index
  %ti = arith.index_cast %t : index to i64
  %tf = arith.sitofp %ti : i64 to f16
  %scale = tensor.splat %tf : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #group -> !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> {
  ^bb0(%gid: index):
    ktdp.yield_partial %zero : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #group, identity(%zero : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    %m = arith.mulf %r, %scale : tensor<1x64xf16>
    %a = arith.addf %l, %m : tensor<1x64xf16>
    ktdp.yield_reduced %a : tensor<1x64xf16>
  }
  return
}
// CHECK: error: {{.*}}'ktdp.inter_tile_reduce' op a combiner that reads a value computed from the compute tile id: not supported by the scheduler yet
