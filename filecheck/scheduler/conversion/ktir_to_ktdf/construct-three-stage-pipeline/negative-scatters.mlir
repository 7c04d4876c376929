// RUN: ktir-opt %s --split-input-file -p construct-three-stage-pipeline --verify-diagnostics | filecheck %s

/// What construct-three-stage-pipeline refuses of a store through an indirect access tile,
/// located at the store: one chunk per condition.

// A scatter into the view its own group loads from (Out[I[r], :] += X[r, :] through one tile):
// the pipeline stores vector k while later vectors are still loaded, so a repeated index would
// read the sum already scattered, where the tile reads everything before it stores.
// CHECK: error: {{.*}}'ktdp.store' op a scatter into a view the same group reads (a read-modify-write through indices): not supported by the scheduler yet
builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @negative_scatter_add_in_place(%X: index, %I: index, %O: index) {
      func.call @local_schedule_0(%X, %I, %O) : (index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%X: index, %I: index, %O: index) {
      %c0 = arith.constant 0 : index
      %x = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %i = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
      %o = ktdp.construct_memory_view %O, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
      %xt = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
      %v = ktdp.load %xt : <4x64xindex> -> tensor<4x64xf16>
      %g = ktdp.construct_indirect_access_tile intermediate_variables(%r, %d) %o[ind(%i[%r]), (%d)] {variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>} : memref<8x64xf16>, memref<4xi32> -> !ktdp.access_tile<4x64xindex>
      %old = ktdp.load %g : <4x64xindex> -> tensor<4x64xf16>
      %e = tensor.empty() : tensor<4x64xf16>
      %sum = linalg.add ins(%v, %old : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
      ktdp.store %sum, %g : tensor<4x64xf16>, <4x64xindex>
      func.return
    }
  }
}

// -----

// A scatter of a reduction's result: the reduction pipeline stores its results directly.
// CHECK: error: {{.*}}'ktdp.store' op an indirect access tile storing a reduction: not supported by the scheduler yet
builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @negative_scatter_reduction(%X: index, %I: index, %O: index) {
      func.call @local_schedule_0(%X, %I, %O) : (index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%X: index, %I: index, %O: index) {
      %c0 = arith.constant 0 : index
      %z = arith.constant 0.000000e+00 : f16
      %x = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %i = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
      %o = ktdp.construct_memory_view %O, sizes: [8], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 7) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
      %xt = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
      %v = ktdp.load %xt : <4x64xindex> -> tensor<4x64xf16>
      %e = tensor.empty() : tensor<4xf16>
      %f = linalg.fill ins(%z : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
      %sum = linalg.reduce ins(%v:tensor<4x64xf16>) outs(%f:tensor<4xf16>) dimensions = [1]
      (%in: f16, %acc: f16) {
        %a = arith.addf %in, %acc : f16
        linalg.yield %a : f16
      }
      %st = ktdp.construct_indirect_access_tile intermediate_variables(%r0) %o[ind(%i[%r0])] {variables_space_order = affine_map<(d0) -> (d0)>, variables_space_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>} : memref<8xf16>, memref<4xi32> -> !ktdp.access_tile<4xindex>
      ktdp.store %sum, %st : tensor<4xf16>, <4xindex>
      func.return
    }
  }
}
