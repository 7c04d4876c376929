// RUN: ktir-opt %s -p ktir-legality-check --split-input-file --verify-diagnostics | filecheck %s

/// ktir-legality-check stops at the first op outside what the scheduler lowers end to end and
/// says which op and why; one chunk per condition.

func.func @negative_transposed_tile(%A: index) {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %v = ktdp.construct_memory_view %A, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %x = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d1, d0)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  return
}
// CHECK: error: {{.*}}access_tile_order other than the identity: not supported by the scheduler yet

// -----

func.func @negative_holes(%A: index) {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %v = ktdp.construct_memory_view %A, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %x = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, d0 - d1 >= 0)>} : memref<64x64xf16> -> !ktdp.access_tile<4x4xindex>
  return
}
// CHECK: error: {{.*}}access tiles over non-box sets (holes): not supported by the scheduler yet
