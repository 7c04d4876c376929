// RUN: ktir-opt %s | ktir-opt | filecheck %s
// RUN: KTIR_GENERIC_ROUNDTRIP | filecheck %s

/// Every ktdp op, type and attribute survives print -> parse -> print, in the custom form and
/// through the generic form. Legacy memory spaces are converted while parsing.

#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @tile_ids()
// CHECK-SAME:    attributes {grid = [4 : i64, 8 : i64]}
// CHECK-NEXT:    %{{.*}} = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    %{{.*}}, %{{.*}} = ktdp.get_compute_tile_id : index, index
func.func @tile_ids() attributes {grid = [4, 8]} {
  %lin = ktdp.get_compute_tile_id : index
  %x, %y = ktdp.get_compute_tile_id : index, index
  return
}

// CHECK-LABEL: func.func @views(
// CHECK-SAME:    %[[A:.*]]: index, %[[M:.*]]: index)
// CHECK:         %[[G:.*]] = ktdp.construct_memory_view %[[A]], sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
// CHECK-NEXT:    ktdp.construct_memory_view %[[A]], sizes: [%[[M]], 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : ({{.*}})>, memory_space = #ktdp.memory_space<ct_local>} : memref<?x64xf16>
// CHECK-NEXT:    %[[L:.*]] = ktdp.construct_memory_view %[[A]], sizes: [32, 64], strides: [%[[M]], 1] {{.*}} memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<32x64xf16>
// CHECK-NEXT:    ktdp.construct_memory_view {{.*}} memory_space = #ktdp.memory_space<global>}
// CHECK-NEXT:    ktdp.construct_memory_view {{.*}} memory_space = #ktdp.memory_space<ct_local, ct_id = 2>}
// CHECK-NEXT:    ktdp.construct_memory_view {{.*}} memory_space = #ktdp.spyre_memory_space<L0, core = 1>}
// CHECK-NEXT:    ktdp.construct_distributed_memory_view(%[[G]], %[[L]] : memref<32x64xf16>, memref<32x64xf16>) : memref<64x64xf16>
func.func @views(%a: index, %m: index) attributes {grid = [4]} {
  %g = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %d = ktdp.construct_memory_view %a, sizes: [%m, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<?x64xf16>
  %l = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [%m, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<32x64xf16>
  %h = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<32x64xf16>
  %x = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<LX, core = 2>} : memref<32x64xf16>
  %z = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<L0, core = 1>} : memref<32x64xf16>
  %dist = ktdp.construct_distributed_memory_view (%g, %l : memref<32x64xf16>, memref<32x64xf16>) : memref<64x64xf16>
  return
}

// CHECK-LABEL: func.func @tiles(
// CHECK-SAME:    %[[V:[^:]*]]: memref<96x64xf16>, %[[T:[^:]*]]: tensor<8x64xf16>, %[[R:[^:]*]]: index, %[[I:[^:]*]]: index, %[[N:[^:]*]]: index)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.*]] = ktdp.construct_access_tile %[[V]][%[[R]] + %[[I]], %[[C0]]] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<{{.*}}>} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
// CHECK-NEXT:    %[[B:.*]] = ktdp.construct_access_tile %[[V]][%[[R]] * 2 - %[[I]], 4] symbols(%[[N]]) {{.*}} : memref<96x64xf16> -> !ktdp.access_tile<?x32xindex>
// CHECK-NEXT:    ktdp.construct_access_tile %[[V]][%[[C0]], %[[C0]]] {access_tile_order = affine_map<(d0, d1) -> (d1, d0)>, {{.*}} -> !ktdp.access_tile<64x2xindex>
// CHECK-NEXT:    ktdp.construct_access_tile %[[V]][%[[C0]], %[[C0]]] {{.*}} (d0 + (d1 * -1)) >= 0)>} : memref<96x64xf16> -> !ktdp.access_tile<4x4xindex>
// CHECK-NEXT:    ktdp.construct_access_tile %[[T]][%[[C0]], %[[C0]]] {{.*}} : tensor<8x64xf16> -> !ktdp.access_tile<8x64xindex>
// CHECK-NEXT:    %[[D:.*]] = ktdp.load %[[A]] : <3x64xindex> -> tensor<3x64xf16>
// CHECK-NEXT:    ktdp.load %[[B]] : <?x32xindex> -> tensor<?x32xf16>
// CHECK-NEXT:    ktdp.store %[[D]], %[[A]] : tensor<3x64xf16>, <3x64xindex>
func.func @tiles(%v: memref<96x64xf16>, %t: tensor<8x64xf16>, %row0: index, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  %a = ktdp.construct_access_tile %v[%row0 + %i, %c0] {access_tile_order = #id, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %b = ktdp.construct_access_tile %v[%row0 * 2 - %i, 4] symbols(%n) {access_tile_order = #id, access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>} : memref<96x64xf16> -> !ktdp.access_tile<?x32xindex>
  %c = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d1, d0)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<96x64xf16> -> !ktdp.access_tile<64x2xindex>
  %tri = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = #id, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, d0 - d1 >= 0)>} : memref<96x64xf16> -> !ktdp.access_tile<4x4xindex>
  %g = ktdp.construct_access_tile %t[%c0, %c0] {access_tile_order = #id, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : tensor<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %d = ktdp.load %a : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  %e = ktdp.load %b : <?x32xindex> -> tensor<?x32xf16>
  ktdp.store %d, %a : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
  return
}

// CHECK-LABEL: func.func @indirect(
// CHECK-SAME:    %[[X:[^:]*]]: memref<100x16xf16>, %[[IDX:[^:]*]]: memref<4x8xi32>, %[[OFF:[^:]*]]: index, %[[N:[^:]*]]: index)
// CHECK-NEXT:    %[[T:.*]] = ktdp.construct_indirect_access_tile intermediate_variables(%[[I:.*]], %[[J:.*]]) %[[X]][ind(%[[IDX]][%[[I]] + %[[OFF]], %[[J]] floordiv 2]), (%[[J]] mod 16)] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<{{.*}}>} : memref<100x16xf16>, memref<4x8xi32> -> !ktdp.access_tile<4x8xindex>
// CHECK-NEXT:    ktdp.construct_indirect_access_tile intermediate_variables(%[[I2:.*]], %[[J2:.*]]) %[[X]][(%[[I2]]), ind(%[[IDX]][0, %[[J2]]])] symbols(%[[N]]) {{.*}} -> !ktdp.access_tile<?x8xindex>
// CHECK-NEXT:    ktdp.construct_indirect_access_tile intermediate_variables() %[[X]][ind(%[[IDX]][%[[OFF]], 0]), (%[[OFF]])] {variables_space_order = affine_map<() -> ()>, variables_space_set = affine_set<() : ()>} : memref<100x16xf16>, memref<4x8xi32> -> !ktdp.access_tile<index>
// CHECK-NEXT:    ktdp.load %[[T]] : <4x8xindex> -> tensor<4x8xf16>
func.func @indirect(%x: memref<100x16xf16>, %idx: memref<4x8xi32>, %off: index, %n: index) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %x[ind(%idx[%i + %off, %j floordiv 2]), (%j mod 16)] {variables_space_order = #id, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>} : memref<100x16xf16>, memref<4x8xi32> -> !ktdp.access_tile<4x8xindex>
  %s = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %x[(%i), ind(%idx[0, %j])] symbols(%n) {variables_space_order = #id, variables_space_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>} : memref<100x16xf16>, memref<4x8xi32> -> !ktdp.access_tile<?x8xindex>
  %r = ktdp.construct_indirect_access_tile intermediate_variables() %x[ind(%idx[%off, 0]), (%off)] {variables_space_order = affine_map<() -> ()>, variables_space_set = affine_set<() : ()>} : memref<100x16xf16>, memref<4x8xi32> -> !ktdp.access_tile<index>
  %v = ktdp.load %t : <4x8xindex> -> tensor<4x8xf16>
  return
}

// CHECK-LABEL: func.func @runtime_args(
// CHECK-SAME:    %[[M:[^:]*]]: !ktdp.runtime_arg<index, granularity=32, upperbound=300>, %[[F:[^:]*]]: !ktdp.runtime_arg<f32>, %{{.*}}: !ktdp.runtime_arg<i32, granularity=1, upperbound=7>)
// CHECK-NEXT:    ktdp.runtime_arg_extract value from %[[M]] : !ktdp.runtime_arg<index, granularity=32, upperbound=300> -> index
// CHECK-NEXT:    ktdp.runtime_arg_extract granularity from %[[M]] : !ktdp.runtime_arg<index, granularity=32, upperbound=300> -> index
// CHECK-NEXT:    ktdp.runtime_arg_extract upperbound from %[[M]] : !ktdp.runtime_arg<index, granularity=32, upperbound=300> -> index
// CHECK-NEXT:    ktdp.runtime_arg_extract value from %[[F]] : !ktdp.runtime_arg<f32> -> f32
func.func @runtime_args(%m: !ktdp.runtime_arg<index, granularity=32, upperbound=300>, %f: !ktdp.runtime_arg<f32>, %k: !ktdp.runtime_arg<i32, upperbound=7, granularity=1>) {
  %v = ktdp.runtime_arg_extract value from %m : !ktdp.runtime_arg<index, granularity=32, upperbound=300> -> index
  %g = ktdp.runtime_arg_extract granularity from %m : <index, granularity=32, upperbound=300> -> index
  %u = ktdp.runtime_arg_extract upperbound from %m : !ktdp.runtime_arg<index, granularity=32, upperbound=300> -> index
  %s = ktdp.runtime_arg_extract value from %f : !ktdp.runtime_arg<f32> -> f32
  return
}

// CHECK-LABEL: func.func @inter_tile(
// CHECK-SAME:    %[[P:[^:]*]]: tensor<1x64xf16>, %[[Z:[^:]*]]: tensor<1x64xf16>)
// CHECK-NEXT:    %[[F:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(d0)[s0] : ((d0 + (s0 * -4)) >= 0, (((d0 * -1) + (s0 * 4)) + 3) >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 1) >= 0)>> {
// CHECK-NEXT:    ^bb0(%{{.*}}: index):
// CHECK-NEXT:      ktdp.yield_partial %[[P]] : tensor<1x64xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    ktdp.inter_tile_reduce(%[[F]]) consumer_tiles_per_group = affine_set<{{.*}}>, identity(%[[Z]] : tensor<1x64xf16>) : !ktdp.tile_future<{{.*}}> -> tensor<1x64xf16> {
// CHECK-NEXT:    ^bb0(%[[L:.*]]: tensor<1x64xf16>, %[[R:.*]]: tensor<1x64xf16>):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[L]], %[[R]] : tensor<1x64xf16>
// CHECK-NEXT:      ktdp.yield_reduced %[[S]] : tensor<1x64xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[F2:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = {{.*}} -> !ktdp.tile_future<(tensor<1x64xf16>), groups = {{.*}}> {
// CHECK:         ktdp.inter_tile_consume(%[[F2]]) consumer_tiles_per_group = affine_set<(d0)[s0] : {{.*}}>, producer_dependency_per_consumer = affine_set<(d0)[s0, s1] : ((d0 + (s1 * -4)) == 0)> : !ktdp.tile_future<{{.*}}> -> tensor<1x64xf16>
func.func @inter_tile(%p: tensor<1x64xf16>, %zero: tensor<1x64xf16>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>, identity(%zero : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %s = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  %f2 = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)> : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %c = ktdp.inter_tile_consume(%f2) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g - 1 == 0)>, producer_dependency_per_consumer = affine_set<(p)[c, g] : (p - 4 * g == 0)> : <(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16>
  return
}
