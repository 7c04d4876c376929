// Two all-reduces in a row with a value carried between them, and one writer per group:
// 8 tiles form two groups of 4 (tiles 4g .. 4g + 3). Tile t loads row t of X (8 x 64 f16);
// twice, its group sums the tiles' current values (folded from zero in ascending tile id)
// and each tile adds its own row again: acc = sum_group(acc) + x. Only the first tile of
// each group (t mod 4 == 0) writes its acc to row g of Out (2 x 64).
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @loop_writers(%X: index, %Out: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.000000e+00> : tensor<1x64xf16>
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Ov = ktdp.construct_memory_view %Out, sizes: [2, 64], strides: [64, 1] {coordinate_set = #o, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %acc = scf.for %k = %c0 to %c2 step %c1 iter_args(%a = %x) -> (tensor<1x64xf16>) {
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #group -> !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> {
    ^bb0(%gid: index):
      ktdp.yield_partial %a : tensor<1x64xf16>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #group, identity(%zero : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> -> tensor<1x64xf16> {
    ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
      %sum = arith.addf %l, %r : tensor<1x64xf16>
      ktdp.yield_reduced %sum : tensor<1x64xf16>
    }
    %n = arith.addf %s, %x : tensor<1x64xf16>
    scf.yield %n : tensor<1x64xf16>
  }
  %lane = arith.remui %t, %c4 : index
  %g = arith.divui %t, %c4 : index
  %w = arith.cmpi eq, %lane, %c0 : index
  scf.if %w {
    %ot = ktdp.construct_access_tile %Ov[%g, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %acc, %ot : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
