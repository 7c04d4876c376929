// RUN: not ktir interpret %s 2>&1 | filecheck %s
/// An access tile set that starts before -2^63 (fuzz seed 15, kernel:4498: matmul's B block
/// with `d1 >= -2^64`, at a subscript known only at run time): the interpreter's coordinates are int64, so numpy refused the set's
/// origin and the user saw "internal error: OverflowError". A located error at the tile now: the box of a
/// box-shaped set gets the 64-bit check its enumerated points already had (ktir/affine.py).
// CHECK-NOT: Traceback
// CHECK-NOT: internal error
// CHECK: negative-tile-set-past-64-bits.mlir:[[# @LINE + 8]]:3: error: 'ktdp.construct_access_tile' op has an unbounded tile set (the set '(d0, d1) : (d0 == 0, (d1 + 18446744073709551616) >= 0, ((d1 * -1) + -18446744073709551553) >= 0)' has bounds beyond 64 bits) on tile 0
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#far = affine_set<(d0, d1) : (d0 == 0, d1 >= -18446744073709551616, -d1 - 18446744073709551553 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @negative_tile_set_past_64_bits(%X: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_order = #id, access_tile_set = #far} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  return
}
