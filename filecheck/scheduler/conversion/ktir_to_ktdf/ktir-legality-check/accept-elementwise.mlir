// RUN: ktir-opt %s -p ktir-legality-check | filecheck %s

/// Kernels inside the supported subset pass unchanged: views over global and ct_local
/// memory, tiles that provably stay inside their view (the tile id ranges over the grid, loop
/// indices over their bounds), named element-wise ops, a generic with a broadcast map, arith
/// on tensors, splat constants, and loops whose bounds do not depend on the tile.

#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#slab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#rowview = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#bc = affine_map<(d0, d1) -> (0, d1)>

// CHECK-LABEL: func.func @accept_elementwise(
// CHECK:         linalg.add
// CHECK:         linalg.generic
// CHECK:         arith.mulf
// CHECK:         ktdp.store
func.func @accept_elementwise(%A: index, %B: index, %C: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %t = ktdp.get_compute_tile_id : index
  %r = arith.muli %t, %c8 : index
  %va = ktdp.construct_memory_view %A, sizes: [64, 128], strides: [128, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %vb = ktdp.construct_memory_view %B, sizes: [1, 128], strides: [128, 1] {coordinate_set = #rowview, memory_space = #ktdp.memory_space<ct_local>} : memref<1x128xf16>
  %vc = ktdp.construct_memory_view %C, sizes: [64, 128], strides: [128, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %ta = ktdp.construct_access_tile %va[%r, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  %tb = ktdp.construct_access_tile %vb[%c0, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
  %tc = ktdp.construct_access_tile %vc[%r, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  %a = ktdp.load %ta : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %b = ktdp.load %tb : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
  %e = tensor.empty() : tensor<8x128xf16>
  %s = linalg.add ins(%a, %a : tensor<8x128xf16>, tensor<8x128xf16>) outs(%e : tensor<8x128xf16>) -> tensor<8x128xf16>
  %g = linalg.generic {indexing_maps = [#id, #bc, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %b : tensor<8x128xf16>, tensor<1x128xf16>) outs(%e : tensor<8x128xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %z = arith.subf %x, %y : f16
    linalg.yield %z : f16
  } -> tensor<8x128xf16>
  %two = arith.constant dense<2.0> : tensor<8x128xf16>
  %m = arith.mulf %g, %two : tensor<8x128xf16>
  ktdp.store %m, %tc : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
  return
}

// CHECK-LABEL: func.func @accept_host_loop(
// CHECK:         scf.for
// CHECK:           ktdp.store
func.func @accept_host_loop(%A: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %t = ktdp.get_compute_tile_id : index
  %base = arith.muli %t, %c16 : index
  %va = ktdp.construct_memory_view %A, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  scf.for %i = %c0 to %c2 step %c1 {
    %ta = ktdp.construct_access_tile %va[%base + %i * 8, %c0] {access_tile_order = #id, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
    %a = ktdp.load %ta : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
    %n = arith.negf %a : tensor<8x64xf16>
    ktdp.store %n, %ta : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  }
  return
}
