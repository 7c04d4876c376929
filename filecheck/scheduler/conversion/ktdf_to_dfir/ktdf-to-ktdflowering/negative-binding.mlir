// RUN: ktir-opt %s --split-input-file -p ktdf-to-ktdflowering --verify-diagnostics | filecheck %s

/// What ktdf-to-ktdflowering cannot bind to hardware: more tiles than the device has cores
/// (spyre has 32), a grid that is not 1-D yet, a stage not bound to one unit kind, and a
/// stage bound to a kind the device does not have. Each error is located at the function or
/// the stage.

ktdf_arch.device @spyre import("spyre.mlir")
// CHECK: :[[# @LINE + 1]]:1: error: 'func.func' op a grid of 64 tiles needs 64 cores; device @spyre has 32
func.func @negative_too_many_tiles(%x: memref<64xf16, "DDR">) attributes {grid = [64]} {
  ktdf.pipeline {
    %t0 = ktdf.private -> (!ktdf.token) {
      %k0 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %k0 : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t0) {
      ktdf.data_transfer from %x[0] size [64] to %x[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "DDR">
    } {applicable_units = ["DMA_IN"]}
  }
  func.return
}

// -----

ktdf_arch.device @sample_device import("sample_device.mlir")
// CHECK: :[[# @LINE + 1]]:1: error: 'func.func' op the grid must be 1-D before lowering (run normalize-grid-to-1d)
func.func @negative_grid_2d(%x: memref<64xf16, "DDR">) attributes {grid = [2, 2]} {
  ktdf.pipeline {
    %t0 = ktdf.private -> (!ktdf.token) {
      %k0 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %k0 : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t0) {
      ktdf.data_transfer from %x[0] size [64] to %x[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "DDR">
    } {applicable_units = ["MNILU"]}
  }
  func.return
}

// -----

ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @negative_unbound_stage(%x: memref<64xf16, "DDR">) attributes {grid = [2]} {
  ktdf.pipeline {
    %t0 = ktdf.private -> (!ktdf.token) {
      %k0 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %k0 : !ktdf.token
    }
    // CHECK: :[[# @LINE + 1]]:5: error: 'ktdf.stage' op every stage must be bound to exactly one unit kind before lowering (run path-expansion)
    ktdf.stage depends_in(none) depends_out(%t0) {
      ktdf.data_transfer from %x[0] size [64] to %x[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "DDR">
    }
  }
  func.return
}

// -----

ktdf_arch.device @sample_device import("sample_device.mlir")
// CHECK: :[[# @LINE + 1]]:1: error: 'func.func' op stages run on "DMA_IN", which is not a unit of device @sample_device
func.func @negative_foreign_unit(%x: memref<64xf16, "DDR">) attributes {grid = [2]} {
  ktdf.pipeline {
    %t0 = ktdf.private -> (!ktdf.token) {
      %k0 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %k0 : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t0) {
      ktdf.data_transfer from %x[0] size [64] to %x[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "DDR">
    } {applicable_units = ["DMA_IN"]}
  }
  func.return
}
