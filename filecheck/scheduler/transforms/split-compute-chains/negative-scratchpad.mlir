// RUN: not ktir-opt %s -p 'ensure-device-declaration{device="%S/Inputs/small-scratchpad.mlir"},generalize-contractions,split-compute-chains' 2>&1 | filecheck %s

/// An intermediate between two contractions (1x8192 f16, 16 KiB) larger than the device's
/// 8 KiB scratchpad: no slot holds it, and a device-memory temporary is not built yet, so the
/// pass stops with a located diagnostic at the op that computes it.

#id = affine_map<(d0, d1) -> (d0, d1)>
#x = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#w1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#w2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 8191 >= 0, d1 >= 0, -d1 + 15 >= 0)>

// CHECK: negative-scratchpad.mlir:[[# @LINE + 23]]:{{[0-9]+}}: error: 'arith.negf' op an intermediate between compute groups (16384 B, scratchpad slots up to 16384 B) does not fit the scratchpad (8192 B): a device-memory temporary is not supported by the scheduler yet
func.func @negative_too_big(%xp: index, %w1p: index, %w2p: index, %op: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %xp, sizes: [1, 16], strides: [16, 1] {
    coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<1x16xf16>
  %w1v = ktdp.construct_memory_view %w1p, sizes: [16, 8192], strides: [8192, 1] {
    coordinate_set = #w1, memory_space = #ktdp.memory_space<global>} : memref<16x8192xf16>
  %w2v = ktdp.construct_memory_view %w2p, sizes: [8192, 16], strides: [16, 1] {
    coordinate_set = #w2, memory_space = #ktdp.memory_space<global>} : memref<8192x16xf16>
  %ov = ktdp.construct_memory_view %op, sizes: [1, 16], strides: [16, 1] {
    coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<1x16xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #x, access_tile_order = #id}
      : memref<1x16xf16> -> !ktdp.access_tile<1x16xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
  %w1t = ktdp.construct_access_tile %w1v[%c0, %c0] {access_tile_set = #w1, access_tile_order = #id}
      : memref<16x8192xf16> -> !ktdp.access_tile<16x8192xindex>
  %w1 = ktdp.load %w1t : !ktdp.access_tile<16x8192xindex> -> tensor<16x8192xf16>
  %w2t = ktdp.construct_access_tile %w2v[%c0, %c0] {access_tile_set = #w2, access_tile_order = #id}
      : memref<8192x16xf16> -> !ktdp.access_tile<8192x16xindex>
  %w2 = ktdp.load %w2t : !ktdp.access_tile<8192x16xindex> -> tensor<8192x16xf16>
  %e1 = tensor.empty() : tensor<1x8192xf16>
  %h = linalg.matmul ins(%x, %w1 : tensor<1x16xf16>, tensor<16x8192xf16>)
      outs(%e1 : tensor<1x8192xf16>) -> tensor<1x8192xf16>
  %hn = arith.negf %h : tensor<1x8192xf16>
  %e2 = tensor.empty() : tensor<1x16xf16>
  %d = linalg.matmul ins(%hn, %w2 : tensor<1x8192xf16>, tensor<8192x16xf16>)
      outs(%e2 : tensor<1x16xf16>) -> tensor<1x16xf16>
  %ot = ktdp.construct_access_tile %ov[%c0, %c0] {access_tile_set = #x, access_tile_order = #id}
      : memref<1x16xf16> -> !ktdp.access_tile<1x16xindex>
  ktdp.store %d, %ot : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
  return
}
