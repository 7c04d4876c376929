// RUN: not ktir interpret %s 2>&1 | filecheck %s
// RUN: not ktir --max-tiles 4 interpret %s 2>&1 | filecheck %s --check-prefix=LOWER
/// The interpreter spends ~0.3 ms of Python on each tile (its addresses; its coroutine when
/// tiles communicate), so a grid over the tile limit (2^16, --max-tiles) is a located error at
/// the kernel at once, not minutes of work (fuzz seed 13, kernel:2596: 952,605 tiles, 300 s).
// CHECK-NOT: Traceback
// CHECK-NOT: internal error
// CHECK: negative-many-tiles.mlir:[[# @LINE + 7]]:1: error: 'func.func' op has a grid of 100,000 tiles, more than the interpreter's limit of 65,536 (raise it with --max-tiles)
// LOWER: negative-many-tiles.mlir:[[# @LINE + 6]]:1: error: 'func.func' op has a grid of 100,000 tiles, more than the interpreter's limit of 4 (raise it with --max-tiles)
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @negative_many_tiles(%X: index, %Out: index) attributes {grid = [100000]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.000000e+00> : tensor<1x256xf32>
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 256], strides: [256, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x256xf32>
  %Ov = ktdp.construct_memory_view %Out, sizes: [8, 256], strides: [256, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x256xf32>
  %xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<8x256xf32> -> !ktdp.access_tile<1x256xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #group -> !ktdp.tile_future<(tensor<1x256xf32>), groups = #groups> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<1x256xf32>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #group, identity(%zero : tensor<1x256xf32>) : !ktdp.tile_future<(tensor<1x256xf32>), groups = #groups> -> tensor<1x256xf32> {
  ^bb0(%l: tensor<1x256xf32>, %r: tensor<1x256xf32>):
    %a = arith.addf %l, %r : tensor<1x256xf32>
    ktdp.yield_reduced %a : tensor<1x256xf32>
  }
  %ot = ktdp.construct_access_tile %Ov[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<8x256xf32> -> !ktdp.access_tile<1x256xindex>
  ktdp.store %s, %ot : tensor<1x256xf32>, !ktdp.access_tile<1x256xindex>
  return
}
