// RUN: ktir-opt %s -p 'ktir-to-dfir{stop_at=reduction-loop-exposure}' | filecheck %s

/// A matmul (generalize-contractions: iterations (m, k, n), k reduced in the middle) is
/// vectorised along n, the output's contiguous dim, and one instance covers Mt rows (here
/// both rows of the 2x32 result, Mt = 2) and 32 columns: each B row the load unit brings for
/// step k serves every row of the instance, instead of one instance per row reloading it.
/// The compute stage steps over k in ascending order; per step it reads the A column
/// A[m0:m0+2, k] (2 elements) and ONE B vector B[k, n0:n0+32], widens each to f32 on its own
/// elements, and updates both rows' partials, acc[:, 0, :] += A[:, k] (broadcast along n) *
/// B[k, :] (broadcast along m), in f32 from 0; the lane fold over k (one lane) adds the
/// init, and the result is rounded once and written as one 2x32 block.
/// (On spyre's units without its matrix engine, Inputs/spyre-simd.mlir: with it the
/// contraction pipeline takes over, scheduler/conversion/ktir_to_ktdf/
/// construct-three-stage-pipeline/contractions.mlir.)

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.data_transfer from %{{[^[]+}}[%{{.*}} * 2, %{{.*}}] size [2, 32] to %[[BUFA:[a-z_0-9]+]][0, 0] size [2, 32]
// CHECK-NEXT:    ktdf.data_transfer from %{{[^[]+}}[%{{.*}}, %{{.*}}] size [32, 32] to %[[BUFB:[a-z_0-9]+]][0, 0] size [32, 32]
// CHECK:         scf.for %[[R:r[0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf.data_transfer from %[[BUFA]][0, %[[R]]] size [2, 1] to %[[SA:[^ ]+]] size [2]
// CHECK-NEXT:      ktdf.data_transfer from %[[BUFB]][%[[R]], 0] size [1, 32] to %[[SB:[^ ]+]] size [32]
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:  } {applicable_units = ["LX_LOAD"]}
// CHECK:         %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x1x32xf32>)
// CHECK:         %[[SUM:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<2x1x32xf32>) {
// CHECK-NEXT:      %[[X:.*]] = ktdf.read_from_fifo %[[SA]] : <"LX_LOAD" -> "PE", 2xf16> -> tensor<2x1x1xf16>
// CHECK-NEXT:      %[[Y:.*]] = ktdf.read_from_fifo %[[SB]] : <"LX_LOAD" -> "PE", 32xf16> -> tensor<1x1x32xf16>
// CHECK-NOT:       ktdf.read_from_fifo
// CHECK:           %[[XW:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<2x1x1xf16>) outs(%{{.*}} : tensor<2x1x1xf32>)
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        arith.extf
// CHECK:           %[[YW:.*]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<1x1x32xf16>) outs(%{{.*}} : tensor<1x1x32xf32>)
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        arith.extf
// CHECK:           %[[STEP:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[XW]], %[[YW]] : tensor<2x1x1xf32>, tensor<1x1x32xf32>) outs(%[[ACC]] : tensor<2x1x32xf32>)
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        arith.mulf
// CHECK-NEXT:        arith.addf
// CHECK:           scf.yield %[[STEP]] : tensor<2x1x32xf32>
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:         %[[FOLD:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[SUM]] : tensor<2x1x32xf32>) outs(%{{.*}} : tensor<2x32xf32>)
// CHECK:         %[[C:.*]] = linalg.generic {{.*}} ins(%[[FOLD]] : tensor<2x32xf32>) outs(%{{.*}} : tensor<2x32xf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK:         ktdf.write_to_fifo %[[C]], %{{.*}} : tensor<2x32xf16>
// CHECK:       } {applicable_units = ["PE"]}
// CHECK:         ktdf.data_transfer from %{{.*}} size [64] to %{{[^[]+}}[0, 0] size [2, 32]

ktdf_arch.device @spyre_simd import("Inputs/spyre-simd.mlir")
#a_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul(%A: index, %B: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Av = ktdp.construct_memory_view %A, sizes: [2, 32], strides: [32, 1] {coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [32, 32], strides: [32, 1] {coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [2, 32], strides: [32, 1] {coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
  %at = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_order = #id, access_tile_set = #a_all} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
  %bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_order = #id, access_tile_set = #b_all} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
  %a = ktdp.load %at : !ktdp.access_tile<2x32xindex> -> tensor<2x32xf16>
  %b = ktdp.load %bt : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
  %zero = arith.constant dense<0.000000e+00> : tensor<2x32xf16>
  %c = linalg.matmul ins(%a, %b : tensor<2x32xf16>, tensor<32x32xf16>) outs(%zero : tensor<2x32xf16>) -> tensor<2x32xf16>
  %ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_order = #id, access_tile_set = #a_all} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
  ktdp.store %c, %ct : tensor<2x32xf16>, !ktdp.access_tile<2x32xindex>
  return
}
