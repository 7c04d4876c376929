// RUN: ktir-opt %s --split-input-file -p ktir-to-ktdf --verify-diagnostics | filecheck %s

/// The frontend group stops at the first problem: a kernel the scheduler cannot lower is
/// reported by ktir-legality-check at the op, a kernel without a device by the first
/// checkpoint (pre_mapping), which needs the device's patterns.

ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @negative_unsupported_reduction(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %z = tensor.empty() : tensor<1xf16>
  // CHECK: :[[# @LINE + 1]]:3: error: 'linalg.generic' op the reduction body must fold its accumulator with one of {{.*}}: not supported by the scheduler yet
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<1x64xf16>) outs(%z : tensor<1xf16>) {
  ^bb0(%i: f16, %o: f16):
    %r = arith.subf %o, %i : f16
    linalg.yield %r : f16
  } -> tensor<1xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [1], strides: [1] {coordinate_set = affine_set<(d0) : (d0 == 0)>, memory_space = #ktdp.memory_space<global>} : memref<1xf16>
  %yt = ktdp.construct_access_tile %yv[%c0] {access_tile_order = affine_map<(d0) -> (d0)>, access_tile_set = affine_set<(d0) : (d0 == 0)>} : memref<1xf16> -> !ktdp.access_tile<1xindex>
  ktdp.store %s, %yt : tensor<1xf16>, !ktdp.access_tile<1xindex>
  return
}

// -----

// CHECK: error: pass 'ktdfarch-apply-patterns' needs a device
func.func @negative_no_device(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %n = arith.negf %a : tensor<1x64xf16>
  ktdp.store %n, %t : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
