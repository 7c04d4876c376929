// RUN: ktir-opt %s -p ktir-legality-check | filecheck %s

/// A gather or a scatter (a load or store through an indirect access tile over memory views,
/// a static box of variables in identity order) passes unchanged:
/// construct-three-stage-pipeline turns it into `ktdf.ind_data_transfer`s.

// CHECK-LABEL: func.func @gather(
// CHECK:         %[[G:.*]] = ktdp.construct_indirect_access_tile intermediate_variables(%{{.*}}, %{{.*}}) %[[V:.*]][ind(%[[I:.*]][%{{.*}}]), (%{{.*}})]
// CHECK-NEXT:    %{{.*}} = ktdp.load %[[G]] : <4x64xindex> -> tensor<4x64xf16>
func.func @gather(%A: index, %I: index, %B: index) {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %A, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %i = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
  %b = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%a, %c) %v[ind(%i[%a]), (%c)] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16>, memref<4xi32> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %g : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %bt = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %x, %bt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

// CHECK-LABEL: func.func @scatter(
// CHECK:         %[[S:.*]] = ktdp.construct_indirect_access_tile intermediate_variables(%{{.*}}, %{{.*}}) %[[V:.*]][ind(%[[I:.*]][%{{.*}}]), (%{{.*}})]
// CHECK-NEXT:    ktdp.store %{{.*}}, %[[S]] : tensor<4x64xf16>, <4x64xindex>
func.func @scatter(%A: index, %I: index, %B: index) {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %A, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %i = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
  %b = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %bt = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %bt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %s = ktdp.construct_indirect_access_tile intermediate_variables(%a, %c) %v[ind(%i[%a]), (%c)] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<32x64xf16>, memref<4xi32> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %x, %s : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
