// RUN: ktir-opt %s --split-input-file -p split-distributed-views | filecheck %s

/// Pieces that are one view: X's column halves at %X and %X + 64 with the same strides
/// ([128, 1]) address every coordinate the same way (offset minus the first coordinate times
/// the strides is %X for both) and tile the 4x128 coordinates exactly: the distributed view
/// becomes one memory view of the whole box, so two loads through such views in one
/// computation (at tile-dependent coordinates) are ordinary loads.

#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - 64 >= 0, -d1 + 127 >= 0)>
#t = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @halves(
// CHECK-SAME:      %[[X:.*]]: index, %[[W:.*]]: index, %[[Y:.*]]: index)
// CHECK-NOT:     construct_distributed_memory_view
// CHECK:         %[[XD:.*]] = ktdp.construct_memory_view %[[X]], sizes: [4, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
// CHECK:         %[[WD:.*]] = ktdp.construct_memory_view %[[W]], sizes: [4, 128], strides: [128, 1]
// CHECK:         %[[XT:.*]] = ktdp.construct_access_tile %[[XD]][%{{.*}}, %{{.*}}]
// CHECK:         %[[WT:.*]] = ktdp.construct_access_tile %[[WD]][%{{.*}}, %{{.*}}]
// CHECK:         %[[A:.*]] = ktdp.load %[[XT]]
// CHECK-NEXT:    %[[B:.*]] = ktdp.load %[[WT]]
// CHECK-NEXT:    arith.mulf %[[A]], %[[B]]
func.func @halves(%X: index, %W: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c64 : index
  %X1 = arith.addi %X, %c64 : index
  %W1 = arith.addi %W, %c64 : index
  %x0 = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [128, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %x1 = ktdp.construct_memory_view %X1, sizes: [4, 64], strides: [128, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %xd = ktdp.construct_distributed_memory_view (%x0, %x1 : memref<4x64xf16>, memref<4x64xf16>) : memref<4x128xf16>
  %w0 = ktdp.construct_memory_view %W, sizes: [4, 64], strides: [128, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %w1 = ktdp.construct_memory_view %W1, sizes: [4, 64], strides: [128, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %wd = ktdp.construct_distributed_memory_view (%w0, %w1 : memref<4x64xf16>, memref<4x64xf16>) : memref<4x128xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %xt = ktdp.construct_access_tile %xd[%c0, %col] {access_tile_order = #o, access_tile_set = #t} : memref<4x128xf16> -> !ktdp.access_tile<1x64xindex>
  %wt = ktdp.construct_access_tile %wd[%c0, %col] {access_tile_order = #o, access_tile_set = #t} : memref<4x128xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %b = ktdp.load %wt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %y = arith.mulf %a, %b : tensor<1x64xf16>
  %yt = ktdp.construct_access_tile %Yv[%c0, %col] {access_tile_order = #o, access_tile_set = #t} : memref<4x128xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %y, %yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}

// -----

/// Pieces with different strides are not one view: they stay for the split.

#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - 64 >= 0, -d1 + 127 >= 0)>

// CHECK-LABEL: func.func @different_strides(
// CHECK:         ktdp.construct_distributed_memory_view
func.func @different_strides(%X: index) -> memref<4x128xf16> {
  %x0 = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [128, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %x1 = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [1, 4] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %xd = ktdp.construct_distributed_memory_view (%x0, %x1 : memref<4x64xf16>, memref<4x64xf16>) : memref<4x128xf16>
  return %xd : memref<4x128xf16>
}
