// RUN: ktir-opt %s -p split-distributed-views | filecheck %s

/// A tile over a distributed view at coordinates that follow the tile id (tile t reads the
/// piece of tile 1 - t, through a `linalg.add` into a `tensor.empty`): the store becomes one
/// copy per tile with the tile id a constant, each reading its piece from the piece's owner
/// and writing its own rows of C.

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 - 2 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#slab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @swap(
// CHECK-NOT:     ktdp.get_compute_tile_id
// CHECK:         ktdp.construct_memory_view %{{.*}} memory_space = #ktdp.memory_space<ct_local, ct_id = 1>
// CHECK:         %[[A1:.*]] = ktdp.load
// CHECK:         linalg.add ins(%[[A1]],
// CHECK:         ktdp.store
// CHECK:         ktdp.construct_memory_view %{{.*}} memory_space = #ktdp.memory_space<ct_local, ct_id = 0>
// CHECK:         %[[A0:.*]] = ktdp.load
// CHECK:         linalg.add ins(%[[A0]],
// CHECK:         ktdp.store
// CHECK-NOT:     ktdp.store
// CHECK-NOT:     construct_distributed_memory_view
func.func @swap(%X: index, %C: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %X0 = ktdp.construct_memory_view %X, sizes: [2, 64], strides: [64, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<2x64xf16>
  %X1 = ktdp.construct_memory_view %X, sizes: [2, 64], strides: [64, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<2x64xf16>
  %Xd = ktdp.construct_distributed_memory_view (%X0, %X1 : memref<2x64xf16>, memref<2x64xf16>) : memref<4x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [4, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %o = arith.subi %c1, %t : index
  %xrow = arith.muli %o, %c2 : index
  %row = arith.muli %t, %c2 : index
  %Xt = ktdp.construct_access_tile %Xd[%xrow, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %e = tensor.empty() : tensor<2x64xf16>
  %s = linalg.add ins(%x, %x : tensor<2x64xf16>, tensor<2x64xf16>) outs(%e : tensor<2x64xf16>) -> tensor<2x64xf16>
  ktdp.store %s, %Ct : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
