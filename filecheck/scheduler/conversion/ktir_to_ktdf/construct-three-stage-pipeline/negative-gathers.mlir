// RUN: ktir-opt %s --split-input-file -p construct-three-stage-pipeline --verify-diagnostics | filecheck %s

/// What construct-three-stage-pipeline refuses of an indirect access tile, located at the
/// load: one chunk per condition.

// A direct subscript that is not the vectorised variable plus an offset (here `2 * d`): the
// box would not hold the vector's lanes contiguously.
// CHECK: error: {{.*}}'ktdp.load' op a direct subscript (dimension 1) of an indirect tile that is not one vectorised variable plus an offset (vector 1x64): not supported by the scheduler yet
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module @local_schedule_0 {
    func.func @negative_strided(%X: index, %I: index, %Y: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %x = ktdp.construct_memory_view %X, sizes: [8, 128], strides: [128, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
      %i = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
      %y = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %g = ktdp.construct_indirect_access_tile intermediate_variables(%r, %d) %x[ind(%i[%r]), (%d * 2)] {variables_space_order = #id, variables_space_set = #s} : memref<8x128xf16>, memref<4xi32> -> !ktdp.access_tile<4x64xindex>
      %v = ktdp.load %g : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
      %yt = ktdp.construct_access_tile %y[%c0, %c0] {access_tile_order = #id, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
      ktdp.store %v, %yt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
      func.return
    }
  }
}
