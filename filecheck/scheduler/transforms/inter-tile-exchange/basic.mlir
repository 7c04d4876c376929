// RUN: ktir-opt %s -p inter-tile-exchange | filecheck %s

/// Two tiles all-reduce a 1x64 row. Every tile stores its partial into a slot of its own
/// scratchpad (element 0); the fold starts at the identity and adds the partials of tiles 0
/// and 1 in that order, read from their scratchpads (ct_id), once for both consumers (they
/// have the same sources), and goes into each consumer's result slot (element 64, the next
/// stick); the reduce becomes the load of the tile's own result slot. The partial and the
/// identity are computed afresh where they are stored / folded (no load shared with the
/// tile's other stores, so each is a compute group of its own).

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#groups = affine_set<(g) : (g == 0)>

// CHECK-LABEL: func.func @allreduce(
// CHECK-SAME:      %[[X:.*]]: index, %[[O:.*]]: index)
// CHECK-NOT:     inter_tile
// CHECK:         %[[XV:.*]] = ktdp.construct_memory_view %[[X]]
// CHECK:         %[[XT:.*]] = ktdp.construct_access_tile %[[XV]]
// CHECK:         %[[PART:.*]] = ktdp.load %[[XT]]
// CHECK:         %[[A0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[PS:.*]] = ktdp.construct_memory_view %[[A0]], sizes: [1, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>}
// CHECK-NEXT:    %[[PST:.*]] = ktdp.construct_access_tile %[[PS]][0, 0]
// CHECK-NEXT:    ktdp.store %[[PART]], %[[PST]] : tensor<1x64xf16>, <1x64xindex>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<1x64xf16>
// CHECK:         %[[P0V:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [1, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK-NEXT:    %[[P0T:.*]] = ktdp.construct_access_tile %[[P0V]][0, 0]
// CHECK-NEXT:    %[[P0:.*]] = ktdp.load %[[P0T]]
// CHECK-NEXT:    %[[S0:.*]] = arith.addf %[[ZERO]], %[[P0]] : tensor<1x64xf16>
// CHECK:         %[[P1V:.*]] = ktdp.construct_memory_view %{{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 1>}
// CHECK-NEXT:    %[[P1T:.*]] = ktdp.construct_access_tile %[[P1V]][0, 0]
// CHECK-NEXT:    %[[P1:.*]] = ktdp.load %[[P1T]]
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[S0]], %[[P1]] : tensor<1x64xf16>
// CHECK-NEXT:    %[[R0A:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[R0V:.*]] = ktdp.construct_memory_view %[[R0A]], {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK-NEXT:    %[[R0T:.*]] = ktdp.construct_access_tile %[[R0V]][0, 0]
// CHECK-NEXT:    ktdp.store %[[S1]], %[[R0T]]
// CHECK-NEXT:    %[[R1A:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[R1V:.*]] = ktdp.construct_memory_view %[[R1A]], {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 1>}
// CHECK-NEXT:    %[[R1T:.*]] = ktdp.construct_access_tile %[[R1V]][0, 0]
// CHECK-NEXT:    ktdp.store %[[S1]], %[[R1T]]
// CHECK-NOT:     arith.addf
// CHECK:         %[[RA:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[RV:.*]] = ktdp.construct_memory_view %[[RA]], sizes: [1, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>}
// CHECK-NEXT:    %[[RT:.*]] = ktdp.construct_access_tile %[[RV]][0, 0]
// CHECK-NEXT:    %[[SUM:.*]] = ktdp.load %[[RT]] : <1x64xindex> -> tensor<1x64xf16>
// CHECK:         ktdp.store %[[SUM]], %{{.*}} : tensor<1x64xf16>, <1x64xindex>
func.func @allreduce(%X: index, %Out: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [2, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %Ov = ktdp.construct_memory_view %Out, sizes: [2, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #group -> !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #group, identity(%zero : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    %a = arith.addf %l, %r : tensor<1x64xf16>
    ktdp.yield_reduced %a : tensor<1x64xf16>
  }
  %ot = ktdp.construct_access_tile %Ov[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %s, %ot : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
