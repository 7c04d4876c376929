// RUN: ktir compile %s -d spyre -q --stop-at reduction-loop-exposure | filecheck %s
//
/// Row maximum and minimum that ignore NaN (maxnumf / minnumf), 4 x 256 fp16, both folded in
/// one loop over the row's vectors. The lane partials start from -inf / +inf and such a fold
/// of a number is a number, so each step tests only the vector read for NaN: a compare, the
/// NaN-propagating maximumf / minimumf (operands in their order) and a select keeping the
/// partial, instead of testing both operands. The fold of the partials' lanes with the init
/// (which may be NaN) keeps the general maxnumf / minnumf.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         scf.for %{{.*}} iter_args(%[[MX:.*]] = %{{.*}}, %[[MN:.*]] = %{{.*}}) -> (tensor<1x64xf16>, tensor<1x64xf16>) {
// CHECK-NEXT:      %[[V:.*]] = ktdf.read_from_fifo
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[V]] : tensor<1x64xf16>) outs(%[[MX]], %[[MN]] : tensor<1x64xf16>, tensor<1x64xf16>) {
// CHECK-NEXT:      ^bb0(%[[X:.*]]: f16, %[[A:.*]]: f16, %[[B:.*]]: f16):
// CHECK-NEXT:        %[[N1:.*]] = arith.cmpf une, %[[X]], %[[X]] : f16
// CHECK-NEXT:        %[[M1:.*]] = arith.maximumf %[[X]], %[[A]] : f16
// CHECK-NEXT:        %[[S1:.*]] = arith.select %[[N1]], %[[A]], %[[M1]] : f16
// CHECK-NEXT:        %[[N2:.*]] = arith.cmpf une, %[[X]], %[[X]] : f16
// CHECK-NEXT:        %[[M2:.*]] = arith.minimumf %[[X]], %[[B]] : f16
// CHECK-NEXT:        %[[S2:.*]] = arith.select %[[N2]], %[[B]], %[[M2]] : f16
// CHECK-NEXT:        linalg.yield %[[S1]], %[[S2]] : f16, f16
// CHECK:         } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      arith.maxnumf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      arith.minnumf

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#v = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @rowmaxnum(%X: index, %MX: index, %MN: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x256xf16>
  %MXv = ktdp.construct_memory_view %MX, sizes: [4], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %MNv = ktdp.construct_memory_view %MN, sizes: [4], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_order = #id, access_tile_set = #all} : memref<4x256xf16> -> !ktdp.access_tile<4x256xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<4x256xindex> -> tensor<4x256xf16>
  %ninf = arith.constant 0xFC00 : f16
  %pinf = arith.constant 0x7C00 : f16
  %m0 = tensor.splat %ninf : tensor<4xf16>
  %n0 = tensor.splat %pinf : tensor<4xf16>
  %m = linalg.reduce { arith.maxnumf } ins(%x : tensor<4x256xf16>) outs(%m0 : tensor<4xf16>) dimensions = [1]
  %n = linalg.reduce { arith.minnumf } ins(%x : tensor<4x256xf16>) outs(%n0 : tensor<4xf16>) dimensions = [1]
  %mt = ktdp.construct_access_tile %MXv[%c0] {access_tile_order = #id1, access_tile_set = #v} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %nt = ktdp.construct_access_tile %MNv[%c0] {access_tile_order = #id1, access_tile_set = #v} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  ktdp.store %m, %mt : tensor<4xf16>, !ktdp.access_tile<4xindex>
  ktdp.store %n, %nt : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}
